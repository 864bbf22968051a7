/**
 * One generation pipeline on the embedded stack: GET /api/models lists every registry entry with what it takes and
 * costs (public, cacheable); POST /api/generations runs every model and operation end to end (FLUX fast and pro,
 * Kling from a start frame and to an end frame, edit by prompt, upscale 2x and 4x, variations) and refuses what an
 * entry does not take with a 400 that says why, charging nothing. A failed batch and the reconciler after it are in
 * generations-reconciled.test.ts (the serial group: the reconciler settles every open job of the stack).
 */
import sharp from 'sharp';
import { Messages } from '../../contract/errors';
import { MODELS, priceOf } from '../../contract/models';
import { grantCredits, imageData, json, pngOf, uploadStartImage, userItems } from '../support/generation';
import { settled } from '../support/jobs';
import { api, createUser, stackUrl, type TestUser } from '../support/users';

jest.setTimeout(240_000);

let user: TestUser;
let other: TestUser;
/** An image result of the user's (FLUX fast, 16:9). */
let imageId: string;

const generate = (u: TestUser, body: Record<string, unknown>) => api(u, '/api/generations', { method: 'POST', body: JSON.stringify(body) });
const balance = async (u: TestUser) => Number((await userItems(u.sub, 'ACCOUNT'))[0]!.credits);

interface Media {
  id: string;
  url: string;
  prompt: string;
  model: string;
  options: Record<string, unknown>;
  width?: number;
  height?: number;
  durationSeconds?: number;
}

/** Starts a generation, waits for its job to end, and answers the job and its first result. */
async function run(u: TestUser, body: Record<string, unknown>) {
  const res = await generate(u, body);
  const answer = await json<{ predictionId: string; credits: number; error?: string }>(res);
  if (res.status !== 200) throw new Error(`${res.status} ${answer.error}`);
  const job = await settled(answer.predictionId, { timeoutMs: 90_000 });
  expect([job.status, job.error]).toEqual(['succeeded', undefined]);
  const media = await json<Media>(api(u, `/api/media/${String(job.mediaId)}`));
  return { job, media, credits: answer.credits };
}

const bytesOf = async (url: string) => Buffer.from(await (await fetch(url)).arrayBuffer());
const sizeOf = async (url: string) => {
  const meta = await sharp(await bytesOf(url)).metadata();
  return { width: meta.width, height: meta.height };
};

beforeAll(async () => {
  [user, other] = await Promise.all([createUser(), createUser()]);
  await Promise.all([api(user, '/api/me'), api(other, '/api/me')]);
  await grantCredits(user, 200);
  imageId = (await run(user, { model: 'flux-fast', prompt: 'a lighthouse at dusk', options: { aspectRatio: '16:9', seed: 7 } })).media.id;
});

describe('GET /api/models', () => {
  it('lists every model and operation, with inputs, options and the price of the defaults, to anyone, cacheable', async () => {
    const res = await fetch(`${stackUrl()}/api/models`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=300');
    const { models } = (await res.json()) as { models: Array<Record<string, unknown>> };
    expect(models.map((m) => m.id)).toEqual(MODELS.map((m) => m.slug));
    for (const def of MODELS) {
      const price = priceOf(def, {});
      expect(models.find((m) => m.id === def.slug)).toMatchObject({ name: def.name, kind: def.kind, operation: def.operation, upcoming: def.upcoming, price: def.rerun || !price.ok ? null : price.cost });
    }
    expect(models.find((m) => m.id === 'upscale')).toMatchObject({
      inputs: { prompt: null, images: [{ id: 'image', required: true, from: 'result' }] },
      options: [{ id: 'scale', kind: 'choice', values: [2, 4], default: 2, valueLabels: { 2: '2x', 4: '4x' } }],
      price: 1,
    });
    expect(models.find((m) => m.id === 'kling')).toMatchObject({
      upcoming: false,
      inputs: { prompt: { required: true }, images: [{ id: 'startImage', required: true }, { id: 'endImage', required: false }] },
      price: 8,
    });
  });
});

describe('POST /api/generations: every model and operation', () => {
  it('FLUX fast: 1 credit an image, each image of the batch saved, same seed and input give the same picture', async () => {
    const before = await balance(user);
    const a = await run(user, { model: 'flux-fast', prompt: 'three red kites', options: { count: 2, aspectRatio: '1:1', seed: 99 } });
    expect(a.credits).toBe(before - 2);
    expect(a.job).toMatchObject({ model: 'black-forest-labs/flux-schnell', cost: 2, options: { aspectRatio: '1:1', seed: 99, count: 2 } });
    expect(await sizeOf(a.media.url)).toEqual({ width: 1024, height: 1024 });
    const b = await run(user, { model: 'flux-fast', prompt: 'three red kites', options: { count: 1, aspectRatio: '1:1', seed: 99 } });
    expect(imageData(await bytesOf(b.media.url)).equals(imageData(await bytesOf(a.media.url)))).toBe(true);
  });

  it('FLUX 1.1 Pro: 2 credits, one image at the aspect ratio asked', async () => {
    const { job, media } = await run(user, { model: 'flux-pro', prompt: 'a glass harbour', options: { aspectRatio: '9:16' } });
    expect(job).toMatchObject({ model: 'black-forest-labs/flux-1.1-pro', cost: 2 });
    expect(await sizeOf(media.url)).toEqual({ width: 768, height: 1360 });
  });

  it('edit by prompt: one of your results changed at its own size; the result records its source', async () => {
    const source = await json<Media>(api(user, `/api/media/${imageId}`));
    const { job, media } = await run(user, { model: 'edit', prompt: 'make it snow', inputs: { image: imageId } });
    expect(job).toMatchObject({ model: 'black-forest-labs/flux-kontext-pro', cost: 2, options: expect.objectContaining({ sourceMediaId: imageId }) });
    expect(media.options).toMatchObject({ sourceMediaId: imageId });
    expect(await sizeOf(media.url)).toEqual(await sizeOf(source.url));
    expect(imageData(await bytesOf(media.url)).equals(imageData(await bytesOf(source.url)))).toBe(false);
  });

  it.each([2, 4])('upscale %ix: the source at that many times its size, with its prompt, for 1 credit', async (scale) => {
    const source = await json<Media>(api(user, `/api/media/${imageId}`));
    const { job, media } = await run(user, { model: 'upscale', options: { scale }, inputs: { image: imageId } });
    expect(job).toMatchObject({ model: 'nightmareai/real-esrgan', cost: 1, prompt: source.prompt, options: { scale, sourceMediaId: imageId } });
    const { width, height } = (await sizeOf(source.url)) as { width: number; height: number };
    expect(await sizeOf(media.url)).toEqual({ width: width * scale, height: height * scale });
  });

  it("variations: the source's model, prompt and settings with a new seed, at the source's price", async () => {
    const source = await json<Media>(api(user, `/api/media/${imageId}`));
    const { job, media } = await run(user, { model: 'variations', inputs: { image: imageId } });
    expect(job).toMatchObject({ model: source.model, prompt: source.prompt, cost: 1, options: expect.objectContaining({ aspectRatio: '16:9', count: 1, sourceMediaId: imageId }) });
    expect(job.options.seed).not.toBe(source.options.seed);
    expect(imageData(await bytesOf(media.url)).equals(imageData(await bytesOf(source.url)))).toBe(false);
  });

  it('Kling 2.1: from a start image, and in 1080p to an end image, as long as asked', async () => {
    const start = await uploadStartImage(user, await pngOf(1280, 720, [30, 90, 160]));
    const end = await uploadStartImage(user, await pngOf(1280, 720, [200, 120, 30]));
    const a = await run(user, { model: 'kling', prompt: 'the sea rises', inputs: { startImage: start } });
    expect(a.job).toMatchObject({ model: 'kwaivgi/kling-v2.1', cost: 8, options: { duration: 5, quality: '720p', startImage: true } });
    expect(a.media).toMatchObject({ width: 1280, height: 720, durationSeconds: 5 });
    const b = await run(user, { model: 'kling', prompt: 'day turns to dusk', options: { quality: '1080p' }, inputs: { startImage: imageId, endImage: end } });
    expect(b.job).toMatchObject({ cost: 13, options: { quality: '1080p', startImage: true, startMediaId: imageId, endImage: true } });
    expect(b.media).toMatchObject({ width: 1920, height: 1080 });
  });

  it('the spec routes stay aliases of the one pipeline: same models, same answers', async () => {
    const res = await api(user, '/api/generate-video', { method: 'POST', body: JSON.stringify({ prompt: 'x', model: 'kwaivgi/kling-v2.1', duration: 5 }) });
    expect([res.status, (await json<{ error: string }>(res)).error]).toEqual([400, Messages.imageInputRequired('Kling 2.1', 'Start image', 'startImage')]);
  });
});

describe('seeds that tell the truth: a batch is one prediction per image', () => {
  /** The job's results in the order of their seeds, each with its stored seed and its view. */
  async function resultsOf(u: TestUser, jobId: string) {
    const items = (await userItems(u.sub, 'MEDIA#')).filter((m) => m.jobId === jobId);
    const views = await Promise.all(items.map((m) => json<Media>(api(u, `/api/media/${String(m.id)}`))));
    return views.sort((a, b) => Number(a.options.seed) - Number(b.options.seed));
  }

  it('a batch of 4 shows 4 seeds, one charge; re-running seed #3 alone gives image #3 pixel for pixel', async () => {
    const before = await balance(user);
    const batch = await run(user, { model: 'sdxl', prompt: 'four paper boats', options: { count: 4, seed: 1200 } });
    expect(batch.credits).toBe(before - 4);
    expect(batch.job.batch).toHaveLength(4);
    const images = await resultsOf(user, String(batch.job.id));
    expect(images.map((m) => m.options.seed)).toEqual([1200, 1201, 1202, 1203]);
    const pixels = await Promise.all(images.map(async (m) => imageData(await bytesOf(m.url))));
    expect(new Set(pixels.map((p) => p.toString('base64'))).size).toBe(4);
    const again = await run(user, { model: 'sdxl', prompt: 'four paper boats', options: { count: 1, seed: 1202 } });
    expect(again.media.options.seed).toBe(1202);
    expect(imageData(await bytesOf(again.media.url)).equals(pixels[2]!)).toBe(true);
    const ledger = (await userItems(user.sub, 'LEDGER#')).filter((l) => l.ref === batch.job.id);
    expect(ledger.map((l) => l.delta)).toEqual([-4]);
  });

  it('a batch whose webhooks come before its create calls answer ([early]) is recorded part by part and saved whole', async () => {
    const before = await balance(user);
    const { job } = await run(user, { model: 'sdxl', prompt: 'two owls [early]', options: { count: 2, seed: 3300 } });
    expect((await resultsOf(user, String(job.id))).map((m) => m.options.seed)).toEqual([3300, 3301]);
    expect(await balance(user)).toBe(before - 2);
  });
});

describe('POST /api/generations: refusals', () => {
  it('refuses what an entry does not take with a 400 saying why, and charges nothing', async () => {
    const upload = await uploadStartImage(user, await pngOf(512, 512, [1, 2, 3]));
    const theirs = (await run(other, { model: 'flux-fast', prompt: 'not yours' })).media.id;
    const before = await balance(user);
    const cases: Array<[Record<string, unknown>, number, string | RegExp]> = [
      [{ model: 'dall-e', prompt: 'x' }, 400, Messages.unknownModel('dall-e', MODELS.filter((m) => !m.upcoming).map((m) => m.slug))],
      [{ model: 'flux-fast' }, 400, Messages.enterPrompt],
      [{ model: 'kling', prompt: 'x' }, 400, Messages.imageInputRequired('Kling 2.1', 'Start image', 'startImage')],
      [{ model: 'kling', prompt: 'x', inputs: { startImage: upload, endImage: upload } }, 400, 'An end image needs 1080p quality.'],
      [{ model: 'flux-pro', prompt: 'x', inputs: { startImage: imageId } }, 400, Messages.modelTakesNoImage('FLUX 1.1 Pro', 'startImage', [])],
      [{ model: 'edit', prompt: 'x', inputs: { image: upload } }, 400, Messages.imageInputResultOnly('Picture to edit')],
      [{ model: 'edit', prompt: 'x' }, 400, Messages.imageInputRequired('Edit by prompt', 'Picture to edit', 'image')],
      [{ model: 'upscale', prompt: 'sharper', inputs: { image: imageId } }, 400, Messages.modelTakesNoPrompt('Upscale')],
      [{ model: 'upscale', options: { scale: 3 }, inputs: { image: imageId } }, 400, 'Scale must be 2 or 4.'],
      [{ model: 'upscale', inputs: { image: theirs } }, 404, Messages.mediaNotFound],
      [{ model: 'edit', prompt: 'x', inputs: { image: theirs } }, 404, Messages.mediaNotFound],
      [{ model: 'variations', inputs: { image: theirs } }, 404, Messages.mediaNotFound],
      [{ model: 'variations', options: { count: 2 }, inputs: { image: imageId } }, 400, /^Variations takes no count\./],
      [{ model: 'flux-fast', prompt: 'x', inputs: { mask: imageId } }, 400, /^Unknown input: mask\./],
    ];
    const wrong: string[] = [];
    for (const [body, status, message] of cases) {
      const res = await generate(user, body);
      const { error } = await json<{ error: string }>(res);
      const ok = res.status === status && (typeof message === 'string' ? error === message : message.test(error));
      if (!ok) wrong.push(`${JSON.stringify(body)}: ${res.status} ${error}`);
    }
    expect(wrong).toEqual([]);
    expect(await balance(user)).toBe(before);
  });

  it('cannot vary a video', async () => {
    const video = (await run(user, { model: 'wan', prompt: 'waves', options: { duration: 5 } })).media.id;
    const res = await generate(user, { model: 'variations', inputs: { image: video } });
    expect([res.status, (await json<{ error: string }>(res)).error]).toEqual([400, Messages.cannotVary]);
  });
});
