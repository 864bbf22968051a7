/**
 * Renders the looping, muted background clip beside the login and signup forms
 * (web/public/media/auth-loop.mp4 and its poster auth-loop.webp). The output is committed; run this only
 * to change the clip: `npx tsx scripts/render-auth-video.ts`.
 *
 * Soft brand-coloured light drifting over the canvas colour: every motion is periodic in the clip's
 * length, so the loop has no seam. Frames are SVG drawn by sharp, encoded to H.264 by h264-mp4-encoder.
 */
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';

const W = 540;
const H = 720;
const FPS = 24;
const SECONDS = 8;
const OUT = path.resolve(__dirname, '..', 'web', 'public', 'media');

interface Blob {
  color: string;
  r: number;
  /** Centre (fractions of the frame), amplitude and number of turns per loop on each axis. */
  cx: number;
  cy: number;
  ax: number;
  ay: number;
  kx: number;
  ky: number;
  phase: number;
}

const BLOBS: Blob[] = [
  { color: '#6d4cf5', r: 0.62, cx: 0.3, cy: 0.3, ax: 0.18, ay: 0.12, kx: 1, ky: 1, phase: 0 },
  { color: '#22d3ee', r: 0.5, cx: 0.72, cy: 0.62, ax: 0.16, ay: 0.18, kx: 1, ky: 2, phase: 0.35 },
  { color: '#b9a8ff', r: 0.36, cx: 0.45, cy: 0.82, ax: 0.22, ay: 0.08, kx: 2, ky: 1, phase: 0.6 },
  { color: '#7c5cff', r: 0.42, cx: 0.82, cy: 0.18, ax: 0.1, ay: 0.14, kx: 1, ky: 1, phase: 0.8 },
];

function frameSvg(t: number): string {
  const tau = 2 * Math.PI;
  const defs = BLOBS.map(
    (b, i) =>
      `<radialGradient id="g${i}"><stop offset="0" stop-color="${b.color}" stop-opacity="0.85"/>` +
      `<stop offset="1" stop-color="${b.color}" stop-opacity="0"/></radialGradient>`,
  ).join('');
  const circles = BLOBS.map((b, i) => {
    const x = (b.cx + b.ax * Math.sin(tau * (b.kx * t + b.phase))) * W;
    const y = (b.cy + b.ay * Math.cos(tau * (b.ky * t + b.phase))) * H;
    const r = b.r * W * (1 + 0.08 * Math.sin(tau * (t + b.phase)));
    return `<circle cx="${x.toFixed(1)}" cy="${y.toFixed(1)}" r="${r.toFixed(1)}" fill="url(#g${i})"/>`;
  }).join('');
  // A faint frame motif, the product's mark, turning once per loop.
  const angle = (360 * t).toFixed(2);
  const frame =
    `<g transform="translate(${W / 2} ${H / 2}) rotate(${angle})" fill="none" stroke="#ededf5" stroke-opacity="0.12" stroke-width="3">` +
    `<rect x="-120" y="-120" width="240" height="240" rx="36"/><rect x="-84" y="-84" width="168" height="168" rx="24"/></g>`;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}"><defs>${defs}</defs>` +
    `<rect width="100%" height="100%" fill="#0a0a10"/>${circles}${frame}</svg>`
  );
}

async function rgba(t: number): Promise<Buffer> {
  const { data } = await sharp(Buffer.from(frameSvg(t))).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return data;
}

async function main() {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { createH264MP4Encoder } = require('h264-mp4-encoder') as typeof import('h264-mp4-encoder');
  const encoder = await createH264MP4Encoder();
  encoder.width = W;
  encoder.height = H;
  encoder.frameRate = FPS;
  encoder.quantizationParameter = 33;
  encoder.groupOfPictures = FPS * 2;
  encoder.initialize();
  const frames = FPS * SECONDS;
  for (let f = 0; f < frames; f++) encoder.addFrameRgba(await rgba(f / frames));
  encoder.finalize();
  fs.mkdirSync(OUT, { recursive: true });
  const mp4 = Buffer.from(encoder.FS.readFile(encoder.outputFilename));
  fs.writeFileSync(path.join(OUT, 'auth-loop.mp4'), mp4);
  encoder.delete();
  await sharp(Buffer.from(frameSvg(0))).webp({ quality: 70 }).toFile(path.join(OUT, 'auth-loop.webp'));
  console.log(`auth-loop.mp4: ${frames} frames, ${(mp4.length / 1024).toFixed(0)} KiB`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
