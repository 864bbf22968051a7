import * as fs from 'node:fs';
import * as path from 'node:path';
import { Duration, Fn, Stack, Token, Validations, type CfnElement } from 'aws-cdk-lib';
import type * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import * as origins from 'aws-cdk-lib/aws-cloudfront-origins';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as s3deploy from 'aws-cdk-lib/aws-s3-deployment';
import { Construct } from 'constructs';
import { LIVE_PATH } from '../../contract/live';
import { removalPolicyFor, type Stage } from '../settings';

/** What the SPA reads from /config.json at start-up (DESIGN §5, STYLE 7). */
export interface SiteConfig {
  region: string;
  userPoolId: string;
  userPoolClientId: string;
  apiBaseUrl: string;
  /** Where users write for help (shown in the app: My Account > Contact, the terms). */
  supportEmail: string;
}

export interface SiteProps {
  stage: Stage;
  /** The built SPA (web/dist). */
  webDist: string;
  /** Receives S3 server access logs and CloudFront access logs. */
  accessLogs: s3.IBucket;
  /** Origins of the media bucket: the browser uploads and downloads there with presigned URLs (CSP connect-src). */
  mediaOrigins: readonly string[];
}

// Extension-less paths are SPA routes: serve the app shell. Only the default (S3) behavior runs this, so
// /api/* answers, errors included, reach the browser untouched.
const SPA_REWRITE = `function handler(event) {
  var request = event.request;
  var last = request.uri.substring(request.uri.lastIndexOf('/') + 1);
  if (last.indexOf('.') === -1) request.uri = '/index.html';
  return request;
}`;

/** The web app: a private bucket behind CloudFront, which also routes /api/* to the HTTP API. */
export class Site extends Construct {
  readonly bucket: s3.Bucket;
  readonly distribution: cloudfront.Distribution;
  readonly responseHeaders: cloudfront.ResponseHeadersPolicy;
  /** https://<distribution domain>, the app's public origin. */
  readonly url: string;
  private readonly props: SiteProps;

  constructor(scope: Construct, id: string, props: SiteProps) {
    super(scope, id);
    if (!fs.existsSync(path.join(props.webDist, 'index.html'))) {
      throw new Error('web/dist is missing: run `npm run build` first');
    }
    this.props = props;
    const region = Stack.of(this).region;

    this.bucket = new s3.Bucket(this, 'Bucket', {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      encryption: s3.BucketEncryption.S3_MANAGED,
      serverAccessLogsBucket: props.accessLogs,
      serverAccessLogsPrefix: 'site/',
      removalPolicy: removalPolicyFor(props.stage),
      autoDeleteObjects: props.stage !== 'prod',
    });

    // The SPA loads only its own files; it talks to its API (same origin), to Cognito (Amplify's SRP sign-in)
    // and to the media bucket (presigned POST uploads, presigned GET of images and videos). The PayPal
    // checkout is a top-level navigation, which CSP does not restrict.
    const media = props.mediaOrigins.join(' ');
    const csp = [
      "default-src 'self'",
      "script-src 'self'",
      `connect-src 'self' https://cognito-idp.${region}.amazonaws.com ${media}`,
      `img-src 'self' data: blob: ${media}`,
      `media-src 'self' blob: ${media}`,
      // Style attributes and <style> elements that UI code or libraries may add; styles cannot run script.
      "style-src 'self' 'unsafe-inline'",
      "font-src 'self' data:",
      "object-src 'none'",
      "base-uri 'self'",
      "form-action 'self'",
      "frame-ancestors 'none'",
      'upgrade-insecure-requests',
    ].join('; ');
    this.responseHeaders = new cloudfront.ResponseHeadersPolicy(this, 'SecurityHeaders', {
      comment: 'Framewright security headers',
      securityHeadersBehavior: {
        contentSecurityPolicy: { contentSecurityPolicy: csp, override: true },
        strictTransportSecurity: {
          accessControlMaxAge: Duration.days(365),
          includeSubdomains: true,
          override: true,
        },
        frameOptions: { frameOption: cloudfront.HeadersFrameOption.DENY, override: true },
        contentTypeOptions: { override: true },
        referrerPolicy: {
          referrerPolicy: cloudfront.HeadersReferrerPolicy.STRICT_ORIGIN_WHEN_CROSS_ORIGIN,
          override: true,
        },
      },
    });

    const spaRewrite = new cloudfront.Function(this, 'SpaRewrite', {
      comment: 'Serves /index.html for extension-less paths (SPA routes)',
      code: cloudfront.FunctionCode.fromInline(SPA_REWRITE),
      runtime: cloudfront.FunctionRuntime.JS_2_0,
    });

    this.distribution = new cloudfront.Distribution(this, 'Distribution', {
      comment: `Framewright ${props.stage}`,
      defaultRootObject: 'index.html',
      httpVersion: cloudfront.HttpVersion.HTTP2_AND_3,
      priceClass: cloudfront.PriceClass.PRICE_CLASS_100,
      enableLogging: true,
      logBucket: props.accessLogs,
      logFilePrefix: 'cloudfront/',
      defaultBehavior: {
        origin: origins.S3BucketOrigin.withOriginAccessControl(this.bucket),
        viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        cachePolicy: cloudfront.CachePolicy.CACHING_OPTIMIZED,
        responseHeadersPolicy: this.responseHeaders,
        functionAssociations: [{ function: spaRewrite, eventType: cloudfront.FunctionEventType.VIEWER_REQUEST }],
        compress: true,
      },
    });
    this.url = `https://${this.distribution.distributionDomainName}`;

    Validations.of(this.distribution).acknowledge({
      id: 'AwsSolutions-CFR1',
      reason: 'The product is offered worldwide; there is no country to restrict.',
    });
    Validations.of(this.distribution).acknowledge({
      id: 'AwsSolutions-CFR2',
      reason:
        'No WAF web ACL for now (a fixed monthly cost); the API is throttled at the stage and every paid action ' +
        'needs a verified Cognito user. Revisit when traffic warrants it.',
    });
    Validations.of(this.distribution).acknowledge({
      id: 'AwsSolutions-CFR4',
      reason:
        'The distribution uses the default *.cloudfront.net certificate, whose security policy CloudFront fixes; ' +
        'a custom domain with its own ACM certificate (and TLSv1.2_2021) is a deployment choice outside this stack.',
    });
  }

  /** Sends /api/* to the HTTP API, uncached, with every viewer header except Host. */
  routeApi(httpApi: apigw.IHttpApi): void {
    this.distribution.addBehavior(
      '/api/*',
      executeApiOrigin(httpApi.apiEndpoint),
      {
        viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.HTTPS_ONLY,
        allowedMethods: cloudfront.AllowedMethods.ALLOW_ALL,
        cachePolicy: cloudfront.CachePolicy.CACHING_DISABLED,
        originRequestPolicy: cloudfront.OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
        responseHeadersPolicy: this.responseHeaders,
        compress: true,
      },
    );
  }

  /**
   * Sends the app origin's LIVE_PATH to the push channel's WebSocket API (whose stage is named after it, so the
   * path reaches API Gateway unchanged), with every viewer header but Host: the handshake's Sec-WebSocket-* ones.
   */
  routeLive(webSocketApi: apigw.WebSocketApi): void {
    this.distribution.addBehavior(
      LIVE_PATH,
      executeApiOrigin(webSocketApi.apiEndpoint),
      {
        viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.HTTPS_ONLY,
        allowedMethods: cloudfront.AllowedMethods.ALLOW_GET_HEAD,
        cachePolicy: cloudfront.CachePolicy.CACHING_DISABLED,
        originRequestPolicy: cloudfront.OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
        compress: false,
      },
    );
  }

  /**
   * Uploads the built app and writes /config.json beside it. Hashed files under assets/ are cached for a
   * year; everything else (index.html, config.json, public files) is revalidated on every load.
   */
  publish(config: SiteConfig): void {
    const deployLogs = new logs.LogGroup(this, 'DeployLogs', {
      retention: logs.RetentionDays.ONE_MONTH,
      removalPolicy: removalPolicyFor(this.props.stage),
    });
    const assets = new s3deploy.BucketDeployment(this, 'DeployAssets', {
      sources: [s3deploy.Source.asset(this.props.webDist)],
      destinationBucket: this.bucket,
      exclude: ['*'],
      include: ['assets/*'],
      // Keep earlier hashed files: a page loaded before the deploy may still ask for its chunks.
      prune: false,
      cacheControl: [
        s3deploy.CacheControl.setPublic(),
        s3deploy.CacheControl.maxAge(Duration.days(365)),
        s3deploy.CacheControl.immutable(),
      ],
      logGroup: deployLogs,
      memoryLimit: 512,
    });
    const pages = new s3deploy.BucketDeployment(this, 'DeployPages', {
      sources: [s3deploy.Source.asset(this.props.webDist), s3deploy.Source.jsonData('config.json', config)],
      destinationBucket: this.bucket,
      // .vite/ holds the build manifest (for the bundle benchmark), not something to publish.
      exclude: ['assets/*', '.vite/*'],
      cacheControl: [s3deploy.CacheControl.noCache()],
      distribution: this.distribution,
      distributionPaths: ['/*'],
      logGroup: deployLogs,
      memoryLimit: 512,
    });
    // New hashed assets must be in place before the index.html that references them.
    pages.node.addDependency(assets);
    this.acknowledgeDeploymentHandler(assets);
  }

  /** The BucketDeployment handler is aws-cdk-lib's own singleton function; it runs at deploy time only. */
  private acknowledgeDeploymentHandler(deployment: s3deploy.BucketDeployment): void {
    const handler = deployment.handlerRole.node.scope!;
    const stack = Stack.of(this);
    const siteBucketId = stack.getLogicalId(this.bucket.node.defaultChild as CfnElement);
    const qualifier: string = this.node.tryGetContext('@aws-cdk/core:bootstrapQualifier') ?? 'hnb659fds';
    // cdk-nag prints unresolved pseudo parameters as <AWS::...>; `cdk synth` resolves the region from the CLI.
    const account = Token.isUnresolved(stack.account) ? '<AWS::AccountId>' : stack.account;
    const region = Token.isUnresolved(stack.region) ? '<AWS::Region>' : stack.region;
    const ack = (id: string, reason: string) => Validations.of(handler).acknowledge({ id, reason });
    const owned = 'BucketDeployment (aws-cdk-lib) creates this role with the grants its sync needs';
    ack(
      'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
      `${owned}: the AWS managed basic execution policy only lets it write its logs.`,
    );
    for (const action of ['s3:GetObject*', 's3:GetBucket*', 's3:List*', 's3:DeleteObject*', 's3:Abort*']) {
      ack(`AwsSolutions-IAM5[Action::${action}]`, `${owned}: it syncs the asset into the site bucket and prunes old files.`);
    }
    ack(
      `AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:s3:::cdk-${qualifier}-assets-${account}-${region}/*]`,
      `${owned}: it reads the uploaded web/dist asset from the CDK bootstrap asset bucket.`,
    );
    ack(`AwsSolutions-IAM5[Resource::<${siteBucketId}.Arn>/*]`, `${owned}: it writes every file of the app into the site bucket.`);
    ack('AwsSolutions-IAM5[Resource::*]', `${owned}: CloudFront invalidations cannot be scoped to one distribution ARN by this construct.`);
    ack('AwsSolutions-L1', 'The BucketDeployment handler runtime is pinned by aws-cdk-lib and runs only during deployments.');
  }
}

/** An API Gateway endpoint (https:// or wss://<id>.execute-api.<region>.amazonaws.com) as a CloudFront origin: its host, over TLS 1.2. */
function executeApiOrigin(apiEndpoint: string): origins.HttpOrigin {
  return new origins.HttpOrigin(Fn.select(2, Fn.split('/', apiEndpoint)), {
    protocolPolicy: cloudfront.OriginProtocolPolicy.HTTPS_ONLY,
    originSslProtocols: [cloudfront.OriginSslPolicy.TLS_V1_2],
  });
}
