import type { SESv2Client, SendEmailCommandInput } from '@aws-sdk/client-sesv2';
import type { CustomMessageTriggerEvent } from 'aws-lambda';
import { codeMailer } from '../../local/cognito/code-mail';
import type { CodeSource } from '../../local/cognito/cognito-server';
import { handler } from '../../lambdas/triggers/custom-message';

const APP_URL = 'https://d111111abcdef8.cloudfront.net';
/** Cognito's placeholder; Cognito replaces it with the code after the trigger returns. */
const CODE_PARAMETER = '{####}';

function event(triggerSource: CustomMessageTriggerEvent['triggerSource'], attributes: Record<string, string>): CustomMessageTriggerEvent {
  return {
    version: '1',
    region: 'us-east-1',
    userPoolId: 'us-east-1_abc',
    userName: 'c0ffee00-0000-4000-8000-000000000000',
    callerContext: { awsSdkVersion: 'aws-sdk-unknown-unknown', clientId: 'client' },
    triggerSource,
    request: { userAttributes: attributes, codeParameter: CODE_PARAMETER, linkParameter: '{##Click Here##}', usernameParameter: null },
    response: { smsMessage: null, emailMessage: null, emailSubject: null },
  } as CustomMessageTriggerEvent;
}

/** What Cognito does with the trigger's answer: put the code where the placeholder is. */
function delivered(result: CustomMessageTriggerEvent, code: string) {
  const html = result.response.emailMessage!.split(CODE_PARAMETER).join(code);
  const href = /href="([^"]+)"/.exec(html)?.[1]?.replace(/&#(\d+);/g, (_m, n: string) => String.fromCharCode(Number(n)));
  return { subject: result.response.emailSubject, html, link: href };
}

/** The mail the embedded stack sends for the same flow (local/cognito/code-mail.ts). */
async function localMail(source: CodeSource, email: string, code: string, givenName?: string) {
  const sent: SendEmailCommandInput[] = [];
  const ses = { send: async (command: { input: SendEmailCommandInput }) => void sent.push(command.input) } as unknown as SESv2Client;
  await codeMailer(ses, 'no-reply@example.com', APP_URL)({ source, email, code, givenName });
  const mail = sent[0]!;
  return {
    subject: mail.Content!.Simple!.Subject!.Data,
    link: /https?:\/\/\S+/.exec(mail.Content!.Simple!.Body!.Text!.Data!)?.[0],
  };
}

describe('Cognito CustomMessage trigger', () => {
  const original = process.env.APP_URL;
  beforeEach(() => {
    process.env.APP_URL = APP_URL;
  });
  afterAll(() => {
    process.env.APP_URL = original;
  });

  it.each([
    ['CustomMessage_SignUp', 'SignUp'],
    ['CustomMessage_ResendCode', 'ResendCode'],
    ['CustomMessage_ForgotPassword', 'ForgotPassword'],
  ] as const)('writes the %s email with the same subject and link as the local emulator', async (trigger, source) => {
    const email = 'ann+studio@example.com';
    const result = await handler(event(trigger, { email, given_name: 'Ann', email_verified: 'false' }));
    expect(result.response.emailMessage).toContain(CODE_PARAMETER);

    const cloud = delivered(result, '042917');
    const local = await localMail(source, email, '042917', 'Ann');
    expect(cloud.subject).toBe(local.subject);
    expect(cloud.link).toBe(local.link);
    const page = source === 'ForgotPassword' ? 'reset-password' : 'verify';
    expect(cloud.link).toBe(`${APP_URL}/${page}?email=ann%2Bstudio%40example.com&code=042917`);
    expect(cloud.html).toContain('<strong>042917</strong>');
    expect(cloud.html).toContain('Hi Ann,');
  });

  it('escapes what the user typed', async () => {
    const result = await handler(event('CustomMessage_SignUp', { email: 'bob@example.com', given_name: '<img src=x onerror=alert(1)>' }));
    expect(result.response.emailMessage).not.toContain('<img');
    expect(result.response.emailMessage).toContain('Hi &#60;img src=x onerror=alert(1)&#62;,');
  });

  it('greets without a name when there is none', async () => {
    const result = await handler(event('CustomMessage_SignUp', { email: 'bob@example.com' }));
    expect(result.response.emailMessage).toMatch(/^<p>Hi,<\/p>/);
  });

  it.each([
    ['a link', 'your account is locked. Restore access at https://evil.example/restore'],
    ['a line break', 'Ann\nYour account is locked'],
    ['601 characters', 'A'.repeat(601)],
  ])('greets without the name when it holds %s (a user made before the PreSignUp trigger)', async (_what, name) => {
    const result = await handler(event('CustomMessage_SignUp', { email: 'bob@example.com', given_name: name }));
    expect(result.response.emailMessage).toMatch(/^<p>Hi,<\/p>/);
    expect(result.response.emailMessage).not.toContain('locked');
  });

  it.each(['CustomMessage_UpdateUserAttribute', 'CustomMessage_VerifyUserAttribute', 'CustomMessage_AdminCreateUser', 'CustomMessage_Authentication'] as const)(
    'leaves %s to Cognito\'s own message',
    async (trigger) => {
      const result = await handler(event(trigger, { email: 'bob@example.com' }));
      expect(result.response).toEqual({ smsMessage: null, emailMessage: null, emailSubject: null });
    },
  );

  it('leaves the message to Cognito when it does not know the site', async () => {
    delete process.env.APP_URL;
    const result = await handler(event('CustomMessage_SignUp', { email: 'bob@example.com' }));
    expect(result.response.emailMessage).toBeNull();
  });
});
