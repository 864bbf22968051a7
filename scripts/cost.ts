/**
 * `npm run cost`: what a deployment costs a month with nobody using it, computed from the synthesised templates (dev
 * and prod) at us-east-1 list prices, so docs/deploy.md's figure follows the stacks instead of a count made by hand.
 * Every resource billed by the month whether used or not is counted; per-request and per-GB charges at zero traffic are
 * zero, except the scheduled functions, which run at rest. Custom metrics are billed only for the hours they are
 * published (zero at rest), and free tiers are ignored (as the doc's per-use table does).
 *
 * List prices (us-east-1, checked when this was written; the pages are the source):
 * - CloudWatch (https://aws.amazon.com/cloudwatch/pricing/): a standard-resolution alarm $0.10 per metric a month (an
 *   anomaly-detection alarm counts 3), a dashboard $3.00 a month.
 * - Secrets Manager (https://aws.amazon.com/secrets-manager/pricing/): $0.40 per secret a month.
 * - AWS WAF (https://aws.amazon.com/waf/pricing/): $5.00 per web ACL and $1.00 per rule (a managed rule group is one) a month.
 * - KMS (https://aws.amazon.com/kms/pricing/): $1.00 per customer managed key a month.
 * - Route 53 (https://aws.amazon.com/route53/pricing/): a hosted zone $0.50 a month (only if a stack made one).
 * - Lambda (https://aws.amazon.com/lambda/pricing/): $0.20 per million requests, $0.0000133334 per GB-second (arm64);
 *   a scheduled run is taken to last RUN_SECONDS.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { App, Stack } from 'aws-cdk-lib';
import { SITE_MANIFEST, SITE_ORIGIN_PLACEHOLDER } from '../contract/site';
import { buildApp } from '../lib/build-app';

const PRICES = {
  alarmMetric: 0.1,
  dashboard: 3,
  secret: 0.4,
  webAcl: 5,
  wafRule: 1,
  kmsKey: 1,
  hostedZone: 0.5,
  lambdaRequest: 0.2 / 1_000_000,
  lambdaGbSecond: 0.0000133334,
} as const;
const RUN_SECONDS = 1;
const MINUTES_A_MONTH = 30 * 24 * 60;

type Resource = { Type: string; DeletionPolicy?: string; Properties?: Record<string, unknown> };
interface IdleCost {
  lines: { what: string; count: number; usd: number }[];
  total: number;
}

/** Minutes between runs of a `rate(n minutes|hours|days)` or 1 for `cron(...)` every minute; undefined otherwise. */
function minutesOf(expression: string): number | undefined {
  const m = /^rate\((\d+) (minute|minutes|hour|hours|day|days)\)$/.exec(expression);
  if (!m) return undefined;
  const n = Number(m[1]);
  return m[2]!.startsWith('minute') ? n : m[2]!.startsWith('hour') ? n * 60 : n * 1440;
}

/** The idle cost of these templates (each a CloudFormation template's Resources). */
export function idleCost(templates: Record<string, Resource>[]): IdleCost {
  const all = templates.flatMap((t) => Object.values(t));
  const of = (type: string) => all.filter((r) => r.Type === type);
  const alarmMetrics = of('AWS::CloudWatch::Alarm').reduce((sum, a) => {
    const queries = a.Properties!.Metrics as { MetricStat?: unknown; Expression?: string }[] | undefined;
    const metrics = queries?.filter((m) => m.MetricStat).length ?? 1;
    const anomaly = queries?.some((m) => m.Expression?.startsWith('ANOMALY_DETECTION_BAND'));
    return sum + (anomaly ? 3 : Math.max(1, metrics));
  }, 0);
  const acls = of('AWS::WAFv2::WebACL');
  const rules = acls.reduce((sum, acl) => sum + ((acl.Properties!.Rules as unknown[] | undefined)?.length ?? 0), 0);
  const functions = new Map(
    templates.flatMap((t) => Object.entries(t).filter(([, r]) => r.Type === 'AWS::Lambda::Function').map(([id, r]) => [id, (r.Properties!.MemorySize as number | undefined) ?? 128])),
  );
  let runs = 0;
  let gbSeconds = 0;
  for (const rule of of('AWS::Events::Rule')) {
    const expression = rule.Properties!.ScheduleExpression;
    const every = typeof expression === 'string' ? minutesOf(expression) : undefined;
    if (every === undefined) continue;
    for (const target of (rule.Properties!.Targets ?? []) as { Arn?: { 'Fn::GetAtt'?: [string, string] } }[]) {
      const fn = target.Arn?.['Fn::GetAtt']?.[0];
      const memory = fn ? functions.get(fn) : undefined;
      if (memory === undefined) continue;
      const n = MINUTES_A_MONTH / every;
      runs += n;
      gbSeconds += n * (memory / 1024) * RUN_SECONDS;
    }
  }
  const lines = [
    { what: 'CloudWatch alarm metrics', count: alarmMetrics, usd: alarmMetrics * PRICES.alarmMetric },
    { what: 'CloudWatch dashboards', count: of('AWS::CloudWatch::Dashboard').length, usd: of('AWS::CloudWatch::Dashboard').length * PRICES.dashboard },
    { what: 'Secrets Manager secrets', count: of('AWS::SecretsManager::Secret').length, usd: of('AWS::SecretsManager::Secret').length * PRICES.secret },
    { what: 'WAF web ACLs', count: acls.length, usd: acls.length * PRICES.webAcl },
    { what: 'WAF rules', count: rules, usd: rules * PRICES.wafRule },
    { what: 'KMS keys', count: of('AWS::KMS::Key').length, usd: of('AWS::KMS::Key').length * PRICES.kmsKey },
    { what: 'Route 53 hosted zones', count: of('AWS::Route53::HostedZone').length, usd: of('AWS::Route53::HostedZone').length * PRICES.hostedZone },
    { what: `scheduled function runs (${RUN_SECONDS} s each)`, count: Math.round(runs), usd: runs * PRICES.lambdaRequest + gbSeconds * PRICES.lambdaGbSecond },
  ].filter((l) => l.count > 0);
  return { lines, total: lines.reduce((sum, l) => sum + l.usd, 0) };
}

/** The templates of every stack of a stage, synthesised with a stand-in web build (no bundling). */
export function stageTemplates(context: Record<string, string>): Record<string, Resource>[] {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-cost-'));
  try {
    const webDist = path.join(root, 'web-dist');
    fs.mkdirSync(path.join(webDist, '.vite'), { recursive: true });
    fs.writeFileSync(path.join(webDist, 'index.html'), '<!doctype html>');
    fs.writeFileSync(path.join(webDist, SITE_MANIFEST), JSON.stringify({ publicPaths: ['/'], appPaths: [], appShell: '/app.html', notFound: '/404.html' }));
    fs.writeFileSync(path.join(webDist, '404.html'), `<meta property="og:image" content="${SITE_ORIGIN_PLACEHOLDER}/x.webp">`);
    const app = new App({ outdir: path.join(root, 'cdk.out'), context: { 'aws:cdk:bundling-stacks': [], webDist, region: 'us-east-1', ...context } });
    buildApp(app, { nag: false });
    const assembly = app.synth();
    return app.node.children
      .filter((c): c is Stack => c instanceof Stack)
      .map((s) => (JSON.parse(fs.readFileSync(path.join(assembly.directory, s.templateFile), 'utf8')) as { Resources: Record<string, Resource> }).Resources);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

export const COST_STAGES = {
  dev: { stage: 'dev', senderEmail: 'hello@framewright.app' },
  prod: { stage: 'prod', senderEmail: 'hello@framewright.app', cognitoEmail: 'ses', alarmEmail: 'ops@framewright.app', accountConcurrency: '1000' },
} as const;

if (require.main === module) {
  for (const [stage, context] of Object.entries(COST_STAGES)) {
    const cost = idleCost(stageTemplates(context));
    console.log(`${stage}: $${cost.total.toFixed(2)} a month at rest`);
    for (const l of cost.lines) console.log(`  ${l.what}: ${l.count} -> $${l.usd.toFixed(2)}`);
  }
}
