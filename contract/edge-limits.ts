/**
 * Per-IP limits at the edge, each over a 5-minute window: WAF rate-based rules in front of CloudFront
 * (lib/edge-stack.ts), and the embedded stack's single origin, which plays CloudFront (local/gateway/edge.ts).
 * The app's own limits are finer (the contact form: 20 an hour per IP, contract/contact.ts).
 */
export interface EdgeRateRule {
  name: string;
  /** Requests per IP in 5 minutes (WAF's minimum is 10). */
  limit: number;
  scope: { pathStartsWith: string } | { pathIs: string };
}

export const EDGE_WINDOW_SECONDS = 300;

export const EDGE_RATE_RULES: readonly EdgeRateRule[] = [
  { name: 'contact-per-ip', limit: 30, scope: { pathIs: '/api/send-contact' } },
  { name: 'generate-per-ip', limit: 100, scope: { pathStartsWith: '/api/generate-' } },
  { name: 'uploads-per-ip', limit: 100, scope: { pathIs: '/api/uploads' } },
];

export function edgeRuleFor(path: string): EdgeRateRule | undefined {
  return EDGE_RATE_RULES.find((r) => ('pathIs' in r.scope ? path === r.scope.pathIs : path.startsWith(r.scope.pathStartsWith)));
}
