/**
 * The webhook inbox against DynamoDB Local: one claim of any number of concurrent copies (a claim whose write the SDK
 * retried after it landed is still its caller's, by its token); a claim without an outcome
 * is a lease (held until `leaseUntil`, taken again after it); a settled claim holds for ever; a released one is free;
 * a record from before leases (no lease, no outcome) is taken again.
 */
import { randomUUID } from 'node:crypto';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../../lambdas/adapters/aws-clients';
import { dynamoWebhookInbox } from '../../lambdas/adapters/dynamodb-webhook-inbox';
import { keys } from '../../lambdas/domain/keys';
import { stackEnv } from '../support/users';

jest.setTimeout(60_000);

const table = () => stackEnv().TABLE_NAME!;
const inbox = () => dynamoWebhookInbox(dynamo(), table(), 'test');
const record = async (id: string) =>
  (await dynamo().send(new GetCommand({ TableName: table(), Key: { pk: keys.webhook('test', id), sk: 'WEBHOOK' }, ConsistentRead: true }))).Item;

const T0 = Date.parse('2026-03-01T00:00:00.000Z');
const LEASE = 50_000;
const at = (ms: number) => ({ now: new Date(T0 + ms), leaseUntil: new Date(T0 + ms + LEASE) });

describe('the webhook inbox in DynamoDB', () => {
  it('lets one of ten concurrent copies claim, and holds the claim for its lease', async () => {
    const id = `evt-${randomUUID()}`;
    const results = await Promise.all(Array.from({ length: 10 }, () => inbox().claim(id, { jobId: 'j1' }, at(0))));
    expect(results.filter((r) => r === 'claimed')).toHaveLength(1);
    expect(results.filter((r) => r === 'held')).toHaveLength(9);
    expect(await inbox().claim(id, { jobId: 'j1' }, at(LEASE))).toBe('held');
    expect(await record(id)).toMatchObject({ type: 'webhook', provider: 'test', jobId: 'j1', leaseUntil: T0 + LEASE, claims: 1 });
  });

  it('gives a claim with no outcome to the next copy once its lease has run out, once', async () => {
    const id = `evt-${randomUUID()}`;
    expect(await inbox().claim(id, { eventType: 'PAYMENT.SALE.COMPLETED' }, at(0))).toBe('claimed');
    const after = await Promise.all(Array.from({ length: 5 }, () => inbox().claim(id, { eventType: 'PAYMENT.SALE.COMPLETED' }, at(LEASE + 1))));
    expect(after.filter((r) => r === 'claimed')).toHaveLength(1);
    expect(after.filter((r) => r === 'held')).toHaveLength(4);
    expect(await record(id)).toMatchObject({ claims: 2, leaseUntil: T0 + 2 * LEASE + 1, receivedAt: new Date(T0).toISOString() });
  });

  it('answers every later copy "done" once the claim is settled, lease or not, and keeps the outcome', async () => {
    const id = `evt-${randomUUID()}`;
    expect(await inbox().claim(id, { eventType: 'X' }, at(0))).toBe('claimed');
    await inbox().settle(id, { outcome: 'granted' }, new Date(T0 + 10));
    expect(await inbox().claim(id, { eventType: 'X' }, at(1))).toBe('done');
    expect(await inbox().claim(id, { eventType: 'X' }, at(10 * LEASE))).toBe('done');
    const r = await record(id);
    expect(r).toMatchObject({ eventType: 'X', outcome: 'granted', appliedAt: new Date(T0 + 10).toISOString(), claims: 1 });
    expect(r).not.toHaveProperty('leaseUntil');
  });

  it('frees a released claim at once', async () => {
    const id = `evt-${randomUUID()}`;
    expect(await inbox().claim(id, {}, at(0))).toBe('claimed');
    await inbox().release(id);
    expect(await inbox().claim(id, {}, at(1))).toBe('claimed');
  });

  it('takes again a claim made before leases (neither a lease nor an outcome): applying is idempotent', async () => {
    const id = `evt-${randomUUID()}`;
    await dynamo().send(
      new PutCommand({ TableName: table(), Item: { pk: keys.webhook('test', id), sk: 'WEBHOOK', type: 'webhook', provider: 'test', receivedAt: new Date(T0).toISOString() } }),
    );
    expect(await inbox().claim(id, {}, at(1))).toBe('claimed');
    expect(await inbox().claim(id, {}, at(2))).toBe('held');
  });
});
