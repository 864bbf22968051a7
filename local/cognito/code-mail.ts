import { SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';
import { codeEmail } from '../../lambdas/triggers/custom-message';
import type { CodeMessage } from './cognito-server';

/**
 * The emails Cognito sends in the cloud (rendered by the CustomMessage trigger's codeEmail), sent locally
 * through SES so they show in the dev mailbox. The link carries the code so that one click verifies.
 */
export function codeMailer(ses: SESv2Client, from: string, appUrl: string) {
  return async (m: CodeMessage): Promise<void> => {
    const page = m.source === 'ForgotPassword' ? 'reset-password' : 'verify';
    // cognito-local's codes are six digits: safe in the link and the HTML as they are, like Cognito's.
    const { subject, html, text } = codeEmail(appUrl, page, m.email, m.code, m.givenName);
    await ses.send(
      new SendEmailCommand({
        FromEmailAddress: from,
        Destination: { ToAddresses: [m.email] },
        Content: { Simple: { Subject: { Data: subject }, Body: { Text: { Data: text }, Html: { Data: html } } } },
      }),
    );
  };
}
