import type { PolicyStatementJson } from '../../contract/permissions';

/**
 * One call as IAM sees it: the action, the resource ARN and the condition keys the service sets for it.
 * A request with several (a transaction, a batch) is allowed only if every one is.
 */
export interface RequestContext {
  action: string;
  resource: string;
  /** Condition keys of the call; a multi-valued key (dynamodb:LeadingKeys) is an array. */
  context?: Record<string, string | string[]>;
}

/**
 * Whether identity policies allow a call, by IAM's documented evaluation logic restricted to what our statements
 * use: every statement is an Allow (so an explicit deny never occurs), a call is allowed when one statement matches
 * its action (case-insensitive, wildcards), its resource (case-sensitive, wildcards) and every condition; otherwise
 * it is implicitly denied.
 *
 * Written here rather than with @cloud-copilot/iam-simulate: that evaluator is AGPL-3.0 and loads the whole IAM
 * service catalogue, while our statements use a handful of condition operators. An operator we do not know throws,
 * so a statement this evaluator cannot judge is noticed instead of silently allowed.
 */
export function isAllowed(statements: readonly PolicyStatementJson[], call: RequestContext): boolean {
  return statements.some(
    (s) =>
      s.Effect === 'Allow' &&
      s.Action.some((a) => wildcard(a, call.action, true)) &&
      s.Resource.some((r) => wildcard(r, call.resource, false)) &&
      Object.entries(s.Condition ?? {}).every(([operator, keys]) =>
        Object.entries(keys).every(([key, values]) => condition(operator, call.context?.[key], Array.isArray(values) ? values : [values])),
      ),
  );
}

/** `*` matches any run of characters, `?` one character (actions ignore case, ARNs do not). */
export function wildcard(pattern: string, value: string, ignoreCase: boolean): boolean {
  const source = pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.');
  return new RegExp(`^${source}$`, ignoreCase ? 'is' : 's').test(value);
}

const OPERATORS: Record<string, (policy: string, request: string) => boolean> = {
  StringEquals: (p, r) => p === r,
  StringLike: (p, r) => wildcard(p, r, false),
};

/**
 * A condition: a single-valued key matches when it equals (or is like) one of the policy's values, and is false
 * when the request lacks it. `ForAllValues:` holds when every value of the request's key matches one of the
 * policy's values, and also when the request has no value for the key (as in IAM: hence the keys we narrow by
 * are always set for the calls that carry them).
 */
function condition(operator: string, value: string | string[] | undefined, policyValues: string[]): boolean {
  const [qualifier, name] = operator.includes(':') ? operator.split(':', 2) : [undefined, operator];
  const match = OPERATORS[name!];
  if (!match) throw new Error(`local IAM: condition operator ${operator} is not supported`);
  const matches = (v: string) => policyValues.some((p) => match(p, v));
  if (qualifier === 'ForAllValues') return (value === undefined ? [] : [value].flat()).every(matches);
  if (qualifier === 'ForAnyValue') return value !== undefined && [value].flat().some(matches);
  if (qualifier !== undefined) throw new Error(`local IAM: condition qualifier ${qualifier} is not supported`);
  return typeof value === 'string' && matches(value);
}
