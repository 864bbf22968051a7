/**
 * Cold init of every Lambda bundle, built as CDK builds it (lib/bundling.ts) and, to compare, with the AWS SDK left to
 * the runtime (`--external`): each bundle is required by a fresh Node process, `BENCH_RUNS` times (default 5), and the
 * median time of the require (module load and top-level code: what Lambda's Init phase runs) is printed with the size.
 * `npm run bench:cold`. The runtime-provided SDK is stood in for by the repository's node_modules copy.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { build } from 'esbuild';
import { esbuildOptions } from '../../lib/bundling';
import { REPO_ROOT } from '../../lib/settings';
import { deployedFunctions, sdkPackagesOf } from './bundle-sizes';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
// Inside the repository, so a bundle that leaves the SDK external finds it in node_modules as the runtime would.
const OUT = path.join(REPO_ROOT, 'node_modules', '.cache', 'fw-cold-start');
const ENV = { ...process.env, TABLE_NAME: 't', MEDIA_BUCKET: 'b', USER_POOL_ID: 'p', USER_POOL_CLIENT_ID: 'c', APP_URL: 'https://x.example', SES_FROM_ADDRESS: 'a@x.example', SUPPORT_EMAIL: 'a@x.example', AWS_REGION: 'eu-west-1' };

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

async function measure(entry: string, outfile: string, external: string[]): Promise<{ bytes: number; initMs: number }> {
  await build({ ...esbuildOptions(entry, outfile), external, sourcemap: false });
  const probe = `const t=process.hrtime.bigint();require(${JSON.stringify(outfile)});process.stdout.write(String(Number(process.hrtime.bigint()-t)/1e6))`;
  const times = Array.from({ length: RUNS }, () => Number(execFileSync(process.execPath, ['-e', probe], { env: ENV, encoding: 'utf8' })));
  return { bytes: fs.statSync(outfile).size, initMs: median(times) };
}

async function main() {
  fs.rmSync(OUT, { recursive: true, force: true });
  const rows: string[] = [];
  rows.push(`${'function'.padEnd(22)} ${'SDK from runtime'.padStart(24)} ${'SDK pkgs'.padStart(8)} ${'SDK bundled'.padStart(26)}`);
  for (const { route, entry } of deployedFunctions()) {
    const extFile = path.join(OUT, 'external', route, 'index.js');
    const ext = await measure(entry, extFile, ['@aws-sdk/*']);
    const own = await measure(entry, path.join(OUT, 'bundled', route, 'index.js'), []);
    const cell = (m: { bytes: number; initMs: number }) => `${(m.bytes / 1000).toFixed(0)} kB ${m.initMs.toFixed(0).padStart(4)} ms`;
    const loaded = sdkPackagesOf(fs.readFileSync(extFile, 'utf8'), 'require').length;
    rows.push(`${route.padEnd(22)} ${cell(ext).padStart(24)} ${String(loaded).padStart(8)} ${cell(own).padStart(26)}`);
  }
  console.log(rows.join('\n'));
  fs.rmSync(OUT, { recursive: true, force: true });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
