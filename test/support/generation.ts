import { LOCAL_SECRETS } from '../../local/shared/local-secrets';
import { randomUUID } from 'node:crypto';
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../../lambdas/adapters/aws-clients';
import { changeCredits } from '../../lambdas/adapters/dynamodb-credits';
import { signWebhook } from '../../local/replicate-sim/signing';
import { api, stackEnv, stackUrl, type TestUser } from './users';

export async function json<T = Record<string, unknown>>(res: Response | Promise<Response>): Promise<T> {
  return (await (await res).json()) as T;
}

export async function waitForStatus(user: TestUser, id: string, done = ['succeeded', 'failed', 'canceled'], timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await api(user, `/api/check-status/${id}`);
    const body = await res.json();
    if (res.status !== 200) throw new Error(`check-status ${res.status}: ${JSON.stringify(body)}`);
    if (done.includes(body.status)) return body as { status: string; imageUrl?: string; videoUrl?: string; error?: string; value: number; mediaId?: string };
    if (Date.now() > deadline) throw new Error(`Job ${id} still ${body.status}`);
    await new Promise((r) => setTimeout(r, 300));
  }
}

export async function jobItem(id: string) {
  const res = await dynamo().send(new GetCommand({ TableName: stackEnv().TABLE_NAME, Key: { pk: `JOB#${id}`, sk: 'JOB' }, ConsistentRead: true }));
  return res.Item;
}

export async function userItems(sub: string, prefix: string) {
  const res = await dynamo().send(
    new QueryCommand({
      TableName: stackEnv().TABLE_NAME,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
      ExpressionAttributeValues: { ':pk': `USER#${sub}`, ':p': prefix },
      ConsistentRead: true,
    }),
  );
  return res.Items ?? [];
}

/** Signs a webhook exactly as Replicate does, with the stack's secret (or another one, to forge). */
export function signedWebhook(body: string, opts: { secret?: string; id?: string; timestamp?: number } = {}) {
  const secret = opts.secret ?? LOCAL_SECRETS.replicateWebhookSecret;
  const id = opts.id ?? `msg_${randomUUID()}`;
  const ts = String(opts.timestamp ?? Math.floor(Date.now() / 1000));
  return { 'content-type': 'application/json', 'webhook-id': id, 'webhook-timestamp': ts, 'webhook-signature': signWebhook(secret, id, ts, body) };
}

export function postWebhook(jobId: string, body: string, headers: Record<string, string>) {
  return fetch(`${stackUrl()}/api/webhooks/replicate?job=${encodeURIComponent(jobId)}`, { method: 'POST', body, headers });
}

/** The simulator's view of a prediction. */
export async function simPrediction(providerId: string) {
  const env = stackEnv();
  const res = await fetch(`${env.REPLICATE_BASE_URL}/predictions/${providerId}`, { headers: { authorization: `Bearer ${LOCAL_SECRETS.replicateToken}` } });
  return res.json();
}

export async function waitForSim(providerId: string, statuses: string[]) {
  for (let i = 0; i < 300; i++) {
    const p = await simPrediction(providerId);
    if (statuses.includes(p.status)) return p;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`Prediction ${providerId} never reached ${statuses.join('/')}`);
}

/** A PNG start image made in the test (solid colour), at most 768 px on the long side. */
export async function pngOf(width: number, height: number, rgb: [number, number, number]) {
  const sharp = (await import('sharp')).default;
  return sharp({ create: { width, height, channels: 3, background: { r: rgb[0], g: rgb[1], b: rgb[2] } } }).png().toBuffer();
}

export async function uploadStartImage(user: TestUser, png: Buffer): Promise<string> {
  const up = await json<{ url: string; fields: Record<string, string>; key: string }>(
    api(user, '/api/uploads', { method: 'POST', body: JSON.stringify({ contentType: 'image/png', size: png.length }) }),
  );
  const form = new FormData();
  for (const [k, v] of Object.entries(up.fields)) form.append(k, v);
  form.append('file', new Blob([new Uint8Array(png)], { type: 'image/png' }));
  const res = await fetch(up.url, { method: 'POST', body: form });
  if (res.status >= 300) throw new Error(`upload failed ${res.status} ${await res.text()}`);
  return up.key;
}

/**
 * Adds credits the way a captured payment does: one transaction with its ledger row (reason purchase, ref
 * test-grant-...). The account must exist (call GET /api/me first). Returns the new balance.
 */
export async function grantCredits(user: TestUser, credits: number): Promise<number> {
  const r = await changeCredits(dynamo(), stackEnv().TABLE_NAME!, { sub: user.sub, delta: credits, reason: 'purchase', ref: `test-grant-${randomUUID()}`, with: [] });
  if (!r.ok) throw new Error(`grant failed: ${r.why}`);
  return r.balance;
}

/** Waits until the job has its provider prediction id (set right after the provider accepted it; a batch: its first part's). */
export async function providerIdOf(jobId: string): Promise<string> {
  for (let i = 0; i < 100; i++) {
    const job = await jobItem(jobId);
    const id = job?.providerId ?? (job?.batch as Array<{ providerId?: string }> | undefined)?.find((b) => b.providerId)?.providerId;
    if (id) return id;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`Job ${jobId} never got a provider id`);
}

/** Every prediction id of a job, once each is recorded: its own, or each part's of a batch (one prediction per image). */
export async function providerIdsOf(jobId: string): Promise<string[]> {
  for (let i = 0; i < 100; i++) {
    const job = await jobItem(jobId);
    const parts = job?.batch as Array<{ providerId?: string }> | undefined;
    const ids = parts ? parts.map((b) => b.providerId) : [job?.providerId];
    if (ids.every((id): id is string => typeof id === 'string')) return ids;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`Job ${jobId} never got its provider ids`);
}

/**
 * Once the simulator's prediction for `jobId` reaches one of `statuses`, races 50 requests at the job: its
 * signed webhook and the user's status polls, alternating. Returns the 50 response statuses, in order.
 */
export async function raceWebhookAndPolls(user: TestUser, jobId: string, statuses: string[]): Promise<number[]> {
  const prediction = await waitForSim(await providerIdOf(jobId), statuses);
  const body = JSON.stringify(prediction);
  const responses = await Promise.all(
    Array.from({ length: 50 }, (_, i) => (i % 2 ? postWebhook(jobId, body, signedWebhook(body)) : api(user, `/api/check-status/${jobId}`))),
  );
  return responses.map((r) => r.status);
}

/** A PNG's compressed image data (its IDAT chunks, in order): the picture without its metadata chunks, such as the signed content credentials that name the job and its time. */
export function imageData(png: Buffer): Buffer {
  const parts: Buffer[] = [];
  for (let at = 8; at + 8 <= png.length; ) {
    const length = png.readUInt32BE(at);
    if (png.toString('latin1', at + 4, at + 8) === 'IDAT') parts.push(png.subarray(at + 8, at + 8 + length));
    at += 12 + length;
  }
  return Buffer.concat(parts);
}
