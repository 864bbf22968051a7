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
import { MEDIA_PREFIX, statementsFor, type GrantArns } from '../../contract/permissions';
import type { Grant, RouteDef } from '../../contract/routes';
import { handlerEntry, LAMBDA_BUNDLING } from '../bundling';
import { FFMPEG_IN_LAYER, ffmpegLayer } from './ffmpeg-layer';
import { REPO_ROOT, removalPolicyFor, type Stage } from '../settings';

/** API Gateway stops waiting for an integration after 29 s. */
export const MAX_TIMEOUT_SECONDS = 29;
export const DEFAULT_TIMEOUT_SECONDS = 10;
export const DEFAULT_MEMORY_MB = 512;

export { MEDIA_PREFIX };

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
 * (minified, source maps, AWS SDK from the runtime), the stack's function log group (kept a month) and its own role,
 * which may write to that log group and nothing else until someone grants more.
 */
export class AppFunction extends Construct {
  readonly function: lambda.Function;
  readonly role: iam.Role;
  readonly logGroup: logs.LogGroup;

  constructor(scope: Construct, id: string, props: AppFunctionProps) {
    super(scope, id);
    this.logGroup = functionLogs(this, props.stage);
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
  /** The content-credentials signer ('secret:content-credentials'). */
  contentCredentials: secretsmanager.ISecret;
  /** Sign with a certificate the function makes while that secret holds none (dev stages; never prod). */
  contentCredentialsFallback?: 'self-signed';
  /** The distribution whose API origins send the origin header, and where the API is tried ('cloudfront:origin-header'). */
  originHeader?: { distributionId: string; distributionArn: string; testUrl: string };
  /** The SES identities ses:SendEmail is checked against (lib/constructs/email.ts). */
  sendingIdentityArns: string[];
  /** The only From address the functions may use. */
  senderEmail: string;
  /** PAYPAL_BASE_URL of the functions that call PayPal. */
  paypalBaseUrl: string;
  /** The push channel, for 'live:send' (absent while the push channel's own functions are being built). */
  live?: { connectionsArn: string; acknowledgeSend(role: iam.Role): void; callbackUrl: string };
}

/** What a function needs from its definition: a route of contract/routes or a function of contract/functions. */
export type FunctionDef = Pick<RouteDef, 'id' | 'handler' | 'timeoutSeconds' | 'memoryMb' | 'grants' | 'tableKeys'> & Pick<BackgroundFunctionDef, 'ffmpeg'> &
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
    // The same statements the embedded stack enforces (contract/permissions.ts, local/iam).
    for (const statement of statementsFor(route, grantArns(props.targets))) this.role.addToPrincipalPolicy(iam.PolicyStatement.fromJson(statement));
    for (const grant of grants) GRANT_ACKNOWLEDGEMENTS[grant]?.(this.role, props.targets);
  }
}

/** The ARNs of the resources grants refer to (tokens here; local/iam fixes them for the embedded stack). */
export function grantArns(t: GrantTargets): GrantArns {
  return {
    table: t.table.tableArn,
    mediaBucket: t.mediaBucket.bucketArn,
    userPool: t.userPool.userPoolArn,
    secret: t.secret.secretArn,
    originSecret: t.originSecret.secretArn,
    welcomeHashKey: t.welcomeHashKey.secretArn,
    contentCredentials: t.contentCredentials.secretArn,
    ...(t.originHeader ? { distribution: t.originHeader.distributionArn } : {}),
    sendingIdentities: t.sendingIdentityArns,
    senderEmail: t.senderEmail,
    ...(t.live ? { liveConnections: t.live.connectionsArn } : {}),
  };
}

/** cdk-nag findings each grant's statements bring, with why they are acceptable. */
const GRANT_ACKNOWLEDGEMENTS: Partial<Record<Grant, (role: iam.Role, t: GrantTargets) => void>> = {
  'ses:read': (role) =>
    Validations.of(role).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason: 'ses:GetAccount is account-level and supports no resource ARN; it only reads the sending status.',
    }),
  'media:read': (role, t) => acknowledgeObjects(role, t.mediaBucket),
  'media:write': (role, t) => acknowledgeObjects(role, t.mediaBucket),
  'media:delete': (role, t) => acknowledgeObjects(role, t.mediaBucket),
  'live:send': (role, t) => {
    if (!t.live) throw new Error("'live:send' needs the push channel (GrantTargets.live)");
    t.live.acknowledgeSend(role);
  },
};

function acknowledgeObjects(role: iam.Role, bucket: s3.IBucket): void {
  // cdk-nag names a wildcard resource by the bucket's logical id: `Resource::<MediaBucketXXXX.Arn>/users/*`.
  const logicalId = Stack.of(bucket).getLogicalId(bucket.node.defaultChild as CfnElement);
  Validations.of(role).acknowledge({
    id: `AwsSolutions-IAM5[Resource::<${logicalId}.Arn>/${MEDIA_PREFIX}*]`,
    reason:
      'Media object keys are created at run time (users/<sub>/images|videos/<time>-<id>), so each object action is ' +
      'scoped to the users/ prefix of the media bucket and nothing else.',
  });
}

/** Environment a grant brings along. */
const GRANT_ENVIRONMENT: Partial<Record<Grant, (t: GrantTargets) => Record<string, string>>> = {
  'secret:replicate': (t) => secretEnvironment(t),
  'secret:paypal': (t) => ({ ...secretEnvironment(t), PAYPAL_BASE_URL: t.paypalBaseUrl }),
  // The secrets' ARNs, never their values: functions read them at run time (lambdas/adapters/secrets.ts).
  'secret:origin': (t) => ({ ORIGIN_SECRET_ARN: t.originSecret.secretArn }),
  'secret:origin:rotate': (t) => ({ ORIGIN_SECRET_ARN: t.originSecret.secretArn }),
  'secret:welcome-hash': (t) => ({ WELCOME_HASH_KEY_ARN: t.welcomeHashKey.secretArn }),
  'secret:content-credentials': (t) => ({
    CONTENT_CREDENTIALS_ARN: t.contentCredentials.secretArn,
    ...(t.contentCredentialsFallback ? { CONTENT_CREDENTIALS_FALLBACK: t.contentCredentialsFallback } : {}),
  }),
  'cloudfront:origin-header': (t): Record<string, string> =>
    t.originHeader ? { DISTRIBUTION_ID: t.originHeader.distributionId, ORIGIN_TEST_URL: t.originHeader.testUrl } : {},
  'live:send': (t): Record<string, string> => (t.live ? { LIVE_ENDPOINT_URL: t.live.callbackUrl } : {}),
};

function secretEnvironment(t: GrantTargets): Record<string, string> {
  return { SECRETS_ARN: t.secret.secretArn };
}

/**
 * One log group for every function of the stack. A log group per function cost 50 of CloudFormation's 500 resources
 * per stack, which the routes outgrew; Lambda writes each function's streams into a shared group under the function's
 * own name (`YYYY/MM/DD/<function>[$LATEST]<id>`), and every line carries function_name, so nothing is lost.
 */
function functionLogs(scope: Construct, stage: AppFunctionProps['stage']): logs.LogGroup {
  const stack = Stack.of(scope);
  const existing = stack.node.tryFindChild('FunctionLogs');
  if (existing) return existing as logs.LogGroup;
  return new logs.LogGroup(stack, 'FunctionLogs', { retention: logs.RetentionDays.ONE_MONTH, removalPolicy: removalPolicyFor(stage) });
}
