/**
 * Running the ffmpeg binary (a static build: @ffmpeg-installer/linux-x64 locally, a Lambda layer at /opt/bin/ffmpeg
 * in the cloud). Hand-written over a wrapper package such as fluent-ffmpeg: it is one execFile with a time limit,
 * and the wrappers add an API we would still have to map our errors through.
 */
import { execFile } from 'node:child_process';

export class FfmpegFailed extends Error {
  constructor(
    message: string,
    readonly stderr: string,
  ) {
    super(message);
  }
}

/** The last lines of ffmpeg's log, enough to say why it failed without its banner. */
const tail = (s: string) => s.trim().split('\n').slice(-3).join(' | ').slice(0, 400);

/** Runs ffmpeg with these arguments; resolves with its log (stderr), rejects with FfmpegFailed on a non-zero exit or the time limit. */
export function runFfmpeg(binary: string, args: readonly string[], o: { timeoutMs: number; signal?: AbortSignal }): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      binary,
      ['-hide_banner', '-nostdin', ...args],
      { timeout: o.timeoutMs, killSignal: 'SIGKILL', maxBuffer: 8 * 1024 * 1024, encoding: 'utf8', ...(o.signal ? { signal: o.signal } : {}) },
      (err, _stdout, stderr) => {
        if (!err) return resolve(stderr);
        const e = err as NodeJS.ErrnoException & { killed?: boolean };
        const why = e.code === 'ENOENT' ? `ffmpeg not found at ${binary}` : e.killed ? `ffmpeg stopped after ${o.timeoutMs} ms` : `ffmpeg failed: ${tail(stderr)}`;
        reject(new FfmpegFailed(why, stderr));
      },
    );
  });
}

/** Arguments that make the same input encode to the same bytes (one thread, no version strings in the file). */
export const BITEXACT_H264 = ['-c:v', 'libx264', '-threads', '1', '-flags:v', '+bitexact', '-fflags', '+bitexact', '-pix_fmt', 'yuv420p', '-movflags', '+faststart'] as const;
