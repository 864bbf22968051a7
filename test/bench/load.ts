/**
 * `npm run bench:load` (not a timed test): BENCH_USERS simulated users (default 50) on a fresh embedded stack for
 * BENCH_SECONDS (default 60). Each signs up, then in a loop generates images and videos (cancelling some), polls each
 * job until it ends, lists its media, reads its balance, and now and then buys a credit pack at the PayPal simulator.
 * The gateway throttles each route as the API stage does (contract/throttles.ts) and each function's concurrency as
 * Lambda does (local/gateway/concurrency.ts); the edge's per-IP rules are off,
 * since every simulated user comes from this one machine. Prints throughput, p50/p99 and errors per route (429s
 * apart, and the 500s of a throttled function apart: the gateway's `{"message":"Internal Server Error"}`, refused
 * before anything ran), then, once every job has ended, the money invariants of a full table scan; exits 1 on any
 * other 5xx or a broken invariant.
 */
import { WAN_T2V } from '../../contract/catalog';
import { ALL_ROUTES } from '../../contract/routes';
import { grantCredits } from '../support/generation';
import { checkInvariants } from '../support/invariants';
import { drainStreams, runReconciler } from '../support/jobs';
import { decideAtPaypal, PACK_72, visit } from '../support/payments';
import { exposeStackEnv, startStackProcess, stopStackProcess } from '../support/start-stack';
import { api, createUser, type TestUser } from '../support/users';
import { percentile, table } from './stats';

const USERS = Number(process.env.BENCH_USERS ?? 50);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 60);
const TERMINAL = ['succeeded', 'failed', 'canceled'];

interface RouteStats {
  ms: number[];
  byStatus: Map<number, number>;
  /** 500s with API Gateway's own body: a function at its concurrency, refused before it ran. */
  refused: number;
}
const stats = new Map<string, RouteStats>();
let networkErrors = 0;
/** The first answer of each 5xx status per route, to say what failed. */
const serverErrors = new Map<string, string>();

/** One call, timed and counted under its route's name; answers the status and the JSON body (if any). */
async function call(route: string, user: TestUser | undefined, path: string, init: RequestInit = {}): Promise<{ status: number; body: Record<string, unknown> }> {
  const t0 = performance.now();
  let status = 0;
  let body: Record<string, unknown> = {};
  try {
    const res = await api(user, path, init);
    status = res.status;
    body = ((await res.json().catch(() => ({}))) ?? {}) as Record<string, unknown>;
  } catch {
    networkErrors++;
  }
  // API Gateway's bare 500 is a throttled function when it comes back at once, a function Lambda ended at its timeout
  // when it comes back then (local/gateway): the first ran nothing, the second is an error like any other 5xx.
  const ms = performance.now() - t0;
  const gatewayBody = status === 500 && body.message === 'Internal Server Error' && Object.keys(body).length === 1;
  const refused = gatewayBody && ms < timeoutMsOf(route);
  if (status >= 500 && !refused && !serverErrors.has(`${route} ${status}`)) serverErrors.set(`${route} ${status}`, JSON.stringify(body).slice(0, 200));
  const s: RouteStats = stats.get(route) ?? { ms: [], byStatus: new Map(), refused: 0 };
  if (refused) s.refused++;
  s.ms.push(ms);
  s.byStatus.set(status, (s.byStatus.get(status) ?? 0) + 1);
  stats.set(route, s);
  return { status, body };
}

/** A route's own timeout (ms), from its name `METHOD /path/{param}` (CDK's 10 s when it has none). */
function timeoutMsOf(route: string): number {
  const shape = (name: string) => name.replace(/\{[^}]*\}/g, '{}');
  const def = ALL_ROUTES.find((r) => shape(`${r.method} ${r.path}`) === shape(route));
  return (def?.timeoutSeconds ?? 10) * 1000;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const chance = (p: number) => Math.random() < p;

/** Polls a job as the web app does (every second) until it ends, or for at most 90 s; cancels it first, sometimes. */
async function follow(user: TestUser, jobId: string, cancel: boolean, until: number): Promise<void> {
  if (cancel) {
    await sleep(300);
    await call('POST /api/jobs/{id}/cancel', user, `/api/jobs/${jobId}/cancel`, { method: 'POST', body: JSON.stringify({ acceptCharge: true }) });
  }
  const stop = Math.max(until, Date.now()) + 30_000;
  while (Date.now() < stop) {
    const { status, body } = await call('GET /api/check-status/{id}', user, `/api/check-status/${jobId}`);
    if (status === 200 && TERMINAL.includes(String(body.status))) return;
    await sleep(status === 429 ? 2_000 : 1_000);
  }
}

async function buy(user: TestUser): Promise<void> {
  const { status, body } = await call('POST /api/create-paypal-payment', user, '/api/create-paypal-payment', {
    method: 'POST',
    body: JSON.stringify({ withdrawalConsent: true, amount: PACK_72.amount, credits: PACK_72.credits }),
  });
  if (status !== 200) return;
  const back = await decideAtPaypal(String(body.paymentUrl), 'approve');
  const t0 = performance.now();
  const r = await visit(back);
  const s: RouteStats = stats.get('GET /api/paypal/return') ?? { ms: [], byStatus: new Map(), refused: 0 };
  s.ms.push(performance.now() - t0);
  s.byStatus.set(r.status, (s.byStatus.get(r.status) ?? 0) + 1);
  stats.set('GET /api/paypal/return', s);
}

async function userLoop(user: TestUser, until: number): Promise<void> {
  while (Date.now() < until) {
    const roll = Math.random();
    if (roll < 0.55) {
      const { status, body } = await call('POST /api/generate-image', user, '/api/generate-image', { method: 'POST', body: JSON.stringify({ prompt: `a lighthouse at dusk ${Math.random()}` }) });
      if (status === 200) await follow(user, String(body.predictionId), chance(0.15), until);
    } else if (roll < 0.7) {
      const { status, body } = await call('POST /api/generate-video', user, '/api/generate-video', {
        method: 'POST',
        body: JSON.stringify({ model: WAN_T2V, prompt: `waves on rocks ${Math.random()}`, duration: 5 }),
      });
      if (status === 200) await follow(user, String(body.predictionId), chance(0.3), until);
    } else if (roll < 0.85) {
      await call('GET /api/media', user, '/api/media');
    } else if (roll < 0.97) {
      await call('GET /api/me', user, '/api/me');
    } else {
      await buy(user).catch(() => undefined);
    }
    await sleep(500 + Math.random() * 1_000);
  }
}

/** Signs up `n` users, a few at a time (each: sign-up, the code from the mailbox, sign-in, the account). */
async function signUpAll(n: number): Promise<TestUser[]> {
  const users: TestUser[] = [];
  for (let i = 0; i < n; i += 20) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(20, n - i) }, async () => {
        const user = await createUser();
        await call('GET /api/me', user, '/api/me');
        await grantCredits(user, 200);
        return user;
      }),
    );
    users.push(...batch);
  }
  return users;
}

interface StackSample {
  loopDelayMs: { p50: number; p99: number; max: number };
  running: number;
}

/** The stack process's event-loop delay and running invocations (GET /_dev/stats), every 5 s until `until`. */
async function sampleStack(url: string, until: number): Promise<StackSample[]> {
  const samples: StackSample[] = [];
  await fetch(`${url}/_dev/stats`).catch(() => undefined);
  while (Date.now() < until) {
    await sleep(5_000);
    const s = (await fetch(`${url}/_dev/stats`)
      .then((r) => r.json())
      .catch(() => undefined)) as StackSample | undefined;
    if (s) samples.push(s);
  }
  return samples;
}

async function main(): Promise<void> {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
  const stack = await startStackProcess({
    web: 'none',
    readyWithinMs: 240_000,
    extraEnv: { FW_EDGE_RATE_LIMITS: 'off', SIM_IMAGE_MS: '1500', SIM_VIDEO_MS: '3000', RECONCILE_INTERVAL_MS: '5000' },
  });
  exposeStackEnv(stack);
  try {
    const t0 = Date.now();
    const users = await signUpAll(USERS);
    console.log(`${USERS} users signed up in ${((Date.now() - t0) / 1000).toFixed(0)} s; running ${SECONDS} s`);
    stats.clear();
    const start = Date.now();
    const until = start + SECONDS * 1000;
    const sampling = sampleStack(stack.url, until);
    await Promise.all(users.map((u, i) => sleep((i * 1000) / USERS).then(() => userLoop(u, until))));
    const wall = (Date.now() - start) / 1000;
    const samples = await sampling;

    // Every job ends: the stream and the reconciler settle what is still open, then the whole table is checked.
    let report = await checkInvariants();
    for (let i = 0; i < 30 && report.openJobs > 0; i++) {
      // On a loaded machine the stream may need longer than one drain's 30 s to catch up: the next round waits again.
      await drainStreams().catch((err: Error) => console.log(`settling: ${err.message}`));
      await runReconciler().catch((err: Error) => console.log(`settling: ${err.message}`));
      await sleep(2_000);
      report = await checkInvariants();
    }

    const rows: (string | number)[][] = [];
    let total = 0;
    let fivexx = 0;
    let refusedAll = 0;
    for (const [route, s] of [...stats].sort()) {
      const sorted = [...s.ms].sort((a, b) => a - b);
      const count = (f: (st: number) => boolean) => [...s.byStatus].filter(([st]) => f(st)).reduce((a, [, n]) => a + n, 0);
      const errors5 = count((st) => st >= 500) - s.refused;
      total += sorted.length;
      fivexx += errors5;
      refusedAll += s.refused;
      rows.push([route, sorted.length, percentile(sorted, 50).toFixed(0), percentile(sorted, 99).toFixed(0), count((st) => st === 429), s.refused, count((st) => st >= 400 && st < 500 && st !== 429), errors5]);
    }
    console.log(`\n${table(['route', 'requests', 'p50 ms', 'p99 ms', '429', '500 throttled', 'other 4xx', 'other 5xx'], rows)}\n`);
    for (const [what, body] of serverErrors) console.log(`5xx: ${what}: ${body}`);
    console.log(`${USERS} users, ${wall.toFixed(0)} s: ${total} requests, ${(total / wall).toFixed(1)} requests/s, ${refusedAll} throttled (500 before running), ${fivexx} other 5xx, ${networkErrors} network errors`);
    const worst = (f: (s: StackSample) => number) => Math.max(0, ...samples.map(f));
    console.log(
      `the stack's process, every 5 s: event-loop delay p99 up to ${worst((x) => x.loopDelayMs.p99)} ms (max ${worst((x) => x.loopDelayMs.max)} ms), up to ${worst((x) => x.running)} invocations running at once`,
    );
    console.log(
      `invariants (full scan): ${report.accounts} accounts, ${report.ledgerRows} ledger rows, ${report.jobs} jobs, ${report.openJobs} still open; ${report.problems.length ? `PROBLEMS:\n  ${report.problems.join('\n  ')}` : 'no problem'}`,
    );
    if (fivexx > 0 || report.problems.length || report.openJobs > 0) process.exitCode = 1;
  } finally {
    await stopStackProcess(stack.child.pid!, stack.dataDir);
  }
}

void main();
