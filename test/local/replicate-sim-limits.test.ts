/**
 * The Replicate simulator holds an account to Replicate's API rate limits, as Replicate does: creates and every other
 * call each have their own budget a minute, a burst of a minute's worth passes, and past it the call is answered 429
 * with Retry-After and "Request was throttled" while nothing is created. Output files are not limited. A small
 * account (6 creates and 12 other calls a minute) shows it without sending thousands of requests.
 */
import { randomBytes } from 'node:crypto';
import Replicate from 'replicate';
import { FLUX_SCHNELL_MODEL } from '../../contract/models/flux';
import { REPLICATE_LIMITS } from '../../contract/capacity';
import { startReplicateSimulator, type ReplicateSim } from '../../local/replicate-sim';
import { createRateLimiter, kindOf } from '../../local/replicate-sim/rate-limits';
import { BACKOFF, replicateProvider, retryAfterMs, type ProviderCallKind } from '../../lambdas/adapters/replicate-provider';
import { ProviderBusy } from '../../lambdas/ports/model-provider';

jest.setTimeout(60_000);

const TOKEN = 'r8_limits_token';
let sim: ReplicateSim;

beforeAll(async () => {
  sim = await startReplicateSimulator({
    apiToken: TOKEN,
    webhookSecret: `whsec_${randomBytes(32).toString('base64')}`,
    imageMs: 50,
    rateLimits: { createsPerMinute: 6, otherRequestsPerMinute: 12 },
  });
});
afterAll(() => sim?.close());

const call = (method: string, path: string, body?: unknown) =>
  fetch(`${sim.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
const create = (prompt: string) => call('POST', `/v1/models/${FLUX_SCHNELL_MODEL.id}/predictions`, { input: { prompt, num_outputs: 1 } });

describe("Replicate's rate limits", () => {
  it('lets a minute of creates through at once, then answers 429 with Retry-After and creates nothing', async () => {
    const before = sim.predictions().length;
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => create(`a lantern ${i}`)));
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses).toEqual([201, 201, 201, 201, 201, 201, 429, 429]);
    const refused = answers.find((r) => r.status === 429)!;
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(await refused.json()).toMatchObject({ status: 429, detail: expect.stringMatching(/^Request was throttled\. Your rate limit resets in ~\d+s\.$/) });
    expect(sim.predictions().length - before).toBe(6);
  });

  it('counts other calls against their own limit: reads go on while creates are refused, until they too run out', async () => {
    const [p] = sim.predictions();
    const reads = [];
    for (let i = 0; i < 13; i++) reads.push((await call('GET', `/v1/predictions/${p!.id}`)).status);
    expect(reads.slice(0, 12)).toEqual(Array(12).fill(200));
    expect(reads[12]).toBe(429);
    // An unknown path counts too (it is still a call to the API) and is refused the same way.
    expect((await call('GET', '/v1/nothing-here')).status).toBe(429);
  });

  it("the official client is told: its create rejects with Replicate's 429 once its retries are spent", async () => {
    const replicate = new Replicate({ auth: TOKEN, baseUrl: sim.url });
    await expect(replicate.predictions.create({ model: FLUX_SCHNELL_MODEL.id, input: { prompt: 'one more' } })).rejects.toThrow(/429/);
  });

  it("our adapter counts each call by the limit it counts against, so the quota alarms watch what Replicate counts", async () => {
    const seen: ProviderCallKind[] = [];
    const fresh = await startReplicateSimulator({ apiToken: TOKEN, webhookSecret: `whsec_${randomBytes(32).toString('base64')}`, imageMs: 50 });
    try {
      const provider = replicateProvider({ token: TOKEN, baseUrl: fresh.url, onCall: (k) => seen.push(k) });
      const p = await provider.create({ model: FLUX_SCHNELL_MODEL.id, input: { prompt: 'a kite', num_outputs: 1 }, webhookUrl: 'http://127.0.0.1:9/hook' });
      await provider.get(p.id);
      await provider.cancel(p.id);
      await provider.listSince(new Date(Date.now() - 60_000));
      expect(seen).toEqual(['create', 'other', 'other', 'other']);
    } finally {
      await fresh.close();
    }
  });

  it('refills evenly: a tenth of a minute later a tenth of the budget is back (the published limits by default)', () => {
    let t = 0;
    const limiter = createRateLimiter(REPLICATE_LIMITS, () => t);
    for (let i = 0; i < REPLICATE_LIMITS.createsPerMinute; i++) limiter.take('create');
    expect(() => limiter.take('create')).toThrow(expect.objectContaining({ status: 429 }));
    t += 6_000;
    for (let i = 0; i < REPLICATE_LIMITS.createsPerMinute / 10; i++) limiter.take('create');
    expect(() => limiter.take('create')).toThrow(expect.objectContaining({ status: 429 }));
    expect(kindOf('POST', '/predictions')).toBe('create');
    expect(kindOf('POST', '/models/black-forest-labs/flux-schnell/predictions')).toBe('create');
    expect(kindOf('POST', '/predictions/abc/cancel')).toBe('other');
    expect(kindOf('GET', '/predictions')).toBe('other');
  });
});

describe('backing off when Replicate says wait (a 429 storm: every create answered 429 with Retry-After: 1)', () => {
  let storm: ReplicateSim;
  beforeAll(async () => {
    storm = await startReplicateSimulator({ apiToken: TOKEN, webhookSecret: `whsec_${randomBytes(32).toString('base64')}`, imageMs: 50 });
  });
  afterAll(() => storm?.close());
  const createsOf = (s: ReplicateSim, prompt: string) => s.calls().filter((c) => c.kind === 'create' && c.prompt === prompt);

  it("the official client alone does not: six calls for one create, none a Retry-After window after the one before (why our adapter wraps its retry)", async () => {
    const replicate = new Replicate({ auth: TOKEN, baseUrl: storm.url });
    const prompt = 'a storm, the bare client [busy]';
    await expect(replicate.predictions.create({ model: FLUX_SCHNELL_MODEL.id, input: { prompt } })).rejects.toThrow(/429/);
    const calls = createsOf(storm, prompt);
    expect(calls).toHaveLength(6);
    const gaps = calls.slice(1).map((c, i) => c.at - calls[i]!.at);
    expect(gaps.every((g) => g < 1000)).toBe(true);
  });

  it('our adapter sends each create again at most once per Retry-After window, at most BACKOFF.maxRetries times, then reports the provider busy; every call counted', async () => {
    const seen: ProviderCallKind[] = [];
    const provider = replicateProvider({ token: TOKEN, baseUrl: storm.url, onCall: (k) => seen.push(k) });
    const prompts = [1, 2, 3].map((i) => `a storm, create ${i} [busy]`);
    const results = await Promise.allSettled(
      prompts.map((prompt) => provider.create({ model: FLUX_SCHNELL_MODEL.id, input: { prompt, num_outputs: 1 }, webhookUrl: 'http://127.0.0.1:9/hook' })),
    );
    for (const r of results) expect(r.status === 'rejected' && r.reason instanceof ProviderBusy).toBe(true);
    let total = 0;
    for (const prompt of prompts) {
      const calls = createsOf(storm, prompt);
      expect(calls.every((c) => c.status === 429)).toBe(true);
      expect(calls.length).toBeGreaterThan(1);
      expect(calls.length).toBeLessThanOrEqual(1 + BACKOFF.maxRetries);
      // Retry-After: 1 at the simulator: consecutive calls of one create are at least a second apart.
      const gaps = calls.slice(1).map((c, i) => c.at - calls[i]!.at);
      expect(Math.min(...gaps)).toBeGreaterThanOrEqual(1000);
      total += calls.length;
    }
    // The budget metric counts what the simulator received, retries included (and the client's own re-sends, which never leave, not at all).
    expect(seen.filter((k) => k === 'create')).toHaveLength(total);
  });

  it('a wait longer than BACKOFF.maxWaitMs is not waited: one call, and the create reports the provider busy at once', async () => {
    const tight = await startReplicateSimulator({
      apiToken: TOKEN,
      webhookSecret: `whsec_${randomBytes(32).toString('base64')}`,
      imageMs: 50,
      rateLimits: { createsPerMinute: 1, otherRequestsPerMinute: 60 },
    });
    try {
      const provider = replicateProvider({ token: TOKEN, baseUrl: tight.url });
      await provider.create({ model: FLUX_SCHNELL_MODEL.id, input: { prompt: 'the one a minute', num_outputs: 1 }, webhookUrl: 'http://127.0.0.1:9/hook' });
      await expect(
        provider.create({ model: FLUX_SCHNELL_MODEL.id, input: { prompt: 'one too many', num_outputs: 1 }, webhookUrl: 'http://127.0.0.1:9/hook' }),
      ).rejects.toBeInstanceOf(ProviderBusy);
      // The account's limit refuses before the body is read (no prompt in the log): every create call after the first.
      expect(tight.calls().filter((c) => c.kind === 'create').map((c) => c.status)).toEqual([201, 429]);
    } finally {
      await tight.close();
    }
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(retryAfterMs('2', now)).toBe(2000);
    expect(retryAfterMs('Thu, 01 Jan 2026 00:00:03 GMT', now)).toBe(3000);
    expect(retryAfterMs('soon', now)).toBeUndefined();
    expect(retryAfterMs(null, now)).toBeUndefined();
  });
});
