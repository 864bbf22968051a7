/**
 * Video generation end to end on the embedded stack: the real handlers, DynamoDB Local, s3rver and the Replicate
 * simulator (which validates inputs like the real Wan and Pixverse models and renders real H.264 MP4s).
 */
import { originHeader } from '../support/secrets';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { Messages } from '../../contract/errors';
import {
  MAX_ACTIVE_JOBS,
  PIXVERSE,
  WAN_CLIP,
  WAN_I2V,
  WAN_T2V,
} from '../../contract/catalog';
import { modelBySlug, modelOfReplicate, priceOf, type ChoiceOption } from '../../contract/models';
import { api, createUser, type TestUser } from '../support/users';
import {
  grantCredits,
  json,
  pngOf,
  providerIdOf,
  raceWebhookAndPolls,
  uploadStartImage,
  userItems,
  waitForSim,
  waitForStatus,
} from '../support/generation';
import { mp4Info } from '../support/mp4';

jest.setTimeout(120_000);

/** The simulator encodes the frame count and rate asked for: a clip's length is exact to a frame or so. */
const LENGTH_TOLERANCE_S = 1 / 8;

interface VideoRequest {
  model: string;
  prompt: string;
  duration: number;
  image?: string;
  quality?: string;
}

const generate = (user: TestUser | undefined, body: unknown) => api(user, '/api/generate-video', { method: 'POST', body: JSON.stringify(body) });
const balance = async (user: TestUser) => (await json<{ credits: number }>(api(user, '/api/me'))).credits;
const ledger = (user: TestUser) => userItems(user.sub, 'LEDGER#');

async function start(user: TestUser, body: VideoRequest): Promise<{ predictionId: string; credits: number }> {
  const res = await generate(user, body);
  const out = await res.json();
  if (res.status !== 200) throw new Error(`generate-video ${res.status}: ${JSON.stringify(out)} for ${JSON.stringify(body)}`);
  return out;
}

/** What generate-video charges: the registry entry that runs the Replicate model it names, priced with its options. */
const priceVideo = (model: string, duration: number, quality?: string) => {
  const def = modelOfReplicate(model);
  return def ? priceOf(def, { duration, quality }) : ({ ok: false, reason: `Unknown model: ${model}.` } as const);
};
const choice = (slug: string, id: string) => modelBySlug(slug)!.options[id] as ChoiceOption;

async function download(url: string): Promise<Buffer> {
  const res = await fetch(url);
  if (res.status !== 200) throw new Error(`GET ${url}: ${res.status}`);
  return Buffer.from(await res.arrayBuffer());
}

describe('the video catalog', () => {
  it('prices Wan and Pixverse as the spec says (Pixverse offers 5 and 8 s, the long clip at double price)', () => {
    const price = (model: string, duration: number, quality?: string) => priceVideo(model, duration, quality);
    for (const model of [WAN_I2V, WAN_T2V]) {
      expect(price(model, 5)).toEqual({ ok: true, cost: 8 });
      expect(price(model, 10)).toEqual({ ok: true, cost: 16 });
    }
    expect(price(PIXVERSE, 5, '540p')).toEqual({ ok: true, cost: 6 });
    expect(price(PIXVERSE, 5, '720p')).toEqual({ ok: true, cost: 9 });
    expect(price(PIXVERSE, 5)).toEqual({ ok: true, cost: 9 });
    expect(price(PIXVERSE, 5, '1080p')).toEqual({ ok: true, cost: 12 });
    expect(price(PIXVERSE, 8, '540p')).toEqual({ ok: true, cost: 12 });
    expect(price(PIXVERSE, 8, '720p')).toEqual({ ok: true, cost: 18 });
    expect(price(PIXVERSE, 8, '1080p').ok).toBe(false);
    expect(price(PIXVERSE, 10, '540p').ok).toBe(false);
    expect(price('kwaivgi/kling-v1.6-standard', 5).ok).toBe(false);
  });
});

describe('POST /api/generate-video', () => {
  it('charges exactly the catalog price for every model, duration and quality, and stores real MP4s of that length and size', async () => {
    const user = await createUser();
    await api(user, '/api/me');
    // An 832x480 start frame: Wan i2v keeps it at 480p; Pixverse (up to 1280 px) takes it too.
    const startImage = await pngOf(832, 480, [30, 90, 200]);

    interface Case {
      body: VideoRequest;
      cost: number;
      height: number;
      seconds: number;
    }
    const cases: Case[] = [];
    // The spec's video models; Kling (which needs a start frame) runs end to end in generations.test.ts.
    for (const slug of ['wan', 'pixverse']) {
      for (const duration of choice(slug, 'duration').values.map(Number)) {
        if (slug === 'wan') {
          // Segments joined without their repeated boundary frame: 10 s is 2 x 81 - 1 frames at 16 fps.
          const clip = WAN_CLIP[duration]!;
          const seconds = (clip.segments * clip.num_frames - (clip.segments - 1)) / clip.frames_per_second;
          for (const model of [WAN_T2V, WAN_I2V]) {
            const price = priceVideo(model, duration);
            if (!price.ok) throw new Error(price.reason);
            cases.push({ body: { model, prompt: `wan ${duration}s ${model === WAN_I2V ? 'from a frame' : 'from text'}`, duration }, cost: price.cost, height: 480, seconds });
          }
          continue;
        }
        const qualities = choice('pixverse', 'quality');
        for (const quality of qualities.values.map(String)) {
          const price = priceVideo(PIXVERSE, duration, quality);
          if (!price.ok) continue; // 1080p is 5 s only: proven refused below
          // The default quality is asked for by leaving it out; one clip starts from an image.
          const body: VideoRequest = { model: PIXVERSE, prompt: `pixverse ${quality} ${duration}s`, duration };
          if (quality !== qualities.default || duration !== choice('pixverse', 'duration').default) body.quality = quality;
          cases.push({ body, cost: price.cost, height: Number.parseInt(quality, 10), seconds: duration });
        }
      }
    }
    expect(cases).toHaveLength(9);
    await grantCredits(user, cases.reduce((sum, c) => sum + c.cost, 0) - 10);

    const withImage = cases.filter((c) => c.body.model === WAN_I2V || c.body.prompt === 'pixverse 540p 8s');
    await Promise.all(withImage.map(async (c) => (c.body.image = await uploadStartImage(user, startImage))));
    // As many at once as the queue takes (MAX_ACTIVE_JOBS), each batch finished before the next starts.
    const started: Array<(typeof cases)[number] & { predictionId: string; credits: number; done: Awaited<ReturnType<typeof waitForStatus>> }> = [];
    for (let i = 0; i < cases.length; i += MAX_ACTIVE_JOBS) {
      const batch = await Promise.all(cases.slice(i, i + MAX_ACTIVE_JOBS).map(async (c) => ({ ...c, ...(await start(user, c.body)) })));
      for (const s of batch) started.push({ ...s, done: await waitForStatus(user, s.predictionId, undefined, 110_000) });
    }
    // Each job's charge is its own ledger row, of exactly the catalog price; together they spend the balance.
    const charges = (await ledger(user)).filter((l) => l.reason === 'video');
    for (const s of started) expect(charges.filter((l) => l.ref === s.predictionId).map((l) => l.delta)).toEqual([-s.cost]);
    expect(charges).toHaveLength(cases.length);
    expect(Math.min(...started.map((s) => s.credits))).toBe(0);
    expect(await balance(user)).toBe(0);

    for (const s of started) {
      const { done } = s;
      expect(done).toMatchObject({ status: 'succeeded' });
      expect(done.imageUrl).toBeUndefined();
      const mp4 = mp4Info(await download(done.videoUrl!));
      expect(mp4.first).toBe('ftyp');
      expect(mp4.h264).toBe(true);
      expect(mp4.height).toBe(s.height);
      expect(Math.abs(mp4.seconds - s.seconds)).toBeLessThanOrEqual(LENGTH_TOLERANCE_S);
      const item = (await userItems(user.sub, 'MEDIA#')).find((m) => m.jobId === s.predictionId);
      expect(item).toMatchObject({ kind: 'video', model: s.body.model, prompt: s.body.prompt });
      expect(item!.key).toMatch(new RegExp(`^users/${user.sub}/videos/video-\\d{13}-[a-z0-9]+\\.mp4$`));
      expect(item!.options).toMatchObject({ duration: s.body.duration, ...(s.body.model === PIXVERSE ? { quality: `${s.height}p` } : {}) });
    }

    const list = await json<{ items: Array<{ type: string; prompt: string; model: string; downloadUrl: string; url: string }> }>(api(user, '/api/media?limit=100'));
    expect(list.items).toHaveLength(cases.length);
    expect(list.items.every((i) => i.type === 'video')).toBe(true);
    const first = list.items[0]!;
    const dl = await fetch(first.downloadUrl);
    expect(dl.headers.get('content-disposition')).toMatch(new RegExp(`filename="${first.prompt.replace(/[^a-z0-9 ]/gi, '')}-\\d{13}\\.mp4"`));
    expect(dl.headers.get('content-type')).toBe('video/mp4');
    expect(mp4Info(Buffer.from(await dl.arrayBuffer())).first).toBe('ftyp');
    expect(await balance(user)).toBe(0);
  }, 240_000);

  it('sends the real models their inputs: Wan frames, fps and frame shape; Pixverse quality, duration and motion', async () => {
    const user = await createUser();
    await api(user, '/api/me');
    await grantCredits(user, 20);
    const portrait = await uploadStartImage(user, await pngOf(480, 832, [200, 60, 40]));
    const jobs = [
      await start(user, { model: WAN_I2V, prompt: 'a portrait clip [fail]', duration: 10, image: portrait }),
      await start(user, { model: PIXVERSE, prompt: 'a long clip [fail]', duration: 8, quality: '540p' }),
    ];
    const [wan, pix] = await Promise.all(jobs.map(async (j) => (await waitForSim(await providerIdOf(j.predictionId), ['failed'])).input));
    expect(wan).toEqual({ prompt: 'a portrait clip [fail]', num_frames: 81, frames_per_second: 16, max_area: '480x832', seed: expect.any(Number), image: expect.stringMatching(/^http/) });
    expect(pix).toEqual({ prompt: 'a long clip [fail]', quality: '540p', duration: 8, aspect_ratio: '16:9', motion_mode: 'normal', style: 'None', seed: expect.any(Number) });
  });

  it('refunds a failed video exactly once and says so in plain words (no provider internals)', async () => {
    const user = await createUser();
    const { predictionId, credits } = await start(user, { model: WAN_T2V, prompt: 'a storm at sea [fail]', duration: 5 });
    expect(credits).toBe(2);
    const done = await waitForStatus(user, predictionId);
    expect(done).toMatchObject({ status: 'failed', error: 'Video generation failed. 8 credits refunded.', value: 10 });
    expect(done.videoUrl).toBeUndefined();
    const refunds = (await ledger(user)).filter((l) => l.reason === 'refund');
    expect(refunds).toEqual([expect.objectContaining({ delta: 8, balance: 10, ref: predictionId })]);
    expect(await userItems(user.sub, 'MEDIA#')).toHaveLength(0);
  });

  it('stores one video when a success webhook and polls race 50 times', async () => {
    const user = await createUser();
    const { predictionId } = await start(user, { model: PIXVERSE, prompt: 'a quiet harbour [nowebhook]', duration: 5, quality: '540p' });
    expect(await raceWebhookAndPolls(user, predictionId, ['succeeded'])).toEqual(Array(50).fill(200));
    const done = await waitForStatus(user, predictionId);
    expect(done).toMatchObject({ status: 'succeeded', value: 4 });
    const media = await userItems(user.sub, 'MEDIA#');
    expect(media).toHaveLength(1);
    expect(mp4Info(await download(done.videoUrl!)).height).toBe(540);
    expect((await ledger(user)).filter((l) => l.reason === 'refund')).toHaveLength(0);
  });

  it('refunds at most once when failure webhooks and polls race 50 times', async () => {
    const user = await createUser();
    const { predictionId } = await start(user, { model: WAN_T2V, prompt: 'a storm [fail] [nowebhook]', duration: 5 });
    await raceWebhookAndPolls(user, predictionId, ['failed']);
    expect((await waitForStatus(user, predictionId)).status).toBe('failed');
    expect((await ledger(user)).filter((l) => l.reason === 'refund')).toHaveLength(1);
    expect(await balance(user)).toBe(10);
  });

  it('never overspends when 20 concurrent requests together cost more than the balance', async () => {
    const user = await createUser();
    await api(user, '/api/me');
    const startBalance = await grantCredits(user, 30);
    expect(startBalance).toBe(40);
    // [nowebhook]: the simulator fails these, but nothing refunds them until they are polled, after the burst.
    const menu: Omit<VideoRequest, 'prompt'>[] = [
      { model: WAN_T2V, duration: 5 },
      { model: PIXVERSE, duration: 5, quality: '540p' },
      { model: WAN_T2V, duration: 10 },
      { model: PIXVERSE, duration: 8, quality: '720p' },
      { model: PIXVERSE, duration: 5, quality: '1080p' },
    ];
    const bodies = Array.from({ length: 20 }, (_, i) => ({ ...menu[i % menu.length]!, prompt: `burst ${i} [fail] [nowebhook]` }));
    const costOf = (b: VideoRequest) => (priceVideo(b.model, b.duration, b.quality) as { cost: number }).cost;
    expect(bodies.reduce((s, b) => s + costOf(b), 0)).toBeGreaterThan(startBalance);

    const responses = await Promise.all(bodies.map((b) => generate(user, b)));
    const results = await Promise.all(responses.map(async (r, i) => ({ status: r.status, body: await r.json(), cost: costOf(bodies[i]!) })));
    // Refused for credits (402) or because the queue is full (429, MAX_ACTIVE_JOBS running): never charged either way.
    expect(results.every((r) => r.status === 200 || r.status === 402 || r.status === 429)).toBe(true);
    const accepted = results.filter((r) => r.status === 200);
    expect(accepted.length).toBeLessThanOrEqual(MAX_ACTIVE_JOBS);
    for (const r of results.filter((x) => x.status === 402)) expect(r.body.error).toBe(`Not enough credits. Required: ${r.cost}`);
    for (const r of results.filter((x) => x.status === 429)) expect(r.body.error).toBe(Messages.tooManyActiveJobs(MAX_ACTIVE_JOBS));
    const spent = accepted.reduce((s, r) => s + r.cost, 0);
    expect(accepted.length).toBeGreaterThan(0);
    expect(spent).toBeLessThanOrEqual(startBalance);
    expect(await balance(user)).toBe(startBalance - spent);

    const rows = await ledger(user);
    const charges = rows.filter((l) => l.reason === 'video');
    expect(charges.map((c) => c.ref).sort()).toEqual(accepted.map((a) => a.body.predictionId).sort());
    expect(charges.map((c) => -c.delta).sort()).toEqual(accepted.map((a) => a.cost).sort());
    // One chain of balances: every charge started from the balance another row left, none went below zero.
    expect(rows.every((l) => l.balance >= 0 && l.balance - l.delta >= 0)).toBe(true);
    expect(rows.reduce((s, l) => s + l.delta, 0)).toBe(startBalance - spent);
    expect(new Set(charges.map((c) => c.balance)).size).toBe(charges.length);

    // Each accepted job fails in the simulator; polling settles and refunds each exactly once.
    for (const a of accepted) expect((await waitForStatus(user, a.body.predictionId)).status).toBe('failed');
    expect((await ledger(user)).filter((l) => l.reason === 'refund')).toHaveLength(accepted.length);
    expect(await balance(user)).toBe(startBalance);
  });

  it("hides another user's video behind 404 on check-status and delete", async () => {
    const [alice, bob] = await Promise.all([createUser(), createUser()]);
    const { predictionId } = await start(alice, { model: WAN_T2V, prompt: 'private clip', duration: 5 });
    expect((await api(bob, `/api/check-status/${predictionId}`)).status).toBe(404);
    const done = await waitForStatus(alice, predictionId);
    expect(done.status).toBe('succeeded');
    expect((await api(bob, `/api/check-status/${predictionId}`)).status).toBe(404);
    const [item] = (await json<{ items: Array<{ id: string; type: string }> }>(api(alice, '/api/media'))).items;
    expect(item!.type).toBe('video');
    expect((await api(bob, `/api/media/${item!.id}`, { method: 'DELETE' })).status).toBe(404);
    expect((await json<{ items: unknown[] }>(api(bob, '/api/media'))).items).toHaveLength(0);
    expect((await fetch(done.videoUrl!)).status).toBe(200);
    expect((await api(alice, `/api/media/${item!.id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await json<{ items: unknown[] }>(api(alice, '/api/media'))).items).toHaveLength(0);
    expect((await fetch(done.videoUrl!)).status).toBe(404);
  });

  it('refuses bad models, durations, qualities, images and prompts with a clear 400 and charges nothing', async () => {
    const user = await createUser();
    const image = await uploadStartImage(user, await pngOf(832, 480, [10, 10, 10]));
    const tooBig = await uploadStartImage(user, await pngOf(1024, 576, [10, 10, 10]));
    const cases: [Record<string, unknown>, string | RegExp][] = [
      [{ model: 'acme/video-9000', prompt: 'x', duration: 5 }, 'Unknown model: acme/video-9000.'],
      [{ model: 'kwaivgi/kling-v1.6-standard', prompt: 'x', duration: 5 }, /^Unknown model/],
      [{ model: WAN_T2V, prompt: 'x', duration: 7 }, 'Duration must be 5 or 10.'],
      [{ model: WAN_T2V, prompt: 'x', duration: 5, quality: '720p' }, 'Wan 2.1 (480p) takes no quality. Its options: aspectRatio, duration, seed.'],
      [{ model: PIXVERSE, prompt: 'x', duration: 10 }, 'Duration must be 5 or 8.'],
      [{ model: PIXVERSE, prompt: 'x', duration: 5, quality: '4k' }, 'Quality must be 540p, 720p or 1080p.'],
      [{ model: PIXVERSE, prompt: 'x', duration: 8, quality: '1080p' }, '1080p is available only for 5-second clips.'],
      [{ model: PIXVERSE, prompt: 'x', duration: 5, quality: '360p' }, 'Quality must be 540p, 720p or 1080p.'],
      [{ model: WAN_I2V, prompt: 'x', duration: 5 }, 'wavespeedai/wan-2.1-i2v-480p needs a start image: without one, Wan 2.1 (480p) runs wavespeedai/wan-2.1-t2v-480p.'],
      [{ model: WAN_T2V, prompt: 'x', duration: 5, image }, 'wavespeedai/wan-2.1-t2v-480p takes no start image: with one, Wan 2.1 (480p) runs wavespeedai/wan-2.1-i2v-480p.'],
      [{ model: WAN_I2V, prompt: 'x', duration: 5, image: tooBig }, 'The start image must be at most 832 pixels on its long side.'],
      [{ model: WAN_I2V, prompt: 'x', duration: 5, image: `users/${user.sub}/images/nope.png` }, 'Unknown start image. Upload it again.'],
      [{ model: WAN_T2V, prompt: 'x', duration: '5' }, 'Choose a duration in whole seconds.'],
      [{ model: WAN_T2V, prompt: 'x', duration: 5.5 }, 'Choose a duration in whole seconds.'],
      [{ model: WAN_T2V, prompt: 'x' }, 'Choose a duration in whole seconds.'],
      [{ prompt: 'x', duration: 5 }, 'Choose a video model.'],
      [{ model: WAN_T2V, prompt: '   ', duration: 5 }, 'Prompt is required.'],
      [{ model: WAN_T2V, duration: 5 }, 'Prompt is required.'],
      [{ model: WAN_T2V, prompt: 'x'.repeat(1001), duration: 5 }, 'Prompt is too long. Keep it under 1000 characters.'],
      [{ model: PIXVERSE, prompt: 'x [reject]', duration: 5 }, /content filter/],
    ];
    for (const [body, message] of cases) {
      const res = await generate(user, body);
      const out = await res.json();
      expect({ body, status: res.status }).toEqual({ body, status: 400 });
      if (typeof message === 'string') expect(out.error).toBe(message);
      else expect(out.error).toMatch(message);
    }
    expect((await api(user, '/api/generate-video', { method: 'POST', body: '{"model":' })).status).toBe(400);
    expect(await balance(user)).toBe(10);
    // Only the provider's refusal got as far as a charge, and it was refunded at once.
    const rows = await ledger(user);
    expect(rows.filter((l) => l.reason === 'video')).toHaveLength(1);
    expect(rows.filter((l) => l.reason === 'refund')).toHaveLength(1);
  });

  it('refuses a request with too few credits with the spec message, and one without a token', async () => {
    const user = await createUser();
    const res = await generate(user, { model: WAN_T2V, prompt: 'too long for my balance', duration: 10 });
    expect(res.status).toBe(402);
    expect((await res.json()).error).toBe('Not enough credits. Required: 16');
    expect(await balance(user)).toBe(10);

    const anonymous = await generate(undefined, { model: WAN_T2V, prompt: 'x', duration: 5 });
    expect(anonymous.status).toBe(401);
    // Behind the authorizer, a call that reaches the function without an identity gets the spec's message.
    const { handler } = await import('../../lambdas/handlers/generate-video');
    const event = {
      version: '2.0',
      routeKey: 'POST /api/generate-video',
      rawPath: '/api/generate-video',
      // Through CloudFront (the origin header), without an identity.
      headers: { 'content-type': 'application/json', 'x-origin-verify': await originHeader() },
      body: JSON.stringify({ model: WAN_T2V, prompt: 'x', duration: 5 }),
      isBase64Encoded: false,
      requestContext: { requestId: 'test', http: { method: 'POST', path: '/api/generate-video', sourceIp: '127.0.0.1' } },
    } as unknown as APIGatewayProxyEventV2;
    const direct = (await handler(event)) as APIGatewayProxyStructuredResultV2;
    expect(direct.statusCode).toBe(401);
    expect(JSON.parse(String(direct.body)).error).toBe('Please sign in.');
  });
});

describe('POST /api/uploads for a video start image', () => {
  it('answers the long side the chosen model takes, and refuses an unknown purpose', async () => {
    const user = await createUser();
    const longSide = async (purpose?: string) =>
      api(user, '/api/uploads', { method: 'POST', body: JSON.stringify({ contentType: 'image/png', size: 1000, ...(purpose ? { purpose } : {}) }) });
    expect((await json(longSide())).maxLongSide).toBe(768);
    expect((await json(longSide('image'))).maxLongSide).toBe(768);
    expect((await json(longSide('sdxl'))).maxLongSide).toBe(768);
    expect((await json(longSide('wan'))).maxLongSide).toBe(832);
    expect((await json(longSide('pixverse'))).maxLongSide).toBe(1280);
    expect((await json(longSide('kling'))).maxLongSide).toBe(1280);
    const bad = await longSide('sora');
    expect(bad.status).toBe(400);
    expect((await bad.json()).error).toBe('Purpose must be one of image, sdxl, wan, pixverse, kling.');
  });
});
