import * as fs from 'node:fs';
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
   * is verified and out of the SES sandbox (see docs/deploy.md).
   */
  cognitoEmail: 'cognito' | 'ses';
  /** PayPal API (context `paypal`): `sandbox` by default in dev, `live` in prod (which refuses `sandbox`). */
  paypal: 'sandbox' | 'live';
  /** The built SPA: web/dist (`npm run build`), or context `webDist` (tests pass a fixture). */
  webDist: string;
  /**
   * Context `existingSenderIdentity=true` (dev only): the SES identity of senderEmail (or senderDomain) already exists
   * in this account and region (made outside this app), so no mail stack creates it (lib/mail-stack.ts).
   */
  existingSenderIdentity: boolean;
  /** Where alarms are mailed (context `alarmEmail`; SNS asks the address to confirm). None: the topic has no subscriber. */
  alarmEmail?: string;
  /**
   * The AWS Budget's monthly limit in USD (context `monthlyBudgetUsd`, default DEFAULT_MONTHLY_BUDGET_USD); alerts go to
   * alarmEmail.
   */
  monthlyBudgetUsd: number;
  /** Generations per user and UTC day (context `dailyGenerationCap`, default 200): DAILY_GENERATION_CAP. */
  dailyGenerationCap: number;
  /**
   * Context `reservedConcurrency`: reserve concurrency for the webhook functions and cap generation (default: on in
   * prod, off in dev). A new account's concurrency quota can be as low as 10, where any reservation fails the deploy.
   */
  reservedConcurrency: boolean;
  /**
   * Context `accountConcurrency`: the account's Lambda concurrent-executions quota in this region (ConcurrentExecutions
   * of `aws lambda get-account-settings`). Required in prod with reservedConcurrency, which checks it leaves room.
   */
  accountConcurrency?: number;
  /**
   * Context `restoredTableName` and `restoredTableStreamArn`: after a point-in-time restore (which makes a new table),
   * the stack uses that table, and its stream, instead of the one it made (docs/deploy.md, "Restoring the table").
   */
  restoredTable?: { tableName: string; streamArn: string };
}

/**
 * The budget's default: its first alert (80% of actual spend) stays above what the stacks cost at rest, about $41 a
 * month (`npm run cost`; test/infra/deploy-doc.test.ts holds it there), so it speaks only when people use the app.
 */
export const DEFAULT_MONTHLY_BUDGET_USD = 75;

export const PAYPAL_BASE_URLS = {
  sandbox: 'https://api-m.sandbox.paypal.com',
  live: 'https://api-m.paypal.com',
} as const;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** Names reserved for documentation and testing (RFC 2606, RFC 6761): no customer's mail comes from or goes to them. */
const RESERVED_DOMAIN = /(^|\.)(example\.(com|org|net)|example|test|invalid|localhost)$/i;
/** Addresses only the embedded stack's emulators answer at (a local build's or shell's leftovers). */
const LOCAL_URL = /https?:\/\/(localhost|127\.\d+\.\d+\.\d+|\[::1\]|0\.0\.0\.0)(:\d+)?/i;

/**
 * What a paying customer must never meet in prod, refused at synth in one line each: sandbox money, a documentation
 * address on their mail, the embedded stack's emulators (a shell still pointing the SDK at them, or a web build that
 * names them). `env` is the synthesising process's environment; `webDist` the build the stack uploads.
 */
function assertProdSafe(s: Pick<Settings, 'paypal' | 'senderEmail' | 'supportEmail' | 'alarmEmail' | 'senderDomain'>, env: NodeJS.ProcessEnv, webDist: string): void {
  if (s.paypal === 'sandbox') throw new SettingsError('Prod refuses -c paypal=sandbox: customers would buy real credits with sandbox money');
  for (const [key, value] of [['senderEmail', s.senderEmail], ['supportEmail', s.supportEmail], ['alarmEmail', s.alarmEmail], ['senderDomain', s.senderDomain]] as const) {
    const domain = value?.split('@').pop();
    if (domain && RESERVED_DOMAIN.test(domain)) throw new SettingsError(`Prod refuses -c ${key}=${value}: ${domain} is reserved for examples and tests, nobody reads it`);
  }
  const emulated = Object.keys(env).filter((k) => k.startsWith('AWS_ENDPOINT_URL') && env[k]);
  for (const key of ['REPLICATE_BASE_URL', 'PAYPAL_BASE_URL']) if (env[key] && LOCAL_URL.test(env[key])) emulated.push(key);
  if (emulated.length > 0) throw new SettingsError(`Prod refuses to synthesise with ${emulated.join(', ')} set: the shell points at the embedded stack's emulators (unset them)`);
  const named = filesNamingLocalUrls(webDist);
  if (named.length > 0) throw new SettingsError(`Prod refuses a web build naming a local address (${named.slice(0, 3).join(', ')}): build it for the cloud (npm run build)`);
}

/** The build's pages, sitemap, robots and JSON that name a local URL (the scripts are libraries' own strings). */
function filesNamingLocalUrls(webDist: string): string[] {
  if (!fs.existsSync(webDist)) return [];
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (/\.(html|xml|txt|json|webmanifest)$/.test(entry.name) && LOCAL_URL.test(fs.readFileSync(file, 'utf8'))) found.push(path.relative(webDist, file));
    }
  };
  walk(webDist);
  return found;
}
const DOMAIN = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,}$/i;

/** A setting that is wrong: bin/app.ts prints its message as one line, without a stack trace. */
export class SettingsError extends Error {}

function positiveInt(ctx: (key: string) => string | undefined, key: string, fallback: number): number {
  const v = ctx(key);
  if (v === undefined) return fallback;
  if (!/^[1-9][0-9]{0,6}$/.test(v)) throw new SettingsError(`Context "${key}" must be a whole number above 0 (got "${v}")`);
  return Number(v);
}

function oneOf<T extends string>(key: string, value: string, allowed: readonly T[]): T {
  if (!(allowed as readonly string[]).includes(value)) {
    throw new SettingsError(`Context "${key}" must be one of ${allowed.join(', ')} (got "${value}")`);
  }
  return value as T;
}

export function readSettings(scope: Construct): Settings {
  const ctx = (key: string): string | undefined => {
    const v: unknown = scope.node.tryGetContext(key);
    return v === undefined || v === null || v === '' ? undefined : String(v);
  };
  const stage = oneOf('stage', ctx('stage') ?? 'dev', STAGES);
  const senderEmail = ctx('senderEmail');
  if (senderEmail === undefined) {
    // An address nobody can verify would make every email (the contact form's first) fail after the deploy.
    throw new SettingsError(`Context "senderEmail" is required: an address you can read, e.g. npx cdk deploy -c stage=${stage} -c senderEmail=you@example.org`);
  }
  const supportEmail = ctx('supportEmail') ?? senderEmail;
  for (const [key, value] of [['senderEmail', senderEmail], ['supportEmail', supportEmail]] as const) {
    if (!EMAIL.test(value)) throw new SettingsError(`Context "${key}" must be an email address (got "${value}")`);
  }
  const senderDomain = ctx('senderDomain')?.toLowerCase();
  if (senderDomain !== undefined) {
    if (!DOMAIN.test(senderDomain)) throw new SettingsError(`Context "senderDomain" must be a domain name (got "${senderDomain}")`);
    if (!senderEmail.toLowerCase().endsWith(`@${senderDomain}`)) {
      throw new SettingsError(`Context "senderEmail" must be an address at senderDomain ${senderDomain} (got "${senderEmail}")`);
    }
  }
  const cognitoEmail = oneOf('cognitoEmail', ctx('cognitoEmail') ?? 'cognito', ['cognito', 'ses'] as const);
  const paypal = oneOf('paypal', ctx('paypal') ?? (stage === 'prod' ? 'live' : 'sandbox'), ['sandbox', 'live'] as const);
  const webDist = path.resolve(REPO_ROOT, ctx('webDist') ?? path.join('web', 'dist'));
  const alarmEmail = ctx('alarmEmail');
  if (alarmEmail !== undefined && !EMAIL.test(alarmEmail)) throw new SettingsError(`Context "alarmEmail" must be an email address (got "${alarmEmail}")`);
  const flag = (key: string, fallback: boolean) => {
    const v = ctx(key);
    return v === undefined ? fallback : oneOf(key, v, ['true', 'false'] as const) === 'true';
  };
  const reservedConcurrency = flag('reservedConcurrency', stage === 'prod');
  const accountConcurrency = ctx('accountConcurrency') === undefined ? undefined : positiveInt(ctx, 'accountConcurrency', 0);
  const restoredTableName = ctx('restoredTableName');
  const restoredTableStreamArn = ctx('restoredTableStreamArn');
  if ((restoredTableName === undefined) !== (restoredTableStreamArn === undefined)) {
    throw new SettingsError('Context "restoredTableName" and "restoredTableStreamArn" go together: the restored table, and the stream you enabled on it (docs/deploy.md)');
  }
  if (restoredTableName !== undefined && !/^[A-Za-z0-9_.-]{3,255}$/.test(restoredTableName)) {
    throw new SettingsError(`Context "restoredTableName" must be a DynamoDB table name (got "${restoredTableName}")`);
  }
  if (restoredTableStreamArn !== undefined && !(restoredTableStreamArn.startsWith('arn:') && restoredTableStreamArn.includes(`:table/${restoredTableName}/stream/`))) {
    throw new SettingsError(`Context "restoredTableStreamArn" must be the stream ARN of table ${restoredTableName} (got "${restoredTableStreamArn}")`);
  }
  if (stage === 'prod') {
    // Unsafe in prod and invisible until it hurts, so refused at synth (dev keeps its easy defaults).
    if (cognitoEmail !== 'ses') {
      throw new SettingsError('Prod needs -c cognitoEmail=ses: Cognito\'s own sender sends 50 verification and reset emails a day (verify senderEmail in SES first: docs/deploy.md)');
    }
    if (alarmEmail === undefined) throw new SettingsError('Prod needs -c alarmEmail=<address>: without it every alarm and budget alert notifies nobody');
    assertProdSafe({ paypal, senderEmail, supportEmail, alarmEmail, senderDomain }, process.env, webDist);
    if (flag('existingSenderIdentity', false)) {
      throw new SettingsError('Prod refuses -c existingSenderIdentity=true: prod sends from the identity its own mail stack creates and retains (Framewright-prod-mail), never one another stage could delete');
    }
    if (reservedConcurrency && accountConcurrency === undefined) {
      throw new SettingsError(
        'Prod reserves Lambda concurrency: pass -c accountConcurrency=<ConcurrentExecutions of `aws lambda get-account-settings`> (a new account may have 10: raise it first, docs/deploy.md), or -c reservedConcurrency=false',
      );
    }
  }
  return {
    stage,
    senderEmail,
    supportEmail,
    ...(senderDomain ? { senderDomain } : {}),
    cognitoEmail,
    paypal,
    webDist,
    existingSenderIdentity: flag('existingSenderIdentity', false),
    ...(alarmEmail ? { alarmEmail } : {}),
    monthlyBudgetUsd: positiveInt(ctx, 'monthlyBudgetUsd', DEFAULT_MONTHLY_BUDGET_USD),
    dailyGenerationCap: positiveInt(ctx, 'dailyGenerationCap', 200),
    reservedConcurrency,
    ...(accountConcurrency ? { accountConcurrency } : {}),
    ...(restoredTableName && restoredTableStreamArn ? { restoredTable: { tableName: restoredTableName, streamArn: restoredTableStreamArn } } : {}),
  };
}

/** prod keeps its data when a resource leaves the stack; dev cleans up after itself. */
export function removalPolicyFor(stage: Stage): RemovalPolicy {
  return stage === 'prod' ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY;
}
