import * as fs from 'node:fs';
import * as path from 'node:path';
import { build } from 'esbuild';
import { ALL_ROUTES, type Grant, type RouteDef } from '../../contract/routes';
import { esbuildOptions, handlerEntry, MAX_BUNDLE_BYTES, maxBundleBytes } from '../../lib/bundling';
import { bundleSizes, deployedFunctions, type BundleSize } from '../bench/bundle-sizes';
import { makeApp, routeFunction } from './synth';
import { Template } from 'aws-cdk-lib/assertions';

/** The @aws-sdk packages each grant justifies: a function loads no SDK package its grants do not call for. */
const SDK_FOR_GRANT: Readonly<Record<Grant, readonly string[]>> = {
  'table:read': ['client-dynamodb', 'lib-dynamodb', 'util-dynamodb'],
  'table:write': ['client-dynamodb', 'lib-dynamodb', 'util-dynamodb'],
  'table:index:gsi1': ['client-dynamodb', 'lib-dynamodb'],
  'table:index:open-jobs': ['client-dynamodb', 'lib-dynamodb'],
  'media:read': ['client-s3', 's3-request-presigner'],
  'media:write': ['client-s3', 's3-presigned-post', 'lib-storage', 's3-request-presigner'],
  'media:delete': ['client-s3'],
  'media:list': ['client-s3'],
  'ses:send': ['client-sesv2'],
  'ses:read': ['client-sesv2'],
  'cognito:read': [],
  'cognito:delete-user': ['client-cognito-identity-provider'],
  'secret:replicate': ['client-secrets-manager'],
  'secret:paypal': ['client-secrets-manager'],
  'secret:origin': ['client-secrets-manager'],
  'secret:welcome-hash': ['client-secrets-manager'],
  'secret:content-credentials': ['client-secrets-manager'],
  'secret:origin:rotate': ['client-secrets-manager'],
  'cloudfront:origin-header': ['client-cloudfront'],
  'live:send': ['client-apigatewaymanagementapi'],
};

describe('Lambda bundles', () => {
  let sizes: BundleSize[];
  // Bundling every function (about 50) takes 40-60 s on a 2-core machine: more than jest's default for a hook.
  beforeAll(async () => {
    sizes = await bundleSizes();
  }, 300_000);

  it(`stay under ${MAX_BUNDLE_BYTES / 1000} kB each (the content-credentials signers under theirs), for every function CDK deploys`, () => {
    expect(sizes.map((s) => s.route).sort()).toEqual(deployedFunctions().map((f) => f.route).sort());
    expect(sizes.map((s) => s.route)).toEqual(expect.arrayContaining([...ALL_ROUTES.map((r) => r.id), 'trigger:custom-message', 'saveJobOutput']));
    // A whole-library import (e.g. `import { z } from 'zod'` instead of `import * as z from 'zod'`, which
    // esbuild cannot tree-shake) shows up here first.
    const tooBig = sizes.filter((s) => s.bytes >= maxBundleBytes(s.grants));
    expect(tooBig.map((s) => `${s.route}: ${s.bytes} bytes (check for \`import { z } from 'zod'\`)`)).toEqual([]);
  });

  it('load at init only the AWS SDK packages their grants call for (lambdas/package.json: sideEffects false)', () => {
    const extra = sizes.flatMap((s) => {
      const allowed = new Set(s.grants.flatMap((g) => SDK_FOR_GRANT[g]));
      return s.sdk.filter((p) => !allowed.has(p)).map((p) => `${s.route} loads @aws-sdk/${p} (grants: ${s.grants.join(', ') || 'none'})`);
    });
    expect(extra).toEqual([]);
    // Not vacuous: the functions that talk to S3, SES and the push channel do load those clients.
    const sdkOf = (id: string) => sizes.find((s) => s.route === id)!.sdk;
    expect(sdkOf('createUpload')).toContain('client-s3');
    expect(sizes.find((s) => s.route === 'createUpload')!.sdkOnUse).toContain('s3-presigned-post');
    expect(sdkOf('createUpload')).not.toContain('client-sesv2');
    expect(sdkOf('liveFanout')).toContain('client-apigatewaymanagementapi');
  });

  it('are what CDK deploys: the benchmark builds with the construct\'s own options', async () => {
    const route: RouteDef = ALL_ROUTES.find((r) => r.id === 'health')!;
    const synth = makeApp({ routes: [route], context: { 'aws:cdk:bundling-stacks': ['**'] } });
    try {
      const template = Template.fromStack(synth.stack);
      const [, fn] = routeFunction(template, route);
      const assetHash = String(fn.Properties!.Code.S3Key).replace(/\.zip$/, '');
      const deployed = fs.readFileSync(path.join(synth.outdir, `asset.${assetHash}`, 'index.js'));

      const outfile = path.join(synth.outdir, 'bench', 'index.js');
      const built = await build({ ...esbuildOptions(handlerEntry(route.handler), outfile), write: false });
      const benchmarked = built.outputFiles.find((f) => f.path === outfile)!;
      expect(Buffer.from(benchmarked.contents).equals(deployed)).toBe(true);
    } finally {
      synth.cleanup();
    }
  });
});
