/**
 * Real media for the simulator's outputs:
 * - images: PNGs drawn with sharp (an SVG pattern whose colours and layout derive from the batch's seeded draws,
 *   with the prompt written on it), or, with a start image, the start image tinted and overlaid with that pattern;
 * - videos: H.264 MP4s encoded by ffmpeg (the static build in @ffmpeg-installer, as the functions use) at the frame
 *   count and rate the model was asked for. Frames pan, shift colour and carry moving discs; with a start image
 *   they are built from it.
 *
 * Nothing is cached across predictions (sharp's own font cache aside).
 */
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { BITEXACT_H264, runFfmpeg } from '../../lambdas/adapters/ffmpeg';
import { escapeHtml } from '../shared/http';

/** The largest start image accepted, in bytes. */
export const MAX_START_IMAGE_DOWNLOAD = 20 * 1024 * 1024;

export class MediaError extends Error {}

function hashBytes(...parts: (string | number)[]): Buffer {
  return createHash('sha256').update(parts.map(String).join('\u0000')).digest();
}

/** Text for SVG: the control characters XML forbids become spaces, then markup characters are escaped. */
function escapeXml(s: string): string {
  // eslint-disable-next-line no-control-regex
  return escapeHtml(s.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, ' '));
}

function wrap(text: string, perLine: number, maxLines: number): string[] {
  const words = text.replace(/\s+/g, ' ').trim().split(' ');
  const lines: string[] = [];
  let line = '';
  for (const w0 of words) {
    const w = w0.length > perLine ? `${w0.slice(0, perLine - 1)}…` : w0;
    if (!line) line = w;
    else if (line.length + 1 + w.length <= perLine) line += ` ${w}`;
    else {
      lines.push(line);
      line = w;
    }
  }
  if (line) lines.push(line);
  if (lines.length > maxLines) {
    const kept = lines.slice(0, maxLines);
    kept[maxLines - 1] = `${kept[maxLines - 1]!.slice(0, perLine - 1)}…`;
    return kept;
  }
  return lines;
}

interface PatternOptions {
  width: number;
  height: number;
  hash: Buffer;
  prompt: string;
  /** Draw the gradient background (false over a start image). */
  background: boolean;
  /** Opacity of shapes (0..1). */
  shapeOpacity: number;
  /** Opacity of a full-frame tint in the palette's hue (0 = none). */
  tint: number;
  /** Write the prompt on the picture. */
  text: boolean;
}

/** An SVG whose palette and layout derive from `hash`. */
function patternSvg(o: PatternOptions): string {
  const { width: w, height: h, hash } = o;
  const byte = (i: number) => hash[i % hash.length]!;
  const hue1 = Math.round((byte(0) / 255) * 360);
  const hue2 = (hue1 + 60 + Math.round((byte(1) / 255) * 120)) % 360;
  const hue3 = (hue1 + 180) % 360;
  const angle = byte(2) % 4;
  const [x2, y2] = [
    ['100%', '0%'],
    ['100%', '100%'],
    ['0%', '100%'],
    ['0%', '0%'],
  ][angle]!;
  const parts: string[] = [];
  parts.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}">`);
  parts.push(
    `<defs><linearGradient id="g" x1="${angle === 3 ? '100%' : '0%'}" y1="0%" x2="${x2}" y2="${y2}">` +
      `<stop offset="0%" stop-color="hsl(${hue1},70%,45%)"/><stop offset="100%" stop-color="hsl(${hue2},75%,60%)"/>` +
      `</linearGradient></defs>`,
  );
  if (o.background) parts.push(`<rect width="${w}" height="${h}" fill="url(#g)"/>`);
  if (o.tint > 0) parts.push(`<rect width="${w}" height="${h}" fill="hsl(${hue1},80%,50%)" fill-opacity="${o.tint}"/>`);
  const shapes = 5 + (byte(3) % 4);
  for (let i = 0; i < shapes; i++) {
    const b = 4 + i * 4;
    const cx = Math.round((byte(b) / 255) * w);
    const cy = Math.round((byte(b + 1) / 255) * h);
    const size = Math.round(((byte(b + 2) / 255) * 0.22 + 0.06) * Math.min(w, h));
    const hue = [hue1, hue2, hue3][i % 3]!;
    const fill = `hsl(${hue},${60 + (byte(b + 3) % 30)}%,${35 + (byte(b + 3) % 40)}%)`;
    if (byte(b + 3) % 2 === 0) {
      parts.push(`<circle cx="${cx}" cy="${cy}" r="${size}" fill="${fill}" fill-opacity="${o.shapeOpacity}"/>`);
    } else {
      const rot = byte(b + 2) % 90;
      parts.push(
        `<rect x="${cx - size}" y="${cy - size}" width="${size * 2}" height="${size * 2}" rx="${Math.round(size / 5)}" ` +
          `transform="rotate(${rot} ${cx} ${cy})" fill="${fill}" fill-opacity="${o.shapeOpacity}"/>`,
      );
    }
  }
  if (o.text && o.prompt.trim()) {
    const fontSize = Math.max(12, Math.round(Math.min(w, h) / 24));
    const perLine = Math.max(8, Math.floor((w * 0.9) / (fontSize * 0.6)));
    const lines = wrap(o.prompt, perLine, 4);
    const lineH = Math.round(fontSize * 1.3);
    const boxH = lines.length * lineH + fontSize;
    const top = h - boxH - Math.round(h * 0.04);
    parts.push(`<rect x="0" y="${top}" width="${w}" height="${boxH}" fill="black" fill-opacity="0.35"/>`);
    lines.forEach((line, i) => {
      parts.push(
        `<text x="${Math.round(w / 2)}" y="${top + Math.round(fontSize * 0.5) + lineH * (i + 1) - Math.round(lineH * 0.25)}" ` +
          `font-family="DejaVu Sans, Arial, sans-serif" font-size="${fontSize}" fill="white" text-anchor="middle">${escapeXml(line)}</text>`,
      );
    });
  }
  parts.push('</svg>');
  return parts.join('');
}

/** Downloads a start image (http(s) with `fetchImpl`, or a data: URI) and checks it decodes. */
export async function downloadImage(url: string, fetchImpl: typeof fetch): Promise<Buffer> {
  let buf: Buffer;
  const data = /^data:([^,]*?)(;base64)?,(.*)$/s.exec(url);
  if (data) {
    buf = data[2] ? Buffer.from(data[3]!, 'base64') : Buffer.from(decodeURIComponent(data[3]!), 'latin1');
  } else {
    let res: Response;
    try {
      res = await fetchImpl(url, { signal: AbortSignal.timeout(20_000) });
    } catch (err) {
      throw new MediaError(`Failed to download input image from ${url}: ${(err as Error).message}`);
    }
    if (!res.ok) throw new MediaError(`Failed to download input image from ${url}: HTTP ${res.status}`);
    const declared = Number(res.headers.get('content-length') ?? '0');
    if (declared > MAX_START_IMAGE_DOWNLOAD) throw new MediaError(`Input image at ${url} is too large (${declared} bytes)`);
    buf = Buffer.from(await res.arrayBuffer());
  }
  if (buf.length > MAX_START_IMAGE_DOWNLOAD) throw new MediaError(`Input image at ${url} is too large (${buf.length} bytes)`);
  try {
    const meta = await sharp(buf).metadata();
    if (!meta.width || !meta.height) throw new Error('no dimensions');
  } catch {
    throw new MediaError(`Input image at ${url} could not be read as an image`);
  }
  return buf;
}

/** The size SDXL img2img would produce: the start image's own size, in multiples of 8 (long side at most 2048). */
export async function startImageSize(img: Buffer): Promise<{ width: number; height: number }> {
  const meta = await sharp(img).rotate().metadata();
  let w = meta.autoOrient?.width ?? meta.width ?? 768;
  let h = meta.autoOrient?.height ?? meta.height ?? 768;
  const scale = Math.min(1, 2048 / Math.max(w, h));
  w = Math.max(64, Math.floor((w * scale) / 8) * 8);
  h = Math.max(64, Math.floor((h * scale) / 8) * 8);
  return { width: w, height: h };
}

/** An image's own pixel size (after its EXIF orientation). */
export async function exactImageSize(img: Buffer): Promise<{ width: number; height: number }> {
  const meta = await sharp(img).rotate().metadata();
  return { width: meta.autoOrient?.width ?? meta.width ?? 1, height: meta.autoOrient?.height ?? meta.height ?? 1 };
}

/** Real-ESRGAN's output: the image at `scale` times its size (its `outscale` resize), as PNG. */
export async function upscaleImage(img: Buffer, scale: number): Promise<Buffer> {
  const { width, height } = await exactImageSize(img);
  return sharp(img)
    .rotate()
    .resize(Math.max(1, Math.round(width * scale)), Math.max(1, Math.round(height * scale)), { kernel: 'lanczos3' })
    .png()
    .toBuffer();
}

/**
 * The random draws of one prediction's batch, as SDXL and FLUX make them on Replicate: ONE generator seeded once for
 * the whole batch (`num_outputs` images), its noise drawn image after image. So the batch's first image is the one a
 * batch of one with that seed makes, and image k is NOT the image of seed + k: it exists only at place k of its batch.
 * `context`: what else the picture depends on (the model, its prompt and the inputs that change it).
 */
export function batchDraws(seed: number, context: readonly (string | number)[], count: number): Buffer[] {
  const generator = hashBytes('generator', seed, ...context);
  return Array.from({ length: count }, (_, k) => hashBytes('draw', generator.toString('hex'), k));
}

export interface ImageSpec {
  width: number;
  height: number;
  prompt: string;
  /** This image's draw from its batch's generator (batchDraws). */
  draw: Buffer;
  /** img2img: the downloaded start image. */
  startImage?: Buffer;
  /** 0..1: how strongly the pattern covers the start image (SDXL's prompt_strength). */
  promptStrength?: number;
}

/** One SDXL-like PNG. */
export async function renderImage(spec: ImageSpec): Promise<Buffer> {
  const hash = spec.draw;
  if (!spec.startImage) {
    const svg = patternSvg({ width: spec.width, height: spec.height, hash, prompt: spec.prompt, background: true, shapeOpacity: 0.85, tint: 0, text: true });
    return sharp(Buffer.from(svg)).png().toBuffer();
  }
  const strength = spec.promptStrength ?? 0.8;
  const svg = patternSvg({
    width: spec.width,
    height: spec.height,
    hash,
    prompt: spec.prompt,
    background: false,
    shapeOpacity: 0.1 + 0.3 * strength,
    tint: 0.05 + 0.1 * strength,
    text: true,
  });
  return sharp(spec.startImage)
    .rotate()
    .resize(spec.width, spec.height, { fit: 'cover' })
    .composite([{ input: Buffer.from(svg) }])
    .png()
    .toBuffer();
}

export interface VideoSpec {
  width: number;
  height: number;
  /** How many frames, at which rate (the model's num_frames and frames_per_second, or its fixed rate). */
  frames: number;
  fps: number;
  prompt: string;
  seed: number;
  startImage?: Buffer;
  /** The ffmpeg binary to encode with. */
  ffmpeg: string;
  signal?: AbortSignal;
}

export interface VideoResult {
  mp4: Buffer;
  fps: number;
  frames: number;
  ms: number;
}

/** The first frame, as a PNG of width x height. */
async function baseFrame(spec: VideoSpec, hash: Buffer): Promise<Buffer> {
  const { width: w, height: h } = spec;
  const overlay = patternSvg({
    width: w,
    height: h,
    hash,
    prompt: spec.prompt,
    background: !spec.startImage,
    shapeOpacity: spec.startImage ? 0.2 : 0.8,
    tint: spec.startImage ? 0.08 : 0,
    text: true,
  });
  const img = spec.startImage
    ? sharp(spec.startImage).rotate().resize(w, h, { fit: 'cover' }).composite([{ input: Buffer.from(overlay) }])
    : sharp(Buffer.from(overlay));
  return img.png().toBuffer();
}

/** A half-transparent disc of this colour, as a PNG. */
function discPng(r: number, rgb: readonly [number, number, number]): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${2 * r}" height="${2 * r}"><circle cx="${r}" cy="${r}" r="${r}" fill="rgb(${rgb.join(',')})" fill-opacity="0.5"/></svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

/**
 * An animated H.264 MP4 of exactly `frames` frames at `fps`, encoded by ffmpeg from a still: the picture pans and
 * shifts colour, three discs move over it and a bar along the bottom grows with time. Bit-exact: the same spec
 * gives the same bytes (one thread, no version strings), as a seeded model gives the same clip.
 */
export async function renderVideo(spec: VideoSpec): Promise<VideoResult> {
  const t0 = Date.now();
  const { width: w, height: h, fps, frames } = spec;
  if (w % 2 || h % 2) throw new Error('video dimensions must be even');
  const hash = hashBytes('video', spec.prompt, spec.seed);
  const dir = await mkdtemp(join(tmpdir(), 'fw-sim-video-'));
  try {
    const discs = [0, 1, 2].map((i) => {
      const b = (k: number) => hash[(10 + i * 5 + k) % hash.length]!;
      return { r: Math.round(Math.min(w, h) * (0.06 + (b(0) / 255) * 0.08)), rgb: [b(1), b(2), b(3)] as const, phase: b(4) / 255, speed: 0.5 + (i % 2) * 0.5 };
    });
    await writeFile(join(dir, 'base.png'), await baseFrame(spec, hash));
    await Promise.all(discs.map(async (d, i) => writeFile(join(dir, `disc-${i}.png`), await discPng(d.r, d.rgb))));
    const seconds = frames / fps;
    const barH = Math.max(2, Math.round(h / 120)) & ~1;
    const still = (file: string) => ['-loop', '1', '-framerate', String(fps), '-i', join(dir, file)];
    // Pan: the picture beside itself, a moving crop; then a hue swing; then the discs and the growing bar on top.
    const graph = [
      `[0:v]split[a][b];[a][b]hstack,crop=${w}:${h}:x='${w}*0.05*(1+sin(2*PI*t/${seconds}))':y=0,hue=H='0.6*sin(2*PI*t/${seconds})'[v0]`,
      ...discs.map(
        (d, i) =>
          `[v${i}][${i + 1}:v]overlay=x='W*(0.5+0.38*sin(2*PI*(t/${seconds}*${d.speed}+${d.phase.toFixed(4)})))-w/2':y='H*(0.45+0.3*cos(2*PI*(t/${seconds}*${d.speed}+${d.phase.toFixed(4)})*1.3))-h/2'[v${i + 1}]`,
      ),
      `color=c=white:s=${w}x${barH}:r=${fps}[bar];[v3][bar]overlay=x='-W+W*t/${seconds}':y=H-h[out]`,
    ].join(';');
    const out = join(dir, 'out.mp4');
    if (spec.signal?.aborted) throw new MediaError('canceled');
    try {
      await runFfmpeg(
        spec.ffmpeg,
        ['-loglevel', 'error', ...still('base.png'), ...discs.flatMap((_, i) => still(`disc-${i}.png`)), '-filter_complex', graph, '-map', '[out]', '-frames:v', String(frames), '-r', String(fps), '-preset', 'ultrafast', '-crf', '30', ...BITEXACT_H264, out],
        { timeoutMs: 120_000, ...(spec.signal ? { signal: spec.signal } : {}) },
      );
    } catch (err) {
      if (spec.signal?.aborted) throw new MediaError('canceled');
      throw err;
    }
    return { mp4: await readFile(out), fps, frames, ms: Date.now() - t0 };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
