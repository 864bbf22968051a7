import * as path from 'node:path';
import { LogLevel, OutputFormat, type BundlingOptions } from 'aws-cdk-lib/aws-lambda-nodejs';
import type { BuildOptions } from 'esbuild';
import { REPO_ROOT } from './settings';

/**
 * How every Lambda function is bundled. NodejsFunction turns this into esbuild CLI flags; the bundle-size
 * benchmark (test/bench/bundle-sizes.ts) turns it into the same esbuild API options with `esbuildOptions`,
 * so what we measure is what we deploy.
 */
export const LAMBDA_BUNDLING = {
  minify: true,
  // Stack traces point at the TypeScript sources (with NODE_OPTIONS=--enable-source-maps on the function);
  // the map carries no sources, only positions.
  sourceMap: true,
  sourcesContent: false,
  target: 'node24',
  format: OutputFormat.CJS,
  // The Node.js runtime provides AWS SDK v3; bundling it would add megabytes.
  externalModules: ['@aws-sdk/*'],
  // esbuild's size table for every function drowns synth's own messages.
  logLevel: LogLevel.WARNING,
} as const satisfies BundlingOptions;

/** Bundles above this size get a failing benchmark and a failing test. */
export const MAX_BUNDLE_BYTES = 500 * 1000;
/**
 * The functions that sign content credentials ('secret:content-credentials') carry the C2PA library (X.509, CMS, CBOR
 * and JUMBF code: about 850 kB minified), loaded at their first save rather than at init.
 */
export const MAX_SIGNING_BUNDLE_BYTES = 1500 * 1000;

/** The size a function's bundle must stay under. */
export const maxBundleBytes = (grants: readonly string[]): number => (grants.includes('secret:content-credentials') ? MAX_SIGNING_BUNDLE_BYTES : MAX_BUNDLE_BYTES);

/** The handler file of a route (`RouteDef.handler`). */
export function handlerEntry(handler: string): string {
  return path.join(REPO_ROOT, 'lambdas', 'handlers', `${handler}.ts`);
}

/** The handler file of a Cognito trigger. */
export function triggerEntry(trigger: string): string {
  return path.join(REPO_ROOT, 'lambdas', 'triggers', `${trigger}.ts`);
}

/** The esbuild options NodejsFunction uses for LAMBDA_BUNDLING (see its `--bundle ... --platform=node` command). */
export function esbuildOptions(entry: string, outfile: string): BuildOptions {
  const b = LAMBDA_BUNDLING;
  return {
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    target: b.target,
    format: b.format,
    minify: b.minify,
    sourcemap: b.sourceMap,
    sourcesContent: b.sourcesContent,
    external: [...b.externalModules],
    absWorkingDir: REPO_ROOT,
    logLevel: 'silent',
  };
}
