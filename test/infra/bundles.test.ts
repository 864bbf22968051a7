import * as fs from 'node:fs';
import * as path from 'node:path';
import { build } from 'esbuild';
import { ALL_ROUTES, type RouteDef } from '../../contract/routes';
import { esbuildOptions, handlerEntry, MAX_BUNDLE_BYTES } from '../../lib/bundling';
import { bundleSizes } from '../bench/bundle-sizes';
import { makeApp, routeFunction } from './synth';
import { Template } from 'aws-cdk-lib/assertions';

describe('Lambda bundles', () => {
  it(`stay under ${MAX_BUNDLE_BYTES / 1000} kB each, for every route and trigger`, async () => {
    const sizes = await bundleSizes();
    expect(sizes.map((s) => s.route).sort()).toEqual([...ALL_ROUTES.map((r) => r.id), 'trigger:custom-message'].sort());
    // A whole-library import (e.g. `import { z } from 'zod'` instead of `import * as z from 'zod'`, which
    // esbuild cannot tree-shake) shows up here first.
    const tooBig = sizes.filter((s) => s.bytes >= MAX_BUNDLE_BYTES);
    expect(tooBig.map((s) => `${s.route}: ${s.bytes} bytes (check for \`import { z } from 'zod'\`)`)).toEqual([]);
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
