import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vm from 'node:vm';
import { App, Stack } from 'aws-cdk-lib';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { Site } from '../../lib/constructs/site';
import { SITE_ORIGIN_PLACEHOLDER } from '../../contract/site';
import { logicalId, resourcesOfType, synthForSuite } from './synth';

/** A CloudFormation string value with the pseudo parameters of an example account and region filled in. */
function render(value: unknown): string {
  if (typeof value === 'string') return value;
  const v = value as Record<string, any>;
  if (v['Fn::Join']) return (v['Fn::Join'][1] as unknown[]).map(render).join(v['Fn::Join'][0]);
  const pseudo: Record<string, string> = { 'AWS::Region': 'eu-west-1', 'AWS::AccountId': '123456789012', 'AWS::URLSuffix': 'amazonaws.com' };
  if (v.Ref && pseudo[v.Ref]) return pseudo[v.Ref]!;
  throw new Error(`cannot render ${JSON.stringify(value)}`);
}

/** "a x y; b z" -> { a: [x, y], b: [z] } */
function directives(csp: string): Record<string, string[]> {
  return Object.fromEntries(
    csp.split(';').map((d) => d.trim().split(/\s+/)).map(([name, ...values]) => [name!, values]),
  );
}

// CloudFront managed policies.
const CACHING_DISABLED = '4135ea2d-6df8-44a3-9df3-4b5a84be39ad';
const ALL_VIEWER_EXCEPT_HOST_HEADER = 'b689b0a8-53d0-40ab-baf2-68738e2966ac';

describe('Site: CloudFront over S3, /api/* to the HTTP API', () => {
  const synth = synthForSuite();
  let distribution: Record<string, any>;
  beforeAll(() => {
    synth.template.resourceCountIs('AWS::CloudFront::Distribution', 1);
    distribution = resourcesOfType(synth.template, 'AWS::CloudFront::Distribution')[0]![1].Properties!.DistributionConfig;
  });

  it('sends /api/* to the HTTP API, uncached, with every method and viewer header but Host', () => {
    // /api/*, the share pages /s/* and the push channel's /live (test/infra/live.test.ts).
    expect(distribution.CacheBehaviors.map((b: { PathPattern: string }) => b.PathPattern).sort()).toEqual(['/api/*', '/live', '/s/*']);
    // Share pages: HTML the API renders (crawlers read their Open Graph tags), from the same origin with its header.
    const share = distribution.CacheBehaviors.find((b: { PathPattern: string }) => b.PathPattern === '/s/*');
    expect(share).toMatchObject({ CachePolicyId: CACHING_DISABLED, AllowedMethods: ['GET', 'HEAD'], ViewerProtocolPolicy: 'https-only' });
    const api = distribution.CacheBehaviors.find((b: { PathPattern: string }) => b.PathPattern === '/api/*');
    expect(api).toMatchObject({
      PathPattern: '/api/*',
      CachePolicyId: CACHING_DISABLED,
      OriginRequestPolicyId: ALL_VIEWER_EXCEPT_HOST_HEADER,
      AllowedMethods: expect.arrayContaining(['GET', 'HEAD', 'OPTIONS', 'PUT', 'PATCH', 'POST', 'DELETE']),
      ViewerProtocolPolicy: 'https-only',
    });
    const origin = distribution.Origins.find((o: any) => o.Id === api.TargetOriginId);
    expect(share.TargetOriginId).toBe(api.TargetOriginId);
    const apiId = logicalId(synth.template, 'AWS::ApiGatewayV2::Api', 'Api');
    expect(origin).toMatchObject({
      DomainName: { 'Fn::Select': [2, { 'Fn::Split': ['/', { 'Fn::GetAtt': [apiId, 'ApiEndpoint'] }] }] },
      CustomOriginConfig: { OriginProtocolPolicy: 'https-only', OriginSSLProtocols: ['TLSv1.2'] },
    });
  });

  it('serves the app from the private bucket through origin access control', () => {
    expect(distribution.DefaultRootObject).toBe('index.html');
    const origin = distribution.Origins.find((o: any) => o.Id === distribution.DefaultCacheBehavior.TargetOriginId);
    expect(origin.DomainName).toEqual({ 'Fn::GetAtt': [logicalId(synth.template, 'AWS::S3::Bucket', 'SiteBucket'), 'RegionalDomainName'] });
    expect(origin.OriginAccessControlId).toBeDefined();
    expect(distribution.DefaultCacheBehavior.ViewerProtocolPolicy).toBe('redirect-to-https');
  });

  it('serves prerendered pages, the app shell or the 404 page by functions, never by error responses that would hide API errors', () => {
    expect(distribution.CustomErrorResponses).toBeUndefined();
    const associations = distribution.DefaultCacheBehavior.FunctionAssociations as { EventType: string; FunctionARN: any }[];
    expect(associations.map((a) => a.EventType).sort()).toEqual(['viewer-request', 'viewer-response']);
    expect(distribution.CacheBehaviors[0].FunctionAssociations).toBeUndefined();
    const fn = (type: string) => {
      const id = associations.find((a) => a.EventType === type)!.FunctionARN['Fn::GetAtt'][0];
      return vm.runInNewContext(`${synth.template.toJSON().Resources[id].Properties.FunctionCode}; handler`);
    };
    const request = fn('viewer-request');
    const rewrite = (uri: string) => request({ request: { uri } }).uri;
    expect(rewrite('/')).toBe('/index.html');
    expect(rewrite('/faq')).toBe('/faq/index.html');
    expect(rewrite('/FAQ/')).toBe('/faq/index.html');
    expect(rewrite('/generator')).toBe('/app.html');
    expect(rewrite('/video-generator/wan')).toBe('/app.html');
    expect(rewrite('/studio/videos')).toBe('/404.html');
    expect(rewrite('/assets/index-3f2a.js')).toBe('/assets/index-3f2a.js');
    expect(rewrite('/config.json')).toBe('/config.json');
    expect(rewrite('/favicon.svg')).toBe('/favicon.svg');

    const response = fn('viewer-response');
    const status = (uri: string, statusCode = 200, headers: Record<string, unknown> = {}) =>
      response({ request: { uri }, response: { statusCode, headers } }).statusCode;
    expect(status('/404.html')).toBe(404);
    // The page's S3 metadata marks it whatever URI the response event shows.
    expect(status('/studio/videos', 200, { 'x-amz-meta-fw-not-found': { value: 'true' } })).toBe(404);
    expect(status('/faq/index.html')).toBe(200);
    expect(status('/app.html')).toBe(200);
    expect(status('/404.html', 304)).toBe(304);
  });

  it('writes the pages with the distribution as their origin', () => {
    const deployments = resourcesOfType(synth.template, 'Custom::CDKBucketDeployment');
    const pages = deployments.find(([, d]) => d.Properties!.SourceObjectKeys.length === 3)![1].Properties!;
    const asset = path.join(synth.outdir, `asset.${pages.SourceObjectKeys[2].replace(/\.zip$/, '')}`, 'sitemap.xml');
    const sitemap = fs.readFileSync(asset, 'utf8');
    expect(sitemap).not.toContain(SITE_ORIGIN_PLACEHOLDER);
    const markers: Record<string, unknown> = pages.SourceMarkers[2];
    const marker = Object.keys(markers).find((m) => sitemap.includes(m))!;
    expect(JSON.stringify(markers[marker])).toContain(logicalId(synth.template, 'AWS::CloudFront::Distribution', 'Site'));
  });

  it('sends the security headers on pages and API answers', () => {
    // Pages (the default behaviour), the API's answers and the share pages each name a policy; the API's is its own
    // (it adds a Retry-After, test/infra/limits.test.ts), and every one of them carries the same security headers.
    const json = synth.template.toJSON();
    const served = [distribution.DefaultCacheBehavior, ...distribution.CacheBehaviors.filter((b: { PathPattern: string }) => b.PathPattern !== '/live')];
    expect(served).toHaveLength(3);
    const policyIds = served.map((b: { ResponseHeadersPolicyId?: { Ref: string } }) => b.ResponseHeadersPolicyId?.Ref);
    expect(policyIds.every((id) => typeof id === 'string' && json.Resources[id]?.Type === 'AWS::CloudFront::ResponseHeadersPolicy')).toBe(true);
    const configs = [...new Set(policyIds as string[])].map((id) => json.Resources[id].Properties.ResponseHeadersPolicyConfig.SecurityHeadersConfig);
    expect(configs).toHaveLength(2);
    for (const config of configs) expect(config).toEqual(configs[0]);
    const headers = configs[0];
    expect(headers).toMatchObject({
      FrameOptions: { FrameOption: 'DENY', Override: true },
      ContentTypeOptions: { Override: true },
      ReferrerPolicy: { ReferrerPolicy: 'strict-origin-when-cross-origin', Override: true },
      StrictTransportSecurity: { AccessControlMaxAgeSec: 31536000, IncludeSubdomains: true, Override: true },
    });
    const csp = directives(render(headers.ContentSecurityPolicy.ContentSecurityPolicy));
    // The media bucket, under the name the bucket really gets.
    const mediaBucket = synth.template.toJSON().Resources[logicalId(synth.template, 'AWS::S3::Bucket', 'DataMediaBucket')];
    const bucketName = render(mediaBucket.Properties.BucketName);
    expect(bucketName).toBe('framewright-dev-media-123456789012-eu-west-1');
    const media = [`https://${bucketName}.s3.eu-west-1.amazonaws.com`, `https://${bucketName}.s3.amazonaws.com`];
    expect(csp).toEqual({
      'default-src': ["'self'"],
      'script-src': ["'self'"],
      'connect-src': ["'self'", 'https://cognito-idp.eu-west-1.amazonaws.com', ...media],
      'img-src': ["'self'", 'data:', 'blob:', ...media],
      'media-src': ["'self'", 'blob:', ...media],
      'style-src': ["'self'", "'unsafe-inline'"],
      'font-src': ["'self'", 'data:'],
      'object-src': ["'none'"],
      'base-uri': ["'self'"],
      'form-action': ["'self'"],
      'frame-ancestors': ["'none'"],
      'upgrade-insecure-requests': [],
    });
  });

  it('deploys the app with a config.json for the SPA', () => {
    const deployments = resourcesOfType(synth.template, 'Custom::CDKBucketDeployment');
    const withConfig = deployments.filter(([, d]) => d.Properties!.SourceObjectKeys.length === 3);
    expect(withConfig).toHaveLength(1);
    const props = withConfig[0]![1].Properties!;
    expect(props.DestinationBucketName).toEqual({ Ref: logicalId(synth.template, 'AWS::S3::Bucket', 'SiteBucket') });
    expect(props.DistributionPaths).toEqual(['/*']);

    const configAsset = path.join(synth.outdir, `asset.${props.SourceObjectKeys[1].replace(/\.zip$/, '')}`, 'config.json');
    const markers: Record<string, unknown> = props.SourceMarkers[1];
    const config = JSON.parse(fs.readFileSync(configAsset, 'utf8'));
    const resolved = Object.fromEntries(Object.entries(config).map(([k, v]) => [k, markers[v as string] ?? v]));
    expect(resolved).toEqual({
      region: markers[config.region] ? { Ref: 'AWS::Region' } : expect.any(String),
      userPoolId: { Ref: logicalId(synth.template, 'AWS::Cognito::UserPool', 'Auth') },
      userPoolClientId: { Ref: logicalId(synth.template, 'AWS::Cognito::UserPoolClient', 'Auth') },
      apiBaseUrl: '/api',
      supportEmail: expect.stringContaining('@'),
    });
  });

  it('outputs what operators and the README need', () => {
    const outputs = Object.keys(synth.template.toJSON().Outputs);
    expect(outputs).toEqual(expect.arrayContaining(['SiteUrl', 'ApiUrl', 'UserPoolId', 'UserPoolClientId', 'TableName', 'MediaBucket']));
  });
});

describe('Site without a web build', () => {
  it('stops synth with a clear message', () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-no-dist-'));
    try {
      const stack = new Stack(new App({ outdir: empty }), 'Test');
      const accessLogs = new s3.Bucket(stack, 'Logs');
      expect(
        () => new Site(stack, 'Site', { stage: 'dev', webDist: path.join(empty, 'dist'), accessLogs, mediaOrigins: [] }),
      ).toThrow(/has no web build: run `npm run build` first/);
    } finally {
      fs.rmSync(empty, { recursive: true, force: true });
    }
  });
});

describe('Site: the not-found page', () => {
  const synth = synthForSuite();
  it('is deployed on its own with the metadata that makes its answer a 404, without pruning the rest', () => {
    const deployments = resourcesOfType(synth.template, 'Custom::CDKBucketDeployment').map(([, d]) => d.Properties!);
    const notFound = deployments.find((d) => d.UserMetadata?.['fw-not-found'] === 'true')!;
    expect(notFound).toBeDefined();
    expect(notFound.Prune).toBe(false);
    const pages = deployments.find((d) => d.SourceObjectKeys.length === 3)!;
    expect(pages.Exclude).toContain('404.html');
  });
});
