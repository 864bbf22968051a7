/**
 * Generating a prediction's output: the frame size each model would produce (as its reference code sizes it), then
 * the image(s) or video rendered by media.ts.
 */
import { FLUX_KONTEXT_MODEL } from '../../contract/models/edit';
import { FLUX_SCHNELL_MODEL } from '../../contract/models/flux';
import { KLING_MODEL } from '../../contract/models/kling';
import { REAL_ESRGAN_MODEL } from '../../contract/models/upscale';
import { batchDraws, downloadImage, exactImageSize, MediaError, renderImage, renderVideo, startImageSize, upscaleImage } from './media';
import type { JobOutcome, OutputFile, Rec } from './types';

export interface GenerateOptions {
  fetchImpl: typeof fetch;
  /** Where output files are served: output URLs are `${filesBase}/files/{id}/{name}`. */
  filesBase: string;
  /** The ffmpeg binary videos are encoded with. */
  ffmpeg: string;
}

/**
 * Pixverse's clips: its API takes no frame rate. Its outputs are commonly 24 fps; the length is the asked duration.
 * (Not in its published schema: the duration is what our code relies on, and the frame rate is probed from the file.)
 */
const PIXVERSE_FPS = 24;

const even = (n: number) => Math.round(n / 2) * 2;

type Size = { width: number; height: number };

/** Pixverse's frame: the quality is the short side; with a start image, the aspect ratio nearest to the image's. */
function pixverseSize(quality: string, aspect: string, start?: Size): Size {
  if (start) {
    const r = start.width / start.height;
    const nearest = ([['16:9', 16 / 9], ['9:16', 9 / 16], ['1:1', 1]] as const).reduce((a, b) =>
      Math.abs(Math.log(b[1] / r)) < Math.abs(Math.log(a[1] / r)) ? b : a,
    );
    aspect = nearest[0];
  }
  const h = Number.parseInt(quality, 10);
  const long = even((h * 16) / 9);
  if (aspect === '9:16') return { width: h, height: long };
  if (aspect === '1:1') return { width: h, height: h };
  return { width: long, height: h };
}

/**
 * FLUX's frame for an aspect ratio at its default 1 megapixel: the ratio's sides scaled to about 1024x1024's area,
 * in multiples of 16 (the latent grid).
 */
function fluxSize(aspect: string): Size {
  const [w, h] = aspect.split(':').map(Number) as [number, number];
  const side = (v: number) => Math.round(v / 16) * 16;
  const k = Math.sqrt((1024 * 1024) / (w * h));
  return { width: side(w * k), height: side(h * k) };
}

/** Kling 2.1's frame: 720p (standard) or 1080p (pro) on the short side, in the start image's nearest aspect ratio. */
function klingSize(mode: string, start: Size): Size {
  return pixverseSize(mode === 'pro' ? '1080p' : '720p', '16:9', start);
}

/** The input field each model takes its start (or source) picture from. */
const PICTURE_FIELDS = ['image', 'input_image', 'start_image'] as const;

/** Wan 2.1 text-to-video: 832x480 for 16:9, 480x832 for 9:16. */
function wanT2vSize(aspect: string): Size {
  return aspect === '9:16' ? { width: 480, height: 832 } : { width: 832, height: 480 };
}

/**
 * Wan 2.1 image-to-video, as its reference code sizes the frame: the start image's aspect ratio within the area of
 * max_area (832x480 and 480x832 are the same area), both sides multiples of 16. An 832x480 image gives 832x480.
 */
function wanI2vSize(maxArea: string, start: Size): Size {
  const [aw, ah] = maxArea.split('x').map(Number) as [number, number];
  const area = aw * ah;
  // area * w / h rather than area / (h / w): exact for integer inputs, so 832x480 maps to itself.
  const side = (v: number) => Math.max(16, Math.floor(v / 16 + 1e-9) * 16);
  return { width: side(Math.sqrt((area * start.width) / start.height)), height: side(Math.sqrt((area * start.height) / start.width)) };
}

/** Renders a prediction's media (the real files its output URLs serve); a failure is an outcome, never a throw. */
export async function generate(rec: Rec, o: GenerateOptions): Promise<JobOutcome> {
  const i = rec.input;
  const prompt = String(i.prompt ?? '');
  const fileUrl = (name: string) => `${o.filesBase}/files/${rec.p.id}/${name}`;
  const t0 = Date.now();
  try {
    const field = PICTURE_FIELDS.find((f) => typeof i[f] === 'string');
    const start = field ? await downloadImage(String(i[field]), o.fetchImpl) : undefined;
    // An end frame is fetched as the real model does, so an unreachable one fails the prediction.
    if (typeof i.end_image === 'string') await downloadImage(i.end_image, o.fetchImpl);
    if (rec.abort.signal.aborted) return { ok: false, error: 'canceled' };
    const files = new Map<string, OutputFile>();
    if (rec.model.kind === 'image') {
      const id = rec.model.id;
      if (id === REAL_ESRGAN_MODEL.id) {
        const png = await upscaleImage(start!, Number(i.scale));
        files.set('out.png', { data: png, type: 'image/png' });
        return { ok: true, output: fileUrl('out.png'), files, note: `Upscaled ${Number(i.scale)}x in ${Date.now() - t0} ms` };
      }
      // SDXL img2img keeps the start image's size in multiples of 8; Kontext matches the input image's; FLUX and SDXL
      // text-to-image take theirs from the input.
      const size =
        id === FLUX_KONTEXT_MODEL.id && start ? await exactImageSize(start)
        : start ? await startImageSize(start)
        : id.startsWith('black-forest-labs/') ? fluxSize(String(i.aspect_ratio))
        : { width: Number(i.width), height: Number(i.height) };
      const urls: string[] = [];
      // FLUX.1 [schnell] with `go_fast` (its schema's default) runs fp8 weights, and Replicate documents its outputs as
      // not deterministic even with a seed (replicate/cog-flux#49): the prediction's own id joins the draw, so no two
      // runs agree. With `go_fast: false` the same seed and inputs give the same picture, as for the other models.
      const fast = id === FLUX_SCHNELL_MODEL.id && i.go_fast !== false;
      const context = [id, prompt, String(i.negative_prompt ?? ''), size.width, size.height, ...(fast ? [rec.p.id] : [])];
      for (const [k, draw] of batchDraws(rec.seed, context, Number(i.num_outputs ?? 1)).entries()) {
        const png = await renderImage({
          ...size,
          prompt,
          draw,
          ...(start ? { startImage: start } : {}),
          promptStrength: i.prompt_strength === undefined ? 0.6 : Number(i.prompt_strength),
        });
        files.set(`out-${k}.png`, { data: png, type: 'image/png' });
        urls.push(fileUrl(`out-${k}.png`));
      }
      const note = `Generated ${urls.length} image(s) of ${size.width}x${size.height} in ${Date.now() - t0} ms`;
      // Models with a batch size answer a list; the others one URL, as their output schemas say.
      return { ok: true, output: i.num_outputs === undefined ? urls[0]! : urls, files, note };
    }
    let size: Size;
    let frames: number;
    let fps: number;
    const startSize = start ? await startImageSize(start) : undefined;
    if (rec.model.id === KLING_MODEL.id) {
      size = klingSize(String(i.mode), startSize!);
      fps = 24;
      frames = Number(i.duration) * 24;
    } else if (rec.model.id.startsWith('pixverse/')) {
      size = pixverseSize(String(i.quality), String(i.aspect_ratio), startSize);
      fps = PIXVERSE_FPS;
      frames = Number(i.duration) * PIXVERSE_FPS;
    } else {
      // Wan renders exactly num_frames at frames_per_second (both within its schema's ranges, checked at create).
      size = startSize ? wanI2vSize(String(i.max_area), startSize) : wanT2vSize(String(i.aspect_ratio));
      frames = Number(i.num_frames);
      fps = Number(i.frames_per_second);
    }
    const video = await renderVideo({
      ...size,
      frames,
      fps,
      prompt,
      seed: rec.seed,
      ...(start ? { startImage: start } : {}),
      ffmpeg: o.ffmpeg,
      signal: rec.abort.signal,
    });
    files.set('output.mp4', { data: video.mp4, type: 'video/mp4' });
    return {
      ok: true,
      output: fileUrl('output.mp4'),
      files,
      note: `Encoded ${video.frames} frames (${size.width}x${size.height}, ${video.fps} fps) in ${video.ms} ms`,
    };
  } catch (err) {
    if (err instanceof MediaError) return { ok: false, error: err.message };
    return { ok: false, error: (err as Error).message };
  }
}
