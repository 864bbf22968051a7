import { SendEmailCommand, type SESv2Client } from '@aws-sdk/client-sesv2';
import type { Mailer } from '../ports/mailer';

export function sesMailer(ses: SESv2Client, from: string): Mailer {
  return {
    async send(m) {
      await ses.send(
        new SendEmailCommand({
          FromEmailAddress: from,
          Destination: { ToAddresses: m.to },
          ReplyToAddresses: m.replyTo,
          Content: {
            Simple: {
              Subject: { Data: m.subject, Charset: 'UTF-8' },
              Body: { Text: { Data: m.text, Charset: 'UTF-8' }, ...(m.html ? { Html: { Data: m.html, Charset: 'UTF-8' } } : {}) },
            },
          },
        }),
      );
    },
  };
}
