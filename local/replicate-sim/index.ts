/**
 * A Replicate-compatible HTTP simulator, used by `npm start` and the tests instead of api.replicate.com.
 *
 * - node:http only. With `dataDir`, predictions and outputs are kept on disk (persist.ts): a restart forgets
 *   nothing, and unfinished predictions carry on from where they were (Replicate does not forget them either);
 *   the embedded stack gives it last run's port (keptPorts), so output and API URLs stay valid. Without it, state lives in memory.
 * - API (Replicate's shapes; `/v1` prefix optional, so both `baseUrl: url + '/v1'` and `baseUrl: url` work):
 *     POST /v1/predictions                          {version, input, webhook?, webhook_events_filter?}  (SDXL)
 *     POST /v1/models/{owner}/{name}/predictions     {input, webhook?, webhook_events_filter?}  (Wan i2v/t2v, Pixverse)
 *     GET  /v1/predictions, GET /v1/predictions/{id}, POST /v1/predictions/{id}/cancel
 *     GET|HEAD /files/{predictionId}/{name}          the outputs (no auth, like replicate.delivery; 404 after the TTL)
 *   Every /v1 call needs `Authorization: Bearer <apiToken>` (or `Token <apiToken>`).
 * - `Prefer: wait[=n]` is honoured: the create call holds the response until the prediction is terminal or n seconds
 *   (default and max 60) have passed, then answers 201 with the prediction as it is.
 * - Lifecycle: starting -> processing at 10% of the run time -> succeeded/failed at 100% (imageMs for SDXL, videoMs
 *   for video; [slow] triples it), but never before the output file is really generated. Media is generated off the
 *   request path as soon as the prediction is created (images two at a time, videos one at a time).
 * - Webhooks (Standard Webhooks signing, as Replicate): 'start' on creation, 'logs' at processing and mid-run,
 *   'output'/'completed' at the end, filtered by webhook_events_filter (default all four). Deliveries of one
 *   prediction go out in order; a failed delivery is retried twice (after 1 s and 5 s) in the background.
 * - Outputs of API predictions disappear after outputTtlMs (Replicate: about an hour); the prediction then reports
 *   `data_removed: true` and its output URLs answer 404.
 * - Prompt markers (see SIM_MARKERS) inject failures: [fail], [nsfw], [reject] (422), [slow], [nowebhook], [hang]
 *   (the create call answers after hangMs), [busy] (429 + Retry-After), [down] (created, then 500), [lost] (output
 *   deleted before the webhook), [early] (webhooks before the create call answers), [dup] (each delivery sent
 *   dupCopies times at once), [abort] (ends `aborted`), [stuck] (never finishes), [queued] (stays
 *   `starting` until canceled); broken outputs of a succeeded prediction: [truncated] (cut in half), [garbage]
 *   (random bytes), [html] (an HTML error page), [stall] (headers and 1 KB, then nothing).
 *
 * Files: types.ts (markers, shapes), validation.ts (requests), state.ts (predictions and their lifecycle),
 * generate.ts + media.ts (the outputs), damage.ts (broken outputs), webhooks.ts + signing.ts (deliveries), api.ts
 * (the endpoints), routes.ts (the route table), persist.ts (predictions on disk), models.ts (schemas); local/shared/http.ts,
 * persist.ts and route-table.ts as the PayPal simulator uses them.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { localFfmpegPath } from '../shared/ffmpeg-path';
import { createApi } from './api';
import { generate } from './generate';
import { createRouter } from './routes';
import { webhookSecretKey } from './signing';
import { persistence } from './persist';
import { createState } from './state';
import type { ReplicateSim, ReplicateSimOptions, SimCall } from './types';
import { createWebhooks } from './webhooks';

export { signWebhook } from './signing';
export {
  FAIL_ERROR,
  NSFW_ERROR,
  type ReplicateSim,
  type ReplicateSimOptions,
  type SimPrediction,
} from './types';

/** How many API calls `calls()` remembers. */
const MAX_CALLS_KEPT = 10_000;

export async function startReplicateSimulator(opts: ReplicateSimOptions): Promise<ReplicateSim> {
  if (!opts.apiToken) throw new Error('startReplicateSimulator: apiToken is required');
  webhookSecretKey(opts.webhookSecret); // throws on a malformed secret
  const fetchImpl = opts.fetchImpl ?? globalThis.fetch;
  const ffmpeg = opts.ffmpegPath ?? localFfmpegPath();
  const timings = {
    imageMs: opts.imageMs ?? 4_000,
    videoMs: opts.videoMs ?? 30_000,
    outputTtlMs: opts.outputTtlMs ?? 3_600_000,
    hangMs: opts.hangMs ?? 60_000,
    jitterMs: opts.jitterMs ?? 0,
  };
  const closing = new AbortController();
  let baseUrl = '';
  let filesBase = '';
  const state = createState({
    timings,
    apiBase: () => baseUrl,
    generate: (rec) => generate(rec, { fetchImpl, filesBase, ffmpeg }),
    notify: createWebhooks({ secret: opts.webhookSecret, fetchImpl, closing: closing.signal, dupCopies: opts.dupCopies ?? 5 }),
    ...(opts.dataDir ? { persist: persistence(opts.dataDir, opts.log ?? (() => {})) } : {}),
  });

  const calls: SimCall[] = [];
  const server = http.createServer(
    createRouter(createApi(state, opts.webhookSecret), opts.apiToken, opts.rateLimits, (call) => {
      calls.push(call);
      if (calls.length > MAX_CALLS_KEPT) calls.shift();
    }),
  );
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const addr = server.address() as AddressInfo;
  const host = opts.host && !['0.0.0.0', '::'].includes(opts.host) ? opts.host : '127.0.0.1';
  baseUrl = `http://${host.includes(':') ? `[${host}]` : host}:${addr.port}`;
  filesBase = (opts.publicBaseUrl ?? baseUrl).replace(/\/+$/, '');
  state.resume();

  return {
    url: baseUrl,
    async close() {
      closing.abort();
      await state.shutdown();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
    predictions() {
      return state.all().map((r) => structuredClone(r.p));
    },
    calls: () => calls.map((c) => ({ ...c })),
    setTimings(t) {
      if (t.imageMs !== undefined) timings.imageMs = t.imageMs;
      if (t.videoMs !== undefined) timings.videoMs = t.videoMs;
      if (t.outputTtlMs !== undefined) timings.outputTtlMs = t.outputTtlMs;
      if (t.hangMs !== undefined) timings.hangMs = t.hangMs;
      if (t.jitterMs !== undefined) timings.jitterMs = t.jitterMs;
    },
  };
}
