/**
 * `npm run showcase`: renders every entry of contract/showcase.ts (the public site's clips and stills) through the
 * configured provider and writes them under web/public/media, with a poster (first frame, WebP) per clip:
 *
 * - with REPLICATE_API_TOKEN: real Replicate (api.replicate.com, or REPLICATE_BASE_URL), the models' real output;
 * - without it: the local Replicate simulator, started here: placeholders (moving shapes and the prompt's text).
 *
 * The inputs are the ones the app sends for the same settings (the image model's settings from contract/catalog.ts,
 * the video models' from lambdas/app/start-video-generation.ts). It then writes
 * web/src/features/marketing/showcase-renders.ts (provider, model, prediction, size of each file), from which the
 * pages' captions know whether the media are placeholders. Posters are the clip's first frame as Chromium decodes
 * it (CHROME_PATH, default /usr/bin/chromium). SHOWCASE_ONLY=<id,...> renders some entries only.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import Replicate, { type Prediction } from 'replicate';
import sharp from 'sharp';
import { IMAGE_MODEL, maxRunMsOf } from '../contract/catalog';
import { SHOWCASE_ITEMS, type ShowcaseClip, type ShowcaseItem, type ShowcaseRender } from '../contract/showcase';
import { modelOfReplicate, resolveOptions } from '../contract/models';
import { startReplicateSimulator } from '../local/replicate-sim';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from '../test/support/chromium';
import { mp4Info } from '../test/support/mp4';

const ROOT = path.resolve(__dirname, '..');
const PUBLIC = path.join(ROOT, 'web', 'public');
const RENDERS_FILE = path.join(ROOT, 'web', 'src', 'features', 'marketing', 'showcase-renders.ts');
const out = (publicPath: string) => path.join(PUBLIC, publicPath);

interface Provider {
  name: ShowcaseRender['provider'];
  client: Replicate;
  close(): Promise<void>;
}

async function provider(): Promise<Provider> {
  const token = process.env.REPLICATE_API_TOKEN;
  if (token) {
    const baseUrl = process.env.REPLICATE_BASE_URL ?? 'https://api.replicate.com/v1';
    console.log(`Rendering with Replicate (${baseUrl}): real model output, billed to your account.`);
    return { name: 'replicate', client: new Replicate({ auth: token, baseUrl }), close: async () => undefined };
  }
  const apiToken = `r8_showcase_${randomBytes(8).toString('hex')}`;
  const sim = await startReplicateSimulator({
    host: '127.0.0.1',
    apiToken,
    webhookSecret: `whsec_${randomBytes(24).toString('base64')}`,
    imageMs: 200,
    videoMs: 500,
  });
  console.log('No REPLICATE_API_TOKEN: rendering placeholders with the local Replicate simulator.');
  return { name: 'simulator', client: new Replicate({ auth: apiToken, baseUrl: `${sim.url}/v1` }), close: () => sim.close() };
}

/**
 * A still a clip starts from: the provider's own output URL (valid for about an hour, like the presigned URL the app
 * sends), so the provider fetches it as it fetches our uploads.
 */
interface StartImage {
  url: string;
  width: number;
  height: number;
}

/** The model's input for an entry, as the app builds it for the same settings (the model registry's plan). */
function inputFor(item: ShowcaseItem, startImage?: StartImage): Record<string, unknown> {
  const def = modelOfReplicate(item.kind === 'image' ? IMAGE_MODEL.id : item.model);
  if (!def) throw new Error(`${item.id}: no model ${item.kind === 'image' ? IMAGE_MODEL.id : item.model} in contract/models`);
  const given = item.kind === 'image' ? { seed: item.seed } : { duration: item.duration, seed: item.seed, ...(item.quality ? { quality: item.quality } : {}) };
  const resolved = resolveOptions(def, given, () => item.seed);
  if (!resolved.ok) throw new Error(`${item.id}: ${resolved.reason}`);
  const plan = def.plan(resolved.options, item.prompt, Boolean(item.kind === 'video' && item.startImage));
  const input: Record<string, unknown> = { ...plan.input };
  if (item.kind === 'video' && item.startImage) {
    if (!startImage) throw new Error(`${item.id}: its start image ${item.startImage} was not rendered`);
    Object.assign(input, plan.inputForImage?.(startImage) ?? {}, { image: startImage.url });
  }
  return input;
}

async function run(p: Provider, item: ShowcaseItem, input: Record<string, unknown>): Promise<{ prediction: Prediction; url: string; output: Buffer }> {
  const created =
    item.kind === 'image'
      ? await p.client.predictions.create({ version: IMAGE_MODEL.version, input })
      : await p.client.predictions.create({ model: item.model, input });
  const model = item.kind === 'image' ? IMAGE_MODEL.id : item.model;
  const deadline = Date.now() + maxRunMsOf(model) + 60_000;
  const prediction = await p.client.wait(created, { interval: 2_000 }, async () => Date.now() > deadline);
  if (prediction.status !== 'succeeded') throw new Error(`${item.id}: the prediction ${prediction.id} ended ${prediction.status}: ${String(prediction.error ?? '')}`);
  const url = Array.isArray(prediction.output) ? prediction.output[0] : prediction.output;
  if (typeof url !== 'string') throw new Error(`${item.id}: the prediction ${prediction.id} has no output URL`);
  const res = await fetch(url);
  if (!res.ok) throw new Error(`${item.id}: downloading ${url} answered ${res.status}`);
  return { prediction, url, output: Buffer.from(await res.arrayBuffer()) };
}

/** The first frame of an MP4 as PNG, decoded by Chromium (the browser the site's visitors use, not our own parser). */
async function firstFrame(browser: import('playwright-core').Browser, mp4: Buffer): Promise<Buffer> {
  const page = await browser.newPage();
  try {
    // Served from memory on one origin (a canvas fed from a file:// page is tainted and cannot be read back).
    await page.route('http://showcase.local/**', (route) =>
      route.request().url().endsWith('/clip.mp4')
        ? route.fulfill({ status: 200, contentType: 'video/mp4', body: mp4 })
        : route.fulfill({ status: 200, contentType: 'text/html', body: '<video src="/clip.mp4" muted playsinline preload="auto"></video>' }),
    );
    await page.goto('http://showcase.local/');
    const png = await page.evaluate(async () => {
      const video = document.querySelector('video')!;
      if (video.readyState < 2)
        await new Promise((resolve, reject) => {
          video.addEventListener('loadeddata', resolve, { once: true });
          video.addEventListener('error', () => reject(new Error(`the browser cannot decode the clip (${video.error?.message ?? 'unknown'})`)), { once: true });
        });
      const canvas = document.createElement('canvas');
      canvas.width = video.videoWidth;
      canvas.height = video.videoHeight;
      canvas.getContext('2d')!.drawImage(video, 0, 0);
      return canvas.toDataURL('image/png').split(',')[1]!;
    });
    return Buffer.from(png, 'base64');
  } finally {
    await page.close();
  }
}

const webp = (image: Buffer) => sharp(image).webp({ quality: 72, effort: 6 }).toBuffer();

function write(publicPath: string, data: Buffer): void {
  fs.mkdirSync(path.dirname(out(publicPath)), { recursive: true });
  fs.writeFileSync(out(publicPath), data);
}

function readRenders(): Record<string, ShowcaseRender> {
  if (!fs.existsSync(RENDERS_FILE)) return {};
  const m = /export const SHOWCASE_RENDERS[^=]*= (\{[\s\S]*\});/.exec(fs.readFileSync(RENDERS_FILE, 'utf8'));
  return m ? (JSON.parse(m[1]!) as Record<string, ShowcaseRender>) : {};
}

function writeRenders(renders: Record<string, ShowcaseRender>): void {
  fs.writeFileSync(
    RENDERS_FILE,
    `/**\n * Written by \`npm run showcase\` (scripts/showcase.ts); do not edit. What made each file of contract/showcase.ts under\n` +
      ` * web/public/media: \`simulator\` renders are placeholders (moving shapes), \`replicate\` ones the model's real output.\n */\n` +
      `import type { ShowcaseRender } from '../../../../contract/showcase';\n\n` +
      `export const SHOWCASE_RENDERS: Readonly<Record<string, ShowcaseRender>> = ${JSON.stringify(renders, null, 2)};\n`,
  );
}

async function main(): Promise<void> {
  const only = process.env.SHOWCASE_ONLY?.split(',').map((s) => s.trim());
  const items = SHOWCASE_ITEMS.filter((i) => !only || only.includes(i.id) || SHOWCASE_ITEMS.some((c) => c.kind === 'video' && only.includes(c.id) && c.startImage === i.id));
  const renders = readRenders();
  const p = await provider();
  const browser = await chromium.launch({ executablePath: process.env.CHROME_PATH ?? CHROMIUM_PATH, args: [...CHROMIUM_FLAGS] });
  const stills = new Map<string, StartImage>();
  try {
    for (const item of items) {
      const started = Date.now();
      const start = item.kind === 'video' && item.startImage ? stills.get(item.startImage) : undefined;
      const { prediction, url, output } = await run(p, item, inputFor(item, start));
      let size: { width: number; height: number };
      if (item.kind === 'image') {
        const meta = await sharp(output).metadata();
        size = { width: meta.width!, height: meta.height! };
        stills.set(item.id, { url, ...size });
        const file = await webp(output);
        write(item.file, file);
        renders[item.id] = record(p, IMAGE_MODEL.id, prediction, size, file.length);
      } else {
        const info = mp4Info(output);
        size = { width: info.width, height: info.height };
        write(item.file, output);
        const poster = await webp(await firstFrame(browser, output));
        write((item as ShowcaseClip).poster, poster);
        renders[item.id] = record(p, item.model, prediction, size, output.length);
      }
      console.log(`${item.id}: ${item.file} ${size.width}x${size.height}, ${(renders[item.id]!.bytes / 1024).toFixed(0)} kB (${prediction.id}, ${((Date.now() - started) / 1000).toFixed(1)} s)`);
    }
  } finally {
    await browser.close();
    await p.close();
  }
  writeRenders(renders);
  console.log(`Wrote ${path.relative(ROOT, RENDERS_FILE)}. Commit web/public/media and that file.`);
}

function record(p: Provider, model: string, prediction: Prediction, size: { width: number; height: number }, bytes: number): ShowcaseRender {
  return { provider: p.name, model, predictionId: prediction.id, ...size, bytes, renderedAt: new Date().toISOString() };
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
