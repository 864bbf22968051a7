/**
 * One kind of step of the money simulation: its arguments (fast-check arbitraries) and what it does to the world. A
 * command family is a file of steps (accounts, packs, plans, generations, system); `commands/index.ts` lists the
 * families. A step that needs an operation a backend lacks (`needs`) is not generated on that backend.
 */
import fc from 'fast-check';
import type { World } from '../world';

export interface Step<A> {
  name: string;
  /** How often it is picked, relative to the others. */
  weight: number;
  args: fc.Arbitrary<A>;
  /** Optional world operations it calls: on a backend without them the step is left out. */
  needs?: ReadonlyArray<keyof World>;
  run(world: World, args: A): Promise<void>;
  /** It cannot change a plan at PayPal (a generation): the stack's world need not read the plans again after it. */
  leavesPlans?: boolean;
  /** After it every webhook was delivered and the reconcilers ran: the checks hold "exactly once" and "every job ended". */
  settles?: boolean;
}

/** A step of its family: `step({...})` keeps the argument type of `args` for `run`. */
export const step = <A>(s: Step<A>): Step<A> => s;

/** An index into what exists when the step runs (people, orders, jobs...), resolved modulo their count. */
export const index = fc.nat({ max: 7 });
