import * as path from 'node:path';
import { RemovalPolicy } from 'aws-cdk-lib';
import type { Construct } from 'constructs';

/** The repository root: handlers and the web build are found from here. */
export const REPO_ROOT = path.resolve(__dirname, '..');

export const STAGES = ['dev', 'prod'] as const;
export type Stage = (typeof STAGES)[number];

/** Everything the stack reads from CDK context (cdk.json or `-c key=value`), validated once. */
export interface Settings {
  stage: Stage;
  /** Sender of every email (an SES email identity is created for it). */
  senderEmail: string;
  /** Where contact messages go. */
  supportEmail: string;
  /**
   * A domain to verify in SES instead of the single sender address (context `senderDomain`): every address
   * at it may send, and the stack outputs its DKIM records. senderEmail must be at this domain.
   */
  senderDomain?: string;
  /**
   * Who sends Cognito's verification and reset emails (context `cognitoEmail`): `cognito`, its built-in
   * sender (no setup, a few dozen emails a day), or `ses`, from senderEmail through SES once that identity
   * is verified and out of the SES sandbox (see README).
   */
  cognitoEmail: 'cognito' | 'ses';
  /** PayPal API (context `paypal`): `sandbox` by default in dev, `live` in prod. */
  paypal: 'sandbox' | 'live';
  /**
   * Context `secretsRevision`: any new value makes the functions that read the secret start fresh instances,
   * so a changed key takes effect at once (they read the secret once per instance).
   */
  secretsRevision?: string;
  /** The built SPA: web/dist (`npm run build`), or context `webDist` (tests pass a fixture). */
  webDist: string;
}

export const PAYPAL_BASE_URLS = {
  sandbox: 'https://api-m.sandbox.paypal.com',
  live: 'https://api-m.paypal.com',
} as const;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const DOMAIN = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,}$/i;

function oneOf<T extends string>(key: string, value: string, allowed: readonly T[]): T {
  if (!(allowed as readonly string[]).includes(value)) {
    throw new Error(`Context "${key}" must be one of ${allowed.join(', ')} (got "${value}")`);
  }
  return value as T;
}

export function readSettings(scope: Construct): Settings {
  const ctx = (key: string): string | undefined => {
    const v: unknown = scope.node.tryGetContext(key);
    return v === undefined || v === null || v === '' ? undefined : String(v);
  };
  const stage = oneOf('stage', ctx('stage') ?? 'dev', STAGES);
  const senderEmail = ctx('senderEmail') ?? (stage === 'prod' ? undefined : 'no-reply@example.com');
  if (senderEmail === undefined) {
    throw new Error('Context "senderEmail" is required for prod: the address users get emails from (-c senderEmail=...)');
  }
  const supportEmail = ctx('supportEmail') ?? senderEmail;
  for (const [key, value] of [['senderEmail', senderEmail], ['supportEmail', supportEmail]] as const) {
    if (!EMAIL.test(value)) throw new Error(`Context "${key}" must be an email address (got "${value}")`);
  }
  const senderDomain = ctx('senderDomain')?.toLowerCase();
  if (senderDomain !== undefined) {
    if (!DOMAIN.test(senderDomain)) throw new Error(`Context "senderDomain" must be a domain name (got "${senderDomain}")`);
    if (!senderEmail.toLowerCase().endsWith(`@${senderDomain}`)) {
      throw new Error(`Context "senderEmail" must be an address at senderDomain ${senderDomain} (got "${senderEmail}")`);
    }
  }
  const cognitoEmail = oneOf('cognitoEmail', ctx('cognitoEmail') ?? 'cognito', ['cognito', 'ses'] as const);
  const paypal = oneOf('paypal', ctx('paypal') ?? (stage === 'prod' ? 'live' : 'sandbox'), ['sandbox', 'live'] as const);
  const secretsRevision = ctx('secretsRevision');
  const webDist = path.resolve(REPO_ROOT, ctx('webDist') ?? path.join('web', 'dist'));
  return {
    stage,
    senderEmail,
    supportEmail,
    ...(senderDomain ? { senderDomain } : {}),
    cognitoEmail,
    paypal,
    ...(secretsRevision ? { secretsRevision } : {}),
    webDist,
  };
}

/** prod keeps its data when a resource leaves the stack; dev cleans up after itself. */
export function removalPolicyFor(stage: Stage): RemovalPolicy {
  return stage === 'prod' ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY;
}
