/**
 * Lambda's event filtering, matched here as the event source mapping matches it in the cloud, so a stream function
 * locally sees exactly the records it would see deployed. Written by hand: the maintained matcher of these patterns
 * (AWS's event-ruler) is Java, and no npm package implements Lambda's flavour of them.
 *
 * Semantics: a record passes a mapping when it matches one of its patterns; a pattern matches when every field
 * matches; a field given as an array matches when one of its values does (an array in the record: when one of its
 * elements does); a nested object descends (a record without that object reads as absent fields). Exact values
 * compare by type and value; `numeric` only matches JSON numbers (a DynamoDB `N` is a string in the stream record, so
 * it never does); `anything-but` and every operator but `exists: false` need the field present.
 */
import type { DynamoDBRecord } from 'aws-lambda';
import type { FilterPattern, FilterValue } from '../../contract/stream-filters';

export function passesFilters(patterns: readonly FilterPattern[] | undefined, record: DynamoDBRecord): boolean {
  if (!patterns?.length) return true;
  return patterns.some((p) => matchesNode(p, record as unknown as Record<string, unknown>));
}

function matchesNode(pattern: FilterPattern, node: unknown): boolean {
  const obj = typeof node === 'object' && node !== null && !Array.isArray(node) ? (node as Record<string, unknown>) : undefined;
  return Object.entries(pattern).every(([key, rule]) => {
    const value = obj?.[key];
    if (Array.isArray(rule)) return matchesField(rule as readonly FilterValue[], value);
    return matchesNode(rule as FilterPattern, value);
  });
}

function matchesField(rule: readonly FilterValue[], value: unknown): boolean {
  const candidates = Array.isArray(value) ? value : [value];
  return rule.some((r) => (Array.isArray(value) && value.length === 0 ? matchesValue(r, undefined) : candidates.some((v) => matchesValue(r, v))));
}

const isLeaf = (v: unknown) => v === null || ['string', 'number', 'boolean'].includes(typeof v);

function matchesValue(rule: FilterValue, v: unknown): boolean {
  if (rule === null || typeof rule !== 'object') return v !== undefined && v === rule;
  if ('exists' in rule) return rule.exists ? v !== undefined && isLeaf(v) : v === undefined;
  if (v === undefined || !isLeaf(v)) return false;
  if ('prefix' in rule) return typeof v === 'string' && v.startsWith(rule.prefix);
  if ('suffix' in rule) return typeof v === 'string' && v.endsWith(rule.suffix);
  if ('equals-ignore-case' in rule) return typeof v === 'string' && v.toLowerCase() === rule['equals-ignore-case'].toLowerCase();
  if ('numeric' in rule) return typeof v === 'number' && numericHolds(rule.numeric, v);
  const but = rule['anything-but'];
  if (typeof but === 'object' && !Array.isArray(but)) {
    const b = but as { prefix?: string; suffix?: string };
    if (typeof v !== 'string') return true;
    return b.prefix !== undefined ? !v.startsWith(b.prefix) : !v.endsWith(b.suffix!);
  }
  const excluded: readonly unknown[] = Array.isArray(but) ? but : [but];
  return !excluded.includes(v);
}

function numericHolds(spec: readonly (string | number)[], v: number): boolean {
  for (let i = 0; i < spec.length; i += 2) {
    const n = spec[i + 1] as number;
    const ok = { '=': v === n, '<': v < n, '<=': v <= n, '>': v > n, '>=': v >= n }[spec[i] as '=' | '<' | '<=' | '>' | '>='];
    if (!ok) return false;
  }
  return true;
}
