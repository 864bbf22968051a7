/**
 * Renders the marketing pages' hero and example media (web/src/features/marketing/media.ts) with the
 * Replicate simulator's own renderers, so every picture on the public site is made by the project.
 *
 *   npx tsx scripts/render-marketing-media.ts
 *
 * Writes MP4 clips and WebP posters (the first frame) to web/public/media/. The output is deterministic
 * for a given entry (prompt and seed), so re-running it only changes files whose entry changed.
 */
import fs from 'node:fs';
import path from 'node:path';
import sharp, { type Sharp } from 'sharp';
import { renderImage, renderVideo, type VideoSpec } from '../local/replicate-sim/media';
import { EXAMPLES, HERO_CLIP, type MediaClip } from '../web/src/features/marketing/media';

const PUBLIC = path.resolve(__dirname, '..', 'web', 'public');
/** Budget per clip: the site must stay light. */
const MAX_CLIP_BYTES = 400 * 1024;

const out = (publicPath: string) => path.join(PUBLIC, publicPath);

async function writeWebp(publicPath: string, image: Sharp): Promise<number> {
  const buf = await image.webp({ quality: 72, effort: 6 }).toBuffer();
  fs.mkdirSync(path.dirname(out(publicPath)), { recursive: true });
  fs.writeFileSync(out(publicPath), buf);
  return buf.length;
}

async function renderClip(clip: MediaClip, startImage?: Buffer): Promise<void> {
  let firstFrame: Buffer | undefined;
  const spec: VideoSpec = {
    width: clip.width,
    height: clip.height,
    seconds: clip.seconds,
    prompt: clip.prompt,
    seed: clip.seed,
    startImage,
    onFrame: (rgba, index) => {
      if (index === 0) firstFrame = Buffer.from(rgba);
    },
  };
  const { mp4, frames, fps } = await renderVideo(spec);
  if (mp4.length > MAX_CLIP_BYTES) throw new Error(`${clip.video} is ${mp4.length} bytes, over the ${MAX_CLIP_BYTES}-byte budget`);
  fs.mkdirSync(path.dirname(out(clip.video)), { recursive: true });
  fs.writeFileSync(out(clip.video), mp4);
  if (!firstFrame) throw new Error(`${clip.video}: no frame rendered`);
  const posterBytes = await writeWebp(clip.poster, sharp(firstFrame, { raw: { width: clip.width, height: clip.height, channels: 4 } }));
  console.log(`${clip.video}  ${(mp4.length / 1024).toFixed(0)} kB, ${frames} frames at ${fps} fps; poster ${(posterBytes / 1024).toFixed(0)} kB`);
}

async function main(): Promise<void> {
  await renderClip(HERO_CLIP);
  for (const example of EXAMPLES) {
    let start: Buffer | undefined;
    if (example.startImage) {
      const { seed, src } = example.startImage;
      // No prompt: the simulator writes the prompt on the picture, and the clip adds its own.
      start = await renderImage({ width: example.width, height: example.height, prompt: '', seed, index: 0 });
      const bytes = await writeWebp(src, sharp(start));
      console.log(`${src}  ${(bytes / 1024).toFixed(0)} kB`);
    }
    await renderClip(example, start);
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
