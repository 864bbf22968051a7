import { Match } from 'aws-cdk-lib/assertions';
import { BACKGROUND_FUNCTIONS, type BackgroundFunctionDef } from '../../contract/functions';
import { OUTPUT_RECORDED } from '../../contract/stream-filters';
import { permissionsOf, resourcesOfType, synthForSuite, synthTemplate } from './synth';

/** Two made-up functions, one of each kind, so the construct is tested whatever contract/functions holds. */
const FUNCTIONS: BackgroundFunctionDef[] = [
  { id: 'onChange', handler: 'get-health', description: 'test: table stream', trigger: { kind: 'table-stream', batchSize: 25, maxRetries: 4 }, grants: ['table:read'] },
  { id: 'everyMinute', handler: 'get-health', description: 'test: schedule', trigger: { kind: 'schedule', everyMinutes: 1 }, grants: ['table:write'] },
];

describe('Background: stream and scheduled functions', () => {
  const synth = synthForSuite({ backgroundFunctions: FUNCTIONS });
  const fnId = (description: string) => resourcesOfType(synth.template, 'AWS::Lambda::Function').find(([, r]) => r.Properties?.Description === description)![0];

  it('the table has a stream with both images and the indexes the local table has: gsi1 (whole items) and open-jobs (keys only)', () => {
    synth.template.hasResourceProperties('AWS::DynamoDB::Table', {
      StreamSpecification: { StreamViewType: 'NEW_AND_OLD_IMAGES' },
      GlobalSecondaryIndexes: [
        Match.objectLike({ IndexName: 'gsi1', KeySchema: [{ AttributeName: 'gsi1pk', KeyType: 'HASH' }, { AttributeName: 'gsi1sk', KeyType: 'RANGE' }], Projection: { ProjectionType: 'ALL' } }),
        Match.objectLike({ IndexName: 'open-jobs', KeySchema: [{ AttributeName: 'openpk', KeyType: 'HASH' }, { AttributeName: 'opensk', KeyType: 'RANGE' }], Projection: { ProjectionType: 'KEYS_ONLY' } }),
      ],
    });
  });

  it('a stream function reads the table stream with its batch size, retries, bisecting and partial batch responses', () => {
    synth.template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: fnId('test: table stream') },
      BatchSize: 25,
      MaximumRetryAttempts: 4,
      BisectBatchOnFunctionError: true,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      StartingPosition: 'LATEST',
    });
    expect(permissionsOf(synth.template, fnId('test: table stream')).size).toBeGreaterThan(0);
  });

  it('a scheduled function runs on an EventBridge rate', () => {
    synth.template.hasResourceProperties('AWS::Events::Rule', {
      ScheduleExpression: 'rate(1 minute)',
      Targets: [Match.objectLike({ Arn: { 'Fn::GetAtt': [fnId('test: schedule'), 'Arn'] } })],
    });
  });
});

describe("the contract's background functions", () => {
  const synth = synthForSuite();

  it('the functions that run ffmpeg get its layer, x86_64 (the binary is linux-x64), 2 GB and 2 GB of /tmp; every other function stays arm64 without it', () => {
    const fns = resourcesOfType(synth.template, 'AWS::Lambda::Function');
    const ffmpegFns = BACKGROUND_FUNCTIONS.filter((f) => f.ffmpeg);
    expect(ffmpegFns.map((f) => f.id).sort()).toEqual(['reconcileJobs', 'saveJobOutput']);
    // (The site's deployments bring CDK's own AWS CLI layers.)
    const layers = resourcesOfType(synth.template, 'AWS::Lambda::LayerVersion').filter(([, r]) => String(r.Properties?.Description).startsWith('ffmpeg'));
    expect(layers).toHaveLength(1);
    const [layerId, layer] = layers[0]!;
    expect(layer.Properties).toMatchObject({ CompatibleArchitectures: ['x86_64'], CompatibleRuntimes: ['nodejs24.x'] });
    for (const def of ffmpegFns) {
      const [, fn] = fns.find(([, r]) => r.Properties?.Description === def.description)!;
      expect(fn.Properties).toMatchObject({
        Architectures: ['x86_64'],
        Layers: [{ Ref: layerId }],
        MemorySize: 2048,
        EphemeralStorage: { Size: 2048 },
        Environment: { Variables: expect.objectContaining({ FFMPEG_PATH: '/opt/bin/ffmpeg' }) },
      });
    }
    const others = fns.filter(([, r]) => !ffmpegFns.some((f) => f.description === r.Properties?.Description));
    expect(others.length).toBeGreaterThan(10);
    const ffmpegRef = JSON.stringify({ Ref: layerId });
    for (const [id, fn] of others) {
      // Ours are arm64 without the layer (CDK's own helpers, e.g. the site's deployment with its AWS CLI layer, keep theirs).
      expect({ id, ffmpeg: JSON.stringify(fn.Properties?.Layers ?? []).includes(ffmpegRef) }).toEqual({ id, ffmpeg: false });
      if (fn.Properties?.Architectures) expect({ id, arch: fn.Properties.Architectures }).toEqual({ id, arch: ['arm64'] });
    }
  });

  it("each stream function's mapping carries its filter patterns, parallelisation, maximum record age and the dead-letter queue; the queue alarms", () => {
    const mappings = resourcesOfType(synth.template, 'AWS::Lambda::EventSourceMapping');
    const fns = resourcesOfType(synth.template, 'AWS::Lambda::Function');
    const streamDefs = BACKGROUND_FUNCTIONS.filter((f) => f.trigger.kind === 'table-stream');
    expect(streamDefs.map((d) => d.id).sort()).toEqual(['liveFanout', 'saveJobOutput']);
    for (const def of streamDefs) {
      const t = def.trigger as Extract<BackgroundFunctionDef['trigger'], { kind: 'table-stream' }>;
      const [fnId] = fns.find(([, r]) => r.Properties?.Description === def.description)!;
      const [, mapping] = mappings.find(([, m]) => JSON.stringify(m.Properties?.FunctionName) === JSON.stringify({ Ref: fnId }))!;
      expect(mapping.Properties).toMatchObject({
        ParallelizationFactor: t.parallelization,
        MaximumRecordAgeInSeconds: t.maxRecordAgeSeconds,
        DestinationConfig: { OnFailure: { Destination: expect.anything() } },
      });
      // The deployed patterns are the contract's, one Filter each, as Lambda reads them (JSON strings).
      const patterns = (mapping.Properties?.FilterCriteria?.Filters as { Pattern: string }[]).map((f) => JSON.parse(f.Pattern));
      expect(patterns).toEqual(t.filters);
    }
    const save = BACKGROUND_FUNCTIONS.find((f) => f.id === 'saveJobOutput')!.trigger;
    expect(save).toMatchObject({ filters: [OUTPUT_RECORDED] });
    synth.template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      MetricName: 'ApproximateNumberOfMessagesVisible',
      Namespace: 'AWS/SQS',
      Threshold: 1,
    });
  });

  it('synth refuses a filter pattern Lambda would refuse', () => {
    const bad: BackgroundFunctionDef = {
      id: 'badFilter',
      handler: 'get-health',
      description: 'test: bad filter',
      trigger: { kind: 'table-stream', filters: [{ eventName: ['INSERT'] }] },
      grants: ['table:read'],
    };
    expect(() => synthTemplate({ backgroundFunctions: [bad] })).toThrow(/invalid FilterCriteria.*"dynamodb"/);
  });

  it("the plans' reconciler runs every 10 minutes and may do only what it does: the table and gsi1, the PayPal secret, the receipt", () => {
    const def = BACKGROUND_FUNCTIONS.find((f) => f.id === 'reconcileSubscriptions')!;
    const [id] = resourcesOfType(synth.template, 'AWS::Lambda::Function').find(([, r]) => r.Properties?.Description === def.description)!;
    synth.template.hasResourceProperties('AWS::Events::Rule', { ScheduleExpression: 'rate(10 minutes)', Targets: [Match.objectLike({ Arn: { 'Fn::GetAtt': [id, 'Arn'] } })] });
    const permissions = permissionsOf(synth.template, id);
    const resources = (action: string) => (permissions.get(action) ?? []).join(' ');
    // Watched plans on gsi1 only: no other index, no scan.
    expect(resources('dynamodb:Query')).toContain('/index/gsi1');
    expect(resources('dynamodb:Query')).not.toContain('/index/open-jobs');
    expect(permissions.has('dynamodb:Scan')).toBe(false);
    expect(permissions.has('secretsmanager:GetSecretValue')).toBe(true);
    expect(permissions.has('ses:SendEmail')).toBe(true);
    // Nothing of the media bucket, of Replicate's key, of Cognito or the push channel.
    for (const action of permissions.keys()) expect(action).not.toMatch(/^(s3|cognito-idp|execute-api|cloudfront):/);
    expect(def.grants).toEqual(['table:read', 'table:write', 'table:index:gsi1', 'secret:paypal', 'ses:send']);
  });

  it('the reconciler may Query the open-jobs index, by name', () => {
    const [id] = resourcesOfType(synth.template, 'AWS::Lambda::Function').find(([, r]) => String(r.Properties?.Description ?? '').startsWith('Settles every open job'))!;
    const query = permissionsOf(synth.template, id).get('dynamodb:Query') ?? [];
    expect(query.map((r) => JSON.stringify(r))).toContainEqual(expect.stringContaining('/index/gsi1'));
    expect(query.map((r) => JSON.stringify(r))).toContainEqual(expect.stringContaining('/index/open-jobs'));
  });
});
