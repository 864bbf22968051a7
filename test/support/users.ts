/**
 * Real users on the embedded stack's cognito-local: sign up, read the code from the dev mailbox,
 * confirm, sign in. Tests get real ID tokens, exactly as the web app does. The Playwright account helpers
 * (test/e2e/support/accounts.ts) use the same functions against their stack.
 */
import { randomUUID } from 'node:crypto';
import {
  CognitoIdentityProviderClient,
  ConfirmSignUpCommand,
  InitiateAuthCommand,
  SignUpCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import type { MailboxMessage } from '../../local/mailbox';

export const stackUrl = () => {
  const url = process.env.FW_TEST_URL;
  if (!url) throw new Error('FW_TEST_URL is not set: the jest global setup did not start the stack');
  return url;
};
export const stackEnv = (): Record<string, string> => JSON.parse(process.env.FW_TEST_ENV ?? '{}');

/**
 * Where the Cognito helpers below talk to: the stack's origin and the web app's Cognito client id. Jest tests
 * leave it out (the global setup's stack); the Playwright helpers (test/e2e/support/accounts.ts) pass theirs.
 */
export interface StackTarget {
  baseUrl: string;
  clientId: string;
}

const clients = new Map<string, CognitoIdentityProviderClient>();
/** A Cognito client for the stack's cognito-local (one per stack origin). */
export function cognito(baseUrl = stackUrl()): CognitoIdentityProviderClient {
  let client = clients.get(baseUrl);
  if (!client) {
    client = new CognitoIdentityProviderClient({
      region: 'us-east-1',
      endpoint: `${baseUrl}/_cognito`,
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    });
    clients.set(baseUrl, client);
  }
  return client;
}
export const clientId = () => stackEnv().USER_POOL_CLIENT_ID!;
const jestStack = (): StackTarget => ({ baseUrl: stackUrl(), clientId: clientId() });

/** A mail in the dev mailbox (/_dev/mailbox.json). */
export type MailMessage = MailboxMessage;

export async function mailFor(email: string, baseUrl = stackUrl()): Promise<MailMessage[]> {
  const res = await fetch(`${baseUrl}/_dev/mailbox.json`);
  const { messages } = (await res.json()) as { messages: MailMessage[] };
  return messages.filter((m) => m.to.includes(email));
}

/** The 6-digit code in a verification or reset mail's text. */
export function codeIn(text: string): string | undefined {
  return /code is (\d{6})/.exec(text)?.[1];
}

/** The newest code mailed to this address (waits briefly for it to arrive). */
export async function latestCode(email: string, subject = /Verify/): Promise<string> {
  for (let i = 0; i < 50; i++) {
    const m = (await mailFor(email)).find((x) => subject.test(x.subject));
    const code = m && codeIn(m.text);
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

export const DEFAULT_PASSWORD = 'Sup3rSecret';

export function newEmail(prefix = 'user'): string {
  return `${prefix}-${randomUUID().slice(0, 12)}@example.com`;
}

export async function signUp(email = newEmail(), password = DEFAULT_PASSWORD, names = { first: 'Ada', last: 'Lovelace' }, target = jestStack()) {
  await cognito(target.baseUrl).send(
    new SignUpCommand({
      ClientId: target.clientId,
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

export async function confirmSignUp(email: string, code: string, target = jestStack()): Promise<void> {
  await cognito(target.baseUrl).send(new ConfirmSignUpCommand({ ClientId: target.clientId, Username: email, ConfirmationCode: code }));
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
  const { email, password } = await signUp(newEmail(), DEFAULT_PASSWORD, names);
  await confirmSignUp(email, await latestCode(email));
  return signIn(email, password);
}

/** The credits an account starts with (the welcome credits). */
export const WELCOME_CREDITS = 10;

/** A signed-in user whose account exists (its first GET /api/me made it, with the welcome credits). */
export async function createAccount(): Promise<TestUser> {
  const user = await createUser();
  await api(user, '/api/me');
  return user;
}

/** fetch against the stack's API with the user's ID token. */
export function api(user: TestUser | undefined, path: string, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  if (user) headers.set('authorization', `Bearer ${user.idToken}`);
  if (init.body && !headers.has('content-type')) headers.set('content-type', 'application/json');
  return fetch(`${stackUrl()}${path}`, { ...init, headers });
}
