import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { BACKGROUND_FUNCTIONS, ORIGIN_SECRET_ROTATION, type BackgroundFunctionDef } from '../contract/functions';
import { ROUTES, type RouteDef } from '../contract/routes';
import { AccessLogs } from './constructs/access-logs';
import { Api, RATE_WATCHED_ROUTES } from './constructs/api';
import { OPEN_JOB_SHARDS, PARTITION_WRITES_PER_SECOND, REPLICATE_LIMITS } from '../contract/capacity';
import { THROTTLES, throttleClassOf } from '../contract/throttles';
import { STAGE_THROTTLE } from './constructs/stage-access-logs';
import { AppSecret } from './constructs/app-secret';
import { Background } from './constructs/background';
import { Auth } from './constructs/auth';
import { Data } from './constructs/data';
import { Email } from './constructs/email';
import { Live } from './constructs/live';
import { LIVE_ROUTES } from '../contract/live';
import { MODELS } from '../contract/models';
import { Site } from './constructs/site';
import { AuthWaf } from './constructs/auth-waf';
import { assertQuotaHolds, reserveConcurrency, reservedConcurrencyOf } from './constructs/concurrency';
import { Observability } from './constructs/observability';
import { WelcomeHashKey } from './constructs/welcome-hash-key';
import { ContentCredentialsSecret } from './constructs/content-credentials-secret';
import { OriginSecret, ORIGIN_HEADER_NAME } from './constructs/origin-secret';
import type { EdgeStack } from './edge-stack';
import { PAYPAL_BASE_URLS, type Settings } from './settings';
import { DEFAULT_TIMEOUT_SECONDS, type RouteFunction } from './constructs/lambda-function';

export interface FramewrightStackProps extends StackProps {
  settings: Settings;
  /** The route table; contract/routes unless a test passes its own. */
  routes?: readonly RouteDef[];
  /** The stream and scheduled functions; contract/functions unless a test passes its own. */
  backgroundFunctions?: readonly BackgroundFunctionDef[];
  /** The us-east-1 stack with CloudFront's WAF web ACL (and, in an opt-in region, its log bucket). */
  edge?: EdgeStack;
}

/** Wires the constructs together; each concern lives in lib/constructs/. */
export class FramewrightStack extends Stack {
  readonly site: Site;
  readonly auth: Auth;
  readonly data: Data;
  readonly api: Api;
  readonly background: Background;
  readonly live: Live;
  readonly secret: AppSecret;
  readonly email: Email;
  readonly observability: Observability;
  readonly authWaf: AuthWaf;
  /** The origin secret's rotation function. */
  readonly originRotation: RouteFunction;

  constructor(scope: Construct, id: string, props: FramewrightStackProps) {
    super(scope, id, props);
    const { stage, senderEmail, senderDomain, supportEmail, cognitoEmail, paypal, webDist } = props.settings;
    const routes = props.routes ?? ROUTES;

    const accessLogs = new AccessLogs(this, 'AccessLogs', { stage });
    this.data = new Data(this, 'Data', { stage, accessLogs: accessLogs.bucket, restoredTable: props.settings.restoredTable });
    this.site = new Site(this, 'Site', {
      stage,
      webDist,
      accessLogs: accessLogs.bucket,
      mediaOrigins: this.data.mediaOrigins,
      webAclArn: props.edge?.webAcl.attrArn,
      cloudFrontLogs: props.edge?.logBucket,
    });
    this.data.allowBrowserAccessFrom(this.site.url);
    this.email = new Email(this, 'Email', { senderEmail, senderDomain, supportEmail });
    this.auth = new Auth(this, 'Auth', { stage, siteUrl: this.site.url, cognitoEmail, email: this.email });
    this.secret = new AppSecret(this, 'Secrets', { stage });
    this.authWaf = new AuthWaf(this, 'AuthWaf', { stage, userPool: this.auth.userPool });
    const originSecret = new OriginSecret(this, 'Origin', { stage });
    const welcomeHashKey = new WelcomeHashKey(this, 'WelcomeHash', { stage });
    const contentCredentials = new ContentCredentialsSecret(this, 'ContentCredentials', { stage });

    const targets = {
      table: this.data.table,
      mediaBucket: this.data.mediaBucket,
      userPool: this.auth.userPool,
      secret: this.secret.secret,
      originSecret: originSecret.secret,
      welcomeHashKey: welcomeHashKey.secret,
      contentCredentials: contentCredentials.secret,
      // Until the operator puts a certificate in, a dev stage signs with one its functions make; prod refuses to.
      ...(stage === 'prod' ? {} : { contentCredentialsFallback: 'self-signed' as const }),
      sendingIdentityArns: this.email.sendingIdentityArns,
      senderEmail,
      paypalBaseUrl: PAYPAL_BASE_URLS[paypal],
    };
    // Configuration every handler reads (keys: .env.example).
    const environment = {
      TABLE_NAME: this.data.table.tableName,
      MEDIA_BUCKET: this.data.mediaBucket.bucketName,
      USER_POOL_ID: this.auth.userPool.userPoolId,
      USER_POOL_CLIENT_ID: this.auth.client.userPoolClientId,
      APP_URL: this.site.url,
      SES_FROM_ADDRESS: senderEmail,
      SUPPORT_EMAIL: supportEmail,
      POWERTOOLS_SERVICE_NAME: 'framewright',
      DAILY_GENERATION_CAP: String(props.settings.dailyGenerationCap),
    };
    // Secrets reach functions by their grants ('secret:origin', 'secret:welcome-hash', ...): an ARN, read at run time.
    this.api = new Api(this, 'Api', { stage, routes, auth: this.auth, targets, environment });
    this.live = new Live(this, 'Live', { stage, routes: LIVE_ROUTES, targets, environment });
    if (props.settings.reservedConcurrency) {
      assertQuotaHolds(routes, props.settings.accountConcurrency);
      for (const route of routes) reserveConcurrency(this.api.functions[route.id]!.function, reservedConcurrencyOf(route));
    }
    this.background = new Background(this, 'Background', {
      stage,
      functions: props.backgroundFunctions ?? BACKGROUND_FUNCTIONS,
      targets: { ...targets, live: this.live },
      environment,
    });

    // CloudFront's header: the secret's value at the first deploy; its rotation function changes it afterwards.
    this.site.routeApi(this.api.httpApi, { name: ORIGIN_HEADER_NAME, value: originSecret.initialValue });
    this.site.routeLive(this.live.api, { name: ORIGIN_HEADER_NAME, value: originSecret.initialValue });
    this.originRotation = originSecret.addRotation({
      stage,
      environment,
      targets: {
        ...targets,
        originHeader: {
          distributionId: this.site.distribution.distributionId,
          distributionArn: this.site.distribution.distributionArn,
          testUrl: `${this.api.httpApi.apiEndpoint}/api/health`,
        },
      },
    });

    // Every function of the contract (routes and background) is watched, so functions added there are too.
    const backgroundDefs = props.backgroundFunctions ?? BACKGROUND_FUNCTIONS;
    this.observability = new Observability(this, 'Observability', {
      stage,
      httpApi: this.api.httpApi,
      functions: [
        ...routes.map((r: RouteDef) => ({ id: r.id, fn: this.api.functions[r.id]!, timeoutSeconds: r.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS })),
        ...backgroundDefs.map((d) => ({
          id: d.id,
          fn: this.background.functions[d.id]!,
          timeoutSeconds: d.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS,
          stream: d.trigger.kind === 'table-stream',
        })),
        ...LIVE_ROUTES.map((r) => ({ id: r.id, fn: this.live.functions[r.id]!, timeoutSeconds: r.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS })),
        { id: ORIGIN_SECRET_ROTATION.id, fn: this.originRotation, timeoutSeconds: ORIGIN_SECRET_ROTATION.timeoutSeconds },
        // Cognito's triggers: when CustomMessage fails, sign-up and reset emails are not sent; when PreSignUp fails, nobody signs up.
        { id: 'cognitoCustomMessage', fn: this.auth.customMessage, timeoutSeconds: this.auth.customMessage.function.timeout?.toSeconds() ?? DEFAULT_TIMEOUT_SECONDS },
        { id: 'cognitoPreSignUp', fn: this.auth.preSignUp, timeoutSeconds: this.auth.preSignUp.function.timeout?.toSeconds() ?? DEFAULT_TIMEOUT_SECONDS },
      ],
      models: MODELS.flatMap((m) => m.models.map((v) => v.id)),
      deadLetters: [this.background.deadLetters],
      alarmEmail: props.settings.alarmEmail,
      monthlyBudgetUsd: props.settings.monthlyBudgetUsd,
      quotas: {
        reserved: routes.flatMap((r) => {
          const n = reservedConcurrencyOf(r);
          return n === undefined ? [] : [{ id: r.id, fn: this.api.functions[r.id]!, reserved: n }];
        }),
        live: { apiId: this.live.api.apiId, stage: this.live.stage.stageName, rateLimit: STAGE_THROTTLE.rateLimit },
        routes: routes
          .filter((r) => RATE_WATCHED_ROUTES.includes(r.id))
          .map((r) => ({ id: r.id, method: r.method, path: r.path, rateLimit: THROTTLES[throttleClassOf(r)].rateLimit })),
        openJobsIndex: { tableName: this.data.table.tableName, indexName: 'open-jobs', writesPerSecond: PARTITION_WRITES_PER_SECOND * OPEN_JOB_SHARDS },
        providerCreatesPerMinute: REPLICATE_LIMITS.createsPerMinute,
        providerOtherRequestsPerMinute: REPLICATE_LIMITS.otherRequestsPerMinute,
      },
    });
    this.site.publish({
      region: this.region,
      userPoolId: this.auth.userPool.userPoolId,
      userPoolClientId: this.auth.client.userPoolClientId,
      apiBaseUrl: '/api',
      supportEmail,
    });

    const outputs: Record<string, [string, string]> = {
      SiteUrl: [this.site.url, 'The app'],
      ApiUrl: [`${this.site.url}/api`, 'The API, on the app origin (CloudFront sends /api/* to the HTTP API)'],
      UserPoolId: [this.auth.userPool.userPoolId, 'Cognito user pool'],
      UserPoolClientId: [this.auth.client.userPoolClientId, 'Cognito app client of the web app'],
      SecretName: [this.secret.secretName, 'Secrets Manager secret to fill in with the Replicate and PayPal keys (docs/deploy.md)'],
      TableName: [this.data.table.tableName, 'DynamoDB table'],
      MediaBucket: [this.data.mediaBucket.bucketName, 'S3 bucket of generated media and uploads'],
    };
    // Where providers must call back: one output per signature-checked route (e.g. PaypalWebhookUrl).
    for (const route of routes.filter((r) => r.auth === 'signature')) {
      const name = `${route.id.charAt(0).toUpperCase()}${route.id.slice(1)}Url`;
      outputs[name] = [`${this.site.url}${route.path}`, `Callback URL of ${route.method} ${route.path}`];
    }
    for (const [name, [value, description]] of Object.entries(outputs)) {
      new CfnOutput(this, name, { value, description });
    }
  }
}
