import * as fs from 'node:fs';
import * as path from 'node:path';
import { Annotations, Duration, Stack, Validations, type CfnElement } from 'aws-cdk-lib';
import type * as cognito from 'aws-cdk-lib/aws-cognito';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as nodejs from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import type * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type * as ses from 'aws-cdk-lib/aws-ses';
import { Construct } from 'constructs';
import type { Grant, RouteDef } from '../../contract/routes';
import { REPO_ROOT, removalPolicyFor, type Stage } from '../settings';

/** API Gateway stops waiting for an integration after 29 s. */
export const MAX_TIMEOUT_SECONDS = 29;
export const DEFAULT_TIMEOUT_SECONDS = 10;
export const DEFAULT_MEMORY_MB = 512;

/** The resources a route's grants refer to. */
export interface GrantTargets {
  table: dynamodb.ITable;
  mediaBucket: s3.IBucket;
  userPool: cognito.IUserPool;
  secret: secretsmanager.ISecret;
  emailIdentity: ses.IEmailIdentity;
}

export interface RouteFunctionProps {
  route: RouteDef;
  stage: Stage;
  environment: Record<string, string>;
  targets: GrantTargets;
}

/**
 * One route's Lambda function with the house defaults (Node.js 24 on arm64, minified bundle with source
 * maps, a log group kept one month) and exactly the permissions its route's `grants` name.
 */
export class RouteFunction extends Construct {
  readonly function: lambda.Function;
  readonly role: iam.Role;
  readonly logGroup: logs.LogGroup;

  constructor(scope: Construct, id: string, props: RouteFunctionProps) {
    super(scope, id);
    const { route } = props;
    const timeout = route.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS;
    if (timeout < 1 || timeout > MAX_TIMEOUT_SECONDS) {
      throw new Error(`Route "${route.id}": timeoutSeconds must be between 1 and ${MAX_TIMEOUT_SECONDS} (got ${timeout})`);
    }

    this.logGroup = new logs.LogGroup(this, 'Logs', {
      retention: logs.RetentionDays.ONE_MONTH,
      removalPolicy: removalPolicyFor(props.stage),
    });
    // Our own role instead of the AWS managed basic-execution policy: it may write to its log group only.
    this.role = new iam.Role(this, 'Role', {
      assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
      description: `${route.method} ${route.path}`,
    });
    this.logGroup.grantWrite(this.role);

    const common = {
      description: `${route.method} ${route.path}`,
      runtime: lambda.Runtime.NODEJS_24_X,
      architecture: lambda.Architecture.ARM_64,
      memorySize: route.memoryMb ?? DEFAULT_MEMORY_MB,
      timeout: Duration.seconds(timeout),
      role: this.role,
      logGroup: this.logGroup,
      environment: { ...props.environment, NODE_OPTIONS: '--enable-source-maps' },
    };
    const entry = path.join(REPO_ROOT, 'lambdas', 'handlers', `${route.handler}.ts`);
    if (fs.existsSync(entry)) {
      this.function = new nodejs.NodejsFunction(this, 'Function', {
        ...common,
        entry,
        handler: 'handler',
        projectRoot: REPO_ROOT,
        depsLockFilePath: path.join(REPO_ROOT, 'package-lock.json'),
        bundling: {
          minify: true,
          sourceMap: true,
          sourcesContent: false,
          target: 'node24',
          externalModules: ['@aws-sdk/*'],
        },
      });
    } else if (!Stack.of(this).bundlingRequired) {
      // Template tests skip bundling; a route whose handler is still being written gets a stub there.
      // A real synth (bundling) refuses below.
      Annotations.of(this).addWarningV2('framewright:missing-handler', `lambdas/handlers/${route.handler}.ts does not exist yet`);
      this.function = new lambda.Function(this, 'Function', {
        ...common,
        handler: 'index.handler',
        code: lambda.Code.fromInline('exports.handler = async () => ({ statusCode: 501 });'),
      });
    } else {
      throw new Error(
        `Route "${route.id}": lambdas/handlers/${route.handler}.ts does not exist (every route in contract/routes needs its handler)`,
      );
    }

    for (const grant of new Set(route.grants)) GRANTS[grant](this.role, props.targets);
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
  'table:read': (role, t) => t.table.grant(role, ...TABLE_READ),
  'table:write': (role, t) => t.table.grant(role, ...TABLE_WRITE),
  'media:read': (role, t) => grantObjects(role, t.mediaBucket, 's3:GetObject'),
  'media:write': (role, t) => grantObjects(role, t.mediaBucket, 's3:PutObject'),
  'media:delete': (role, t) => grantObjects(role, t.mediaBucket, 's3:DeleteObject'),
  'ses:send': (role, t) =>
    role.addToPrincipalPolicy(
      new iam.PolicyStatement({ actions: ['ses:SendEmail'], resources: [t.emailIdentity.emailIdentityArn] }),
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
  'secret:replicate': (role, t) => grantSecret(role, t.secret),
  'secret:paypal': (role, t) => grantSecret(role, t.secret),
};

function grantSecret(role: iam.Role, secret: secretsmanager.ISecret): void {
  role.addToPrincipalPolicy(
    new iam.PolicyStatement({ actions: ['secretsmanager:GetSecretValue'], resources: [secret.secretArn] }),
  );
}

function grantObjects(role: iam.Role, bucket: s3.IBucket, action: string): void {
  role.addToPrincipalPolicy(new iam.PolicyStatement({ actions: [action], resources: [bucket.arnForObjects('*')] }));
  // cdk-nag names a wildcard resource by the bucket's logical id: `Resource::<MediaBucketXXXX.Arn>/*`.
  const logicalId = Stack.of(bucket).getLogicalId(bucket.node.defaultChild as CfnElement);
  Validations.of(role).acknowledge({
    id: `AwsSolutions-IAM5[Resource::<${logicalId}.Arn>/*]`,
    reason:
      'Media object keys are created at run time (per user and per item), so this one action is scoped to ' +
      'the objects of the media bucket and nothing else.',
  });
}
