import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MediaToolFailed, type MediaTools, type VideoInfo } from '../ports/media-tools';
import { BITEXACT_H264, FfmpegFailed, runFfmpeg } from './ffmpeg';

export interface FfmpegToolsOptions {
  /** The ffmpeg binary (FFMPEG_PATH). */
  binary: string;
  /** Each ffmpeg run ends within this (the join of two 5 s 480p segments takes a few seconds). */
  timeoutMs: number;
}

/** Parses what `ffmpeg -i <file> -map 0:v:0 -c copy -f null -` logs about the first video stream. */
export function parseProbe(log: string): VideoInfo {
  const d = /Duration: (\d+):(\d+):(\d+(?:\.\d+)?)/.exec(log);
  const stream = /Stream #\d+:\d+[^\n]*: Video: [^\n]*/.exec(log)?.[0] ?? '';
  const size = /, (\d{2,5})x(\d{2,5})[,\s]/.exec(stream);
  const fps = /, (\d+(?:\.\d+)?) fps/.exec(stream);
  const frames = [...log.matchAll(/frame=\s*(\d+)/g)].at(-1);
  if (!d || !size || !fps || !frames) throw new MediaToolFailed('The video could not be read.');
  return {
    durationSeconds: Number(d[1]) * 3600 + Number(d[2]) * 60 + Number(d[3]),
    width: Number(size[1]),
    height: Number(size[2]),
    fps: Number(fps[1]),
    frames: Number(frames[1]),
  };
}

/**
 * The MediaTools port on an ffmpeg binary: each call writes its inputs to a fresh directory under /tmp, runs ffmpeg
 * with a time limit and removes the directory, whatever happens. An ffmpeg failure (a file it cannot read, the time
 * limit) is a MediaToolFailed; anything else (no space left, no binary) throws as is, so the caller retries.
 */
export function ffmpegMediaTools(o: FfmpegToolsOptions): MediaTools {
  async function inTemp<T>(inputs: readonly Buffer[], work: (dir: string, files: string[]) => Promise<T>): Promise<T> {
    const dir = await mkdtemp(join(tmpdir(), 'fw-media-'));
    try {
      const files = inputs.map((_, i) => join(dir, `in-${i}.mp4`));
      await Promise.all(inputs.map((b, i) => writeFile(files[i]!, b)));
      return await work(dir, files);
    } catch (err) {
      if (err instanceof FfmpegFailed && !err.message.startsWith('ffmpeg not found')) throw new MediaToolFailed(err.message);
      throw err;
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
  const run = (args: readonly string[]) => runFfmpeg(o.binary, args, { timeoutMs: o.timeoutMs });
  const probeFile = async (file: string) => parseProbe(await run(['-i', file, '-map', '0:v:0', '-c', 'copy', '-f', 'null', '-']));

  return {
    probe: (video) => inTemp([video], (_dir, [file]) => probeFile(file!)),

    check: (video) =>
      inTemp([video], async (_dir, [file]) => {
        const info = await probeFile(file!);
        // -xerror stops at the first error with a non-zero exit (a cut file: "partial file" after the frames it has);
        // at level error, what remains of the log besides the progress lines is an error ffmpeg concealed.
        const log = await run(['-loglevel', 'error', '-stats', '-xerror', '-i', file!, '-map', '0:v:0', '-f', 'null', '-']);
        const lines = log.split(/[\r\n]+/).filter((l) => l.trim());
        const errors = lines.filter((l) => !/^frame=/.test(l.trim()));
        if (errors.length) throw new MediaToolFailed(`The video has errors: ${errors.slice(0, 3).join(' | ').slice(0, 400)}`);
        const frames = [...log.matchAll(/frame=\s*(\d+)/g)].at(-1);
        if (!frames) throw new MediaToolFailed('The video has no frames.');
        return { ...info, frames: Number(frames[1]) };
      }),

    lastFrame: (video) =>
      inTemp([video], async (dir, [file]) => {
        const out = join(dir, 'last.png');
        // From a second before the end, every decoded frame overwrites the picture: the last one stays.
        await run(['-loglevel', 'error', '-sseof', '-1', '-i', file!, '-map', '0:v:0', '-update', '1', '-f', 'image2', '-c:v', 'png', out]);
        return readFile(out);
      }),

    poster: (video) =>
      inTemp([video], async (dir, [file]) => {
        const info = await probeFile(file!);
        const out = join(dir, 'poster.jpg');
        const at = Math.min(1, info.durationSeconds / 2).toFixed(3);
        await run(['-loglevel', 'error', '-ss', at, '-i', file!, '-map', '0:v:0', '-frames:v', '1', '-q:v', '3', '-f', 'image2', '-c:v', 'mjpeg', out]);
        return readFile(out);
      }),

    join: (segments) =>
      inTemp(segments, async (dir, files) => {
        if (files.length === 1) return readFile(files[0]!);
        const first = await probeFile(files[0]!);
        const out = join(dir, 'joined.mp4');
        // Later segments lose their first frame (the previous segment's last) and take the first one's size and rate.
        const parts = files.map((_, i) =>
          i === 0
            ? `[0:v:0]setsar=1,setpts=PTS-STARTPTS[v0]`
            : `[${i}:v:0]trim=start_frame=1,setpts=PTS-STARTPTS,scale=${first.width}:${first.height},setsar=1[v${i}]`,
        );
        const graph = `${parts.join(';')};${files.map((_, i) => `[v${i}]`).join('')}concat=n=${files.length}:v=1:a=0[out]`;
        await run([
          '-loglevel', 'error',
          ...files.flatMap((f) => ['-i', f]),
          '-filter_complex', graph,
          '-map', '[out]',
          '-r', String(first.fps),
          '-preset', 'veryfast', '-crf', '20',
          ...BITEXACT_H264,
          out,
        ]);
        return readFile(out);
      }),
  };
}
