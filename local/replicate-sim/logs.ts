/** The log lines a prediction shows as it runs, in the style of each model's real output (SDXL, Wan, Pixverse). */
import { randomInt } from 'node:crypto';
import { PIXVERSE_MODEL } from '../../contract/models/pixverse';
import type { Rec } from './types';

function tqdm(done: number, total: number, elapsedS: number): string {
  const frac = total ? done / total : 1;
  const filled = Math.floor(frac * 10);
  const bar = '█'.repeat(filled) + (filled < 10 ? ' '.repeat(10 - filled) : '');
  const rate = elapsedS > 0 ? (done / elapsedS).toFixed(2) : '?';
  const mmss = (s: number) => `${String(Math.floor(s / 60)).padStart(2, '0')}:${String(Math.floor(s % 60)).padStart(2, '0')}`;
  return `${String(Math.round(frac * 100)).padStart(3)}%|${bar}| ${done}/${total} [${mmss(elapsedS)}<00:00, ${rate}it/s]`;
}

const isPixverse = (rec: Rec) => rec.model.id === PIXVERSE_MODEL.id;
const elapsedS = (rec: Rec) => (Date.now() - (rec.startedMs ?? rec.createdMs)) / 1000;
/** The step count a progress bar counts to: SDXL's inference steps, Wan's sample steps. */
const steps = (rec: Rec) => Number(rec.model.kind === 'image' ? rec.input.num_inference_steps : rec.input.sample_steps);

/** When the prediction starts processing. */
export function startLines(rec: Rec): string[] {
  const i = rec.input;
  const seed = `Using seed: ${rec.seed}`;
  if (rec.model.kind === 'image') {
    return [
      seed,
      'Ensuring enough disk space...',
      `Free disk space: ${1_800_000_000_000 + randomInt(100_000_000_000)}`,
      i.image ? 'img2img mode' : 'txt2img mode',
      tqdm(0, steps(rec), 0),
    ];
  }
  if (isPixverse(rec)) {
    return [
      seed,
      `Submitting ${i.image ? 'image-to-video' : 'text-to-video'} task: ${i.quality}, ${i.duration}s, ${i.aspect_ratio}`,
      'Task status: processing',
    ];
  }
  return [seed, `Generating ${i.num_frames} frames at ${i.frames_per_second} fps (fast_mode=${i.fast_mode})`, tqdm(0, steps(rec), 0)];
}

/** Half-way through the run. */
export function midwayLines(rec: Rec): string[] {
  if (isPixverse(rec)) return ['Task status: rendering (50%)'];
  const n = steps(rec);
  return [tqdm(Math.floor(n / 2), n, elapsedS(rec))];
}

/** When the run has succeeded. */
export function doneLines(rec: Rec): string[] {
  if (isPixverse(rec)) return ['Task status: completed'];
  const n = steps(rec);
  return [tqdm(n, n, elapsedS(rec))];
}
