/**
 * Cognito CustomMessage trigger: the verification and password-reset emails with a one-click link that carries
 * the email and the code; the local emulator sends the same email (local/cognito/code-mail.ts). Cognito's
 * plain message templates only substitute the code, so they cannot put the address in the link.
 */
import type { CustomMessageTriggerEvent } from 'aws-lambda';
import { isAcceptableName } from '../../contract/auth';

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The flows that get our message; the others keep Cognito's default one. */
const PAGES: Partial<Record<CustomMessageTriggerEvent['triggerSource'], 'verify' | 'reset-password'>> = {
  CustomMessage_SignUp: 'verify',
  CustomMessage_ResendCode: 'verify',
  CustomMessage_ForgotPassword: 'reset-password',
};

export interface CodeEmail {
  subject: string;
  html: string;
  /** The plain-text part (the local emulator sends it beside the HTML; Cognito sends only the HTML). */
  text: string;
}

/**
 * The email for `page`, here and in the local emulator's mails. In the cloud `code` is Cognito's placeholder
 * ({####}): Cognito puts the real code in its place, in the text and in the link alike.
 */
export function codeEmail(appUrl: string, page: 'verify' | 'reset-password', email: string, code: string, givenName?: string): CodeEmail {
  const reset = page === 'reset-password';
  const link = `${appUrl.replace(/\/+$/, '')}/${page}?email=${encodeURIComponent(email)}&code=${code}`;
  // The PreSignUp trigger refuses such names; a user made before it (or by an admin) is greeted without the name.
  const hello = givenName && isAcceptableName(givenName) ? `Hi ${givenName.trim()},` : 'Hi,';
  const action = reset ? 'reset your password' : 'verify your email address';
  const what = reset ? 'password reset' : 'verification';
  return {
    subject: reset ? 'Reset your Framewright password' : 'Verify your Framewright email',
    html:
      `<p>${esc(hello)}</p><p>Your Framewright ${what} code is <strong>${code}</strong>.</p>` +
      `<p><a href="${esc(link)}">Click here to ${action}</a></p><p>If you did not ask for this, you can ignore this email.</p>`,
    text: `${hello}\n\nYour Framewright ${what} code is ${code}.\n\nOr open this link to ${action}: ${link}\n\nIf you did not ask for this, you can ignore this email.\n`,
  };
}

export const handler = async (event: CustomMessageTriggerEvent): Promise<CustomMessageTriggerEvent> => {
  const page = PAGES[event.triggerSource];
  const appUrl = process.env.APP_URL;
  const email = event.request.userAttributes.email;
  if (!page || !appUrl || !email) return event;
  const message = codeEmail(appUrl, page, email, event.request.codeParameter, event.request.userAttributes.given_name);
  event.response.emailSubject = message.subject;
  event.response.emailMessage = message.html;
  return event;
};
