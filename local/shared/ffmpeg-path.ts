import { createRequire } from 'node:module';

/**
 * The ffmpeg binary the embedded stack uses (the simulator's encoder, and FFMPEG_PATH for the functions that join
 * and probe videos): `FFMPEG_PATH` when set, else the static build that @ffmpeg-installer/linux-x64 ships inside
 * its npm package (no download at install time).
 */
export function localFfmpegPath(): string {
  if (process.env.FFMPEG_PATH) return process.env.FFMPEG_PATH;
  return (createRequire(__filename)('@ffmpeg-installer/ffmpeg') as { path: string }).path;
}
