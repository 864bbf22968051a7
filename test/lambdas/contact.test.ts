import { randomUUID } from 'node:crypto';
import { mailFor, stackEnv, stackUrl } from '../support/users';

const send = (body: unknown, ip?: string) =>
  fetch(`${stackUrl()}/api/send-contact`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(ip ? { 'x-forwarded-for': ip } : {}) },
    body: JSON.stringify(body),
  });

describe('POST /api/send-contact', () => {
  it('sends the message to support with reply-to the sender', async () => {
    const email = `visitor-${randomUUID().slice(0, 8)}@example.com`;
    const subject = `Billing question ${randomUUID().slice(0, 6)}`;
    const res = await send({ email, subject, description: 'Were my 72 credits added?' });
    expect(res.status).toBe(200);
    const support = await mailFor(stackEnv().SUPPORT_EMAIL!);
    const mail = support.find((m) => m.subject === `[Contact] ${subject}`);
    expect(mail).toBeDefined();
    expect(mail!.replyTo).toEqual([email]);
    expect(mail!.text).toContain('Were my 72 credits added?');
  });

  it.each([
    [{ email: 'a@example.com', subject: ' ', description: 'x' }, 'Please fill in all fields.'],
    [{ email: '', subject: 's', description: 'x' }, 'Please fill in all fields.'],
    [{ subject: 's', description: 'x' }, 'Please fill in all fields.'],
    [{ email: 'not-an-email', subject: 's', description: 'x' }, 'Please enter a valid email address.'],
    [{ email: 'a@example.com', subject: 's'.repeat(201), description: 'x' }, 'Subject is too long. Keep it under 200 characters.'],
  ])('refuses %j with 400', async (body, message) => {
    const res = await send(body);
    expect(res.status).toBe(400);
    expect((await res.json()).error).toBe(message);
  });

  it('allows 5 messages an hour per sender, then answers 429', async () => {
    const email = `limit-${randomUUID().slice(0, 8)}@example.com`;
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await send({ email, subject: `s${i}`, description: 'd' })).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    const last = await send({ email, subject: 'again', description: 'd' });
    expect((await last.json()).error).toBe('Too many messages. Please try again in an hour, or write to us by email.');
  });
});
