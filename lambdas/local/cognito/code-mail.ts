import { SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';
import type { CodeMessage } from './cognito-server';

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The emails Cognito sends in the cloud (its message templates, set by lib/), sent locally through SES so
 * they show in the dev mailbox. The link carries the code so that one click verifies.
 */
export function codeMailer(ses: SESv2Client, from: string, appUrl: string) {
  return async (m: CodeMessage): Promise<void> => {
    const reset = m.source === 'ForgotPassword';
    const page = reset ? 'reset-password' : 'verify';
    const link = `${appUrl}/${page}?email=${encodeURIComponent(m.email)}&code=${encodeURIComponent(m.code)}`;
    const subject = reset ? 'Reset your Framewright password' : 'Verify your Framewright email';
    const hello = m.givenName ? `Hi ${m.givenName},` : 'Hi,';
    const action = reset ? 'reset your password' : 'verify your email address';
    const text = `${hello}\n\nYour Framewright ${reset ? 'password reset' : 'verification'} code is ${m.code}.\n\nOr open this link to ${action}: ${link}\n\nIf you did not ask for this, you can ignore this email.\n`;
    const html = `<p>${esc(hello)}</p><p>Your Framewright ${reset ? 'password reset' : 'verification'} code is <strong>${esc(m.code)}</strong>.</p><p><a href="${esc(link)}">Click here to ${action}</a></p><p>If you did not ask for this, you can ignore this email.</p>`;
    await ses.send(
      new SendEmailCommand({
        FromEmailAddress: from,
        Destination: { ToAddresses: [m.email] },
        Content: { Simple: { Subject: { Data: subject }, Body: { Text: { Data: text }, Html: { Data: html } } } },
      }),
    );
  };
}
