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
  /** The built SPA: web/dist (`npm run build`), or context `webDist` (tests pass a fixture). */
  webDist: string;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function readSettings(scope: Construct): Settings {
  const ctx = (key: string): string | undefined => {
    const v: unknown = scope.node.tryGetContext(key);
    return v === undefined || v === null || v === '' ? undefined : String(v);
  };
  const stage = ctx('stage') ?? 'dev';
  if (!(STAGES as readonly string[]).includes(stage)) {
    throw new Error(`Context "stage" must be one of ${STAGES.join(', ')} (got "${stage}")`);
  }
  const senderEmail = ctx('senderEmail') ?? 'no-reply@example.com';
  const supportEmail = ctx('supportEmail') ?? senderEmail;
  for (const [key, value] of [['senderEmail', senderEmail], ['supportEmail', supportEmail]] as const) {
    if (!EMAIL.test(value)) throw new Error(`Context "${key}" must be an email address (got "${value}")`);
  }
  const webDist = path.resolve(REPO_ROOT, ctx('webDist') ?? path.join('web', 'dist'));
  return { stage: stage as Stage, senderEmail, supportEmail, webDist };
}

/** prod keeps its data when a resource leaves the stack; dev cleans up after itself. */
export function removalPolicyFor(stage: Stage): RemovalPolicy {
  return stage === 'prod' ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY;
}
