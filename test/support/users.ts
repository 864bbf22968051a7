/**
 * Real users on the embedded stack's cognito-local: sign up, read the code from the dev mailbox,
 * confirm, sign in. Tests get real ID tokens, exactly as the web app does.
 */
import { randomUUID } from 'node:crypto';
import {
  CognitoIdentityProviderClient,
  ConfirmSignUpCommand,
  InitiateAuthCommand,
  SignUpCommand,
} from '@aws-sdk/client-cognito-identity-provider';

export const stackUrl = () => {
  const url = process.env.FW_TEST_URL;
  if (!url) throw new Error('FW_TEST_URL is not set: the jest global setup did not start the stack');
  return url;
};
export const stackEnv = (): Record<string, string> => JSON.parse(process.env.FW_TEST_ENV ?? '{}');

let client: CognitoIdentityProviderClient | undefined;
export function cognito(): CognitoIdentityProviderClient {
  client ??= new CognitoIdentityProviderClient({
    region: 'us-east-1',
    endpoint: `${stackUrl()}/_cognito`,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  return client;
}
export const clientId = () => stackEnv().USER_POOL_CLIENT_ID!;

export interface MailMessage {
  to: string[];
  subject: string;
  text: string;
  html: string;
  at: string;
  replyTo: string[];
  from: string;
}

export async function mailFor(email: string): Promise<MailMessage[]> {
  const res = await fetch(`${stackUrl()}/_dev/mailbox.json`);
  const { messages } = (await res.json()) as { messages: MailMessage[] };
  return messages.filter((m) => m.to.includes(email));
}

/** The newest code mailed to this address (waits briefly for it to arrive). */
export async function latestCode(email: string, subject = /Verify/): Promise<string> {
  for (let i = 0; i < 50; i++) {
    const m = (await mailFor(email)).find((x) => subject.test(x.subject));
    const code = m && /code is (\d{6})/.exec(m.text)?.[1];
    if (code) return code;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`No code mailed to ${email}`);
}

export interface TestUser {
  email: string;
  password: string;
  sub: string;
  idToken: string;
  accessToken: string;
  refreshToken: string;
}

export function newEmail(): string {
  return `user-${randomUUID().slice(0, 12)}@example.com`;
}

export async function signUp(email = newEmail(), password = 'Sup3rSecret', names = { first: 'Ada', last: 'Lovelace' }) {
  await cognito().send(
    new SignUpCommand({
      ClientId: clientId(),
      Username: email,
      Password: password,
      UserAttributes: [
        { Name: 'email', Value: email },
        { Name: 'given_name', Value: names.first },
        { Name: 'family_name', Value: names.last },
      ],
    }),
  );
  return { email, password };
}

export async function signIn(email: string, password: string): Promise<TestUser> {
  const res = await cognito().send(
    new InitiateAuthCommand({ ClientId: clientId(), AuthFlow: 'USER_PASSWORD_AUTH', AuthParameters: { USERNAME: email, PASSWORD: password } }),
  );
  const r = res.AuthenticationResult!;
  const claims = JSON.parse(Buffer.from(r.IdToken!.split('.')[1]!, 'base64url').toString());
  return { email, password, sub: claims.sub, idToken: r.IdToken!, accessToken: r.AccessToken!, refreshToken: r.RefreshToken! };
}

/** A confirmed, signed-in user. */
export async function createUser(names?: { first: string; last: string }): Promise<TestUser> {
  const { email, password } = await signUp(newEmail(), 'Sup3rSecret', names);
  const code = await latestCode(email);
  await cognito().send(new ConfirmSignUpCommand({ ClientId: clientId(), Username: email, ConfirmationCode: code }));
  return signIn(email, password);
}

/** fetch against the stack's API with the user's ID token. */
export function api(user: TestUser | undefined, path: string, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  if (user) headers.set('authorization', `Bearer ${user.idToken}`);
  if (init.body && !headers.has('content-type')) headers.set('content-type', 'application/json');
  return fetch(`${stackUrl()}${path}`, { ...init, headers });
}
