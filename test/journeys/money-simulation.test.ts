/**
 * The money simulation on the embedded stack (test/sim/stack-world.ts): at least 300 random steps through the HTTP
 * API, cognito-local and the PayPal and Replicate simulators, with a kill -9 and restart of the stack, each step checked
 * against the whole table's invariants and the money model. It starts a stack of its own (a kill -9 must hit no other
 * file's) and scans the whole table: in the serial group (jest.config.js). A new seed every run (SIM_SEED to pin one);
 * a failure names the seed and the sequence, and `npm run sim -- --backend stack --seed <seed>` replays it.
 */
import { simulate } from '../sim/simulation';
import { stackWorld, startOwnStack } from '../sim/stack-world';

const STEPS = 300;
const seed = process.env.SIM_SEED ? Number(process.env.SIM_SEED) : Date.now() % 2 ** 31;

jest.setTimeout(600_000);

/** This file's own stack replaces jest's in the helpers' environment, and jest's is pointed at again after. */
const saved = { ...process.env };
let stop: (() => Promise<void>) | undefined;

beforeAll(async () => {
  stop = await startOwnStack();
});

afterAll(async () => {
  await stop?.();
  for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
  Object.assign(process.env, saved);
});

it(`keeps every person's money exact over ${STEPS} random steps on the stack, kill -9 included (seed ${seed})`, async () => {
  // No shrinking: each try would be a new sequence against the stack; the failing sequence is reported as it ran.
  const r = await simulate({ backend: 'stack', steps: STEPS, seed, maxCommands: 30, holes: new Set(), shrink: false, makeWorld: stackWorld });
  process.stdout.write(`money simulation (stack): ${r.steps} steps, ${r.sequences} sequences, ${((r.steps / r.ms) * 1000).toFixed(1)} steps/s, seed ${seed}\n`);
  expect(r.steps).toBeGreaterThanOrEqual(STEPS);
});
