/**
 * `npm run bench`: the benchmarks the issues ask for, one section each, in one run. Sections that need the
 * embedded stack ask for it (API only, a fresh temp data folder, fast simulator timings); it starts once.
 * Add a section by appending it to SECTIONS. Not part of `npm test`.
 */
import os from 'node:os';
import { exposeStackEnv, startStackProcess, stopStackProcess, type RunningStack } from '../support/start-stack';
import { apiLatency } from './api-latency';
import { reportBundleSizes } from './bundle-sizes';

export interface BenchContext {
  /** The embedded stack, started on first use; its env is also in process.env for the SDK clients. */
  stack(): Promise<RunningStack>;
  /** Progress lines (stderr). */
  log(line: string): void;
  /** Result lines (stdout). */
  print(text: string): void;
}

export interface BenchSection {
  title: string;
  /** Prints its results and returns them as data for the JSON summary. */
  run(ctx: BenchContext): Promise<Record<string, unknown>>;
}

/** Each Lambda bundle's minified size, built as CDK builds it; none may reach MAX_BUNDLE_BYTES. */
const lambdaBundles: BenchSection = {
  title: 'Lambda bundles',
  run: (ctx) => reportBundleSizes(ctx.print),
};

const SECTIONS: BenchSection[] = [lambdaBundles, apiLatency];

async function main(): Promise<void> {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
  let running: Promise<RunningStack> | undefined;
  const stop = async () => {
    const s = await running?.catch(() => undefined);
    if (s?.child.pid) await stopStackProcess(s.child.pid, s.dataDir);
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => void stop().finally(() => process.exit(130)));
  }
  const ctx: BenchContext = {
    stack: () =>
      (running ??= startStackProcess({ web: 'none', extraEnv: { SIM_IMAGE_MS: '1000', SIM_VIDEO_MS: '2000' } }).then((s) => {
        exposeStackEnv(s);
        return s;
      })),
    log: (line) => process.stderr.write(`  ${line}\n`),
    print: (text) => process.stdout.write(`${text}\n`),
  };

  const results: Record<string, unknown> = {};
  const started = Date.now();
  console.log(`Framewright benchmarks — Node ${process.version}, ${os.cpus().length} CPUs, load ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  try {
    for (const section of SECTIONS) {
      console.log(`\n## ${section.title}\n`);
      results[section.title] = await section.run(ctx);
    }
  } finally {
    await stop();
  }
  console.log(`\nDone in ${((Date.now() - started) / 1000).toFixed(0)} s; load ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}.`);
  console.log(`BENCH_JSON ${JSON.stringify(results)}`);
}

main().catch((err) => {
  console.error(err instanceof Error ? err.stack : err);
  process.exit(1);
});
