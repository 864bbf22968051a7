import * as fs from 'node:fs';
import * as path from 'node:path';
import { Duration, Size, Stack, Validations, type CfnElement } from 'aws-cdk-lib';
import type * as cognito from 'aws-cdk-lib/aws-cognito';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as nodejs from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import type * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import type { BackgroundFunctionDef } from '../../contract/functions';
import type { Grant, RouteDef } from '../../contract/routes';
import { handlerEntry, LAMBDA_BUNDLING } from '../bundling';
import { FFMPEG_IN_LAYER, ffmpegLayer } from './ffmpeg-layer';
import { REPO_ROOT, removalPolicyFor, type Stage } from '../settings';

/** API Gateway stops waiting for an integration after 29 s. */
export const MAX_TIMEOUT_SECONDS = 29;
export const DEFAULT_TIMEOUT_SECONDS = 10;
export const DEFAULT_MEMORY_MB = 512;

/** Every object the app stores lives under this prefix (users/<sub>/images|videos/...): S3 grants stop there. */
export const MEDIA_PREFIX = 'users/';

export interface AppFunctionProps {
  /** The TypeScript file exporting `handler`. */
  entry: string;
  description: string;
  stage: Stage;
  environment: Record<string, string>;
  memoryMb?: number;
  timeoutSeconds?: number;
  /** Runs ffmpeg: the ffmpeg layer (FFMPEG_PATH), x86_64 instead of arm64, and this much /tmp. */
  ffmpeg?: { ephemeralStorageMb: number };
}

/**
 * A Lambda function with the house defaults: Node.js 24 on arm64, bundled by esbuild with LAMBDA_BUNDLING
 * (minified, source maps, AWS SDK from the runtime), its own log group kept a month and its own role, which
 * may write to that log group and nothing else until someone grants more.
 */
export class AppFunction extends Construct {
  readonly function: lambda.Function;
  readonly role: iam.Role;
  readonly logGroup: logs.LogGroup;

  constructor(scope: Construct, id: string, props: AppFunctionProps) {
    super(scope, id);
    this.logGroup = new logs.LogGroup(this, 'Logs', {
      retention: logs.RetentionDays.ONE_MONTH,
      removalPolicy: removalPolicyFor(props.stage),
    });
    // Our own role instead of the AWS managed basic-execution policy: it may write to its log group only.
    this.role = new iam.Role(this, 'Role', {
      assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
      description: props.description,
    });
    this.logGroup.grantWrite(this.role);

    // Checked here, bundling or not (Template tests skip bundling), so a missing handler fails every synth.
    if (!fs.existsSync(props.entry)) throw new Error(`${props.description}: ${path.relative(REPO_ROOT, props.entry)} does not exist`);
    this.function = new nodejs.NodejsFunction(this, 'Function', {
      description: props.description,
      runtime: lambda.Runtime.NODEJS_24_X,
      // The ffmpeg binary is linux-x64: the few functions that run it are x86_64, the rest arm64.
      architecture: props.ffmpeg ? lambda.Architecture.X86_64 : lambda.Architecture.ARM_64,
      ...(props.ffmpeg ? { layers: [ffmpegLayer(this)], ephemeralStorageSize: Size.mebibytes(props.ffmpeg.ephemeralStorageMb) } : {}),
      memorySize: props.memoryMb ?? DEFAULT_MEMORY_MB,
      timeout: Duration.seconds(props.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS),
      role: this.role,
      logGroup: this.logGroup,
      environment: { ...props.environment, NODE_OPTIONS: '--enable-source-maps', ...(props.ffmpeg ? { FFMPEG_PATH: FFMPEG_IN_LAYER } : {}) },
      entry: props.entry,
      handler: 'handler',
      projectRoot: REPO_ROOT,
      depsLockFilePath: path.join(REPO_ROOT, 'package-lock.json'),
      bundling: LAMBDA_BUNDLING,
      // X-Ray: Powertools Tracer (lambdas/observability.ts) adds a subsegment per invocation and per AWS call.
      tracing: lambda.Tracing.ACTIVE,
    });
    Validations.of(this.role).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason: 'Active tracing grants xray:PutTraceSegments and xray:PutTelemetryRecords, which take no resource ARN.',
    });
  }
}

/** The resources a route's grants refer to. */
export interface GrantTargets {
  table: dynamodb.ITable;
  mediaBucket: s3.IBucket;
  userPool: cognito.IUserPool;
  secret: secretsmanager.ISecret;
  /** The origin header's secret ('secret:origin', 'secret:origin:rotate'). */
  originSecret: secretsmanager.ISecret;
  /** The welcome mark's hash key ('secret:welcome-hash'). */
  welcomeHashKey: secretsmanager.ISecret;
  /** The distribution whose API origins send the origin header, and where the API is tried ('cloudfront:origin-header'). */
  originHeader?: { distributionId: string; distributionArn: string; testUrl: string };
  /** The SES identities ses:SendEmail is checked against (lib/constructs/email.ts). */
  sendingIdentityArns: string[];
  /** The only From address the functions may use. */
  senderEmail: string;
  /** PAYPAL_BASE_URL of the functions that call PayPal. */
  paypalBaseUrl: string;
  /** The push channel, for 'live:send' (absent while the push channel's own functions are being built). */
  live?: { grantSend(role: iam.Role): void; callbackUrl: string };
}

/** What a function needs from its definition: a route of contract/routes or a function of contract/functions. */
export type FunctionDef = Pick<RouteDef, 'id' | 'handler' | 'timeoutSeconds' | 'memoryMb' | 'grants'> & Pick<BackgroundFunctionDef, 'ffmpeg'> &
  ({ method: RouteDef['method']; path: string } | { description: string });

export interface RouteFunctionProps {
  route: FunctionDef;
  stage: Stage;
  environment: Record<string, string>;
  targets: GrantTargets;
}

/** One route's (or background function's) Lambda function (AppFunction) with exactly the permissions its `grants` name. */
export class RouteFunction extends AppFunction {
  constructor(scope: Construct, id: string, props: RouteFunctionProps) {
    const { route } = props;
    const timeout = route.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS;
    // API Gateway's cap binds routes; a function no request waits for (a rotation's) may take up to Lambda's 900 s.
    const max = 'method' in route ? MAX_TIMEOUT_SECONDS : 900;
    if (timeout < 1 || timeout > max) {
      throw new Error(`Route "${route.id}": timeoutSeconds must be between 1 and ${max} (got ${timeout})`);
    }
    const grants = [...new Set(route.grants)];
    // Configuration that only makes sense with a grant travels with it (a function that may not read the
    // secret is not told where it is).
    const grantEnvironment = Object.assign({}, ...grants.map((g) => GRANT_ENVIRONMENT[g]?.(props.targets) ?? {})) as Record<string, string>;
    super(scope, id, {
      entry: handlerEntry(route.handler),
      description: 'description' in route ? route.description : `${route.method} ${route.path}`,
      stage: props.stage,
      environment: { ...props.environment, ...grantEnvironment },
      memoryMb: route.memoryMb,
      timeoutSeconds: timeout,
      ...(route.ffmpeg ? { ffmpeg: route.ffmpeg } : {}),
    });
    for (const grant of grants) GRANTS[grant](this.role, props.targets);
  }
}

const TABLE_READ = ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query'];
// TransactWriteItems and TransactGetItems are authorized through these item-level actions.
const TABLE_WRITE = [
  ...TABLE_READ,
  'dynamodb:PutItem',
  'dynamodb:UpdateItem',
  'dynamodb:DeleteItem',
  'dynamodb:ConditionCheckItem',
];

/** What each grant of contract/routes means in IAM. Typed by `Grant`: a new grant must be mapped here. */
const GRANTS: Record<Grant, (role: iam.Role, t: GrantTargets) => void> = {
  // The table itself only: Table.grant would add every index (`<arn>/index/*`); an index is granted by name.
  'table:read': (role, t) => grantTable(role, t, TABLE_READ),
  'table:write': (role, t) => grantTable(role, t, TABLE_WRITE),
  'table:index:gsi1': (role, t) =>
    role.addToPrincipalPolicy(new iam.PolicyStatement({ actions: ['dynamodb:Query'], resources: [`${t.table.tableArn}/index/gsi1`] })),
  'media:read': (role, t) => grantObjects(role, t.mediaBucket, 's3:GetObject'),
  'media:write': (role, t) => grantObjects(role, t.mediaBucket, 's3:PutObject'),
  'media:delete': (role, t) => grantObjects(role, t.mediaBucket, 's3:DeleteObject'),
  'ses:send': (role, t) =>
    role.addToPrincipalPolicy(
      new iam.PolicyStatement({
        actions: ['ses:SendEmail'],
        resources: t.sendingIdentityArns,
        conditions: { StringEquals: { 'ses:FromAddress': t.senderEmail } },
      }),
    ),
  // GetAccount (sending quota and status, for the health check) has no resource-level permissions.
  'ses:read': (role) => {
    role.addToPrincipalPolicy(new iam.PolicyStatement({ actions: ['ses:GetAccount'], resources: ['*'] }));
    Validations.of(role).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason: 'ses:GetAccount is account-level and supports no resource ARN; it only reads the sending status.',
    });
  },
  'cognito:read': (role, t) =>
    role.addToPrincipalPolicy(
      new iam.PolicyStatement({ actions: ['cognito-idp:AdminGetUser'], resources: [t.userPool.userPoolArn] }),
    ),
  'cognito:delete-user': (role, t) =>
    role.addToPrincipalPolicy(
      new iam.PolicyStatement({ actions: ['cognito-idp:AdminDeleteUser'], resources: [t.userPool.userPoolArn] }),
    ),
  // ListObjectsV2 is authorized on the bucket; the condition keeps the listing inside users/.
  'media:list': (role, t) => {
    role.addToPrincipalPolicy(
      new iam.PolicyStatement({
        actions: ['s3:ListBucket'],
        resources: [t.mediaBucket.bucketArn],
        conditions: { StringLike: { 's3:prefix': [`${MEDIA_PREFIX}*`] } },
      }),
    );
  },
  'secret:replicate': (role, t) => grantSecret(role, t.secret),
  'secret:paypal': (role, t) => grantSecret(role, t.secret),
  'secret:origin': (role, t) => grantSecret(role, t.originSecret),
  'secret:welcome-hash': (role, t) => grantSecret(role, t.welcomeHashKey),
  // The steps of a rotation (DescribeSecret, GetSecretValue, PutSecretValue, UpdateSecretVersionStage) on this secret only.
  'secret:origin:rotate': (role, t) =>
    role.addToPrincipalPolicy(
      new iam.PolicyStatement({
        actions: ['secretsmanager:DescribeSecret', 'secretsmanager:GetSecretValue', 'secretsmanager:PutSecretValue', 'secretsmanager:UpdateSecretVersionStage'],
        resources: [t.originSecret.secretArn],
      }),
    ),
  'cloudfront:origin-header': (role, t) => {
    if (!t.originHeader) throw new Error("'cloudfront:origin-header' needs the distribution (GrantTargets.originHeader)");
    role.addToPrincipalPolicy(
      new iam.PolicyStatement({ actions: ['cloudfront:GetDistributionConfig', 'cloudfront:UpdateDistribution'], resources: [t.originHeader.distributionArn] }),
    );
  },
  'live:send': (role, t) => {
    if (!t.live) throw new Error("'live:send' needs the push channel (GrantTargets.live)");
    t.live.grantSend(role);
  },
};

function grantTable(role: iam.Role, t: GrantTargets, actions: string[]): void {
  role.addToPrincipalPolicy(new iam.PolicyStatement({ actions, resources: [t.table.tableArn] }));
}

/** Environment a grant brings along. */
const GRANT_ENVIRONMENT: Partial<Record<Grant, (t: GrantTargets) => Record<string, string>>> = {
  'secret:replicate': (t) => secretEnvironment(t),
  'secret:paypal': (t) => ({ ...secretEnvironment(t), PAYPAL_BASE_URL: t.paypalBaseUrl }),
  // The secrets' ARNs, never their values: functions read them at run time (lambdas/adapters/secrets.ts).
  'secret:origin': (t) => ({ ORIGIN_SECRET_ARN: t.originSecret.secretArn }),
  'secret:origin:rotate': (t) => ({ ORIGIN_SECRET_ARN: t.originSecret.secretArn }),
  'secret:welcome-hash': (t) => ({ WELCOME_HASH_KEY_ARN: t.welcomeHashKey.secretArn }),
  'cloudfront:origin-header': (t): Record<string, string> =>
    t.originHeader ? { DISTRIBUTION_ID: t.originHeader.distributionId, ORIGIN_TEST_URL: t.originHeader.testUrl } : {},
  'live:send': (t): Record<string, string> => (t.live ? { LIVE_ENDPOINT_URL: t.live.callbackUrl } : {}),
};

function secretEnvironment(t: GrantTargets): Record<string, string> {
  return { SECRETS_ARN: t.secret.secretArn };
}

function grantSecret(role: iam.Role, secret: secretsmanager.ISecret): void {
  role.addToPrincipalPolicy(
    new iam.PolicyStatement({ actions: ['secretsmanager:GetSecretValue'], resources: [secret.secretArn] }),
  );
}

function grantObjects(role: iam.Role, bucket: s3.IBucket, action: string): void {
  role.addToPrincipalPolicy(
    new iam.PolicyStatement({ actions: [action], resources: [bucket.arnForObjects(`${MEDIA_PREFIX}*`)] }),
  );
  // cdk-nag names a wildcard resource by the bucket's logical id: `Resource::<MediaBucketXXXX.Arn>/users/*`.
  const logicalId = Stack.of(bucket).getLogicalId(bucket.node.defaultChild as CfnElement);
  Validations.of(role).acknowledge({
    id: `AwsSolutions-IAM5[Resource::<${logicalId}.Arn>/${MEDIA_PREFIX}*]`,
    reason:
      'Media object keys are created at run time (users/<sub>/images|videos/<time>-<id>), so this one action is ' +
      'scoped to the users/ prefix of the media bucket and nothing else.',
  });
}
