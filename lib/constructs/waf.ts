import type { CfnWebACL } from 'aws-cdk-lib/aws-wafv2';
import { EDGE_WINDOW_SECONDS } from '../../contract/edge-limits';

/**
 * Pieces of WAF web ACLs (the CloudFront one in lib/edge-stack.ts, the Cognito one in lib/constructs/auth-waf.ts).
 * Rate-based rules count per client IP over 5 minutes and answer 429; managed rule groups are AWS's own.
 */
const visibility = (name: string): CfnWebACL.VisibilityConfigProperty => ({
  cloudWatchMetricsEnabled: true,
  metricName: name,
  sampledRequestsEnabled: true,
});

export function webAclVisibility(name: string): CfnWebACL.VisibilityConfigProperty {
  return visibility(name);
}

export interface ManagedGroup {
  name: string;
  /** Rules of the group that only count (e.g. a body-size rule that real webhooks exceed). */
  countOnly?: string[];
}

export function managedRules(groups: ManagedGroup[], firstPriority: number): CfnWebACL.RuleProperty[] {
  return groups.map((g, i) => ({
    name: g.name,
    priority: firstPriority + i,
    overrideAction: { none: {} },
    statement: {
      managedRuleGroupStatement: {
        vendorName: 'AWS',
        name: g.name,
        ...(g.countOnly?.length ? { ruleActionOverrides: g.countOnly.map((name) => ({ name, actionToUse: { count: {} } })) } : {}),
      },
    },
    visibilityConfig: visibility(g.name),
  }));
}

/** What a rate rule counts: requests whose path starts with (or is) this, or whose header has this exact value. */
export type RateScope = { pathStartsWith: string } | { pathIs: string } | { header: string; is: string };

export interface RateRule {
  name: string;
  /** Requests per IP in 5 minutes (WAF's minimum is 10). */
  limit: number;
  scope: RateScope;
}

/** The window of every rate rule (contract/edge-limits.ts: the embedded stack counts over the same). */
const WINDOW = EDGE_WINDOW_SECONDS;

function scopeDown(scope: RateScope): CfnWebACL.StatementProperty {
  const none = [{ priority: 0, type: 'NONE' }];
  if ('header' in scope) {
    return {
      byteMatchStatement: {
        fieldToMatch: { singleHeader: { Name: scope.header } },
        positionalConstraint: 'EXACTLY',
        searchString: scope.is,
        textTransformations: none,
      },
    };
  }
  const [position, path] = 'pathIs' in scope ? ['EXACTLY', scope.pathIs] : ['STARTS_WITH', scope.pathStartsWith];
  return { byteMatchStatement: { fieldToMatch: { uriPath: {} }, positionalConstraint: position, searchString: path, textTransformations: none } };
}

export function rateRules(rules: readonly RateRule[], firstPriority: number): CfnWebACL.RuleProperty[] {
  return rules.map((r, i) => ({
    name: r.name,
    priority: firstPriority + i,
    action: { block: { customResponse: { responseCode: 429 } } },
    statement: {
      rateBasedStatement: { limit: r.limit, aggregateKeyType: 'IP', evaluationWindowSec: WINDOW, scopeDownStatement: scopeDown(r.scope) },
    },
    visibilityConfig: visibility(r.name),
  }));
}
