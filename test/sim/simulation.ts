/**
 * The money simulation (model-based testing with fast-check's `commands`): random sequences of what people, PayPal,
 * Replicate and our own machinery do (commands/), each step followed by the checks (money-model.ts: the table's
 * invariants and what each person paid against what they received), and a drain at the end of every sequence after
 * which "at most once" must be "exactly once" and every charged job must have ended. A failing sequence is shrunk by
 * fast-check; its report names the seed and path that run it again and the smallest sequence found.
 */
import fc from 'fast-check';
import { FAMILIES } from './commands';
import type { Step } from './commands/step';
import { moneyProblems } from './money-model';
import type { Backend, Hole, World } from './world';

export interface SimulationOptions {
  backend: Backend;
  /** At least this many steps in all (sequences are run until it is reached). */
  steps: number;
  seed: number;
  /** The longest sequence; each is drained at its end. */
  maxCommands: number;
  holes: ReadonlySet<Hole>;
  makeWorld(holes: ReadonlySet<Hole>): Promise<World>;
  /** Replays one failing case (fast-check's `path` of the report). */
  path?: string;
  /** Shrinks a failure (slow on the stack: each try is a new sequence against it). */
  shrink: boolean;
}

export interface SimulationResult {
  steps: number;
  sequences: number;
  ms: number;
}

/** The checks after a step: every problem found, with the step that led there. */
async function verify(world: World, after: string, settled: boolean): Promise<void> {
  const { items, facts } = await world.snapshot();
  const problems = moneyProblems(items, facts, settled);
  if (problems.length) throw new Error(`after ${after}${settled ? ' (settled)' : ''}:\n  ${problems.slice(0, 12).join('\n  ')}`);
}

class SimCommand<A> implements fc.AsyncCommand<object, World> {
  constructor(
    private readonly s: Step<A>,
    private readonly a: A,
  ) {}

  check(): boolean {
    return true;
  }

  async run(_model: object, world: World): Promise<void> {
    world.steps++;
    const started = performance.now();
    await this.s.run(world, this.a);
    if (!this.s.leavesPlans) world.plansMoved = true;
    await verify(world, this.toString(), this.s.settles ?? false);
    if (process.env.SIM_TRACE) process.stderr.write(`${world.steps} ${this.toString()} ${Math.round(performance.now() - started)} ms\n`);
  }

  toString(): string {
    return this.a === null ? `${this.s.name}()` : `${this.s.name}(${JSON.stringify(this.a)})`;
  }
}

/** The step kinds a backend can run, as weighted fast-check command arbitraries. */
function commandsFor(world: World): Array<fc.Arbitrary<fc.AsyncCommand<object, World>>> {
  const usable = FAMILIES.flat().filter((s) => (s.needs ?? []).every((op) => typeof world[op] === 'function'));
  return usable.flatMap((s) => Array.from({ length: s.weight }, () => s.args.map((a) => new SimCommand(s, a) as fc.AsyncCommand<object, World>)));
}

export async function simulate(o: SimulationOptions): Promise<SimulationResult> {
  const started = performance.now();
  const probe = await o.makeWorld(o.holes);
  const arbitraries = commandsFor(probe);
  await probe.close();
  let steps = 0;
  let sequences = 0;
  const property = fc.asyncProperty(fc.commands(arbitraries, { maxCommands: o.maxCommands, size: 'max' }), async (cmds) => {
    const world = await o.makeWorld(o.holes);
    try {
      // A few people to begin with (more sign up as it goes), so short sequences reach their plans and jobs.
      for (let n = 0; n < 3; n++) await world.signUp();
      await fc.asyncModelRun(() => ({ model: {}, real: world }), cmds);
      await world.drain();
      await verify(world, 'the final drain', true);
    } finally {
      steps += world.steps;
      sequences++;
      await world.close();
    }
  });
  // Runs until the steps are reached: each round a new seed from the first, so any failure names the seed to replay.
  for (let round = 0; steps < o.steps; round++) {
    const seed = o.seed + round;
    const numRuns = Math.max(1, Math.ceil(((o.steps - steps) / o.maxCommands) * 2));
    await fc.assert(property, { seed, numRuns, endOnFailure: !o.shrink, ...(o.path ? { path: o.path } : {}) });
    if (o.path) break;
  }
  return { steps, sequences, ms: performance.now() - started };
}
