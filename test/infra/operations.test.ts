import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { BACKGROUND_FUNCTIONS } from '../../contract/functions';
import { LIVE_ROUTES } from '../../contract/live';
import { ROUTES } from '../../contract/routes';
import { RESERVED_CONCURRENCY } from '../../lib/constructs/concurrency';
import { COGNITO_RATE_RULES } from '../../lib/constructs/auth-waf';
import { EDGE_RATE_RULES, type EdgeStack } from '../../lib/edge-stack';
import { RATE_WATCHED_ROUTES } from '../../lib/constructs/api';
import { reservedConcurrencyOf } from '../../lib/constructs/concurrency';
import { STAGE_THROTTLE } from '../../lib/constructs/stage-access-logs';
import { OPEN_JOB_SHARDS, REPLICATE_LIMITS } from '../../contract/capacity';
import { THROTTLES, throttleClassOf } from '../../contract/throttles';
import { resourcesOfType, synthForSuite, synthTemplate, TRACING_ACTIONS } from './synth';

const json = (v: unknown) => JSON.stringify(v);
const edgeOf = (stack: { node: { scope?: unknown } }) =>
  (stack.node.scope as { node: { children: unknown[] } }).node.children.find((c) => (c as { webAcl?: unknown }).webAcl) as EdgeStack;

describe('operations: observability, the edge, abuse limits, concurrency (dev)', () => {
  const synth = synthForSuite({ context: { alarmEmail: 'ops@framewright.app', monthlyBudgetUsd: '75', dailyGenerationCap: '40' } });
  const functions = () => resourcesOfType(synth.template, 'AWS::Lambda::Function').filter(([, f]) => f.Properties?.Environment?.Variables?.TABLE_NAME);

  it('traces every function with X-Ray and gives it the daily cap from context', () => {
    // + the origin secret's rotation function.
    expect(functions().length).toBe(ROUTES.length + BACKGROUND_FUNCTIONS.length + LIVE_ROUTES.length + 1);
    const policies = json(synth.template.findResources('AWS::IAM::Policy'));
    for (const action of TRACING_ACTIONS) expect(policies).toContain(action);
    for (const [, f] of functions()) {
      expect(f.Properties!.TracingConfig).toEqual({ Mode: 'Active' });
      expect(f.Properties!.Environment.Variables.DAILY_GENERATION_CAP).toBe('40');
    }
  });

  it('alarms on the API 5xx rate, on every function\'s errors and duration near its timeout, and on any throttled invocation, to one SNS topic', () => {
    const alarms = resourcesOfType(synth.template, 'AWS::CloudWatch::Alarm').map(([, a]) => a.Properties!);
    const names = alarms.map((a) => a.AlarmName as string);
    expect(names).toContain('framewright-dev-api-5xx-rate');
    for (const def of [...ROUTES, ...BACKGROUND_FUNCTIONS] as ReadonlyArray<{ id: string; timeoutSeconds?: number }>) {
      for (const kind of ['errors', 'duration']) expect(names).toContain(`framewright-dev-${def.id}-${kind}`);
      const duration = alarms.find((a) => a.AlarmName === `framewright-dev-${def.id}-duration`)!;
      expect(duration.Threshold).toBe((def.timeoutSeconds ?? 10) * 800);
    }
    for (const def of BACKGROUND_FUNCTIONS.filter((d) => d.trigger.kind === 'table-stream')) expect(names).toContain(`framewright-dev-${def.id}-stream-age`);
    // Throttles: one alarm on Lambda's account-wide metric (no function dimension), at the first throttled call.
    const throttles = alarms.find((a) => a.AlarmName === 'framewright-dev-functions-throttles')!;
    expect(throttles).toMatchObject({ Namespace: 'AWS/Lambda', MetricName: 'Throttles', Threshold: 1 });
    expect(throttles.Dimensions ?? []).toEqual([]);
    expect(names).toEqual(
      expect.arrayContaining([
        'framewright-dev-dead-letters-1',
        'framewright-dev-replicate-webhook-signature-failures',
        'framewright-dev-paypal-webhook-signature-failures',
        'framewright-dev-reconciler-refunds',
        'framewright-dev-claw-backs',
      ]),
    );
    const topics = Object.keys(synth.template.findResources('AWS::SNS::Topic'));
    expect(topics).toHaveLength(1);
    for (const a of alarms) expect(a.AlarmActions).toEqual([{ Ref: topics[0] }]);
    synth.template.hasResourceProperties('AWS::SNS::Subscription', { Protocol: 'email', Endpoint: 'ops@framewright.app' });
  });

  it("alarms at 80% of every limit of the capacity model: reserved concurrency, the push stage's and the watched routes' throttles, the open-jobs index, Replicate's creates and other calls", () => {
    const alarms = resourcesOfType(synth.template, 'AWS::CloudWatch::Alarm').map(([, a]) => a.Properties!);
    const byName = (n: string) => alarms.find((a) => a.AlarmName === `framewright-dev-${n}`);
    for (const route of ROUTES.filter((r) => reservedConcurrencyOf(r) !== undefined)) {
      expect(byName(`${route.id}-concurrency-quota`)).toMatchObject({ MetricName: 'ConcurrentExecutions', Threshold: Math.ceil(reservedConcurrencyOf(route)! * 0.8) });
    }
    expect(byName('live-stage-rate-quota')?.Threshold).toBe(STAGE_THROTTLE.rateLimit * 0.8);
    for (const id of RATE_WATCHED_ROUTES) {
      const route = ROUTES.find((r) => r.id === id)!;
      const a = byName(`${id}-rate-quota`)!;
      expect(a.Threshold).toBeCloseTo(THROTTLES[throttleClassOf(route)].rateLimit * 0.8);
      expect(JSON.stringify(a.Metrics)).toContain(route.path);
    }
    expect(byName('open-jobs-index-writes-quota')?.Threshold).toBe(1000 * OPEN_JOB_SHARDS * 0.8);
    // Replicate's two limits, against the calls the adapter counts (one series each).
    expect(byName('provider-creates-quota')).toMatchObject({ Namespace: 'Framewright', MetricName: 'ProviderCreates', Threshold: REPLICATE_LIMITS.createsPerMinute * 0.8, Dimensions: [{ Name: 'service', Value: 'framewright' }] });
    expect(byName('provider-requests-quota')).toMatchObject({ Namespace: 'Framewright', MetricName: 'ProviderOtherRequests', Threshold: REPLICATE_LIMITS.otherRequestsPerMinute * 0.8, Dimensions: [{ Name: 'service', Value: 'framewright' }] });
    // The watched routes have per-route metrics; their throttles are unchanged.
    const stage = resourcesOfType(synth.template, 'AWS::ApiGatewayV2::Stage').find(([, r]) => r.Properties?.StageName === '$default')![1];
    const check = ROUTES.find((r) => r.id === 'checkStatus')!;
    expect(stage.Properties!.RouteSettings[`${check.method} ${check.path}`]).toMatchObject({ DetailedMetricsEnabled: true, ThrottlingRateLimit: THROTTLES.polling.rateLimit });
  });

  it('watches the business metrics the functions emit, with the dimensions they emit them with', () => {
    const alarms = resourcesOfType(synth.template, 'AWS::CloudWatch::Alarm').map(([, a]) => a.Properties!);
    const webhook = alarms.find((a) => a.AlarmName === 'framewright-dev-paypal-webhook-signature-failures')!;
    expect(webhook).toMatchObject({ Namespace: 'Framewright', MetricName: 'WebhookSignatureFailure', Statistic: 'Sum' });
    expect(webhook.Dimensions).toEqual(expect.arrayContaining([{ Name: 'service', Value: 'framewright' }, { Name: 'provider', Value: 'paypal' }]));
    expect(alarms.find((a) => a.AlarmName === 'framewright-dev-claw-backs')).toMatchObject({ MetricName: 'CreditsClawedBack', Threshold: 1 });
    // A plan payment still ungranted an hour after PayPal took it: the plans' reconciler's count of each run, at 1.
    expect(alarms.find((a) => a.AlarmName === 'framewright-dev-plan-sales-ungranted')).toMatchObject({
      Namespace: 'Framewright',
      MetricName: 'PlanSalesUngranted',
      Statistic: 'Maximum',
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      Dimensions: [{ Name: 'service', Value: 'framewright' }],
    });
    // The prompt policy's refusals: one series, no model dimension (refused before a job exists).
    expect(alarms.find((a) => a.AlarmName === 'framewright-dev-prompts-refused')).toMatchObject({ Namespace: 'Framewright', MetricName: 'PromptRefused', Statistic: 'Sum', Threshold: 10, Dimensions: [{ Name: 'service', Value: 'framewright' }] });
  });

  it('has a dashboard, dead-letter queues on the stream and the schedule, and a monthly budget from context', () => {
    expect(Object.keys(synth.template.findResources('AWS::CloudWatch::Dashboard'))).toHaveLength(1);
    const queue = Object.keys(synth.template.findResources('AWS::SQS::Queue'))[0]!;
    const dlq = { 'Fn::GetAtt': [queue, 'Arn'] };
    synth.template.hasResourceProperties('AWS::Lambda::EventSourceMapping', { DestinationConfig: { OnFailure: { Destination: dlq } } });
    synth.template.hasResourceProperties('AWS::Events::Rule', { Targets: [{ Arn: { 'Fn::GetAtt': [Match.anyValue(), 'Arn'] }, Id: Match.anyValue(), RetryPolicy: Match.anyValue(), DeadLetterConfig: { Arn: dlq } }] });
    synth.template.hasResourceProperties('AWS::Budgets::Budget', { Budget: { BudgetLimit: { Amount: 75, Unit: 'USD' }, TimeUnit: 'MONTHLY', BudgetType: 'COST' } });
  });

  it('puts a CloudFront WAF web ACL in us-east-1 with managed rules and per-IP rate rules, and the distribution uses it', () => {
    const edge = edgeOf(synth.stack);
    expect(edge.region).toBe('us-east-1');
    const t = Template.fromStack(edge);
    const acl = resourcesOfType(t, 'AWS::WAFv2::WebACL')[0]![1].Properties!;
    expect(acl.Scope).toBe('CLOUDFRONT');
    expect(acl.Name).toBe('framewright-dev-eu-west-1-edge');
    const rules = acl.Rules as any[];
    expect(rules.map((r) => r.Statement.ManagedRuleGroupStatement?.Name).filter(Boolean)).toEqual([
      'AWSManagedRulesAmazonIpReputationList',
      'AWSManagedRulesCommonRuleSet',
      'AWSManagedRulesKnownBadInputsRuleSet',
    ]);
    const paths = rules.filter((r) => r.Statement.RateBasedStatement).map((r) => r.Statement.RateBasedStatement.ScopeDownStatement.ByteMatchStatement.SearchString);
    expect(paths).toEqual(['/api/send-contact', '/api/generate-', '/api/uploads']);
    for (const r of rules.filter((x) => x.Statement.RateBasedStatement)) expect(r.Action).toEqual({ Block: { CustomResponse: { ResponseCode: 429 } } });
    expect(EDGE_RATE_RULES).toHaveLength(3);
    const config = resourcesOfType(synth.template, 'AWS::CloudFront::Distribution')[0]![1].Properties!.DistributionConfig;
    expect(config.WebACLId).toBeDefined();
  });

  it('limits sign-up and sign-in per IP with a regional web ACL on the user pool', () => {
    const acl = resourcesOfType(synth.template, 'AWS::WAFv2::WebACL')[0]![1].Properties!;
    expect(acl.Scope).toBe('REGIONAL');
    const targets = (acl.Rules as any[]).filter((r) => r.Statement.RateBasedStatement).map((r) => r.Statement.RateBasedStatement.ScopeDownStatement.ByteMatchStatement.SearchString);
    expect(targets).toEqual(COGNITO_RATE_RULES.map((r) => ('is' in r.scope ? r.scope.is : '')));
    expect(targets).toContain('AWSCognitoIdentityProviderService.SignUp');
    const pool = Object.keys(synth.template.findResources('AWS::Cognito::UserPool'))[0]!;
    synth.template.hasResourceProperties('AWS::WAFv2::WebACLAssociation', { ResourceArn: { 'Fn::GetAtt': [pool, 'Arn'] } });
  });

  it('names what CloudFront keeps per account with the stage and the region', () => {
    const names = [
      ...resourcesOfType(synth.template, 'AWS::CloudFront::ResponseHeadersPolicy').map(([, r]) => r.Properties!.ResponseHeadersPolicyConfig.Name),
      ...resourcesOfType(synth.template, 'AWS::CloudFront::OriginAccessControl').map(([, r]) => r.Properties!.OriginAccessControlConfig.Name),
      ...resourcesOfType(synth.template, 'AWS::CloudFront::Function').map(([, r]) => r.Properties!.Name),
    ];
    expect(names.length).toBe(5);
    for (const name of names) expect(name).toMatch(/^fw-dev-eu-west-1-/);
  });

  it('reserves no concurrency in dev (a new account\'s quota may be 10)', () => {
    for (const [, f] of functions()) expect(f.Properties!.ReservedConcurrentExecutions).toBeUndefined();
  });
});

describe('operations in prod and special accounts', () => {
  it('reserves concurrency for the webhooks and caps generation in prod', () => {
    const s = synthTemplate({ context: { stage: 'prod', cognitoEmail: 'ses', alarmEmail: 'ops@framewright.app', accountConcurrency: '1000' } });
    try {
      const fns = resourcesOfType(s.template, 'AWS::Lambda::Function');
      const of = (description: string) => fns.find(([, f]) => f.Properties!.Description === description)![1].Properties!.ReservedConcurrentExecutions;
      expect(of('POST /api/webhooks/replicate')).toBe(RESERVED_CONCURRENCY.webhook);
      expect(of('POST /api/webhooks/paypal')).toBe(RESERVED_CONCURRENCY.webhook);
      expect(of('POST /api/generate-image')).toBe(RESERVED_CONCURRENCY.generation);
      expect(of('POST /api/generate-video')).toBe(RESERVED_CONCURRENCY.generation);
      expect(of('POST /api/generations')).toBe(RESERVED_CONCURRENCY.generation);
      expect(of('GET /api/check-status/{predictionId}')).toBeUndefined();
    } finally {
      s.cleanup();
    }
  });

  it('adopts an existing SES identity instead of creating it, and still scopes SendEmail to it', () => {
    const s = synthTemplate({ context: { existingSenderIdentity: 'true', senderEmail: 'hello@framewright.app' } });
    try {
      s.template.resourceCountIs('AWS::SES::EmailIdentity', 0);
      const policies = json(s.template.findResources('AWS::IAM::Policy'));
      expect(policies).toContain(':identity/hello@framewright.app');
    } finally {
      s.cleanup();
    }
  });

  it('in an opt-in region, sends CloudFront\'s logs to a bucket in us-east-1', () => {
    const s = synthTemplate({ context: { region: 'af-south-1' } });
    try {
      const edge = Template.fromStack(edgeOf(s.stack));
      expect(Object.keys(edge.findResources('AWS::S3::Bucket'))).toHaveLength(1);
      const config = resourcesOfType(s.template, 'AWS::CloudFront::Distribution')[0]![1].Properties!.DistributionConfig;
      // Read across regions (CDK's exports reader), not the app region's access-log bucket.
      expect(json(config.Logging.Bucket)).toMatch(/ExportsReader/);
    } finally {
      s.cleanup();
    }
    const normal = synthTemplate({});
    try {
      expect(Object.keys(Template.fromStack(edgeOf(normal.stack)).findResources('AWS::S3::Bucket'))).toHaveLength(0);
    } finally {
      normal.cleanup();
    }
  });
});

describe('cdk synth on a fresh clone', () => {
  it('stops with one clear line and no stack trace when there is no web build', () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-no-web-'));
    try {
      const r = spawnSync(process.execPath, [path.join('node_modules', 'tsx', 'dist', 'cli.mjs'), 'bin/app.ts'], {
        cwd: path.resolve(__dirname, '..', '..'),
        env: { ...process.env, CDK_CONTEXT_JSON: JSON.stringify({ webDist: empty, senderEmail: 'a@framewright.app', region: 'eu-west-1' }), CDK_OUTDIR: path.join(empty, 'out') },
        encoding: 'utf8',
      });
      expect(r.status).toBe(1);
      const lines = r.stderr.trim().split('\n');
      expect(lines).toEqual([expect.stringMatching(/^Framewright: .* has no web build: run `npm run build` first/)]);
    } finally {
      fs.rmSync(empty, { recursive: true, force: true });
    }
  });

  it('says in one line how to give a sender address', () => {
    const r = spawnSync(process.execPath, [path.join('node_modules', 'tsx', 'dist', 'cli.mjs'), 'bin/app.ts'], {
      cwd: path.resolve(__dirname, '..', '..'),
      env: { ...process.env, CDK_CONTEXT_JSON: JSON.stringify({ region: 'eu-west-1' }) },
      encoding: 'utf8',
    });
    expect(r.status).toBe(1);
    expect(r.stderr.trim()).toBe('Framewright: Context "senderEmail" is required: an address you can read, e.g. npx cdk deploy -c stage=dev -c senderEmail=you@example.org');
  });
});
