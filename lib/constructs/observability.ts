import { Annotations, Duration, Stack, Validations } from 'aws-cdk-lib';
import type * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import * as budgets from 'aws-cdk-lib/aws-budgets';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as actions from 'aws-cdk-lib/aws-cloudwatch-actions';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as sns from 'aws-cdk-lib/aws-sns';
import * as subscriptions from 'aws-cdk-lib/aws-sns-subscriptions';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { BusinessMetric as M, METRICS_NAMESPACE } from '../../contract/metrics';
import { OPTIONAL_RESOURCES, regionHas } from '../regions';
import type { Stage } from '../settings';
import type { AppFunction } from './lambda-function';

/** A function to watch, with what feeds it. */
export interface WatchedFunction {
  id: string;
  fn: AppFunction;
  timeoutSeconds: number;
  /** Fed by the table's stream: its iterator age is watched too. */
  stream?: boolean;
}

/**
 * The limits of docs/capacity.md, each watched at QUOTA_ALARM_SHARE of itself: an alarm well before a limit bites.
 * Built by the stack from the constructs' own constants (reserved concurrency, stage and route throttles, the open-jobs
 * index's shards, Replicate's published rate limits), the same figures `npm run capacity` reads.
 */
export interface QuotaProps {
  /** Functions with reserved concurrency: ConcurrentExecutions against the reservation. */
  reserved: { id: string; fn: AppFunction; reserved: number }[];
  /** The push channel's stage: connects and messages a second against its throttle. */
  live: { apiId: string; stage: string; rateLimit: number };
  /** HTTP routes whose request rate is watched against their route throttle (detailed metrics are on for them). */
  routes: { id: string; method: string; path: string; rateLimit: number }[];
  /** The open-jobs index: its consumed writes a second against its shards' partition limit. */
  openJobsIndex: { tableName: string; indexName: string; writesPerSecond: number };
  /** Replicate's rate limits a minute: prediction creates, and every other API call (the functions count both). */
  providerCreatesPerMinute: number;
  providerOtherRequestsPerMinute: number;
}

/** Share of a limit at which its alarm fires. */
export const QUOTA_ALARM_SHARE = 0.8;

export interface ObservabilityProps {
  stage: Stage;
  /** The job's `model` dimension values of JobFailed (contract/models), summed by the provider-failures alarm. */
  models: readonly string[];
  functions: WatchedFunction[];
  httpApi: apigw.HttpApi;
  deadLetters: sqs.IQueue[];
  alarmEmail?: string;
  monthlyBudgetUsd: number;
  quotas?: QuotaProps;
}

/**
 * Thresholds of the alarms (docs/deploy.md, "Runbook", says what each means and what to do). Periods are 5 minutes.
 */
export const ALARM_THRESHOLDS = {
  api5xxPercent: 5,
  /** Share of a function's timeout its p99 duration may reach. */
  durationOfTimeout: 0.8,
  streamAgeSeconds: 300,
  webhookSignatureFailures: 10,
  reconcilerRefunds: 5,
  clawedBackCredits: 1,
  /** Prompts refused by the prompt policy in 5 minutes: one user probing the filter, or a wave of abuse. */
  promptsRefused: 10,
  /** Jobs the provider failed (all models) in 5 minutes: an empty Replicate balance, a 401, a removed model version. */
  providerFailures: 5,
  /**
   * A model's margin over a day, in percent of what its succeeded jobs' credits are worth (RevenueCents) less what
   * Replicate charged for its predictions (ProviderCostCents, billed failures included): below it, its price needs a look.
   */
  modelMarginPercent: 20,
  /** SES bounce rate (share of sends): SES reviews an account at 5% and may pause its sending at 10%. */
  sesBounceRate: 0.05,
  /** Hours without a single API request (prod only) before the traffic alarm fires. */
  silentHours: 3,
} as const;

const FIVE_MINUTES = Duration.minutes(5);

/** The business metric as Powertools emits it (namespace, service dimension, and any of its own). */
function business(name: string, dimensions: Record<string, string> = {}, statistic = 'Sum'): cloudwatch.Metric {
  return new cloudwatch.Metric({ namespace: METRICS_NAMESPACE, metricName: name, dimensionsMap: { service: 'framewright', ...dimensions }, statistic, period: FIVE_MINUTES });
}

/** Alarms to an SNS topic (mailed to alarmEmail), a dashboard, and a monthly AWS Budget. */
export class Observability extends Construct {
  readonly topic: sns.Topic;
  readonly dashboard: cloudwatch.Dashboard;
  readonly alarms: cloudwatch.Alarm[] = [];

  constructor(scope: Construct, id: string, props: ObservabilityProps) {
    super(scope, id);
    const region = Stack.of(this).region;
    const prefix = `framewright-${props.stage}`;
    this.topic = new sns.Topic(this, 'Alarms', { displayName: `Framewright ${props.stage} alarms`, enforceSSL: true });
    if (props.alarmEmail) this.topic.addSubscription(new subscriptions.EmailSubscription(props.alarmEmail));
    Validations.of(this.topic).acknowledge({
      id: 'AwsSolutions-SNS2',
      reason:
        'Alarm and budget notices carry metric names and thresholds, no customer data; CloudWatch and Budgets cannot ' +
        'publish to a topic encrypted with the AWS managed SNS key, and a customer key would cost more than the topic.',
    });
    const action = new actions.SnsAction(this.topic);
    const alarm = (name: string, description: string, metric: cloudwatch.IMetric, threshold: number, op = cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD) => {
      const a = new cloudwatch.Alarm(this, name, {
        alarmName: `${prefix}-${name}`,
        alarmDescription: description,
        metric,
        threshold,
        evaluationPeriods: 1,
        comparisonOperator: op,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      });
      a.addAlarmAction(action);
      this.alarms.push(a);
      return a;
    };

    // ---- the API ----
    const api5xx = new cloudwatch.MathExpression({
      label: 'API 5xx %',
      expression: '100 * errors / MAX([requests, 1])',
      usingMetrics: { errors: props.httpApi.metricServerError({ period: FIVE_MINUTES }), requests: props.httpApi.metricCount({ period: FIVE_MINUTES }) },
      period: FIVE_MINUTES,
    });
    alarm('api-5xx-rate', `More than ${ALARM_THRESHOLDS.api5xxPercent}% of API requests answered 5xx in 5 minutes.`, api5xx, ALARM_THRESHOLDS.api5xxPercent, cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD);

    // ---- every function: errors, duration near its timeout (and stream age); throttles once for all ----
    // Throttles are one alarm on Lambda's account-wide metric, not one per function: a stack has at most 500
    // resources and 50 throttle alarms were a tenth of them; the dashboard still graphs each function's throttles,
    // and the reserved functions' concurrency has its own alarms at 80% (below).
    alarm('functions-throttles', 'Lambda invocations were throttled (a function or the account ran out of concurrency): see the dashboard for which.', new cloudwatch.Metric({ namespace: 'AWS/Lambda', metricName: 'Throttles', statistic: 'Sum', period: FIVE_MINUTES }), 1);
    for (const w of props.functions) {
      const f = w.fn.function;
      alarm(`${w.id}-errors`, `${w.id}: the function failed (an uncaught error or a timeout) in the last 5 minutes.`, f.metricErrors({ period: FIVE_MINUTES }), 1);
      alarm(
        `${w.id}-duration`,
        `${w.id}: p99 duration above ${ALARM_THRESHOLDS.durationOfTimeout * 100}% of its ${w.timeoutSeconds} s timeout.`,
        f.metricDuration({ period: FIVE_MINUTES, statistic: 'p99' }),
        w.timeoutSeconds * 1000 * ALARM_THRESHOLDS.durationOfTimeout,
        cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      );
      if (w.stream) {
        alarm(
          `${w.id}-stream-age`,
          `${w.id}: the table's stream is more than ${ALARM_THRESHOLDS.streamAgeSeconds / 60} minutes behind.`,
          f.metric('IteratorAge', { period: FIVE_MINUTES, statistic: 'Maximum' }),
          ALARM_THRESHOLDS.streamAgeSeconds * 1000,
          cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
        );
      }
    }
    props.deadLetters.forEach((q, i) =>
      alarm(`dead-letters-${i + 1}`, 'A stream batch or scheduled run gave up after its retries and was set aside in a dead-letter queue.', q.metricApproximateNumberOfMessagesVisible({ period: FIVE_MINUTES, statistic: 'Maximum' }), 1),
    );

    // ---- quotas: every limit of the capacity model, at 80% of it ----
    if (props.quotas) this.quotaAlarms(props.quotas, props.httpApi, alarm);

    // ---- business ----
    for (const provider of ['replicate', 'paypal']) {
      alarm(
        `${provider}-webhook-signature-failures`,
        `${ALARM_THRESHOLDS.webhookSignatureFailures}+ ${provider} webhooks with a bad signature in 5 minutes.`,
        business(M.WebhookSignatureFailure, { provider }),
        ALARM_THRESHOLDS.webhookSignatureFailures,
      );
    }
    alarm('reconciler-refunds', `The reconciler refunded ${ALARM_THRESHOLDS.reconcilerRefunds}+ jobs in 5 minutes.`, business(M.ReconcilerRefund), ALARM_THRESHOLDS.reconcilerRefunds);
    alarm('prompts-refused', `${ALARM_THRESHOLDS.promptsRefused}+ prompts refused by the prompt policy in 5 minutes.`, business(M.PromptRefused), ALARM_THRESHOLDS.promptsRefused);
    alarm('claw-backs', 'A PayPal refund or reversal took credits back.', business(M.CreditsClawedBack), ALARM_THRESHOLDS.clawedBackCredits);
    // A refund that could not be written: the job stays open and its owner's credits are short until it lands.
    alarm('refund-not-landed', 'A job\'s refund could not be written (the job stays open and is retried).', business(M.RefundNotLanded), 1);
    // A month paid at PayPal and still not granted an hour later (the reconciler's count each run): docs/deploy.md.
    alarm('plan-sales-ungranted', 'A plan payment PayPal completed an hour ago or more is still not granted (see docs/deploy.md, "A plan payment not granted").', business(M.PlanSalesUngranted, undefined, 'Maximum'), 1);

    // Every job refunded at once (the provider out of credit, a revoked key, a removed model version) settles through
    // webhooks and polls, not the reconciler: watch the failures themselves, summed over the models.
    const failedPerModel = Object.fromEntries(props.models.map((model, i) => [`m${i}`, business(M.JobFailed, { model })]));
    alarm(
      'provider-failures',
      `${ALARM_THRESHOLDS.providerFailures}+ jobs failed at the provider (and were refunded) in 5 minutes.`,
      new cloudwatch.MathExpression({ label: 'Jobs failed, all models', expression: Object.keys(failedPerModel).join(' + ') || '0', usingMetrics: failedPerModel, period: FIVE_MINUTES }),
      ALARM_THRESHOLDS.providerFailures,
    );

    // A model whose margin over a day fell below the threshold (a price under its provider cost, or billed failures we
    // refunded): revenue at the cheapest pack's price per credit against what Replicate charged, per model.
    for (const model of props.models) {
      const day = Duration.days(1);
      const m = (name: string) => new cloudwatch.Metric({ ...business(name, { model }), period: day });
      alarm(
        `margin-${model.replace(/[^A-Za-z0-9]+/g, '-')}`,
        `${model}: margin under ${ALARM_THRESHOLDS.modelMarginPercent}% over a day (docs/deploy.md, Runbook).`,
        new cloudwatch.MathExpression({
          label: `Margin % ${model}`,
          // No revenue: a loss when anything was billed, else nothing to say.
          expression: 'IF(FILL(rev, 0) > 0, 100 * (FILL(rev, 0) - FILL(cost, 0)) / FILL(rev, 0), IF(FILL(cost, 0) > 0, -100, 100))',
          usingMetrics: { rev: m(M.RevenueCents), cost: m(M.ProviderCostCents) },
          period: day,
        }),
        ALARM_THRESHOLDS.modelMarginPercent,
        cloudwatch.ComparisonOperator.LESS_THAN_THRESHOLD,
      );
    }

    // ---- email: SES's own account metrics in this region (sign-up codes and contact messages go through it) ----
    alarm('ses-rejects', 'SES rejected an email (it would not send it at all).', new cloudwatch.Metric({ namespace: 'AWS/SES', metricName: 'Reject', statistic: 'Sum', period: FIVE_MINUTES }), 1);
    alarm(
      'ses-bounce-rate',
      `SES bounce rate at ${ALARM_THRESHOLDS.sesBounceRate * 100}% or more: SES may pause sending (sign-up codes included).`,
      new cloudwatch.Metric({ namespace: 'AWS/SES', metricName: 'Reputation.BounceRate', statistic: 'Maximum', period: Duration.hours(1) }),
      ALARM_THRESHOLDS.sesBounceRate,
    );

    // ---- traffic falling to zero (prod: a dev stack is idle most of the time) ----
    if (props.stage === 'prod') {
      const silent = alarm(
        'traffic-stopped',
        `No API request for ${ALARM_THRESHOLDS.silentHours} hours: the site, CloudFront or DNS may be down.`,
        props.httpApi.metricCount({ period: Duration.hours(1), statistic: 'Sum' }),
        1,
        cloudwatch.ComparisonOperator.LESS_THAN_THRESHOLD,
      );
      // No request means no data point: missing data is the very thing to alarm on.
      const cfn = silent.node.defaultChild as cloudwatch.CfnAlarm;
      cfn.evaluationPeriods = ALARM_THRESHOLDS.silentHours;
      cfn.treatMissingData = cloudwatch.TreatMissingData.BREACHING;
    }

    // ---- dashboard ----
    const search = (metric: string, dims: string) =>
      new cloudwatch.MathExpression({ expression: `SEARCH('{${METRICS_NAMESPACE},${dims}} MetricName="${metric}"', 'Sum', 300)`, label: metric, period: FIVE_MINUTES });
    this.dashboard = new cloudwatch.Dashboard(this, 'Dashboard', {
      dashboardName: `${prefix}-${region}`,
      defaultInterval: Duration.hours(6),
      widgets: [
        [
          new cloudwatch.GraphWidget({ title: 'API requests and 5xx', left: [props.httpApi.metricCount({ period: FIVE_MINUTES }), props.httpApi.metricServerError({ period: FIVE_MINUTES })], width: 12 }),
          new cloudwatch.GraphWidget({ title: 'API latency p99 (ms)', left: [props.httpApi.metricLatency({ period: FIVE_MINUTES, statistic: 'p99' })], width: 12 }),
        ],
        [
          new cloudwatch.GraphWidget({
            title: 'Jobs per model',
            left: [M.JobStarted, M.JobSucceeded, M.JobFailed].map((m) => search(m, 'service,model')),
            width: 12,
          }),
          new cloudwatch.GraphWidget({ title: 'Refunds', left: [search(M.JobRefunded, 'service,model'), business(M.ReconcilerRefund), search(M.DailyCapReached, 'service,model')], width: 12 }),
        ],
        [
          new cloudwatch.GraphWidget({ title: 'Credits sold and clawed back', left: [business(M.CreditsSold), business(M.CreditsClawedBack)], width: 12 }),
          new cloudwatch.GraphWidget({ title: 'Webhook signature failures', left: ['replicate', 'paypal'].map((p) => business(M.WebhookSignatureFailure, { provider: p })), width: 12 }),
        ],
        [
          new cloudwatch.GraphWidget({ title: 'Function errors', left: props.functions.map((w) => w.fn.function.metricErrors({ period: FIVE_MINUTES, label: w.id })), width: 12 }),
          new cloudwatch.GraphWidget({ title: 'Function throttles', left: props.functions.map((w) => w.fn.function.metricThrottles({ period: FIVE_MINUTES, label: w.id })), width: 12 }),
        ],
        [new cloudwatch.AlarmStatusWidget({ title: 'Alarms', alarms: this.alarms, width: 24 })],
      ],
    });

    this.budget(prefix, region, props.monthlyBudgetUsd);
  }

  private quotaAlarms(q: QuotaProps, httpApi: apigw.HttpApi, alarm: (name: string, description: string, metric: cloudwatch.IMetric, threshold: number) => cloudwatch.Alarm): void {
    const share = QUOTA_ALARM_SHARE;
    const pct = `${share * 100}%`;
    const minute = Duration.minutes(1);
    for (const r of q.reserved) {
      alarm(
        `${r.id}-concurrency-quota`,
        `${r.id}: ${pct} of its ${r.reserved} reserved concurrent executions in use (past it, invocations are throttled).`,
        r.fn.function.metric('ConcurrentExecutions', { statistic: 'Maximum', period: minute }),
        Math.ceil(r.reserved * share),
      );
    }
    const perSecond = (label: string, metrics: Record<string, cloudwatch.IMetric>) =>
      new cloudwatch.MathExpression({ label, expression: `(${Object.keys(metrics).join(' + ')}) / 60`, usingMetrics: metrics, period: minute });
    const live = (metricName: string) =>
      new cloudwatch.Metric({ namespace: 'AWS/ApiGateway', metricName, dimensionsMap: { ApiId: q.live.apiId, Stage: q.live.stage }, statistic: 'Sum', period: minute });
    alarm(
      'live-stage-rate-quota',
      `The push channel takes ${pct} of its stage throttle (${q.live.rateLimit} connects and messages a second).`,
      perSecond('Push channel requests/s', { c: live('ConnectCount'), m: live('MessageCount') }),
      q.live.rateLimit * share,
    );
    for (const r of q.routes) {
      const count = new cloudwatch.Metric({
        namespace: 'AWS/ApiGateway',
        metricName: 'Count',
        dimensionsMap: { ApiId: httpApi.apiId, Stage: '$default', Resource: r.path, Method: r.method },
        statistic: 'Sum',
        period: minute,
      });
      alarm(`${r.id}-rate-quota`, `${r.method} ${r.path} takes ${pct} of its route throttle (${r.rateLimit} requests a second).`, perSecond(`${r.id} requests/s`, { n: count }), r.rateLimit * share);
    }
    alarm(
      'open-jobs-index-writes-quota',
      `The open-jobs index takes ${pct} of the writes its shards hold (${q.openJobsIndex.writesPerSecond} a second).`,
      perSecond('Open-jobs index writes/s', {
        w: new cloudwatch.Metric({
          namespace: 'AWS/DynamoDB',
          metricName: 'ConsumedWriteCapacityUnits',
          dimensionsMap: { TableName: q.openJobsIndex.tableName, GlobalSecondaryIndexName: q.openJobsIndex.indexName },
          statistic: 'Sum',
          period: minute,
        }),
      }),
      q.openJobsIndex.writesPerSecond * share,
    );
    // Counted where the calls are made (the Replicate adapter), each retry included, as Replicate counts them.
    const providerCalls = (metricName: string) =>
      new cloudwatch.Metric({ namespace: METRICS_NAMESPACE, metricName, dimensionsMap: { service: 'framewright' }, statistic: 'Sum', period: minute });
    alarm(
      'provider-creates-quota',
      `Predictions are created at ${pct} of Replicate's ${q.providerCreatesPerMinute} a minute (past it, starts queue).`,
      providerCalls(M.ProviderCreates),
      q.providerCreatesPerMinute * share,
    );
    alarm(
      'provider-requests-quota',
      `Replicate's other API calls (reads, lists, cancels) run at ${pct} of its ${q.providerOtherRequestsPerMinute} a minute (past it, polls and the reconciler are refused).`,
      providerCalls(M.ProviderOtherRequests),
      q.providerOtherRequestsPerMinute * share,
    );
  }

  /** A monthly AWS Budget alerting the topic; the opt-in regions CloudFormation has no Budgets in get none (synth says so). */
  private budget(prefix: string, region: string, monthlyBudgetUsd: number): void {
    if (!regionHas(region, 'AWS::Budgets::Budget')) {
      Annotations.of(this).addWarningV2('framewright:no-budget', `${region} has no AWS::Budgets::Budget in CloudFormation: this stack is without ${OPTIONAL_RESOURCES['AWS::Budgets::Budget']}.`);
      return;
    }
    this.topic.addToResourcePolicy(
      new iam.PolicyStatement({
        actions: ['sns:Publish'],
        principals: [new iam.ServicePrincipal('budgets.amazonaws.com')],
        resources: [this.topic.topicArn],
        conditions: { StringEquals: { 'aws:SourceAccount': Stack.of(this).account } },
      }),
    );
    const toTopic = [{ subscriptionType: 'SNS', address: this.topic.topicArn }];
    new budgets.CfnBudget(this, 'Budget', {
      budget: {
        budgetName: `${prefix}-${region}-monthly`,
        budgetType: 'COST',
        timeUnit: 'MONTHLY',
        budgetLimit: { amount: monthlyBudgetUsd, unit: 'USD' },
      },
      notificationsWithSubscribers: [
        { notification: { notificationType: 'ACTUAL', comparisonOperator: 'GREATER_THAN', threshold: 80, thresholdType: 'PERCENTAGE' }, subscribers: toTopic },
        { notification: { notificationType: 'FORECASTED', comparisonOperator: 'GREATER_THAN', threshold: 100, thresholdType: 'PERCENTAGE' }, subscribers: toTopic },
      ],
    });
  }
}
