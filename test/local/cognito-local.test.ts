/**
 * The embedded stack's cognito-local behaves like Cognito where the web app depends on it: the shims for
 * the calls Amplify v6 makes, a disabled user losing access, and ChangePassword checking the current
 * password first.
 */
import {
  AdminDisableUserCommand,
  ChangePasswordCommand,
  ConfirmSignUpCommand,
  GetTokensFromRefreshTokenCommand,
  GetUserCommand,
  InitiateAuthCommand,
  ResendConfirmationCodeCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { clientId, cognito, createUser, latestCode, mailFor, signIn, signUp, stackEnv } from '../support/users';

async function failure(promise: Promise<unknown>): Promise<{ name: string; message: string }> {
  try {
    await promise;
  } catch (err) {
    return { name: (err as Error).name, message: (err as Error).message };
  }
  throw new Error('expected the call to fail');
}

describe('cognito-local as the web app uses it', () => {
  it('refreshes tokens with GetTokensFromRefreshToken (Amplify v6) and answers GetUser', async () => {
    const user = await createUser({ first: 'Ada', last: 'Lovelace' });
    const refreshed = await cognito().send(new GetTokensFromRefreshTokenCommand({ ClientId: clientId(), RefreshToken: user.refreshToken }));
    expect(refreshed.AuthenticationResult?.IdToken).toEqual(expect.any(String));
    const claims = JSON.parse(Buffer.from(refreshed.AuthenticationResult!.IdToken!.split('.')[1]!, 'base64url').toString());
    expect(claims).toMatchObject({ sub: user.sub, email: user.email, given_name: 'Ada', family_name: 'Lovelace' });

    const me = await cognito().send(new GetUserCommand({ AccessToken: user.accessToken }));
    expect(me.UserAttributes).toEqual(expect.arrayContaining([{ Name: 'email', Value: user.email }]));
  });

  it('one account per email: any case of the address signs in to it, and signing up with it again is refused', async () => {
    const user = await createUser();
    const shouted = `  ${user.email.toUpperCase()} `;
    const again = await signIn(shouted, user.password);
    expect(again.sub).toBe(user.sub);
    const err = await failure(signUp(shouted));
    expect(err.name).toBe('UsernameExistsException');
  });

  it('refuses a bad refresh token', async () => {
    const err = await failure(cognito().send(new GetTokensFromRefreshTokenCommand({ ClientId: clientId(), RefreshToken: 'not-a-token' })));
    expect(err.name).toBe('NotAuthorizedException');
  });

  it('mails a new code on ResendConfirmationCode, and the new code confirms', async () => {
    const { email } = await signUp();
    const first = await latestCode(email);
    await cognito().send(new ResendConfirmationCodeCommand({ ClientId: clientId(), Username: email }));
    // Delivery is asynchronous: wait for the second mail.
    for (let i = 0; i < 50 && (await mailFor(email)).length < 2; i++) await new Promise((r) => setTimeout(r, 100));
    const mails = await mailFor(email);
    expect(mails).toHaveLength(2);
    const fresh = mails.map((m) => /code is (\d{6})/.exec(m.text)?.[1]).find((c) => c !== first);
    expect(fresh).toMatch(/^\d{6}$/);
    // The new code replaces the first one.
    expect((await failure(cognito().send(new ConfirmSignUpCommand({ ClientId: clientId(), Username: email, ConfirmationCode: first })))).name).toBe(
      'CodeMismatchException',
    );
    await cognito().send(new ConfirmSignUpCommand({ ClientId: clientId(), Username: email, ConfirmationCode: fresh! }));
    expect((await signIn(email, 'Sup3rSecret')).email).toBe(email);
  });

  it('a disabled user can neither refresh, nor call GetUser, nor change the password, nor sign in', async () => {
    const user = await createUser();
    await cognito().send(new AdminDisableUserCommand({ UserPoolId: stackEnv().USER_POOL_ID, Username: user.email }));

    for (const call of [
      () => cognito().send(new GetTokensFromRefreshTokenCommand({ ClientId: clientId(), RefreshToken: user.refreshToken })),
      () =>
        cognito().send(
          new InitiateAuthCommand({ ClientId: clientId(), AuthFlow: 'REFRESH_TOKEN_AUTH', AuthParameters: { REFRESH_TOKEN: user.refreshToken } }),
        ),
      () => cognito().send(new GetUserCommand({ AccessToken: user.accessToken })),
      () =>
        cognito().send(new ChangePasswordCommand({ AccessToken: user.accessToken, PreviousPassword: user.password, ProposedPassword: 'N3wSecret9' })),
      () => signIn(user.email, user.password),
    ]) {
      expect(await failure(call())).toEqual({ name: 'NotAuthorizedException', message: 'User is disabled.' });
    }
  });

  it('ChangePassword checks the current password before judging the new one', async () => {
    const user = await createUser();
    const change = (previous: string, proposed: string) =>
      cognito().send(new ChangePasswordCommand({ AccessToken: user.accessToken, PreviousPassword: previous, ProposedPassword: proposed }));

    expect(await failure(change('Wr0ngPassword', 'weak'))).toEqual({ name: 'NotAuthorizedException', message: 'Incorrect username or password.' });
    expect((await failure(change(user.password, 'weak'))).name).toBe('InvalidPasswordException');
    await change(user.password, 'N3wSecret9');

    expect((await failure(signIn(user.email, user.password))).name).toBe('NotAuthorizedException');
    expect((await signIn(user.email, 'N3wSecret9')).sub).toBe(user.sub);
  });
});
