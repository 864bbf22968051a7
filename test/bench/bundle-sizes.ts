/**
 * The size of every Lambda bundle, built exactly as CDK builds it (lib/bundling.ts). Run it with
 * `npm run bench:bundles`: prints a table and exits non-zero when a bundle reaches MAX_BUNDLE_BYTES.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { build } from 'esbuild';
import { BACKGROUND_FUNCTIONS, ORIGIN_SECRET_ROTATION } from '../../contract/functions';
import { LIVE_ROUTES } from '../../contract/live';
import { ALL_ROUTES, type Grant } from '../../contract/routes';
import { esbuildOptions, handlerEntry, MAX_BUNDLE_BYTES, maxBundleBytes, triggerEntry } from '../../lib/bundling';

export interface BundleSize {
  /** The route id, the push channel's or a background function's id, or `trigger:<name>` for a Cognito trigger. */
  route: string;
  /** Minified index.js, without its source map. */
  bytes: number;
  /** What the function may touch (CDK grants exactly this). */
  grants: readonly Grant[];
  /** The @aws-sdk packages the bundle loads at init (`require`), without the scope. */
  sdk: string[];
  /** Those it loads only when a method that needs them first runs (`import()`). */
  sdkOnUse: string[];
}

/** The Cognito triggers lib/ deploys besides the routes. */
const TRIGGERS = ['custom-message'];

/** Every function CDK deploys: HTTP routes, the push channel's routes, background functions and Cognito triggers. */
export function deployedFunctions(): { route: string; entry: string; grants: readonly Grant[] }[] {
  return [
    ...ALL_ROUTES.map((r) => ({ route: r.id, entry: handlerEntry(r.handler), grants: r.grants })),
    ...LIVE_ROUTES.map((r) => ({ route: r.id, entry: handlerEntry(r.handler), grants: r.grants })),
    ...BACKGROUND_FUNCTIONS.map((f) => ({ route: f.id, entry: handlerEntry(f.handler), grants: f.grants })),
    { route: ORIGIN_SECRET_ROTATION.id, entry: handlerEntry(ORIGIN_SECRET_ROTATION.handler), grants: ORIGIN_SECRET_ROTATION.grants },
    ...TRIGGERS.map((t) => ({ route: `trigger:${t}`, entry: triggerEntry(t), grants: [] as Grant[] })),
  ];
}

/** The @aws-sdk packages a bundle requires (at init) or imports (on first use); the runtime provides the SDK. */
export function sdkPackagesOf(js: string, how: 'require' | 'import'): string[] {
  return [...new Set([...js.matchAll(new RegExp(`\\b${how}\\("@aws-sdk/([^"]+)"\\)`, 'g'))].map((m) => m[1]!))].sort();
}

export async function bundleSizes(): Promise<BundleSize[]> {
  const functions = deployedFunctions();
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-bundles-'));
  try {
    return await Promise.all(
      functions.map(async ({ route, entry, grants }) => {
        if (!fs.existsSync(entry)) throw new Error(`${route}: ${path.relative(process.cwd(), entry)} does not exist`);
        const outfile = path.join(outdir, route.replace(/\W/g, '_'), 'index.js');
        const result = await build({ ...esbuildOptions(entry, outfile), write: false });
        const js = result.outputFiles.find((f) => f.path === outfile);
        if (!js) throw new Error(`${route}: esbuild wrote no ${outfile}`);
        return { route, bytes: js.contents.byteLength, grants, sdk: sdkPackagesOf(js.text, 'require'), sdkOnUse: sdkPackagesOf(js.text, 'import') };
      }),
    );
  } finally {
    fs.rmSync(outdir, { recursive: true, force: true });
  }
}

export function formatTable(sizes: BundleSize[]): string {
  const width = Math.max(...sizes.map((s) => s.route.length), 'function'.length);
  const kb = (n: number) => `${(n / 1000).toFixed(1)} kB`.padStart(10);
  const lines = sizes.map((s) => `${s.route.padEnd(width)}  ${kb(s.bytes)}  ${s.bytes >= maxBundleBytes(s.grants) ? 'TOO BIG' : 'ok'}`);
  return [`${'function'.padEnd(width)}  ${'minified'.padStart(10)}`, ...lines, `limit ${kb(MAX_BUNDLE_BYTES).trim()} each (content-credentials signers: ${kb(maxBundleBytes(['secret:content-credentials'])).trim()})`].join('\n');
}

/**
 * Builds every bundle and prints the table, largest first; a bundle at or over MAX_BUNDLE_BYTES sets a failing
 * exit code. Returns the sizes and the routes that are too big. `npm run bench:bundles` and `npm run bench` run this.
 */
export async function reportBundleSizes(print: (text: string) => void): Promise<{ sizes: BundleSize[]; tooBig: string[] }> {
  const sizes = (await bundleSizes()).sort((a, b) => b.bytes - a.bytes);
  print(formatTable(sizes));
  const tooBig = sizes.filter((s) => s.bytes >= maxBundleBytes(s.grants)).map((s) => s.route);
  if (tooBig.length) process.exitCode = 1;
  return { sizes, tooBig };
}

async function main(): Promise<void> {
  const started = Date.now();
  const { sizes, tooBig } = await reportBundleSizes((text) => console.log(text));
  console.log(`${sizes.length} bundles in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  if (tooBig.length) console.error(`\n${tooBig.join(', ')}: at or over their limit.`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === __filename) {
  main().catch((err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exitCode = 1;
  });
}
