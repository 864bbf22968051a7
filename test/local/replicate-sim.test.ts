/**
 * The Replicate simulator, seen from a caller: HTTP API shapes, lifecycle, signed webhooks, real output files.
 */
import http from 'node:http';
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import Replicate from 'replicate';
import { IMAGE_MODEL, PIXVERSE, WAN_I2V, WAN_T2V } from '../../contract/catalog';
import {
  FAIL_ERROR,
  NSFW_ERROR,
  signWebhook,
  startReplicateSimulator,
  type ReplicateSim,
  type SimPrediction,
} from '../../local/replicate-sim';
import { ffmpegMediaTools } from '../../lambdas/adapters/ffmpeg-media-tools';
import { localFfmpegPath } from '../../local/shared/ffmpeg-path';

const tools = ffmpegMediaTools({ binary: localFfmpegPath(), timeoutMs: 20_000 });
import { mp4Info } from '../support/mp4';

jest.setTimeout(60_000);

const TOKEN = 'r8_test_token';
const SECRET = `whsec_${randomBytes(32).toString('base64')}`;
const START_RGB = { r: 30, g: 70, b: 210 };

interface Delivery {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  at: number;
}

let sim: ReplicateSim;
let receiver: http.Server;
let receiverUrl = '';
const deliveries: Delivery[] = [];
let startPng: Buffer;
let portraitPng: Buffer;
let flakyFailures = 0;

beforeAll(async () => {
  startPng = await sharp({ create: { width: 768, height: 768, channels: 3, background: START_RGB } }).png().toBuffer();
  portraitPng = await sharp({ create: { width: 480, height: 768, channels: 3, background: { r: 200, g: 180, b: 40 } } })
    .png()
    .toBuffer();
  receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '/';
      if (req.method === 'GET' && (path === '/start.png' || path === '/portrait.png')) {
        const png = path === '/start.png' ? startPng : portraitPng;
        res.writeHead(200, { 'content-type': 'image/png', 'content-length': png.length });
        return res.end(png);
      }
      if (req.method === 'POST' && path.startsWith('/hook')) {
        deliveries.push({ path, headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() });
        if (path === '/hook-flaky' && flakyFailures > 0) {
          flakyFailures--;
          res.writeHead(500);
          return res.end('try later');
        }
        res.writeHead(204);
        return res.end();
      }
      res.writeHead(404);
      res.end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  sim = await startReplicateSimulator({ apiToken: TOKEN, webhookSecret: SECRET, imageMs: 300, videoMs: 1500 });
});

afterAll(async () => {
  await sim?.close();
  await new Promise<void>((resolve) => {
    receiver.close(() => resolve());
    receiver.closeAllConnections();
  });
});

async function api(method: string, path: string, body?: unknown, token: string | null = TOKEN, headers: Record<string, string> = {}) {
  const res = await fetch(`${sim.url}${path}`, {
    method,
    headers: {
      ...(token !== null ? { authorization: `Bearer ${token}` } : {}),
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...headers,
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  return { status: res.status, json: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

const sdxlInput = (prompt: string, extra: Record<string, unknown> = {}) => ({ ...IMAGE_MODEL.input, prompt, seed: 42, ...extra });

async function createSdxl(input: Record<string, unknown>, extra: Record<string, unknown> = {}): Promise<SimPrediction> {
  const res = await api('POST', '/v1/predictions', { version: IMAGE_MODEL.version, input, ...extra });
  expect(res.status).toBe(201);
  return res.json as unknown as SimPrediction;
}

async function createModel(model: string, input: Record<string, unknown>, extra: Record<string, unknown> = {}): Promise<SimPrediction> {
  const res = await api('POST', `/v1/models/${model}/predictions`, { input, ...extra });
  expect(res.status).toBe(201);
  return res.json as unknown as SimPrediction;
}

async function settle(id: string, timeoutMs = 30_000): Promise<SimPrediction> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const res = await api('GET', `/v1/predictions/${id}`);
    expect(res.status).toBe(200);
    const p = res.json as unknown as SimPrediction;
    if (['succeeded', 'failed', 'canceled'].includes(p.status)) return p;
    if (Date.now() > until) throw new Error(`prediction ${id} still ${p.status}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function download(url: string): Promise<{ status: number; type: string | null; length: number; bytes: Buffer }> {
  const res = await fetch(url);
  const bytes = Buffer.from(await res.arrayBuffer());
  return { status: res.status, type: res.headers.get('content-type'), length: Number(res.headers.get('content-length')), bytes };
}

function hooksFor(id: string): (Delivery & { prediction: SimPrediction })[] {
  return deliveries
    .map((d) => ({ ...d, prediction: JSON.parse(d.body) as SimPrediction }))
    .filter((d) => d.prediction.id === id);
}

async function waitForHook(id: string, status: string, timeoutMs = 10_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const hit = hooksFor(id).find((d) => d.prediction.status === status);
    if (hit) return hit;
    if (Date.now() > until) throw new Error(`no ${status} webhook for ${id}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Standard Webhooks verification, written independently of the simulator. */
function signatureValid(d: Delivery): boolean {
  const id = String(d.headers['webhook-id']);
  const ts = String(d.headers['webhook-timestamp']);
  const expected = createHmac('sha256', Buffer.from(SECRET.slice('whsec_'.length), 'base64'))
    .update(`${id}.${ts}.${d.body}`)
    .digest();
  if (Math.abs(Date.now() / 1000 - Number(ts)) > 300) return false;
  return String(d.headers['webhook-signature'])
    .split(' ')
    .some((part) => {
      const [v, sig] = part.split(',');
      const got = Buffer.from(sig ?? '', 'base64');
      return v === 'v1' && got.length === expected.length && timingSafeEqual(got, expected);
    });
}

async function meanRgb(png: Buffer): Promise<[number, number, number]> {
  const { channels } = await sharp(png).stats();
  return [channels[0]!.mean, channels[1]!.mean, channels[2]!.mean];
}

describe('auth and routing', () => {
  it('refuses a missing or wrong token with Replicate’s 401', async () => {
    const expected = { title: 'Unauthenticated', detail: 'You did not pass a valid authentication token', status: 401 };
    const wrong = await api('POST', '/v1/predictions', { version: IMAGE_MODEL.version, input: sdxlInput('x') }, 'nope');
    expect(wrong).toEqual({ status: 401, json: expected });
    expect(await api('GET', '/v1/predictions/abc', undefined, null)).toEqual({ status: 401, json: expected });
  });

  it('answers 404 for unknown predictions, models and cancels; 422 for an unknown version', async () => {
    expect((await api('GET', '/v1/predictions/doesnotexist')).status).toBe(404);
    expect((await api('POST', '/v1/predictions/doesnotexist/cancel')).status).toBe(404);
    const model = await api('POST', '/v1/models/someone/something/predictions', { input: { prompt: 'x' } });
    expect(model.status).toBe(404);
    expect(model.json).toMatchObject({ status: 404, detail: expect.any(String) });
    const version = await api('POST', '/v1/predictions', { version: 'f'.repeat(64), input: { prompt: 'x' } });
    expect(version.status).toBe(422);
    expect(version.json).toMatchObject({ status: 422, title: expect.any(String), detail: expect.any(String) });
  });
});

describe('SDXL', () => {
  it('runs starting -> processing -> succeeded, serves a 768x768 PNG and sends signed webhooks', async () => {
    const created = await createSdxl(sdxlInput('A lighthouse on a cliff at dusk'), { webhook: `${receiverUrl}/hook` });
    expect(created).toMatchObject({
      id: expect.stringMatching(/^[a-z0-9]{20,}$/),
      model: IMAGE_MODEL.id,
      version: IMAGE_MODEL.version,
      status: 'starting',
      output: null,
      error: null,
      logs: '',
      input: expect.objectContaining({ prompt: 'A lighthouse on a cliff at dusk', width: 768 }),
      urls: { get: expect.stringContaining(`/v1/predictions/${created.id}`), cancel: expect.stringContaining('/cancel') },
    });
    expect(typeof created.created_at).toBe('string');

    const done = await settle(created.id);
    expect(done.status).toBe('succeeded');
    expect(done.error).toBeNull();
    expect(done.started_at).toEqual(expect.any(String));
    expect(done.completed_at).toEqual(expect.any(String));
    expect(done.metrics.predict_time).toEqual(expect.any(Number));
    expect(done.logs).toContain('Using seed: 42');
    expect(Array.isArray(done.output)).toBe(true);
    expect(done.output).toHaveLength(1);

    const file = await download((done.output as string[])[0]!);
    expect(file.status).toBe(200);
    expect(file.type).toBe('image/png');
    expect(file.length).toBe(file.bytes.length);
    const meta = await sharp(file.bytes).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['png', 768, 768]);

    const completed = await waitForHook(created.id, 'succeeded');
    expect(completed.headers['content-type']).toBe('application/json');
    expect(String(completed.headers['webhook-id'])).toMatch(/^msg_/);
    expect(signatureValid(completed)).toBe(true);
    expect(completed.prediction.output).toEqual(done.output);
    const statuses = hooksFor(created.id).map((d) => d.prediction.status);
    expect(statuses[0]).toBe('starting');
    expect(statuses).toContain('processing');
    expect(statuses[statuses.length - 1]).toBe('succeeded');
    // a tampered body no longer verifies
    expect(signatureValid({ ...completed, body: completed.body.replace('succeeded', 'failed') })).toBe(false);
  });

  it('draws different pictures for different prompts, and the same for the same prompt and seed', async () => {
    const [a, b, a2] = await Promise.all([
      createSdxl(sdxlInput('A red fox in the snow')),
      createSdxl(sdxlInput('A blue whale in the deep sea')),
      createSdxl(sdxlInput('A red fox in the snow')),
    ]);
    const urls = await Promise.all([a, b, a2].map(async (p) => ((await settle(p.id)).output as string[])[0]!));
    const [fa, fb, fa2] = await Promise.all(urls.map(download));
    expect(fa!.bytes.equals(fb!.bytes)).toBe(false);
    expect(fa!.bytes.equals(fa2!.bytes)).toBe(true);
  });

  it('derives the output from a start image', async () => {
    const prompt = 'A portrait in the style of a stained glass window';
    const [plain, withImage] = await Promise.all([
      createSdxl(sdxlInput(prompt)),
      createSdxl(sdxlInput(prompt, { image: `${receiverUrl}/start.png`, prompt_strength: 0.8 })),
    ]);
    const [p1, p2] = await Promise.all([settle(plain.id), settle(withImage.id)]);
    expect(p2.status).toBe('succeeded');
    const [f1, f2] = await Promise.all([download((p1.output as string[])[0]!), download((p2.output as string[])[0]!)]);
    expect(f1.bytes.equals(f2.bytes)).toBe(false);
    const meta = await sharp(f2.bytes).metadata();
    expect([meta.width, meta.height]).toEqual([768, 768]);
    const [r, g, b] = await meanRgb(f2.bytes);
    const dist = (m: number[]) => Math.hypot(m[0]! - START_RGB.r, m[1]! - START_RGB.g, m[2]! - START_RGB.b);
    expect(dist([r, g, b])).toBeLessThan(70);
    expect(b).toBeGreaterThan(r);
    expect(b).toBeGreaterThan(g);
    expect(dist(await meanRgb(f1.bytes))).toBeGreaterThan(dist([r, g, b]));
  });

  it('fails the prediction when the start image cannot be downloaded', async () => {
    const p = await createSdxl(sdxlInput('x', { image: `${receiverUrl}/missing.png` }));
    const done = await settle(p.id);
    expect(done.status).toBe('failed');
    expect(done.error).toMatch(/download.*missing\.png.*404/i);
    expect(done.output).toBeNull();
  });

  it('honours Prefer: wait', async () => {
    const res = await api('POST', '/v1/predictions', { version: IMAGE_MODEL.version, input: sdxlInput('wait for me') }, TOKEN, {
      prefer: 'wait=10',
    });
    expect(res.status).toBe(201);
    expect(res.json.status).toBe('succeeded');
  });
});

describe('failure markers, cancel and webhooks', () => {
  it('[fail] ends as failed with an error and a webhook', async () => {
    const p = await createSdxl(sdxlInput('a cat [fail]'), { webhook: `${receiverUrl}/hook` });
    const done = await settle(p.id);
    expect(done).toMatchObject({ status: 'failed', error: FAIL_ERROR, output: null });
    const hook = await waitForHook(p.id, 'failed');
    expect(signatureValid(hook)).toBe(true);
    expect(hook.prediction.error).toBe(FAIL_ERROR);
  });

  it('[nsfw] fails as SDXL’s safety checker does', async () => {
    const done = await settle((await createSdxl(sdxlInput('something [nsfw]'))).id);
    expect(done).toMatchObject({ status: 'failed', error: NSFW_ERROR });
  });

  it('[reject] refuses the creation with 422', async () => {
    const res = await api('POST', '/v1/predictions', { version: IMAGE_MODEL.version, input: sdxlInput('no way [reject]') });
    expect(res.status).toBe(422);
    expect(res.json).toMatchObject({ status: 422, title: expect.any(String), detail: expect.any(String), invalid_fields: expect.any(Array) });
  });

  it('[nowebhook] succeeds without any webhook', async () => {
    const p = await createSdxl(sdxlInput('quiet [nowebhook]'), { webhook: `${receiverUrl}/hook` });
    expect((await settle(p.id)).status).toBe('succeeded');
    await new Promise((r) => setTimeout(r, 200));
    expect(hooksFor(p.id)).toHaveLength(0);
  });

  it('[slow] takes about three times as long', async () => {
    const t0 = Date.now();
    const done = await settle((await createSdxl(sdxlInput('take your time [slow]'))).id);
    expect(done.status).toBe('succeeded');
    expect(Date.now() - t0).toBeGreaterThanOrEqual(850);
  });

  it('respects webhook_events_filter', async () => {
    const p = await createSdxl(sdxlInput('only the end'), { webhook: `${receiverUrl}/hook`, webhook_events_filter: ['completed'] });
    await settle(p.id);
    await waitForHook(p.id, 'succeeded');
    await new Promise((r) => setTimeout(r, 100));
    expect(hooksFor(p.id).map((d) => d.prediction.status)).toEqual(['succeeded']);
  });

  it('retries a failed delivery with the same webhook-id', async () => {
    flakyFailures = 1;
    const p = await createSdxl(sdxlInput('flaky receiver'), { webhook: `${receiverUrl}/hook-flaky`, webhook_events_filter: ['completed'] });
    await settle(p.id);
    const until = Date.now() + 10_000;
    while (hooksFor(p.id).length < 2 && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    const hooks = hooksFor(p.id);
    expect(hooks).toHaveLength(2);
    expect(hooks[0]!.headers['webhook-id']).toBe(hooks[1]!.headers['webhook-id']);
    expect(hooks.every(signatureValid)).toBe(true);
  });

  it('survives an unreachable webhook URL', async () => {
    const p = await createSdxl(sdxlInput('nobody listens'), { webhook: 'http://127.0.0.1:9/hook' });
    expect((await settle(p.id)).status).toBe('succeeded');
    expect((await api('GET', `/v1/predictions/${p.id}`)).status).toBe(200);
  });

  it('cancels a running prediction and says so by webhook', async () => {
    const p = await createModel(WAN_T2V, { prompt: 'to be canceled' }, { webhook: `${receiverUrl}/hook` });
    const res = await api('POST', `/v1/predictions/${p.id}/cancel`);
    expect(res.status).toBe(200);
    expect(res.json.status).toBe('canceled');
    expect((await settle(p.id)).status).toBe('canceled');
    const hook = await waitForHook(p.id, 'canceled');
    expect(signatureValid(hook)).toBe(true);
    await new Promise((r) => setTimeout(r, 1700)); // past videoMs: it stays canceled
    expect((await api('GET', `/v1/predictions/${p.id}`)).json.status).toBe('canceled');
  });
});

describe('input validation', () => {
  it('rejects SDXL num_outputs 5 with invalid_fields', async () => {
    const res = await api('POST', '/v1/predictions', { version: IMAGE_MODEL.version, input: sdxlInput('x', { num_outputs: 5 }) });
    expect(res.status).toBe(422);
    expect(res.json).toMatchObject({
      title: 'Input validation failed',
      status: 422,
      detail: expect.stringContaining('- input.num_outputs: '),
      invalid_fields: [expect.objectContaining({ field: 'input.num_outputs', type: 'number_lte', description: expect.any(String) })],
    });
  });

  it('rejects a field the published schema does not have (Replicate would drop it silently)', async () => {
    const wan = await api('POST', `/v1/models/${WAN_T2V}/predictions`, { input: { prompt: 'x', negative_prompt: 'blur' } });
    expect(wan.status).toBe(422);
    expect(wan.json).toMatchObject({
      title: 'Input validation failed',
      invalid_fields: [{ type: 'additional_property_not_allowed', field: 'input', description: 'Additional property negative_prompt is not allowed' }],
    });
    const sdxl = await api('POST', '/v1/predictions', { version: IMAGE_MODEL.version, input: sdxlInput('x', { aspect_ratio: '16:9' }) });
    expect(sdxl.status).toBe(422);
  });

  it('honours aspect ratio sizes, num_outputs and seeds: the same seed and input give the same bytes', async () => {
    const run = async (extra: Record<string, unknown>) => {
      const res = await api('POST', '/v1/predictions', { version: IMAGE_MODEL.version, input: sdxlInput('same seed', extra) }, TOKEN, { Prefer: 'wait' });
      expect(res.json.status).toBe('succeeded');
      return Promise.all((res.json.output as string[]).map(async (u) => Buffer.from(await (await fetch(u)).arrayBuffer())));
    };
    const [a, b] = [await run({ width: 1024, height: 576, num_outputs: 2, seed: 7 }), await run({ width: 1024, height: 576, num_outputs: 2, seed: 7 })];
    expect(a).toHaveLength(2);
    expect(a[0]!.equals(b[0]!)).toBe(true);
    expect(a[1]!.equals(b[1]!)).toBe(true);
    expect(a[0]!.equals(a[1]!)).toBe(false);
    expect(a[0]!.readUInt32BE(16)).toBe(1024);
    expect(a[0]!.readUInt32BE(20)).toBe(576);
    const [other] = await run({ width: 1024, height: 576, num_outputs: 1, seed: 8 });
    expect(other!.equals(a[0]!)).toBe(false);
  });

  it('seeds one generator for a whole batch, as SDXL and FLUX do: image 1 is seed 7 alone, image 2 is not seed 8', async () => {
    const run = async (extra: Record<string, unknown>) => {
      const res = await api('POST', '/v1/predictions', { version: IMAGE_MODEL.version, input: sdxlInput('one generator', extra) }, TOKEN, { Prefer: 'wait' });
      expect(res.json.status).toBe('succeeded');
      return Promise.all((res.json.output as string[]).map(async (u) => Buffer.from(await (await fetch(u)).arrayBuffer())));
    };
    const batch = await run({ num_outputs: 2, seed: 7 });
    const [seven] = await run({ num_outputs: 1, seed: 7 });
    const [eight] = await run({ num_outputs: 1, seed: 8 });
    expect(seven!.equals(batch[0]!)).toBe(true);
    expect(eight!.equals(batch[1]!)).toBe(false);
    // The picture follows the input, not the seed alone.
    const [negative] = await run({ num_outputs: 1, seed: 7, negative_prompt: 'blurry' });
    expect(negative!.equals(seven!)).toBe(false);
  });

  it('rejects a missing prompt and a bad refine', async () => {
    const res = await api('POST', '/v1/predictions', { version: IMAGE_MODEL.version, input: { refine: 'super' } });
    expect(res.status).toBe(422);
    const fields = (res.json.invalid_fields as { field: string; type: string }[]).map((f) => `${f.type}:${f.field}`);
    expect(fields).toEqual(expect.arrayContaining(['required:input', 'enum:input.refine']));
  });

  it('rejects a bad Pixverse quality and 1080p at 8 s', async () => {
    const bad = await api('POST', `/v1/models/${PIXVERSE}/predictions`, { input: { prompt: 'x', quality: '4k' } });
    expect(bad.status).toBe(422);
    expect(bad.json.invalid_fields).toEqual([expect.objectContaining({ field: 'input.quality' })]);
    const long = await api('POST', `/v1/models/${PIXVERSE}/predictions`, { input: { prompt: 'x', quality: '1080p', duration: 8 } });
    expect(long.status).toBe(422);
    expect(long.json.invalid_fields).toEqual([expect.objectContaining({ field: 'input.duration' })]);
  });

  it('rejects Wan i2v without an image, and Wan frame counts and rates outside the real ranges', async () => {
    const noImage = await api('POST', `/v1/models/${WAN_I2V}/predictions`, { input: { prompt: 'x' } });
    expect(noImage.status).toBe(422);
    expect(noImage.json.detail).toContain('image is required');
    const frames = await api('POST', `/v1/models/${WAN_T2V}/predictions`, { input: { prompt: 'x', num_frames: 160, frames_per_second: 4 } });
    expect(frames.status).toBe(422);
    expect((frames.json.invalid_fields as { field: string }[]).map((f) => f.field).sort()).toEqual(['input.frames_per_second', 'input.num_frames']);
    const area = await api('POST', `/v1/models/${WAN_I2V}/predictions`, { input: { prompt: 'x', image: `${receiverUrl}/start.png`, max_area: '1280x720' } });
    expect(area.status).toBe(422);
  });

  it('rejects Pixverse smooth motion at 8 s and a last frame without a first', async () => {
    const smooth = await api('POST', `/v1/models/${PIXVERSE}/predictions`, { input: { prompt: 'x', duration: 8, motion_mode: 'smooth' } });
    expect(smooth.status).toBe(422);
    expect(smooth.json.invalid_fields).toEqual([expect.objectContaining({ field: 'input.motion_mode' })]);
    const last = await api('POST', `/v1/models/${PIXVERSE}/predictions`, { input: { prompt: 'x', last_frame_image: `${receiverUrl}/start.png` } });
    expect(last.status).toBe(422);
  });
});

describe('output lifetime', () => {
  it('serves outputs until the TTL, then 404', async () => {
    const done = await settle((await createSdxl(sdxlInput('short lived'))).id);
    const url = (done.output as string[])[0]!;
    expect((await download(url)).status).toBe(200);
    sim.setTimings({ outputTtlMs: 100 });
    try {
      await new Promise((r) => setTimeout(r, 150));
      expect((await download(url)).status).toBe(404);
      expect((await api('GET', `/v1/predictions/${done.id}`)).json.data_removed).toBe(true);
    } finally {
      sim.setTimings({ outputTtlMs: 3_600_000 });
    }
  });
});

describe('video', () => {
  it('Wan t2v gives a 5 s (81 frames at 16 fps) 832x480 H.264 MP4 as one URL', async () => {
    const p = await createModel(WAN_T2V, { prompt: 'A paper boat on a river', num_frames: 81, frames_per_second: 16 });
    expect(p.version).toBe('hidden');
    const done = await settle(p.id);
    expect(done.status).toBe('succeeded');
    expect(typeof done.output).toBe('string');
    const file = await download(done.output as string);
    expect(file.type).toBe('video/mp4');
    expect(file.length).toBe(file.bytes.length);
    const info = mp4Info(file.bytes);
    expect(info.first).toBe('ftyp');
    expect(info.h264).toBe(true);
    expect(Math.abs(info.seconds - 81 / 16)).toBeLessThanOrEqual(1 / 16);
    expect([info.width, info.height]).toEqual([832, 480]);
  });

  it('Wan t2v renders the frame count and rate it is asked for (40 at 24 fps), and 9:16 portrait by default length', async () => {
    const [short, portrait] = await Promise.all([
      createModel(WAN_T2V, { prompt: 'A quick take', num_frames: 40, frames_per_second: 24 }),
      createModel(WAN_T2V, { prompt: 'Portrait clip', aspect_ratio: '9:16' }),
    ]);
    const [dShort, dPortrait] = [await settle(short.id), await settle(portrait.id)];
    const shortFile = (await download(dShort.output as string)).bytes;
    expect(await tools.probe(shortFile)).toMatchObject({ frames: 40, fps: 24, width: 832, height: 480 });
    expect(Math.abs(mp4Info(shortFile).seconds - 40 / 24)).toBeLessThanOrEqual(1 / 24);
    const iPortrait = mp4Info((await download(dPortrait.output as string)).bytes);
    expect(Math.abs(iPortrait.seconds - 81 / 16)).toBeLessThanOrEqual(1 / 16);
    expect([iPortrait.width, iPortrait.height]).toEqual([480, 832]);
  });

  it('Wan i2v builds the clip from the start image, fitted into max_area in multiples of 16', async () => {
    const p = await createModel(WAN_I2V, { prompt: 'It starts to rain', image: `${receiverUrl}/portrait.png`, max_area: '480x832' });
    const done = await settle(p.id);
    expect(done.status).toBe('succeeded');
    const info = mp4Info((await download(done.output as string)).bytes);
    // 480x768 (5:8) within 832*480 px: sqrt(399360 * 5/8) = 499.6 -> 496, sqrt(399360 * 8/5) = 799.3 -> 784.
    expect([info.width, info.height]).toEqual([496, 784]);
    expect(Math.abs(info.seconds - 81 / 16)).toBeLessThanOrEqual(1 / 16);
  });

  it('Pixverse 540p / 5 s gives a 960x540 MP4, and with a square start image a square one', async () => {
    const [plain, square] = await Promise.all([
      createModel(PIXVERSE, { prompt: 'A neon city at night', quality: '540p', duration: 5 }),
      createModel(PIXVERSE, { prompt: 'From a square', quality: '360p', duration: 8, image: `${receiverUrl}/start.png` }),
    ]);
    const done = await settle(plain.id);
    expect(done.status).toBe('succeeded');
    const info = mp4Info((await download(done.output as string)).bytes);
    expect([info.width, info.height]).toEqual([960, 540]);
    expect(info.seconds).toBeCloseTo(5, 1);
    const sq = mp4Info((await download((await settle(square.id)).output as string)).bytes);
    expect([sq.width, sq.height]).toEqual([360, 360]);
    expect(sq.seconds).toBeCloseTo(8, 1);
  });
});

describe('the official replicate client', () => {
  it('creates, reads and cancels predictions against the simulator', async () => {
    const client = new Replicate({ auth: TOKEN, baseUrl: `${sim.url}/v1` });
    const p = await client.predictions.create({ version: IMAGE_MODEL.version, input: sdxlInput('via the client') });
    expect(p.status).toBe('starting');
    const done = await client.wait(p, { interval: 50 });
    expect(done.status).toBe('succeeded');
    expect((await client.predictions.get(p.id)).output).toEqual(done.output);
    const video = await client.predictions.create({ model: WAN_T2V, input: { prompt: 'client video' } });
    expect((await client.predictions.cancel(video.id)).status).toBe('canceled');
    await expect(client.predictions.create({ model: PIXVERSE, input: { prompt: 'x', quality: '1080p', duration: 8 } })).rejects.toMatchObject({
      response: { status: 422 },
    });
  });
});

describe('test hooks', () => {
  it('signWebhook matches an independent Standard Webhooks signature', () => {
    const body = '{"id":"abc"}';
    const expected = createHmac('sha256', Buffer.from(SECRET.slice(6), 'base64')).update(`msg_1.1700000000.${body}`).digest('base64');
    expect(signWebhook(SECRET, 'msg_1', 1700000000, body)).toBe(`v1,${expected}`);
  });


  it('lists the predictions it made', () => {
    const all = sim.predictions();
    expect(all.length).toBeGreaterThan(10);
    expect(all.every((p) => typeof p.id === 'string' && typeof p.status === 'string')).toBe(true);
  });
});
