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

/**
 * Per-IP limits on the Cognito calls the browser makes directly (Amplify), over the same 5-minute window: a regional
 * WAF web ACL on the user pool (lib/constructs/auth-waf.ts), and the embedded stack's `/_cognito` proxy
 * (local/gateway/edge.ts). Each counts the requests whose X-Amz-Target names its action.
 */
export interface CognitoRateRule {
  name: string;
  /** Requests per IP in 5 minutes (WAF's minimum is 10). */
  limit: number;
  /** The Cognito action (X-Amz-Target: AWSCognitoIdentityProviderService.<action>). */
  action: 'SignUp' | 'ConfirmSignUp' | 'InitiateAuth' | 'ForgotPassword';
}

export const COGNITO_TARGET_PREFIX = 'AWSCognitoIdentityProviderService.';

export const COGNITO_RATE_RULES: readonly CognitoRateRule[] = [
  { name: 'signup-per-ip', limit: 20, action: 'SignUp' },
  { name: 'confirm-per-ip', limit: 50, action: 'ConfirmSignUp' },
  { name: 'signin-per-ip', limit: 100, action: 'InitiateAuth' },
  { name: 'forgot-password-per-ip', limit: 20, action: 'ForgotPassword' },
];

/**
 * What Cognito's API answers a call its web ACL blocks (403 ForbiddenException; a WAF custom response applies only to
 * the managed login pages, so the rule's own 429 never reaches an API caller).
 */
export const COGNITO_WAF_BLOCK = { status: 403, type: 'ForbiddenException', message: 'Request not allowed due to WAF block.' } as const;
