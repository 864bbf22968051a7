/**
 * Account helpers for Playwright journeys, against the embedded stack the Playwright config starts.
 *
 * - `createVerifiedUser()`: a confirmed Cognito user made directly on cognito-local (fast, no browser).
 * - `createUnverifiedUser()`: signed up, email not verified.
 * - `loginViaUi(page, user)`: logs in through /login and waits until the app shows the signed-in nav;
 *   `submitLogin(page, user)` only fills the form and presses Login; `storedIdToken(page)` reads the session.
 * - `waitForMail()` / `mailFor()` / `codeFrom()`: the dev mailbox (/_dev/mailbox.json).
 * - `disableUser()`: what an operator's AdminDisableUser does.
 *
 * Call them inside a test (they find the stack through the test's baseURL).
 */
import { AdminDisableUserCommand } from '@aws-sdk/client-cognito-identity-provider';
import { expect, test, type Page } from '@playwright/test';
import {
  codeIn,
  cognito,
  confirmSignUp,
  DEFAULT_PASSWORD,
  mailFor as mailboxFor,
  newEmail,
  signUp,
  type MailMessage,
  type StackTarget,
} from '../../support/users';

export { DEFAULT_PASSWORD, type MailMessage };

export interface E2EUser {
  email: string;
  password: string;
  firstName: string;
  lastName: string;
}

/** The stack's origin: the running test's baseURL, else the Playwright config's default. */
export function baseUrl(): string {
  let fromTest: string | undefined;
  try {
    fromTest = test.info().project.use.baseURL;
  } catch {
    // Not inside a test.
  }
  return (fromTest ?? `http://localhost:${process.env.E2E_PORT ?? 5174}`).replace(/\/$/, '');
}

let clientIdPromise: Promise<string> | undefined;
/** The web app's Cognito client id, from the same /config.json the app reads. */
function webClientId(): Promise<string> {
  clientIdPromise ??= fetch(`${baseUrl()}/config.json`)
    .then((r) => r.json() as Promise<{ userPoolClientId: string; userPoolId: string }>)
    .then((c) => c.userPoolClientId);
  return clientIdPromise;
}

async function userPoolId(): Promise<string> {
  const c = (await (await fetch(`${baseUrl()}/config.json`)).json()) as { userPoolId: string };
  return c.userPoolId;
}

/** This run's stack, for the shared helpers of test/support/users.ts. */
async function stack(): Promise<StackTarget> {
  return { baseUrl: baseUrl(), clientId: await webClientId() };
}

export function uniqueEmail(prefix = 'e2e'): string {
  return newEmail(prefix);
}

function newUser(overrides: Partial<E2EUser> = {}): E2EUser {
  return { email: uniqueEmail(), password: DEFAULT_PASSWORD, firstName: 'Grace', lastName: 'Hopper', ...overrides };
}

export function mailFor(email: string): Promise<MailMessage[]> {
  return mailboxFor(email, baseUrl());
}

/**
 * The newest mail to `email` whose subject matches and that is not among `seen` (ids of mails already
 * there), waiting for it to arrive.
 */
export async function waitForMail(email: string, subject: RegExp, seen: readonly string[] = []): Promise<MailMessage> {
  let found: MailMessage | undefined;
  await expect
    .poll(
      async () => {
        found = (await mailFor(email)).find((m) => subject.test(m.subject) && !seen.includes(m.id));
        return found !== undefined;
      },
      { message: `a mail "${subject}" to ${email}`, timeout: 15_000 },
    )
    .toBe(true);
  return found!;
}

/** The 6-digit code in a verification or reset mail. */
export function codeFrom(mail: MailMessage): string {
  const code = codeIn(mail.text);
  if (!code) throw new Error(`No code in mail "${mail.subject}": ${mail.text}`);
  return code;
}

/** The one-click link in a verification or reset mail. */
export function linkFrom(mail: MailMessage): string {
  const link = /(https?:\/\/\S+\/(?:verify|reset-password)\?\S+)/.exec(mail.text)?.[1];
  if (!link) throw new Error(`No link in mail "${mail.subject}": ${mail.text}`);
  return link;
}

export const VERIFY_SUBJECT = /Verify your Framewright email/;
export const RESET_SUBJECT = /Reset your Framewright password/;

/** Signed up on cognito-local; the email is not verified yet. */
export async function createUnverifiedUser(overrides: Partial<E2EUser> = {}): Promise<E2EUser> {
  const user = newUser(overrides);
  await signUp(user.email, user.password, { first: user.firstName, last: user.lastName }, await stack());
  return user;
}

/** A user who signed up and verified their email, ready to log in. */
export async function createVerifiedUser(overrides: Partial<E2EUser> = {}): Promise<E2EUser> {
  const user = await createUnverifiedUser(overrides);
  const code = codeFrom(await waitForMail(user.email, VERIFY_SUBJECT));
  await confirmSignUp(user.email, code, await stack());
  return user;
}

/** Disables the account, as an operator would in the Cognito console. */
export async function disableUser(email: string): Promise<void> {
  await cognito(baseUrl()).send(new AdminDisableUserCommand({ UserPoolId: await userPoolId(), Username: email }));
}

/**
 * Logs in through /login (or the login form the page is already on) and waits for the signed-in nav.
 * Lands wherever login sends the user (the page asked for, else /generator).
 */
export async function loginViaUi(page: Page, user: Pick<E2EUser, 'email' | 'password'>, options: { goto?: boolean } = {}): Promise<void> {
  if (options.goto ?? true) await page.goto('/login');
  await submitLogin(page, user);
  await expect(page.getByRole('button', { name: 'Logout' })).toBeVisible();
}

/** Fills the login form the page shows with this email and password and presses Login (whatever happens next). */
export async function submitLogin(page: Page, user: Pick<E2EUser, 'email' | 'password'>): Promise<void> {
  const form = page.getByRole('form', { name: 'Log in' });
  await form.getByLabel(/^Email/).fill(user.email);
  await form.getByLabel(/^Password/).fill(user.password);
  await form.getByRole('button', { name: 'Login' }).click();
}

/** The signed-in user's ID token where Amplify keeps it (localStorage), or null when there is none. */
export function storedIdToken(page: Page): Promise<string | null> {
  return page.evaluate(() => {
    const key = Object.keys(localStorage).find((k) => k.startsWith('CognitoIdentityServiceProvider.') && k.endsWith('.idToken'));
    return key ? localStorage.getItem(key) : null;
  });
}
