/**
 * Real media for the simulator's outputs:
 * - images: PNGs drawn with sharp (an SVG pattern whose colours and layout derive from a hash of prompt + seed,
 *   with the prompt written on it), or, with a start image, the start image tinted and overlaid with that pattern;
 * - videos: H.264 MP4s encoded with `h264-mp4-encoder` (WASM, synchronous per frame), at a low frame rate to keep
 *   the CPU modest. Frames pan, shift colour and carry moving discs; with a start image they are built from it.
 *
 * Nothing is cached across predictions (sharp's own font cache aside).
 */
import { createHash, randomBytes } from 'node:crypto';
import sharp from 'sharp';
import type { H264MP4Encoder } from 'h264-mp4-encoder';
import { escapeHtml } from '../shared/http';

/** The largest start image accepted, in bytes. */
export const MAX_START_IMAGE_DOWNLOAD = 20 * 1024 * 1024;
/** Videos are encoded at most at this frame rate (the duration is kept); callers may ask for fewer to save CPU. */
export const MAX_ENCODE_FPS = 8;

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

export interface ImageSpec {
  width: number;
  height: number;
  prompt: string;
  seed: number;
  index: number;
  /** img2img: the downloaded start image. */
  startImage?: Buffer;
  /** 0..1: how strongly the pattern covers the start image (SDXL's prompt_strength). */
  promptStrength?: number;
}

/** One SDXL-like PNG. */
export async function renderImage(spec: ImageSpec): Promise<Buffer> {
  const hash = hashBytes('image', spec.prompt, spec.seed, spec.index);
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
  /** Wanted length in seconds. */
  seconds: number;
  prompt: string;
  seed: number;
  startImage?: Buffer;
  /** Encoding frame rate, 1 to MAX_ENCODE_FPS (default MAX_ENCODE_FPS). */
  fps?: number;
  signal?: AbortSignal;
  /** Debug hook: sees every RGBA frame before it is encoded. */
  onFrame?: (rgba: Buffer, index: number) => void;
}

export interface VideoResult {
  mp4: Buffer;
  fps: number;
  frames: number;
  ms: number;
}

type EncoderModule = typeof import('h264-mp4-encoder');
let encoderModule: Promise<EncoderModule> | undefined;
/**
 * Loads the encoder once. Its Emscripten runtime installs process-wide `uncaughtException` and
 * `unhandledRejection` handlers that abort the WASM module; they are removed again so that the host
 * process (npm start, jest) keeps Node's own behaviour.
 */
async function loadEncoderModule(): Promise<EncoderModule> {
  const before = {
    uncaughtException: process.listeners('uncaughtException'),
    unhandledRejection: process.listeners('unhandledRejection'),
  };
  const mod = await import('h264-mp4-encoder');
  for (const l of process.listeners('uncaughtException')) {
    if (!before.uncaughtException.includes(l)) process.removeListener('uncaughtException', l);
  }
  for (const l of process.listeners('unhandledRejection')) {
    if (!before.unhandledRejection.includes(l)) process.removeListener('unhandledRejection', l);
  }
  return mod;
}

async function createEncoder(): Promise<H264MP4Encoder> {
  encoderModule ??= loadEncoderModule();
  const mod = (await encoderModule) as EncoderModule & { default?: EncoderModule };
  const create = mod.createH264MP4Encoder ?? mod.default?.createH264MP4Encoder;
  if (!create) throw new Error('h264-mp4-encoder: createH264MP4Encoder not found');
  return create();
}

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The first frame, as raw RGBA of width x height. */
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
  // Flatten the composite first so that the raw output is exactly w x h RGBA.
  const png = await img.png().toBuffer();
  const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  if (info.width !== w || info.height !== h || info.channels !== 4) throw new Error('unexpected frame geometry');
  return data;
}

/** An animated H.264 MP4 of the asked size and length (encoded at up to MAX_ENCODE_FPS). */
export async function renderVideo(spec: VideoSpec): Promise<VideoResult> {
  const t0 = Date.now();
  const { width: w, height: h } = spec;
  if (w % 2 || h % 2) throw new Error('video dimensions must be even');
  const fps = Math.min(MAX_ENCODE_FPS, Math.max(1, Math.round(spec.fps ?? MAX_ENCODE_FPS)));
  const frames = Math.max(1, Math.round(spec.seconds * fps));
  const hash = hashBytes('video', spec.prompt, spec.seed);
  const base = await baseFrame(spec, hash);
  const frame = Buffer.alloc(base.length);
  const row = w * 4;
  const discs = [0, 1, 2].map((i) => {
    const b = (k: number) => hash[(10 + i * 5 + k) % hash.length]!;
    return {
      r: Math.round(Math.min(w, h) * (0.06 + (b(0) / 255) * 0.08)),
      rgb: [b(1), b(2), b(3)] as const,
      phase: b(4) / 255,
      speed: 0.5 + (i % 2) * 0.5,
    };
  });
  const lutR = new Uint8Array(256);
  const lutG = new Uint8Array(256);
  const lutB = new Uint8Array(256);

  if (spec.signal?.aborted) throw new MediaError('canceled');
  const encoder = await createEncoder();
  const filename = `sim-${randomBytes(6).toString('hex')}.mp4`;
  let state: 'new' | 'initialized' | 'finalized' = 'new';
  try {
    encoder.width = w;
    encoder.height = h;
    encoder.frameRate = fps;
    encoder.speed = 10;
    encoder.quantizationParameter = 30;
    encoder.groupOfPictures = fps * 2;
    encoder.outputFilename = filename;
    if (spec.signal?.aborted) throw new MediaError('canceled');
    encoder.initialize();
    state = 'initialized';
    for (let f = 0; f < frames; f++) {
      if (f > 0 && spec.signal?.aborted) throw new MediaError('canceled');
      const t = frames > 1 ? f / (frames - 1) : 0;
      // 1. pan: the base frame shifted horizontally (wrapping around).
      const dx = ((Math.round(Math.sin(2 * Math.PI * t) * w * 0.05) % w) + w) % w;
      for (let y = 0; y < h; y++) {
        const o = y * row;
        base.copy(frame, o + dx * 4, o, o + (w - dx) * 4);
        if (dx) base.copy(frame, o, o + (w - dx) * 4, o + row);
      }
      // 2. colour shift through per-frame lookup tables.
      const gains = [0, 1, 2].map((c) => 0.85 + 0.2 * Math.sin(2 * Math.PI * (t + c / 3 + hash[c]! / 255)));
      for (let v = 0; v < 256; v++) {
        lutR[v] = Math.min(255, v * gains[0]!);
        lutG[v] = Math.min(255, v * gains[1]!);
        lutB[v] = Math.min(255, v * gains[2]!);
      }
      for (let i = 0; i < frame.length; i += 4) {
        frame[i] = lutR[frame[i]!]!;
        frame[i + 1] = lutG[frame[i + 1]!]!;
        frame[i + 2] = lutB[frame[i + 2]!]!;
      }
      // 3. moving discs, blended half-transparent.
      for (const d of discs) {
        const a = 2 * Math.PI * (t * d.speed + d.phase);
        const cx = Math.round(w * (0.5 + 0.38 * Math.sin(a)));
        const cy = Math.round(h * (0.45 + 0.3 * Math.cos(a * 1.3)));
        const r2 = d.r * d.r;
        for (let y = Math.max(0, cy - d.r); y < Math.min(h, cy + d.r); y++) {
          for (let x = Math.max(0, cx - d.r); x < Math.min(w, cx + d.r); x++) {
            if ((x - cx) ** 2 + (y - cy) ** 2 > r2) continue;
            const i = (y * w + x) * 4;
            frame[i] = (frame[i]! + d.rgb[0]) >> 1;
            frame[i + 1] = (frame[i + 1]! + d.rgb[1]) >> 1;
            frame[i + 2] = (frame[i + 2]! + d.rgb[2]) >> 1;
          }
        }
      }
      // 4. a progress bar along the bottom edge.
      const barH = Math.max(2, Math.round(h / 120)) & ~1;
      frame.fill(255, (h - barH) * row, (h - barH) * row + Math.round(t * w) * 4);
      for (let y = h - barH + 1; y < h; y++) frame.copy(frame, y * row, (h - barH) * row, (h - barH + 1) * row);
      spec.onFrame?.(frame, f);
      encoder.addFrameRgba(frame);
      await tick(); // keep the HTTP server responsive between frames
    }
    encoder.finalize();
    state = 'finalized';
    const mp4 = Buffer.from(encoder.FS.readFile(filename));
    return { mp4, fps, frames, ms: Date.now() - t0 };
  } finally {
    // The encoder's destructor complains (to the console) unless finalize ran, e.g. after a cancel.
    if (state === 'initialized') {
      try {
        encoder.finalize();
      } catch {
        /* nothing to finalize */
      }
    }
    try {
      encoder.FS.unlink(filename);
    } catch {
      /* not written */
    }
    encoder.delete();
  }
}
