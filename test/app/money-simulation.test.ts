/**
 * The money simulation on in-memory ports (test/sim): at least 10,000 steps of random sequences of what people,
 * PayPal, Replicate and our machinery do, with crashes, each step checked against the table's invariants and the money
 * model. One fixed seed in `npm test` (SIM_SEED to change it), so the suite cannot go red by chance; `npm run sim` draws
 * a new seed each run to look for the next hole. A failure names the seed, the path and the shrunk sequence, and
 * `npm run sim -- --seed <seed> --path <path>` replays it.
 */
import { MemoryWorld } from '../sim/memory-world';
import { simulate } from '../sim/simulation';

const STEPS = 10_000;
const seed = process.env.SIM_SEED ? Number(process.env.SIM_SEED) : 1;

it(`keeps every person's money exact over ${STEPS} random steps (seed ${seed})`, async () => {
  const r = await simulate({ backend: 'memory', steps: STEPS, seed, maxCommands: 100, holes: new Set(), shrink: true, makeWorld: async (h) => new MemoryWorld(h) });
  process.stdout.write(`money simulation (memory): ${r.steps} steps, ${r.sequences} sequences, ${Math.round((r.steps / r.ms) * 1000)} steps/s, seed ${seed}\n`);
  expect(r.steps).toBeGreaterThanOrEqual(STEPS);
}, 180_000);
