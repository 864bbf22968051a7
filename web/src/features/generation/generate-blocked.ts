import { MAX_ACTIVE_JOBS } from '../../../../contract/catalog';

export interface GenerateBlockedInput {
  /** The balance, undefined until it is loaded. */
  credits: number | undefined;
  /** What Generate would charge, undefined when the chosen options cannot be priced. */
  cost: number | undefined;
  /** Why the chosen options cannot be priced (the registry's words). */
  priceReason?: string;
  /** The user's running jobs, on every page. */
  running: number;
}

/** Why Generate is disabled, in words shown beside it; undefined while it may be pressed. A grey button never stands alone. */
export function generateBlockedReason({ credits, cost, priceReason, running }: GenerateBlockedInput): string | undefined {
  if (cost === undefined) return priceReason ?? 'These options cannot be combined. Change one to generate.';
  if (credits === undefined) return 'Loading your balance...';
  if (credits < cost) return `Not enough credits: this costs ${cost} and you have ${credits}. Buy credits or pick cheaper options.`;
  if (running >= MAX_ACTIVE_JOBS) return `${MAX_ACTIVE_JOBS} generations are running, the most at once. Generate opens again when one finishes or you cancel one.`;
  return undefined;
}
