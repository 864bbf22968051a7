/**
 * `npm run sim -- --steps N --seed S [--backend memory|stack] [--holes name,...]
 * [--path P] [--max-commands L] [--no-shrink]`: the money simulation (shrinking in memory only) from the command line. The stack backend starts
 * an embedded stack of its own (as jest's global setup does) and stops it after. A failing run prints fast-check's
 * report: the seed and path that replay it and the shrunk sequence of steps.
 */
import { parseArgs } from 'node:util';
import { HOLES, type Backend, type Hole } from './world';
import { simulate } from './simulation';
import { MemoryWorld } from './memory-world';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      steps: { type: 'string', default: '1000' },
      seed: { type: 'string' },
      backend: { type: 'string', default: 'memory' },
      holes: { type: 'string', default: '' },
      path: { type: 'string' },
      'max-commands': { type: 'string' },
      'no-shrink': { type: 'boolean', default: false },
    },
  });
  const backend = values.backend as Backend;
  if (backend !== 'memory' && backend !== 'stack') throw new Error(`--backend is memory or stack, not ${String(values.backend)}`);
  const holes = new Set(values.holes ? values.holes.split(',') : []) as Set<Hole>;
  for (const h of holes) if (!(h in HOLES)) throw new Error(`unknown hole ${h}; the holes are ${Object.keys(HOLES).join(', ')}`);
  const seed = values.seed !== undefined ? Number(values.seed) : Math.floor(Math.random() * 2 ** 31);
  const steps = Number(values.steps);
  const stack = backend === 'stack' ? await import('./stack-world') : undefined;
  const stop = stack ? await stack.startOwnStack() : undefined;
  process.stdout.write(`money simulation: ${backend}, ${steps} steps, seed ${seed}${holes.size ? `, holes ${[...holes].join(',')}` : ''}\n`);
  try {
    const r = await simulate({
      backend,
      steps,
      seed,
      holes,
      maxCommands: Number(values['max-commands'] ?? (backend === 'stack' ? 60 : 100)),
      // On the stack each shrinking try is a new sequence against it (minutes): the failing sequence as it ran.
      shrink: backend === 'memory' && !values['no-shrink'],
      ...(values.path ? { path: values.path } : {}),
      makeWorld: stack ? stack.stackWorld : async (h) => new MemoryWorld(h),
    });
    process.stdout.write(`ok: ${r.steps} steps in ${r.sequences} sequences, ${(r.ms / 1000).toFixed(1)} s (${Math.round((r.steps / r.ms) * 1000)} steps/s)\n`);
  } catch (err) {
    const cause = (err as Error).cause as Error | undefined;
    process.stdout.write(`FAILED (seed ${seed}):\n${(err as Error).message}\n${cause ? `\nWhat the checks found:\n${cause.message}\n` : ''}`);
    process.exitCode = 1;
  } finally {
    await stop?.();
  }
}

void main();
