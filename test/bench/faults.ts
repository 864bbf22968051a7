/**
 * `npm run bench:faults` (not a timed test): every fault scenario of the jobs issue, several times, on a fresh
 * API-only stack where nobody polls check-status: jobs end only through webhooks, the stream's copy and the
 * reconciler (on its timer, every RECONCILE_INTERVAL_MS). Prints per scenario: runs, jobs settled, credits lost
 * (must be 0: a charge neither delivered nor refunded, or a refund too many) and time to settle (p50, p95, from
 * the request to the job's terminal write). Then the webhook's answer time (p50, p99) when each delivery's output
 * is a real 10 MB MP4, and that every one of those videos was then saved (probed, with its poster).
 */
import { LOCAL_SECRETS } from '../../local/shared/local-secrets';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { IMAGE_MODEL, WAN_T2V } from '../../contract/catalog';
import { dynamo } from '../../lambdas/adapters/aws-clients';
import { dynamoJobStore } from '../../lambdas/adapters/dynamodb-jobs';
import { BITEXACT_H264, runFfmpeg } from '../../lambdas/adapters/ffmpeg';
import { localFfmpegPath } from '../../local/shared/ffmpeg-path';
import { newId } from '../../lambdas/domain/ids';
import type { Job } from '../../lambdas/ports/jobs';
import { grantCredits, jobItem, postWebhook, signedWebhook, userItems } from '../support/generation';
import { exposeStackEnv, startStackProcess, stopStackProcess } from '../support/start-stack';
import { api, createUser, stackEnv, stackUrl, type TestUser } from '../support/users';
import { percentile, table } from './stats';

const RUNS = Number(process.env.BENCH_RUNS ?? 4);
const WEBHOOKS = Number(process.env.BENCH_WEBHOOKS ?? 60);
/** `webhook`: only the webhook's answer time. */
const ONLY = process.env.BENCH_ONLY;
const TERMINAL = ['succeeded', 'failed', 'canceled'];

interface Scenario {
  name: string;
  /** Starts one job; returns its id (the API's answer, or the charge's ref when the API answered an error). */
  start: (user: TestUser) => Promise<string>;
}

async function chargeOf(user: TestUser, before: Set<string>): Promise<string> {
  const rows = (await userItems(user.sub, 'LEDGER#')).filter((l) => (l.reason === 'image' || l.reason === 'video') && !before.has(String(l.ref)));
  return String(rows[0]!.ref);
}

function viaApi(path: string, body: (prompt: string) => unknown, prompt: string): Scenario['start'] {
  return async (user) => {
    const before = new Set((await userItems(user.sub, 'LEDGER#')).map((l) => String(l.ref)));
    const res = await api(user, path, { method: 'POST', body: JSON.stringify(body(prompt)) });
    const out = (await res.json()) as { predictionId?: string };
    return out.predictionId ?? chargeOf(user, before);
  };
}

const image = (prompt: string) => viaApi('/api/generate-image', (p) => ({ prompt: p }), prompt);
const video = (prompt: string, duration = 5) => viaApi('/api/generate-video', (p) => ({ model: WAN_T2V, prompt: p, duration }), prompt);

const jobs = () => dynamoJobStore(dynamo(), stackEnv().TABLE_NAME!);

/** A charged job whose function died before the create call's answer was recorded; its prediction still runs. */
async function orphan(user: TestUser): Promise<string> {
  const now = new Date();
  const job: Job = { id: newId(now), owner: user.sub, kind: 'image', model: IMAGE_MODEL.id, prompt: 'orphan', options: {}, cost: 1, status: 'pending', createdAt: now.toISOString() };
  await jobs().createCharged(job);
  const env = stackEnv();
  await fetch(`${env.REPLICATE_BASE_URL}/predictions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${LOCAL_SECRETS.replicateToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ version: IMAGE_MODEL.version, input: { prompt: 'orphan [stuck] [nowebhook]', ...IMAGE_MODEL.input }, webhook: `${stackUrl()}/api/webhooks/replicate?job=${job.id}` }),
  });
  return job.id;
}

/** A job whose prediction the provider does not know (the simulator's state lost). */
async function unknownPrediction(user: TestUser): Promise<string> {
  const now = new Date();
  const job: Job = { id: newId(now), owner: user.sub, kind: 'image', model: IMAGE_MODEL.id, prompt: 'unknown', options: {}, cost: 1, status: 'pending', createdAt: now.toISOString() };
  await jobs().createCharged(job);
  await jobs().markStarted(job.id, randomBytes(13).toString('hex'), 'processing');
  return job.id;
}

const SCENARIOS: Scenario[] = [
  { name: 'image, normal', start: image('a lighthouse') },
  { name: 'video, normal', start: video('a tide') },
  { name: 'output deleted before the webhook [lost]', start: image('a lighthouse [lost]') },
  { name: 'aborted [abort]', start: video('a tide [abort]') },
  { name: 'model failed [fail]', start: image('a lighthouse [fail]') },
  { name: 'no webhook at all [nowebhook]', start: image('a lighthouse [nowebhook]') },
  { name: 'create hangs past the timeout [hang]', start: image('a lighthouse [hang]') },
  { name: '429 at create [busy]', start: image('a lighthouse [busy]') },
  { name: '500 after accepting [down]', start: image('a lighthouse [down]') },
  { name: 'webhooks before the create returns [early]', start: image('a lighthouse [early]') },
  { name: 'duplicate deliveries [dup]', start: video('a tide [dup]') },
  { name: 'Wan 10 s, normal (two segments joined)', start: video('a tide', 10) },
  { name: 'Wan 10 s, second segment fails [fail-from-image]', start: video('a tide [fail-from-image]', 10) },
  { name: 'died before recording the id', start: orphan },
  { name: 'prediction unknown (404)', start: unknownPrediction },
];

async function waitTerminal(jobId: string, timeoutMs: number): Promise<Record<string, unknown> | undefined> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const job = await jobItem(jobId);
    if (job && TERMINAL.includes(String(job.status))) return job;
    await new Promise((r) => setTimeout(r, 100));
  }
  return undefined;
}

/** Credits lost on one job: charged minus refunded minus delivered (0 when exact; a double refund counts too). */
async function lostOn(user: TestUser, jobId: string, job: Record<string, unknown> | undefined): Promise<number> {
  const rows = (await userItems(user.sub, 'LEDGER#')).filter((l) => l.ref === jobId);
  const charged = -rows.filter((l) => l.delta < 0).reduce((s, l) => s + Number(l.delta), 0);
  const refunded = rows.filter((l) => l.reason === 'refund').reduce((s, l) => s + Number(l.delta), 0);
  const media = (await userItems(user.sub, 'MEDIA#')).filter((m) => m.jobId === jobId).length;
  const delivered = job?.status === 'succeeded' && media === 1 ? charged : 0;
  return Math.abs(charged - refunded - delivered) + (media > 1 ? charged : 0);
}

interface WebhookRun {
  p50: number;
  p99: number;
  saved: number;
}

/**
 * Each delivery reports a 10 MB video. `paced`: the next delivery waits until the previous video is saved (the
 * answer time alone); otherwise back to back, so the answers share this one process with up to 30 copies at once.
 */
async function webhookLatency(user: TestUser, url: string, paced: boolean): Promise<WebhookRun> {
  const samples: number[] = [];
  const ids: string[] = [];
  // One unmeasured delivery first: the handler's cold start (module load, secret read) is not the steady answer.
  for (let i = -1; i < WEBHOOKS; i++) {
    const now = new Date();
    const providerId = randomBytes(13).toString('hex');
    // No provider id recorded: the webhook names the job, and the prediction takes it (the reconciler leaves
    // such a job alone for JOB_UNCONFIRMED_AFTER_MS).
    const job: Job = { id: newId(now), owner: user.sub, kind: 'video', model: WAN_T2V, prompt: 'big', options: {}, cost: 1, status: 'pending', createdAt: now.toISOString() };
    await jobs().createCharged(job);
    const body = JSON.stringify({ id: providerId, status: 'succeeded', output: url, error: null });
    const t0 = performance.now();
    const res = await postWebhook(job.id, body, signedWebhook(body));
    if (i >= 0) samples.push(performance.now() - t0);
    if (res.status !== 200) throw new Error(`webhook ${res.status}`);
    ids.push(job.id);
    if (paced) await waitTerminal(job.id, 60_000);
  }
  let saved = 0;
  for (const id of ids.slice(1)) if ((await waitTerminal(id, 180_000))?.status === 'succeeded') saved++;
  const sorted = samples.sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p99: percentile(sorted, 99), saved };
}

/** A real H.264 MP4 of about 10 MB (the save probes it and makes its poster: random bytes would fail as unreadable). */
async function bigVideo(): Promise<Buffer> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'fw-bench-video-'));
  try {
    const out = path.join(dir, 'big.mp4');
    const args = ['-loglevel', 'error', '-f', 'lavfi', '-i', 'testsrc2=size=1280x720:rate=24', '-t', '10', '-b:v', '8M', '-maxrate', '8M', '-bufsize', '4M', '-preset', 'ultrafast'];
    await runFfmpeg(localFfmpegPath(), [...args, ...BITEXACT_H264, out], { timeoutMs: 120_000 });
    return await readFile(out);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function bigVideoServer(): Promise<{ url: string; close: () => void }> {
  const big = await bigVideo();
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': big.length });
    res.end(big);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/big.mp4`, close: () => server.close() };
}

async function main(): Promise<void> {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
  const stack = await startStackProcess({
    web: 'none',
    extraEnv: {
      SIM_IMAGE_MS: '1500',
      SIM_VIDEO_MS: '2000',
      REPLICATE_TIMEOUT_MS: '3000',
      RECONCILE_INTERVAL_MS: '2000',
      JOB_UNCONFIRMED_AFTER_MS: '5000',
      JOB_SAVE_RETRY_AFTER_MS: '20000',
      // A start the provider refuses with 429 ([busy]) or leaves unanswered ([hang]) waits in our queue this long.
      JOB_QUEUE_MAX_WAIT_MS: '5000',
    },
  });
  exposeStackEnv(stack);
  try {
    const rows: (string | number)[][] = [];
    let totalLost = 0;
    for (const s of ONLY === 'webhook' ? [] : SCENARIOS) {
      const user = await createUser();
      await api(user, '/api/me');
        await grantCredits(user, 100);
      const times: number[] = [];
      let settledJobs = 0;
      let lost = 0;
      await Promise.all(
        Array.from({ length: RUNS }, async () => {
          const t0 = performance.now();
          const id = await s.start(user);
          const job = await waitTerminal(id, 60_000);
          if (job) {
            settledJobs++;
            times.push(performance.now() - t0);
          }
          lost += await lostOn(user, id, job);
        }),
      );
      totalLost += lost;
      const sorted = times.sort((a, b) => a - b);
      const fmt = (p: number) => (sorted.length ? `${(percentile(sorted, p) / 1000).toFixed(1)} s` : '-');
      rows.push([s.name, RUNS, settledJobs, lost, fmt(50), fmt(95)]);
      console.log(`${s.name}: ${settledJobs}/${RUNS} settled, ${lost} credits lost`);
    }
    if (rows.length) console.log(`\n${table(['scenario', 'runs', 'settled', 'credits lost', 'settle p50', 'settle p95'], rows)}\n`);
    const user = await createUser();
    await api(user, '/api/me');
    await grantCredits(user, 2 * WEBHOOKS + 20);
    const big = await bigVideoServer();
    try {
      for (const paced of [true, false]) {
        const w = await webhookLatency(user, big.url, paced);
        const how = paced ? 'one at a time' : 'back to back';
        console.log(`webhook answer, 10 MB video output, ${WEBHOOKS} deliveries ${how}: p50 ${w.p50.toFixed(0)} ms, p99 ${w.p99.toFixed(0)} ms; ${w.saved}/${WEBHOOKS} videos saved`);
      }
    } finally {
      big.close();
    }
    if (totalLost !== 0) process.exitCode = 1;
  } finally {
    await stopStackProcess(stack.child.pid!, stack.dataDir);
  }
}

void main();
