/**
 * Lambda event filtering on the table's stream: each stream function's event source mapping carries filter patterns
 * (its FilterCriteria), so it is invoked only for the changes it acts on, and every other change is dropped by Lambda
 * before it costs an invocation or holds a batch. The same patterns feed the cloud mapping (lib/constructs/background.ts)
 * and the local stream reader (local/dynamodb/streams.ts, which matches them as Lambda does), and both refuse a pattern
 * Lambda would refuse (`filterPatternProblem`).
 *
 * A pattern mirrors the stream record: on a DynamoDB mapping only under its `dynamodb` key (Keys, NewImage, OldImage in
 * the attribute-value JSON: `{ type: { S: ['job'] } }`). Patterns of one mapping are ORed; fields in a pattern ANDed;
 * values in a field's array ORed.
 */

/** One value of a field's array: an exact value, or one operator. */
export type FilterValue =
  | string
  | number
  | boolean
  | null
  | { prefix: string }
  | { suffix: string }
  | { 'equals-ignore-case': string }
  | { exists: boolean }
  | { 'anything-but': string | number | readonly (string | number)[] | { prefix: string } | { suffix: string } }
  | { numeric: readonly (string | number)[] };

export interface FilterPattern {
  readonly [field: string]: readonly FilterValue[] | FilterPattern;
}

/** Lambda's limits on a mapping's FilterCriteria (the default quota of filters, and a Pattern's length). */
export const FILTER_LIMITS = { filtersPerMapping: 5, patternChars: 4096 } as const;

const OPERATORS = new Set(['prefix', 'suffix', 'equals-ignore-case', 'exists', 'anything-but', 'numeric']);
const NUMERIC_OPS = new Set(['=', '<', '<=', '>', '>=']);

/** Why Lambda would refuse this mapping's filters (CreateEventSourceMapping answers InvalidParameterValueException), or undefined. */
export function filterCriteriaProblem(patterns: readonly FilterPattern[]): string | undefined {
  if (patterns.length > FILTER_LIMITS.filtersPerMapping) return `${patterns.length} filters: a mapping takes at most ${FILTER_LIMITS.filtersPerMapping}`;
  for (const p of patterns) {
    const problem = filterPatternProblem(p);
    if (problem) return problem;
  }
  return undefined;
}

/** Why Lambda would refuse one pattern on a DynamoDB stream mapping, or undefined. */
export function filterPatternProblem(pattern: unknown): string | undefined {
  if (!isObject(pattern) || Object.keys(pattern).length === 0) return 'a filter pattern is a non-empty JSON object';
  if (JSON.stringify(pattern).length > FILTER_LIMITS.patternChars) return `a filter pattern is at most ${FILTER_LIMITS.patternChars} characters`;
  for (const key of Object.keys(pattern)) {
    if (key !== 'dynamodb') return `a DynamoDB stream filters only on the "dynamodb" key, not "${key}"`;
  }
  return fieldsProblem(pattern, 'dynamodb');
}

function fieldsProblem(node: Record<string, unknown>, path: string): string | undefined {
  for (const [key, value] of Object.entries(node)) {
    const at = path && key !== 'dynamodb' ? `${path}.${key}` : key;
    if (Array.isArray(value)) {
      for (const v of value) {
        const problem = valueProblem(v, at);
        if (problem) return problem;
      }
    } else if (isObject(value)) {
      if (Object.keys(value).length === 0) return `${at}: an empty object matches nothing`;
      const problem = fieldsProblem(value, at);
      if (problem) return problem;
    } else {
      return `${at}: a field's values are given as an array`;
    }
  }
  return undefined;
}

function valueProblem(v: unknown, at: string): string | undefined {
  if (v === null || typeof v === 'string' || typeof v === 'boolean') return undefined;
  if (typeof v === 'number') return Number.isFinite(v) ? undefined : `${at}: not a number`;
  if (!isObject(v)) return `${at}: a value is a string, number, boolean, null or one operator`;
  const keys = Object.keys(v);
  if (keys.length !== 1 || !OPERATORS.has(keys[0]!)) return `${at}: unknown operator ${JSON.stringify(keys)}`;
  const [op] = keys as [string];
  const arg = v[op];
  switch (op) {
    case 'prefix':
    case 'suffix':
    case 'equals-ignore-case':
      return typeof arg === 'string' ? undefined : `${at}: ${op} takes a string`;
    case 'exists':
      return typeof arg === 'boolean' ? undefined : `${at}: exists takes true or false`;
    case 'anything-but':
      if (typeof arg === 'string' || (typeof arg === 'number' && Number.isFinite(arg))) return undefined;
      if (Array.isArray(arg)) {
        if (arg.length === 0) return `${at}: anything-but takes a non-empty list`;
        const kinds = new Set(arg.map((x) => typeof x));
        return kinds.size === 1 && (kinds.has('string') || kinds.has('number')) ? undefined : `${at}: anything-but lists only strings or only numbers`;
      }
      if (isObject(arg) && Object.keys(arg).length === 1 && (typeof arg.prefix === 'string' || typeof arg.suffix === 'string')) return undefined;
      return `${at}: anything-but takes a value, a list, or a prefix or suffix`;
    default:
      return numericProblem(arg, at);
  }
}

/** `numeric`: one `=` comparison, or one or two range bounds (a lower bound before an upper one). */
function numericProblem(arg: unknown, at: string): string | undefined {
  const bad = `${at}: numeric takes ["=", n] or up to two bounds such as [">", 0, "<=", 5]`;
  if (!Array.isArray(arg) || arg.length === 0 || arg.length % 2 !== 0 || arg.length > 4) return bad;
  const pairs: [string, number][] = [];
  for (let i = 0; i < arg.length; i += 2) {
    const [op, n] = [arg[i], arg[i + 1]];
    if (typeof op !== 'string' || !NUMERIC_OPS.has(op) || typeof n !== 'number' || !Number.isFinite(n)) return bad;
    pairs.push([op, n]);
  }
  if (pairs.length === 2) {
    const [[lo, a], [hi, b]] = pairs as [[string, number], [string, number]];
    if (!lo.startsWith('>') || !hi.startsWith('<') || a >= b) return bad;
  } else if (pairs.length > 1) return bad;
  return undefined;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A job whose provider output was just recorded: outputUrl in the new image and not in the old (save-job-output). */
export const OUTPUT_RECORDED: FilterPattern = {
  dynamodb: {
    NewImage: { type: { S: ['job'] }, outputUrl: { S: [{ exists: true }] } },
    OldImage: { outputUrl: { S: [{ exists: false }] } },
  },
};

/**
 * What a user's open tabs are told of (live-fanout): their balance (the account item), their jobs' changes, a media
 * item added or removed. The function still drops a change that is no news (a job's bookkeeping, the same balance).
 */
export const LIVE_CHANGES: readonly FilterPattern[] = [
  { dynamodb: { Keys: { sk: { S: ['ACCOUNT'] } }, NewImage: { credits: { N: [{ exists: true }] } } } },
  { dynamodb: { NewImage: { type: { S: ['job'] } } } },
  { dynamodb: { NewImage: { type: { S: ['media'] } }, OldImage: { type: { S: [{ exists: false }] } } } },
  { dynamodb: { OldImage: { type: { S: ['media'] } }, NewImage: { type: { S: [{ exists: false }] } } } },
];
