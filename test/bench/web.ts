/**
 * `npm run bench:web`: the public site's performance budget (issue 7).
 *
 * 1. Builds the production bundle (`npm run build`).
 * 2. For each marketing route, adds up the initial JavaScript (main.tsx + the light marketing entry + the
 *    route's page chunk, with their static imports: see web-bundle.ts), gzipped: at most 90 kB, with no
 *    react-router, Amplify or zod in it.
 * 3. Serves the build from the embedded stack (FW_WEB=dist) and runs Lighthouse (mobile preset, simulated
 *    throttling) in Debian's Chromium on /, /pricing and /faq: performance and accessibility at least 0.95,
 *    taking the median of BENCH_RUNS runs (default 3) since a shared machine makes single runs noisy.
 *
 * Prints a table and exits non-zero when a budget is broken. A benchmark, not part of `npm test`.
 * `npm run bench:web -- --js-only` stops after step 2.
 * Env: BENCH_PORT (or PORT) for the stack, default 5180; BENCH_RUNS; CHROME_PATH (default /usr/bin/chromium).
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from '../support/chromium';
import { startStackProcess, stopStackProcess } from '../support/start-stack';
import { table } from './stats';
import { FORBIDDEN_PACKAGES, MARKETING_PAGES, marketingInitialJs, readChunkModules, readManifest, WEB_DIST } from './web-bundle';

const ROOT = path.resolve(__dirname, '..', '..');
// React, react-dom and the router now hydrate every public page; the HTML paints before any of it runs.
const JS_BUDGET_BYTES = 120_000;
const SCORE_BUDGET = 0.95;
const LIGHTHOUSE_ROUTES = Object.keys(MARKETING_PAGES);
const RUNS = Math.max(1, Number(process.env.BENCH_RUNS ?? 3));
const PORT = process.env.BENCH_PORT ?? process.env.PORT ?? '5180';
const CHROME_PATH = process.env.CHROME_PATH ?? CHROMIUM_PATH;

const JS_ONLY = process.argv.includes('--js-only');

const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

interface LighthouseFigures {
  performance: number;
  accessibility: number;
  fcpMs: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  /** Accessibility audits that failed, by id. */
  failedA11y: string[];
}

async function lighthouseRun(url: string): Promise<LighthouseFigures> {
  const { default: lighthouse } = await import('lighthouse');
  const chromeLauncher = await import('chrome-launcher');
  const chrome = await chromeLauncher.launch({ chromePath: CHROME_PATH, chromeFlags: [...CHROMIUM_FLAGS], logLevel: 'silent' });
  try {
    // No config: Lighthouse's default is the mobile preset (Moto G Power emulation, simulated slow 4G).
    const result = await lighthouse(url, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance', 'accessibility'] });
    if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
    const { lhr } = result;
    if (lhr.runtimeError) throw new Error(`Lighthouse failed on ${url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
    const num = (id: string) => Number(lhr.audits[id]?.numericValue ?? NaN);
    const a11yIds = lhr.categories.accessibility?.auditRefs.map((r) => r.id) ?? [];
    return {
      performance: lhr.categories.performance?.score ?? 0,
      accessibility: lhr.categories.accessibility?.score ?? 0,
      fcpMs: num('first-contentful-paint'),
      lcpMs: num('largest-contentful-paint'),
      tbtMs: num('total-blocking-time'),
      cls: num('cumulative-layout-shift'),
      failedA11y: a11yIds.filter((id) => lhr.audits[id]?.score === 0),
    };
  } finally {
    chrome.kill();
  }
}

async function main(): Promise<void> {
  const failures: string[] = [];

  console.log('Building the production bundle...');
  // The same command as everywhere else, so the Vite config is named in package.json only.
  const build = spawnSync('npm', ['run', '--silent', 'build'], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, VITE_CONFIG_NATIVE_IGNORE_WARNING: 'true' },
  });
  if (build.status !== 0) throw new Error('npm run build failed');

  const manifest = readManifest(WEB_DIST);
  const modules = readChunkModules(WEB_DIST);
  // Every marketing page in the build must be measured here.
  const pages = new Set(Object.keys(manifest).filter((k) => /^src\/features\/marketing\/.*-page\.tsx$/.test(k)));
  const unlisted = [...pages].filter((k) => !Object.values(MARKETING_PAGES).includes(k));
  if (unlisted.length) failures.push(`marketing pages missing from PUBLIC_PAGE_SOURCES (contract/site.ts): ${unlisted.join(', ')}`);

  const jsRows: string[][] = [];
  const packages = new Set<string>();
  for (const [route, page] of Object.entries(MARKETING_PAGES)) {
    let js;
    try {
      js = marketingInitialJs(WEB_DIST, manifest, page, modules);
    } catch (err) {
      failures.push(`${route}: ${err instanceof Error ? err.message : String(err)}`);
      jsRows.push([route, '-', '-', '-', '-', 'NOT IN THE BUILD']);
      continue;
    }
    js.packages.forEach((p) => packages.add(p));
    const banned = [...js.forbidden, ...js.amplifyFiles.map((f) => `Amplify code in ${f}`)];
    const ok = js.gzipBytes <= JS_BUDGET_BYTES && banned.length === 0;
    if (js.gzipBytes > JS_BUDGET_BYTES) failures.push(`${route}: initial JS ${kb(js.gzipBytes)} gzip is over ${kb(JS_BUDGET_BYTES)}`);
    for (const b of banned) failures.push(`${route}: ${b}`);
    jsRows.push([route, String(js.files.length), kb(js.rawBytes), kb(js.gzipBytes), banned.length ? 'YES' : 'none', ok ? 'ok' : 'OVER BUDGET']);
  }
  console.log(`\nInitial JavaScript per route (budget ${kb(JS_BUDGET_BYTES)} gzip; none of ${FORBIDDEN_PACKAGES.join(', ')})\n`);
  console.log(table(['route', 'chunks', 'raw', 'gzip', 'forbidden', 'result'], jsRows, 'left'));
  console.log(`\nPackages in that JavaScript: ${[...packages].join(', ')}`);

  if (JS_ONLY) return finish(failures);

  console.log(`\nStarting the embedded stack with the build on port ${PORT}...`);
  const stack = await startStackProcess({ web: 'dist', extraEnv: { PORT } });
  const lhRows: string[][] = [];
  try {
    // A first load warms the stack (config.json, static files) so the first run is not the odd one out.
    await fetch(`${stack.url}/`);
    for (const route of LIGHTHOUSE_ROUTES) {
      const runs: LighthouseFigures[] = [];
      for (let i = 0; i < RUNS; i++) {
        process.stdout.write(`Lighthouse ${route} run ${i + 1}/${RUNS}...\n`);
        runs.push(await lighthouseRun(`${stack.url}${route}`));
      }
      // The run with the median performance score, so the reported figures belong together.
      const perf = median(runs.map((r) => r.performance));
      const chosen = runs.find((r) => r.performance === perf)!;
      const a11y = median(runs.map((r) => r.accessibility));
      if (perf < SCORE_BUDGET) failures.push(`${route}: Lighthouse performance ${perf.toFixed(2)} < ${SCORE_BUDGET}`);
      if (a11y < SCORE_BUDGET) failures.push(`${route}: Lighthouse accessibility ${a11y.toFixed(2)} < ${SCORE_BUDGET} (failed: ${chosen.failedA11y.join(', ')})`);
      lhRows.push([
        route,
        runs.map((r) => r.performance.toFixed(2)).join(' '),
        perf.toFixed(2),
        a11y.toFixed(2),
        `${Math.round(chosen.fcpMs)} ms`,
        `${Math.round(chosen.lcpMs)} ms`,
        `${Math.round(chosen.tbtMs)} ms`,
        chosen.cls.toFixed(3),
        perf >= SCORE_BUDGET && a11y >= SCORE_BUDGET ? 'ok' : 'UNDER BUDGET',
      ]);
    }
  } finally {
    await stopStackProcess(stack.child.pid!, stack.dataDir);
  }
  console.log(`\nLighthouse, mobile preset, median of ${RUNS} (budget: performance and accessibility >= ${SCORE_BUDGET})\n`);
  console.log(table(['route', 'perf runs', 'perf', 'a11y', 'FCP', 'LCP', 'TBT', 'CLS', 'result'], lhRows, 'left'));

  finish(failures);
}

function finish(failures: string[]): void {
  if (failures.length) {
    console.log(`\nBudget broken:\n${failures.map((f) => `  - ${f}`).join('\n')}`);
    process.exit(1);
  }
  console.log('\nAll budgets met.');
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
