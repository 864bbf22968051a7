/**
 * What every command of the money simulation acts on: a world of people, PayPal, Replicate and our system, on one of
 * two backends (the use cases on in-memory ports, or the embedded stack through its HTTP API and simulators). A
 * command names its targets by index (`who`, `which`): the world resolves an index against what exists at that moment
 * (modulo the count), so a sequence stays meaningful while fast-check shrinks it.
 *
 * After every step the world is checked (`verify`): the table's invariants (test/support/invariants.ts, the same rules
 * the jest teardown scans) and the money model (money-model.ts) against what the providers say was paid.
 */
import type { Item } from '../support/invariants';

export type Backend = 'memory' | 'stack';

/**
 * Holes the code has today: with a hole listed here, the commands stay clear of it unless `--holes <name,...>` walks
 * into them (the simulation then finds each one). A hole found is listed until its fix lands; then it is removed, the
 * commands always walk into it, and the checks hold the fix to it. Issue 36's (a claim without a lease, two approval
 * pages, deleting with a plan billing) are all fixed: none is listed.
 */
export const HOLES = {} as const satisfies Record<string, string>;
export type Hole = keyof typeof HOLES;

/** A process killed (kill -9) in the middle of a use case: thrown by a port at the armed call. */
export class Crash extends Error {
  constructor(at: string) {
    super(`kill -9 at ${at}`);
    this.name = 'Crash';
  }
}

/** What the providers say happened, the truth the money model holds our table to. */
export interface Facts {
  /** Every person of this run, whether their account was deleted, and the plan our table held for them then. */
  people: Array<{ sub: string; deleted: boolean; planAtDeletion?: string }>;
  /** Money PayPal took: a pack's completed capture (ref: the order id) or a plan's sale (ref: the sale id). */
  paid: Paid[];
  /** Plans that bill (ACTIVE or SUSPENDED at PayPal), with whose they are (their custom_id). */
  billing: Array<{ owner: string; id: string }>;
}

export interface Paid {
  kind: 'pack' | 'sale';
  ref: string;
  owner: string;
  /** The credits it buys (a pack's; a sale's is its plan's per month, checked as positive only). */
  credits?: number;
  /** PayPal gave it all back (refunded or reversed). */
  returned: boolean;
}

/** The operations the commands use; a backend that cannot do one leaves it out (its commands are not generated there). */
export interface World {
  readonly backend: Backend;
  readonly holes: ReadonlySet<Hole>;
  /** Steps run so far (each command is one). */
  steps: number;
  signUp(): Promise<void>;
  deleteAccount(who: number): Promise<void>;

  buyPack(who: number, pack: number, decision: PackDecision): Promise<void>;
  afterPurchase(which: number, action: 'refund' | 'reverse' | 'dispute' | 'complete-pending' | 'deny-pending'): Promise<void>;
  comeBack?(which: number): Promise<void>;

  subscribe(who: number, plan: number): Promise<void>;
  approvePlan(who: number, page: 'latest' | 'earlier'): Promise<void>;
  atPaypal(who: number, action: 'bill' | 'fail' | 'suspend' | 'reactivate' | 'cancel'): Promise<void>;
  changePlan(who: number, plan: number, approve: boolean): Promise<void>;
  cancelPlan(who: number): Promise<void>;
  refundSale(which: number, reverse: boolean): Promise<void>;

  generate(who: number, kind: GenerationKind, marker: Marker, source: number): Promise<void>;
  progress?(which: number, outcome: 'succeed' | 'fail' | 'cancel'): Promise<void>;
  cancelJob(who: number, which: number, acceptCharge: boolean): Promise<void>;
  checkStatus?(which: number): Promise<void>;

  deliverWebhook?(which: number, keep: boolean): Promise<void>;
  /**
   * kill -9: in memory at the k-th port call of the next use case of `target` (before its effect, or after it landed);
   * on the stack the whole stack now, then a restart.
   */
  crash(k: number, after: boolean, target: CrashTarget): Promise<void>;
  reconcile(): Promise<void>;
  /** The table's stream functions catch up (save-job-output for recorded outputs). */
  stream?(): Promise<void>;
  /** Everything that would happen with time: webhooks delivered, streams drained, reconcilers run, until quiet. */
  drain(): Promise<void>;

  /** Set by every step that may move plans at PayPal (the stack's world reads them again only then). */
  plansMoved?: boolean;
  /** The table as items (memory: the fakes written out in the table's shape) and the providers' facts. */
  snapshot(): Promise<{ items: Item[]; facts: Facts }>;
  close(): Promise<void>;
}

/** Which kind of invocation the next crash hits: a user's request, a webhook of either provider, a background function. */
export type CrashTarget = 'user' | 'paypal-webhook' | 'replicate-webhook' | 'background';

export type PackDecision = 'approve' | 'pending' | 'decline' | 'instrument-declined' | 'cancel' | 'abandon';
export const PACK_DECISIONS: readonly PackDecision[] = ['approve', 'approve', 'approve', 'pending', 'decline', 'instrument-declined', 'cancel', 'abandon'];

export type GenerationKind = 'image' | 'batch' | 'video' | 'clip10' | 'edit' | 'upscale';
export const GENERATION_KINDS: readonly GenerationKind[] = ['image', 'batch', 'video', 'clip10', 'edit', 'upscale'];

/** The Replicate simulator's fault markers (docs/local-stack.md) the simulation puts in prompts; '' is none. */
export type Marker = '' | '[fail]' | '[reject]' | '[nowebhook]' | '[dup]' | '[lost]' | '[abort]' | '[stuck]' | '[garbage]' | '[busy]' | '[down]' | '[fail-from-image]';
export const MARKERS: readonly Marker[] = ['', '', '', '', '[fail]', '[reject]', '[nowebhook]', '[dup]', '[lost]', '[abort]', '[stuck]', '[garbage]', '[busy]', '[down]', '[fail-from-image]'];
