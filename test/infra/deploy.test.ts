import { ROUTES } from '../../contract/routes';
import { THROTTLES, throttleClassOf } from '../../contract/throttles';
import { RATE_WATCHED_ROUTES } from '../../lib/constructs/api';
import { NONCURRENT_VERSION_DAYS } from '../../lib/constructs/data';
import { ALARM_THRESHOLDS } from '../../lib/constructs/observability';
import { permissionsOf, resourcesOfType, synthForSuite, synthTemplate } from './synth';

const PROD = { stage: 'prod', cognitoEmail: 'ses', alarmEmail: 'ops@framewright.app', accountConcurrency: '1000' };
const json = (v: unknown) => JSON.stringify(v);

describe('what a first prod deploy gets: per-route throttles, alarms, a versioned media bucket', () => {
  const prod = synthForSuite({ context: PROD });
  const stageOf = () => resourcesOfType(prod.template, 'AWS::ApiGatewayV2::Stage').find(([, s]) => s.Properties!.StageName === '$default')![1].Properties!;
  const alarm = (name: string) => resourcesOfType(prod.template, 'AWS::CloudWatch::Alarm').find(([, a]) => a.Properties!.AlarmName === `framewright-prod-${name}`)?.[1].Properties;

  it('throttles each webhook, share and polling route with a limit of its own, and the rest with the stage default', () => {
    const stage = stageOf();
    expect(stage.DefaultRouteSettings).toMatchObject({ ThrottlingRateLimit: THROTTLES.rest.rateLimit, ThrottlingBurstLimit: THROTTLES.rest.burstLimit });
    const settings = stage.RouteSettings as Record<string, { ThrottlingRateLimit: number; ThrottlingBurstLimit: number }>;
    for (const route of ROUTES) {
      const kind = throttleClassOf(route);
      const own = settings[`${route.method} ${route.path}`];
      // A route whose rate is watched (quota alarms) has its own entry for its detailed metrics, with its kind's throttle.
      const watched = RATE_WATCHED_ROUTES.includes(route.id);
      if (kind === 'rest' && !watched) expect(own).toBeUndefined();
      else
        expect({ route: route.id, own }).toEqual({
          route: route.id,
          own: { ThrottlingRateLimit: THROTTLES[kind].rateLimit, ThrottlingBurstLimit: THROTTLES[kind].burstLimit, ...(watched ? { DetailedMetricsEnabled: true } : {}) },
        });
    }
    for (const webhook of ROUTES.filter((r) => r.auth === 'signature')) expect(settings[`${webhook.method} ${webhook.path}`]).toBeDefined();
    expect(throttleClassOf(ROUTES.find((r) => r.id === 'checkStatus')!)).toBe('polling');
    expect(['sharePage', 'shareFile', 'sharePoster'].map((id) => throttleClassOf(ROUTES.find((r) => r.id === id)!))).toEqual(['share', 'share', 'share']);
    // The stage names routes in its settings: CloudFormation must create them first.
    const [stageId] = resourcesOfType(prod.template, 'AWS::ApiGatewayV2::Stage').find(([, s]) => s.Properties!.StageName === '$default')!;
    const dependsOn: string[] = prod.template.toJSON().Resources[stageId].DependsOn ?? [];
    const webhookRoute = resourcesOfType(prod.template, 'AWS::ApiGatewayV2::Route').find(([, r]) => r.Properties!.RouteKey === 'POST /api/webhooks/replicate')![0];
    expect(dependsOn).toContain(webhookRoute);
  });

  it('alarms on provider failures (every model), SES rejects and bounces, the Cognito trigger, and traffic falling to zero', () => {
    const failures = alarm('provider-failures')!;
    expect(failures.Threshold).toBe(ALARM_THRESHOLDS.providerFailures);
    const models = failures.Metrics.filter((m: any) => m.MetricStat).map((m: any) => m.MetricStat.Metric.Dimensions.find((d: any) => d.Name === 'model').Value);
    expect(models).toEqual(expect.arrayContaining(['stability-ai/sdxl', 'pixverse/pixverse-v4.5']));
    expect(failures.Metrics.every((m: any) => !m.MetricStat || m.MetricStat.Metric.MetricName === 'JobFailed')).toBe(true);
    // A model's margin over a day: revenue against what Replicate charged, one alarm per model.
    const margin = alarm('margin-pixverse-pixverse-v4-5')!;
    expect(margin).toMatchObject({ Threshold: ALARM_THRESHOLDS.modelMarginPercent, ComparisonOperator: 'LessThanThreshold' });
    const marginInputs = margin.Metrics.filter((m: any) => m.MetricStat).map((m: any) => [m.MetricStat.Metric.MetricName, m.MetricStat.Period]);
    expect(marginInputs.sort()).toEqual([['ProviderCostCents', 86_400], ['RevenueCents', 86_400]]);
    expect(alarm('margin-stability-ai-sdxl')).toBeDefined();
    expect(alarm('ses-rejects')).toMatchObject({ Namespace: 'AWS/SES', MetricName: 'Reject', Threshold: 1 });
    expect(alarm('ses-bounce-rate')).toMatchObject({ Namespace: 'AWS/SES', MetricName: 'Reputation.BounceRate', Threshold: ALARM_THRESHOLDS.sesBounceRate });
    const trigger = resourcesOfType(prod.template, 'AWS::Lambda::Function').find(([, f]) => /CustomMessage/.test(f.Properties!.Description ?? ''))![0];
    expect(json(alarm('cognitoCustomMessage-errors'))).toContain(trigger);
    expect(alarm('traffic-stopped')).toMatchObject({
      MetricName: 'Count',
      ComparisonOperator: 'LessThanThreshold',
      Threshold: 1,
      EvaluationPeriods: ALARM_THRESHOLDS.silentHours,
      TreatMissingData: 'breaching',
    });
    // Each alarm mails someone: the topic has alarmEmail's subscription, and every alarm acts on it.
    prod.template.hasResourceProperties('AWS::SNS::Subscription', { Protocol: 'email', Endpoint: 'ops@framewright.app' });
    for (const [, a] of resourcesOfType(prod.template, 'AWS::CloudWatch::Alarm')) expect(a.Properties!.AlarmActions).toHaveLength(1);
  });

  it('versions the media bucket and expires old versions after the restore window', () => {
    const [, media] = resourcesOfType(prod.template, 'AWS::S3::Bucket').find(([id]) => id.startsWith('DataMediaBucket'))!;
    expect(media.Properties!.VersioningConfiguration).toEqual({ Status: 'Enabled' });
    expect(media.Properties!.LifecycleConfiguration.Rules).toEqual(
      expect.arrayContaining([expect.objectContaining({ Id: 'expire-old-versions', Status: 'Enabled', NoncurrentVersionExpiration: { NoncurrentDays: NONCURRENT_VERSION_DAYS }, ExpiredObjectDeleteMarker: true })]),
    );
  });
});

describe('a table restored to a point in time', () => {
  const name = 'framewright-prod-restored';
  const streamArn = `arn:aws:dynamodb:eu-west-1:123456789012:table/${name}/stream/2026-11-25T23:00:00.000`;
  const restored = synthForSuite({ context: { ...PROD, restoredTableName: name, restoredTableStreamArn: streamArn } });

  it('points every function, grant and the stream at the restored table, and makes no table of its own', () => {
    restored.template.resourceCountIs('AWS::DynamoDB::Table', 0);
    const functions = resourcesOfType(restored.template, 'AWS::Lambda::Function').filter(([, f]) => f.Properties?.Environment?.Variables?.TABLE_NAME);
    expect(functions.length).toBeGreaterThan(ROUTES.length);
    for (const [, f] of functions) expect(f.Properties!.Environment.Variables.TABLE_NAME).toBe(name);
    for (const [id] of functions) {
      const tableGrants = [...permissionsOf(restored.template, id)].filter(([action]) => action.startsWith('dynamodb:') && !action.includes('Stream'));
      for (const [, resources] of tableGrants) for (const r of resources) expect(r).toContain(`table/${name}`);
    }
    const [, mapping] = resourcesOfType(restored.template, 'AWS::Lambda::EventSourceMapping')[0]!;
    expect(mapping.Properties!.EventSourceArn).toBe(streamArn);
    expect(restored.template.toJSON().Outputs.TableName.Value).toBe(name);
  });

  it('refuses a name without its stream, or a stream of another table, in one line', () => {
    expect(() => synthTemplate({ context: { ...PROD, restoredTableName: name } })).toThrow(/^Context "restoredTableName" and "restoredTableStreamArn" go together/);
    expect(() => synthTemplate({ context: { ...PROD, restoredTableName: name, restoredTableStreamArn: streamArn.replace(name, 'other') } })).toThrow(
      `Context "restoredTableStreamArn" must be the stream ARN of table ${name}`,
    );
  });
});
