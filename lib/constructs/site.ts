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
import { fillSitePlaceholders, SITE_MANIFEST, SITE_ORIGIN_PLACEHOLDER, type SiteManifest } from '../../contract/site';
import { LIVE_PATH } from '../../contract/live';
import { THROTTLE_RETRY_AFTER_SECONDS } from '../../contract/throttles';
import type { AppConfig } from '../../contract/app-config';
import { removalPolicyFor, SettingsError, type Stage } from '../settings';

/** What the cloud's /config.json holds: the contract's shape, with the support address always set. */
type SiteConfig = AppConfig & Required<Pick<AppConfig, 'supportEmail'>>;

export interface SiteProps {
  stage: Stage;
  /** The built SPA (web/dist). */
  webDist: string;
  /** Receives S3 server access logs and CloudFront access logs. */
  accessLogs: s3.IBucket;
  /** Origins of the media bucket: the browser uploads and downloads there with presigned URLs (CSP connect-src). */
  mediaOrigins: readonly string[];
  /** The WAF web ACL (scope CLOUDFRONT, made in us-east-1 by lib/edge-stack.ts). */
  webAclArn?: string;
  /** Where CloudFront's access logs go instead of accessLogs (an app in an opt-in region: a us-east-1 bucket). */
  cloudFrontLogs?: s3.IBucket;
}

/**
 * Names CloudFront keeps per account (not per region): each carries the stage and the app's region, so dev and prod,
 * or one stage in two regions, can share an account. CloudFront caps them at 64 (functions) or 128 characters.
 */
export function cloudFrontName(stage: Stage, region: string, what: string): string {
  return `fw-${stage}-${region}-${what}`;
}

/**
 * CloudFront's answer to an extension-less path, as the build lays the site out (contract/site.ts's siteFile,
 * which the local server uses): a public page's prerendered file, the app shell for the app's routes, else the
 * not-found page, whose status the viewer-response function makes 404. Only the default (S3) behavior runs these,
 * so /api/* answers, errors included, reach the browser untouched (custom error responses would rewrite them).
 */
export function siteFunctions(site: SiteManifest): { request: string; response: string } {
  const request = `var PAGES = ${JSON.stringify(site.publicPaths)};
var APP = ${JSON.stringify(site.appPaths)};
function handler(event) {
  var request = event.request;
  var uri = request.uri;
  var last = uri.substring(uri.lastIndexOf('/') + 1);
  if (last.indexOf('.') !== -1) return request;
  var p = uri.toLowerCase();
  while (p.length > 1 && p.charAt(p.length - 1) === '/') p = p.substring(0, p.length - 1);
  if (PAGES.indexOf(p) !== -1) request.uri = p === '/' ? '/index.html' : p + '/index.html';
  else if (APP.indexOf(p) !== -1) request.uri = ${JSON.stringify(site.appShell)};
  else request.uri = ${JSON.stringify(site.notFound)};
  return request;
}`;
  const response = `function handler(event) {
  var response = event.response;
  var marked = response.headers['x-amz-meta-${NOT_FOUND_MARK}'];
  if ((marked || event.request.uri === ${JSON.stringify(site.notFound)}) && response.statusCode === 200) {
    response.statusCode = 404;
    response.statusDescription = 'Not Found';
  }
  delete response.headers['x-amz-meta-${NOT_FOUND_MARK}'];
  return response;
}`;
  return { request, response };
}

/** S3 metadata on the not-found page: its answer carries it, so the viewer-response function knows it without the URI. */
const NOT_FOUND_MARK = 'fw-not-found';

/** The build's description of the site (written by scripts/build-web.ts). */
function readSite(webDist: string): SiteManifest {
  const file = path.join(webDist, SITE_MANIFEST);
  if (!fs.existsSync(file)) throw new SettingsError(`${file} is missing: run \`npm run build\` first (npm run synth builds and synthesizes)`);
  return JSON.parse(fs.readFileSync(file, 'utf8')) as SiteManifest;
}

/** Files of the build that name the site's origin (SITE_ORIGIN_PLACEHOLDER), relative to web/dist. */
function filesNamingOrigin(webDist: string): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'assets' && entry.name !== '.vite' && entry.name !== 'media') walk(full);
      } else if (/\.(html|xml|txt)$/.test(entry.name) && fs.readFileSync(full, 'utf8').includes(SITE_ORIGIN_PLACEHOLDER)) {
        found.push(path.relative(webDist, full).split(path.sep).join('/'));
      }
    }
  };
  walk(webDist);
  return found.sort();
}

/** The web app: a private bucket behind CloudFront, which also routes /api/* to the HTTP API. */
export class Site extends Construct {
  readonly bucket: s3.Bucket;
  readonly distribution: cloudfront.Distribution;
  readonly responseHeaders: cloudfront.ResponseHeadersPolicy;
  private readonly apiResponseHeaders: cloudfront.ResponseHeadersPolicy;
  /** https://<distribution domain>, the app's public origin. */
  readonly url: string;
  private readonly props: SiteProps;
  private readonly site: SiteManifest;

  constructor(scope: Construct, id: string, props: SiteProps) {
    super(scope, id);
    if (!fs.existsSync(path.join(props.webDist, 'index.html'))) {
      throw new SettingsError(`${props.webDist} has no web build: run \`npm run build\` first (npm run synth builds and synthesizes)`);
    }
    this.props = props;
    this.site = readSite(props.webDist);
    const placeholders = this.site.placeholderMedia ?? [];
    if (props.stage === 'prod' && placeholders.length > 0) {
      // The public site's first screen must not be a test pattern: production waits for the models' real renders.
      throw new SettingsError(
        `The public pages' showcase media are placeholders the local simulator made (${placeholders.join(', ')}). ` +
          'Render them with the models: REPLICATE_API_TOKEN=r8_... npm run showcase (then commit, npm run build, and deploy).',
      );
    }
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
    const securityHeadersBehavior: cloudfront.ResponseSecurityHeadersBehavior = {
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
    };
    this.responseHeaders = new cloudfront.ResponseHeadersPolicy(this, 'SecurityHeaders', {
      responseHeadersPolicyName: cloudFrontName(props.stage, region, 'security-headers'),
      comment: 'Framewright security headers',
      securityHeadersBehavior,
    });
    // The API's answers: the same, and a Retry-After where the answer has none (API Gateway's throttle sends a 429
    // without one; CloudFront runs no function on an origin's 4xx, so a header that does not override is the way).
    this.apiResponseHeaders = new cloudfront.ResponseHeadersPolicy(this, 'ApiHeaders', {
      responseHeadersPolicyName: cloudFrontName(props.stage, region, 'api-headers'),
      comment: 'Framewright security headers, and Retry-After on a throttled API answer',
      securityHeadersBehavior,
      customHeadersBehavior: {
        customHeaders: [{ header: 'Retry-After', value: String(THROTTLE_RETRY_AFTER_SECONDS), override: false }],
      },
    });

    const functions = siteFunctions(this.site);
    const pageRequest = new cloudfront.Function(this, 'PageRequest', {
      functionName: cloudFrontName(props.stage, region, 'page-request'),
      comment: 'Extension-less paths: prerendered page, app shell, or the not-found page',
      code: cloudfront.FunctionCode.fromInline(functions.request),
      runtime: cloudfront.FunctionRuntime.JS_2_0,
    });
    const pageResponse = new cloudfront.Function(this, 'PageResponse', {
      functionName: cloudFrontName(props.stage, region, 'page-response'),
      comment: 'The not-found page answers with status 404',
      code: cloudfront.FunctionCode.fromInline(functions.response),
      runtime: cloudfront.FunctionRuntime.JS_2_0,
    });

    this.distribution = new cloudfront.Distribution(this, 'Distribution', {
      comment: `Framewright ${props.stage}`,
      defaultRootObject: 'index.html',
      httpVersion: cloudfront.HttpVersion.HTTP2_AND_3,
      priceClass: cloudfront.PriceClass.PRICE_CLASS_100,
      enableLogging: true,
      logBucket: props.cloudFrontLogs ?? props.accessLogs,
      logFilePrefix: 'cloudfront/',
      ...(props.webAclArn ? { webAclId: props.webAclArn } : {}),
      defaultBehavior: {
        origin: origins.S3BucketOrigin.withOriginAccessControl(this.bucket, {
          originAccessControl: new cloudfront.S3OriginAccessControl(this, 'SiteAccess', {
            originAccessControlName: cloudFrontName(props.stage, region, 'site'),
            description: `Framewright ${props.stage}: CloudFront reads the site bucket`,
          }),
        }),
        viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        cachePolicy: cloudfront.CachePolicy.CACHING_OPTIMIZED,
        responseHeadersPolicy: this.responseHeaders,
        functionAssociations: [
          { function: pageRequest, eventType: cloudfront.FunctionEventType.VIEWER_REQUEST },
          { function: pageResponse, eventType: cloudfront.FunctionEventType.VIEWER_RESPONSE },
        ],
        compress: true,
      },
    });
    this.url = `https://${this.distribution.distributionDomainName}`;

    Validations.of(this.distribution).acknowledge({
      id: 'AwsSolutions-CFR1',
      reason: 'The product is offered worldwide; there is no country to restrict.',
    });
    Validations.of(this.distribution).acknowledge({
      id: 'AwsSolutions-CFR4',
      reason:
        'The distribution uses the default *.cloudfront.net certificate, whose security policy CloudFront fixes; ' +
        'a custom domain with its own ACM certificate (and TLSv1.2_2021) is a deployment choice outside this stack.',
    });
  }

  /**
   * Sends /api/* and the public share pages /s/* (HTML the API renders, so crawlers read their Open Graph tags) to
   * the HTTP API, uncached, with every viewer header except Host, and `originHeader`: the secret header every handler
   * checks first (lambdas/handlers/origin.ts), which CloudFront sets over any a viewer sends. A share page's own
   * Cache-Control (a minute while live, no-store once revoked) reaches the browser.
   */
  routeApi(httpApi: apigw.IHttpApi, originHeader?: { name: string; value: string }): void {
    const origin = executeApiOrigin(httpApi.apiEndpoint, originHeader ? { [originHeader.name]: originHeader.value } : undefined);
    for (const [pattern, methods] of [
      ['/api/*', cloudfront.AllowedMethods.ALLOW_ALL],
      ['/s/*', cloudfront.AllowedMethods.ALLOW_GET_HEAD],
    ] as const) {
      this.distribution.addBehavior(pattern, origin, {
        viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.HTTPS_ONLY,
        allowedMethods: methods,
        cachePolicy: cloudfront.CachePolicy.CACHING_DISABLED,
        originRequestPolicy: cloudfront.OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
        responseHeadersPolicy: pattern === '/api/*' ? this.apiResponseHeaders : this.responseHeaders,
        compress: true,
      });
    }
  }

  /**
   * Sends the app origin's LIVE_PATH to the push channel's WebSocket API (whose stage is named after it, so the
   * path reaches API Gateway unchanged), with every viewer header but Host: the handshake's Sec-WebSocket-* ones.
   */
  routeLive(webSocketApi: apigw.WebSocketApi, originHeader?: { name: string; value: string }): void {
    this.distribution.addBehavior(
      LIVE_PATH,
      // The same secret header as the API's: $connect refuses a handshake without it (lambdas/handlers/live-connect.ts).
      executeApiOrigin(webSocketApi.apiEndpoint, originHeader ? { [originHeader.name]: originHeader.value } : undefined),
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
    // Pages, the sitemap and robots.txt name the site's origin (and pages the support address): CDK writes each with
    // the distribution's address in.
    const namingOrigin = filesNamingOrigin(this.props.webDist);
    const withOrigin = (file: string) =>
      s3deploy.Source.data(
        file,
        fillSitePlaceholders(fs.readFileSync(path.join(this.props.webDist, file), 'utf8'), { origin: this.url, supportEmail: config.supportEmail }),
      );
    const notFound = this.site.notFound.slice(1);
    const pages = new s3deploy.BucketDeployment(this, 'DeployPages', {
      sources: [
        s3deploy.Source.asset(this.props.webDist, { exclude: ['assets/*', '.vite/*', ...namingOrigin] }),
        s3deploy.Source.jsonData('config.json', config),
        ...namingOrigin.filter((file) => file !== notFound).map(withOrigin),
      ],
      destinationBucket: this.bucket,
      // .vite/ holds the build manifest (for the bundle benchmark), not something to publish.
      exclude: ['assets/*', '.vite/*', notFound],
      cacheControl: [s3deploy.CacheControl.noCache()],
      distribution: this.distribution,
      distributionPaths: ['/*'],
      logGroup: deployLogs,
      memoryLimit: 512,
    });
    const notFoundPage = new s3deploy.BucketDeployment(this, 'DeployNotFound', {
      sources: [withOrigin(notFound)],
      destinationBucket: this.bucket,
      prune: false,
      metadata: { [NOT_FOUND_MARK]: 'true' },
      cacheControl: [s3deploy.CacheControl.noCache()],
      logGroup: deployLogs,
      memoryLimit: 512,
    });
    notFoundPage.node.addDependency(assets);
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
function executeApiOrigin(apiEndpoint: string, customHeaders?: Record<string, string>): origins.HttpOrigin {
  return new origins.HttpOrigin(Fn.select(2, Fn.split('/', apiEndpoint)), {
    protocolPolicy: cloudfront.OriginProtocolPolicy.HTTPS_ONLY,
    originSslProtocols: [cloudfront.OriginSslPolicy.TLS_V1_2],
    ...(customHeaders ? { customHeaders } : {}),
  });
}
