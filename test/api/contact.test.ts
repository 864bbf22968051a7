import { randomUUID } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../../lambdas/adapters/aws-clients';
import { CONTACT_LIMIT_PER_IP, CONTACT_LIMIT_PER_SENDER, ContactMessages } from '../../contract/contact';
import { loopbackIp, requestFrom } from '../support/from-address';
import { mailFor, stackEnv, stackUrl } from '../support/users';

/** Sent from the loopback address `ip` (the stack sees it as the viewer's IP, as CloudFront would), with `headers`. */
const send = (body: unknown, ip = loopbackIp(), headers: Record<string, string> = {}) =>
  requestFrom(ip, `${stackUrl()}/api/send-contact`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

const unique = (prefix: string) => `${prefix}-${randomUUID().slice(0, 8)}@example.com`;
/** A loopback IP per test, so the per-IP allowance of one test never touches another's. */
const testIp = loopbackIp;

describe('POST /api/send-contact', () => {
  it('stores the message and sends it to support with reply-to the sender', async () => {
    const email = unique('visitor');
    const subject = `Billing question ${randomUUID().slice(0, 6)}`;
    const res = await send({ email, subject, description: 'Were my 72 credits added?' }, testIp());
    expect(res.status).toBe(200);
    const { id } = (await res.json()) as { id: string };

    const support = await mailFor(stackEnv().SUPPORT_EMAIL!);
    const mail = support.find((m) => m.subject === `[Contact] ${subject}`);
    expect(mail).toBeDefined();
    expect(mail!.replyTo).toEqual([email]);
    expect(mail!.text).toContain('Were my 72 credits added?');
    expect(mail!.text).toContain(id);

    const stored = await dynamo().send(new GetCommand({ TableName: stackEnv().TABLE_NAME, Key: { pk: `CONTACT#${id}`, sk: 'CONTACT' } }));
    expect(stored.Item).toMatchObject({ email, subject, description: 'Were my 72 credits added?' });
  });

  it('keeps the subject on one line, whatever the sender typed', async () => {
    const email = unique('header');
    const tag = randomUUID().slice(0, 6);
    const res = await send({ email, subject: `Hello ${tag}\r\nBcc: victim@example.com`, description: 'x' }, testIp());
    expect(res.status).toBe(200);
    const mail = (await mailFor(stackEnv().SUPPORT_EMAIL!)).find((m) => m.subject.includes(tag));
    expect(mail?.subject).toBe(`[Contact] Hello ${tag} Bcc: victim@example.com`);
  });

  it.each([
    [{ email: 'a@example.com', subject: ' ', description: 'x' }, 'Please fill in all fields.'],
    [{ email: '', subject: 's', description: 'x' }, 'Please fill in all fields.'],
    [{ email: 'a@example.com', subject: 's', description: '  \n ' }, 'Please fill in all fields.'],
    [{ subject: 's', description: 'x' }, 'Please fill in all fields.'],
    [{ email: 'not-an-email', subject: 's', description: 'x' }, 'Please enter a valid email address.'],
    [{ email: `${'a'.repeat(250)}@example.com`, subject: 's', description: 'x' }, ContactMessages.emailTooLong],
    [{ email: 'a@example.com', subject: 's'.repeat(201), description: 'x' }, 'Subject is too long. Keep it under 200 characters.'],
    [{ email: 'a@example.com', subject: 's', description: 'd'.repeat(5001) }, 'Message is too long. Keep it under 5000 characters.'],
    ['{"email": ', 'The request body must be valid JSON.'],
  ])('refuses %j with 400', async (body, message) => {
    const res = await send(body);
    expect(res.status).toBe(400);
    expect((await res.json()).error).toBe(message);
  });

  it(`allows ${CONTACT_LIMIT_PER_SENDER} messages an hour per sender, then answers 429`, async () => {
    const email = unique('limit');
    const statuses: number[] = [];
    // Each from another IP: only the sender's allowance is in play.
    for (let i = 0; i <= CONTACT_LIMIT_PER_SENDER; i++) statuses.push((await send({ email, subject: `s${i}`, description: 'd' }, testIp())).status);
    expect(statuses).toEqual([...Array(CONTACT_LIMIT_PER_SENDER).fill(200), 429]);
    const last = await send({ email: email.toUpperCase(), subject: 'again', description: 'd' }, testIp());
    expect(last.status).toBe(429);
    // One more is allowed each hour / limit after the burst: 12 minutes for 5 an hour.
    const interval = 3600 / CONTACT_LIMIT_PER_SENDER;
    const body = (await last.json()) as { error: string; code: string; retryAfterSeconds: number };
    expect(body).toMatchObject({ error: ContactMessages.rateLimited(Math.ceil(interval / 60)), code: 'RATE_LIMITED' });
    expect(body.retryAfterSeconds).toBeGreaterThan(interval - 60);
    expect(body.retryAfterSeconds).toBeLessThanOrEqual(interval);
    // The same wait in the standard header, for clients and proxies that read only that.
    expect(last.headers['retry-after']).toBe(String(body.retryAfterSeconds));
  });

  it('admits no more than the allowance when messages from one sender race each other', async () => {
    const email = unique('race');
    const burst = await Promise.all(
      Array.from({ length: 2 * CONTACT_LIMIT_PER_SENDER }, (_, i) => send({ email, subject: `r${i}`, description: 'd' }, testIp())),
    );
    const accepted = burst.filter((r) => r.status === 200).length;
    expect(burst.every((r) => r.status === 200 || r.status === 429)).toBe(true);
    expect(accepted).toBeGreaterThanOrEqual(1);
    expect(accepted).toBeLessThanOrEqual(CONTACT_LIMIT_PER_SENDER);
    // A refused racer used no allowance: the sender still gets exactly the rest, then 429.
    let more = 0;
    while ((await send({ email, subject: 'more', description: 'd' }, testIp())).status === 200) more++;
    expect(accepted + more).toBe(CONTACT_LIMIT_PER_SENDER);
  });

  it(`allows ${CONTACT_LIMIT_PER_IP} messages an hour per client IP, then answers 429, and a refused message uses no allowance`, async () => {
    const ip = testIp();
    const statuses: number[] = [];
    for (let i = 0; i <= CONTACT_LIMIT_PER_IP; i++) statuses.push((await send({ email: unique(`ip${i}`), subject: 's', description: 'd' }, ip)).status);
    expect(statuses).toEqual([...Array(CONTACT_LIMIT_PER_IP).fill(200), 429]);
    const refused = await send({ email: unique('ip-late'), subject: 's', description: 'd' }, ip);
    expect((await refused.json()).error).toBe(ContactMessages.rateLimited(Math.ceil(3600 / CONTACT_LIMIT_PER_IP / 60)));
    // Another address from another IP is unaffected, and the refused sender still has its own allowance.
    expect((await send({ email: unique('other'), subject: 's', description: 'd' }, testIp())).status).toBe(200);

    // A client that names another viewer address is still the IP it connects from: 25 of 25 refused.
    const spoofed = await Promise.all(
      Array.from({ length: 25 }, (_, i) =>
        send({ email: unique(`spoof${i}`), subject: 's', description: 'd' }, ip, { 'CloudFront-Viewer-Address': `198.51.100.${i + 1}:443` }),
      ),
    );
    expect(spoofed.map((r) => r.status)).toEqual(Array(25).fill(429));
  });

  it('stores the IP the request came from, never one the client names', async () => {
    const ip = testIp();
    const res = await send({ email: unique('stored-ip'), subject: 's', description: 'd' }, ip, { 'cloudfront-viewer-address': '192.0.2.1:443' });
    expect(res.status).toBe(200);
    const { id } = (await res.json()) as { id: string };
    const stored = await dynamo().send(new GetCommand({ TableName: stackEnv().TABLE_NAME, Key: { pk: `CONTACT#${id}`, sk: 'CONTACT' } }));
    expect(stored.Item?.sourceIp).toBe(ip);
  });
});
