/**
 * `npm run bench:web`: the public site's performance budget.
 *
 * 1. Builds the production bundle (`npm run build`).
 * 2. For each marketing route, adds up the initial JavaScript (main.ts + the light marketing entry + the
 *    route's page chunk, with their static imports: see web-bundle.ts), gzipped: at most 90 kB, with no
 *    react-router, Amplify or zod in it.
 * 3. Serves the build from the embedded stack (FW_WEB=dist) and reads each public page's HTML as a crawler does:
 *    its h1 and main text must be there before any script runs.
 * 4. Runs Lighthouse (mobile preset, simulated throttling: less sensitive to a loaded machine than devtools
 *    throttling) in Debian's Chromium on every public page, BENCH_RUNS times (default 3), and takes the median:
 *    performance 1.00, LCP <= 1.2 s, TBT <= 50 ms, CLS 0, accessibility 1.00, SEO 1.00. The load average is
 *    printed with the figures, since a shared machine moves them.
 *
 * Prints a table and exits non-zero when a budget is broken. A benchmark, not part of `npm test`.
 * `npm run bench:web -- --js-only` stops after step 2.
 * Env: BENCH_PORT (or PORT) for the stack, default 5180; BENCH_RUNS; CHROME_PATH (default /usr/bin/chromium).
 */
import { spawnSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from '../support/chromium';
import { startStackProcess, stopStackProcess } from '../support/start-stack';
import { PUBLIC_PAGE_TEXTS, staticHtmlProblems } from '../support/public-page-texts';
import { table } from './stats';
import { FORBIDDEN_PACKAGES, initialJs, MARKETING_PAGES, marketingInitialJs, readChunkModules, readManifest, WEB_DIST } from './web-bundle';

const ROOT = path.resolve(__dirname, '..', '..');
// React, react-dom and the router hydrate every public page on the visitor's first sign of intent (main.ts); the HTML
// paints and reads before any of it runs, and until then a page loads main.ts alone.
const JS_BUDGET_BYTES = 120_000;
const JS_BEFORE_INTENT_BUDGET_BYTES = 5_000;
/** Lighthouse's budgets, each a median over the runs. */
const BUDGET = { performance: 1, accessibility: 1, seo: 1, lcpMs: 1200, tbtMs: 50, cls: 0 } as const;
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
  seo: number;
  fcpMs: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  /** Accessibility and SEO audits that failed, by id. */
  failedAudits: string[];
}

async function lighthouseRun(url: string): Promise<LighthouseFigures> {
  const { default: lighthouse } = await import('lighthouse');
  const chromeLauncher = await import('chrome-launcher');
  const chrome = await chromeLauncher.launch({ chromePath: CHROME_PATH, chromeFlags: [...CHROMIUM_FLAGS], logLevel: 'silent' });
  try {
    // No config: Lighthouse's default is the mobile preset (Moto G Power emulation, simulated slow 4G).
    const result = await lighthouse(url, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance', 'accessibility', 'seo'] });
    if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
    const { lhr } = result;
    if (lhr.runtimeError) throw new Error(`Lighthouse failed on ${url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
    const num = (id: string) => Number(lhr.audits[id]?.numericValue ?? NaN);
    const scored = ['accessibility', 'seo'].flatMap((c) => lhr.categories[c]?.auditRefs.filter((r) => r.weight > 0).map((r) => r.id) ?? []);
    return {
      performance: lhr.categories.performance?.score ?? 0,
      accessibility: lhr.categories.accessibility?.score ?? 0,
      seo: lhr.categories.seo?.score ?? 0,
      fcpMs: num('first-contentful-paint'),
      lcpMs: num('largest-contentful-paint'),
      tbtMs: num('total-blocking-time'),
      cls: num('cumulative-layout-shift'),
      failedAudits: scored.filter((id) => lhr.audits[id]?.score === 0),
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
  const before = initialJs(WEB_DIST, manifest, [], modules);
  if (before.gzipBytes > JS_BEFORE_INTENT_BUDGET_BYTES) failures.push(`every page: JS before the visitor acts ${kb(before.gzipBytes)} gzip is over ${kb(JS_BEFORE_INTENT_BUDGET_BYTES)}`);
  console.log(`\nJavaScript every public page loads before the visitor acts: ${before.files.join(', ')}, ${kb(before.gzipBytes)} gzip (budget ${kb(JS_BEFORE_INTENT_BUDGET_BYTES)})`);
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
  console.log(`\nJavaScript per route on the first sign of intent, to hydrate (budget ${kb(JS_BUDGET_BYTES)} gzip; none of ${FORBIDDEN_PACKAGES.join(', ')})\n`);
  console.log(table(['route', 'chunks', 'raw', 'gzip', 'forbidden', 'result'], jsRows, 'left'));
  console.log(`\nPackages in that JavaScript: ${[...packages].join(', ')}`);

  if (JS_ONLY) return finish(failures);

  console.log(`\nStarting the embedded stack with the build on port ${PORT}...`);
  const stack = await startStackProcess({ web: 'dist', extraEnv: { PORT } });
  const lhRows: string[][] = [];
  const loads: number[] = [];
  try {
    for (const [route, want] of Object.entries(PUBLIC_PAGE_TEXTS)) {
      const html = await (await fetch(`${stack.url}${route}`)).text();
      for (const p of staticHtmlProblems(html, want)) failures.push(`${route}: static HTML: ${p}`);
    }
    console.log(`Static HTML of ${Object.keys(PUBLIC_PAGE_TEXTS).length} public pages read: h1 and main text checked.`);
    for (const route of LIGHTHOUSE_ROUTES) {
      const runs: LighthouseFigures[] = [];
      for (let i = 0; i < RUNS; i++) {
        process.stdout.write(`Lighthouse ${route} run ${i + 1}/${RUNS} (load ${os.loadavg()[0]!.toFixed(2)})...\n`);
        loads.push(os.loadavg()[0]!);
        runs.push(await lighthouseRun(`${stack.url}${route}`));
      }
      const m = {
        performance: median(runs.map((r) => r.performance)),
        accessibility: median(runs.map((r) => r.accessibility)),
        seo: median(runs.map((r) => r.seo)),
        fcpMs: median(runs.map((r) => r.fcpMs)),
        lcpMs: median(runs.map((r) => r.lcpMs)),
        tbtMs: median(runs.map((r) => r.tbtMs)),
        cls: median(runs.map((r) => r.cls)),
      };
      const audits = [...new Set(runs.flatMap((r) => r.failedAudits))];
      const broken = [
        m.performance < BUDGET.performance && `performance ${m.performance.toFixed(2)} < ${BUDGET.performance.toFixed(2)}`,
        m.lcpMs > BUDGET.lcpMs && `LCP ${Math.round(m.lcpMs)} ms > ${BUDGET.lcpMs} ms`,
        m.tbtMs > BUDGET.tbtMs && `TBT ${Math.round(m.tbtMs)} ms > ${BUDGET.tbtMs} ms`,
        m.cls > BUDGET.cls && `CLS ${m.cls.toFixed(3)} > ${BUDGET.cls}`,
        m.accessibility < BUDGET.accessibility && `accessibility ${m.accessibility.toFixed(2)} < ${BUDGET.accessibility.toFixed(2)}`,
        m.seo < BUDGET.seo && `SEO ${m.seo.toFixed(2)} < ${BUDGET.seo.toFixed(2)}`,
      ].filter((b): b is string => typeof b === 'string');
      for (const b of broken) failures.push(`${route}: ${b}${audits.length && /accessibility|SEO/.test(b) ? ` (failed audits: ${audits.join(', ')})` : ''}`);
      lhRows.push([
        route,
        runs.map((r) => r.performance.toFixed(2)).join(' '),
        m.performance.toFixed(2),
        `${Math.round(m.fcpMs)} ms`,
        `${Math.round(m.lcpMs)} ms`,
        `${Math.round(m.tbtMs)} ms`,
        m.cls.toFixed(3),
        m.accessibility.toFixed(2),
        m.seo.toFixed(2),
        broken.length ? `FAILS: ${broken.map((b) => b.split(' ')[0]).join(', ')}` : 'ok',
      ]);
    }
  } finally {
    await stopStackProcess(stack.child.pid!, stack.dataDir);
  }
  const loadRange = `${Math.min(...loads).toFixed(2)}-${Math.max(...loads).toFixed(2)}`;
  console.log(
    `\nLighthouse, mobile preset (simulated throttling), median of ${RUNS} per figure; load average ${loadRange} on ${os.cpus().length} cores\n` +
      `(budgets: performance ${BUDGET.performance.toFixed(2)}, LCP <= ${BUDGET.lcpMs} ms, TBT <= ${BUDGET.tbtMs} ms, CLS ${BUDGET.cls}, accessibility ${BUDGET.accessibility.toFixed(2)}, SEO ${BUDGET.seo.toFixed(2)})\n`,
  );
  console.log(table(['route', 'perf runs', 'perf', 'FCP', 'LCP', 'TBT', 'CLS', 'a11y', 'SEO', 'result'], lhRows, 'left'));

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
