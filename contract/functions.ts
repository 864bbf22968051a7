import type { Grant } from './routes';
import { LIVE_CHANGES, OUTPUT_RECORDED, type FilterPattern } from './stream-filters';

/**
 * Functions that no HTTP route calls: fed by the table's stream, or run on a schedule. Like routes, each names
 * its handler file (lambdas/handlers/<handler>.ts) and exactly what it may touch; CDK builds the function and its
 * trigger (lib/constructs/background.ts), and `npm start` runs the same handler the same way (local/background.ts).
 */
export type BackgroundTrigger =
  /** Every change of the table, in Lambda's DynamoDBStreamEvent shape, batch by batch, in order per key. */
  | {
      kind: 'table-stream';
      batchSize?: number;
      maxRetries?: number;
      /** Lambda event filtering (contract/stream-filters.ts): only these changes invoke the function. */
      filters?: readonly FilterPattern[];
      /**
       * Batches processed at once per shard (the mapping's ParallelizationFactor, 1-10). Lambda keeps the records of
       * one partition key in order whatever the factor, so a function whose order matters per item only can raise it.
       */
      parallelization?: number;
      /** Records older than this go to the dead letters instead of the function (MaximumRecordAgeInSeconds). */
      maxRecordAgeSeconds?: number;
    }
  /** An EventBridge schedule in the cloud; locally a timer of `localIntervalEnv` ms (default everyMinutes). */
  | { kind: 'schedule'; everyMinutes: number; localIntervalEnv?: string };

export interface BackgroundFunctionDef {
  /** Stable id, used for function names and CDK ids. */
  id: string;
  /** File under lambdas/handlers/ (without .ts) exporting `handler`. */
  handler: string;
  description: string;
  trigger: BackgroundTrigger;
  timeoutSeconds?: number;
  memoryMb?: number;
  /** Runs ffmpeg (FFMPEG_PATH): in the cloud it gets the ffmpeg layer, runs on x86_64 (the binary's) and this much /tmp. */
  ffmpeg?: { ephemeralStorageMb: number };
  grants: readonly Grant[];
}

export const BACKGROUND_FUNCTIONS: readonly BackgroundFunctionDef[] = [
  {
    id: 'saveJobOutput',
    handler: 'save-job-output',
    description: "Copies a finished job's output from the provider to S3, probes it and makes its poster, or starts a clip's next segment and joins them",
    // A job's output is recorded by the webhook (or a poll); the copy runs here, outside the webhook's request.
    // Only the change that records an output (one of the ~14 writes a job makes), ten batches per shard at once (order
    // matters per job only); a record an hour old is left to the reconciler, which saves overdue outputs itself.
    trigger: { kind: 'table-stream', batchSize: 10, maxRetries: 10, filters: [OUTPUT_RECORDED], parallelization: 10, maxRecordAgeSeconds: 3600 },
    // The house caps every function at 29 s (lib/constructs/lambda-function.ts); a 200 MB copy in-region takes a few,
    // joining two 5 s 480p segments a few more (ffmpeg gets more CPU with more memory).
    timeoutSeconds: 29,
    memoryMb: 2048,
    ffmpeg: { ephemeralStorageMb: 2048 },
    // media:read for the segments to join; the secret to start a clip's next segment; the signer of every file kept.
    grants: ['table:read', 'table:write', 'media:read', 'media:write', 'media:delete', 'secret:replicate', 'secret:content-credentials'],
  },
  {
    id: 'reconcileJobs',
    handler: 'reconcile-jobs',
    description: 'Settles every open job from the provider: saves, refunds, stops overdue predictions',
    trigger: { kind: 'schedule', everyMinutes: 1, localIntervalEnv: 'RECONCILE_INTERVAL_MS' },
    timeoutSeconds: 29,
    // An overdue save runs here as in saveJobOutput (the same ffmpeg work).
    memoryMb: 2048,
    ffmpeg: { ephemeralStorageMb: 2048 },
    // Open jobs are found on the sparse open-jobs index (and gsi1 for those written before it), never by a scan.
    grants: ['table:read', 'table:write', 'table:index:gsi1', 'table:index:open-jobs', 'media:read', 'media:write', 'media:delete', 'secret:replicate', 'secret:content-credentials'],
  },
  {
    id: 'reconcileOrders',
    handler: 'reconcile-orders',
    description: 'Captures every approved PayPal order not captured yet and reads held captures, so no order waits on a webhook',
    trigger: { kind: 'schedule', everyMinutes: 1, localIntervalEnv: 'RECONCILE_INTERVAL_MS' },
    timeoutSeconds: 29,
    // Open orders are found on the sparse index gsi1, never by a scan; the winner of a capture mails the receipt.
    grants: ['table:read', 'table:write', 'table:index:gsi1', 'secret:paypal', 'ses:send'],
  },
  {
    id: 'reconcileSubscriptions',
    handler: 'reconcile-subscriptions',
    description: "Reads every watched PayPal subscription and its transactions: grants each paid month not granted yet, takes back refunded ones",
    // Every 10 minutes: two PayPal calls per plan per run (the subscription, its transactions), and a sale still not
    // granted an hour after PayPal took it is alarmed (lambdas/app/reconcile-subscriptions.ts UNGRANTED_ALARM_MS).
    trigger: { kind: 'schedule', everyMinutes: 10, localIntervalEnv: 'RECONCILE_INTERVAL_MS' },
    timeoutSeconds: 29,
    // Watched plans are found on the sparse index gsi1 (PLAN_WATCH), never by a scan; a grant mails the plan's receipt.
    grants: ['table:read', 'table:write', 'table:index:gsi1', 'secret:paypal', 'ses:send'],
  },
  {
    id: 'liveFanout',
    handler: 'live-fanout',
    description: "Sends each change of a user's balance, jobs and media to that user's open WebSockets",
    // Balance, job and media changes only; messages carry whole states, so per-item order is all that matters. A push
    // older than five minutes is news no more (a tab reads everything again when it reconnects).
    trigger: { kind: 'table-stream', batchSize: 100, maxRetries: 3, filters: LIVE_CHANGES, parallelization: 5, maxRecordAgeSeconds: 300 },
    // Presigns result URLs (no S3 call), lists and forgets connections, posts to them.
    grants: ['table:read', 'table:write', 'media:read', 'live:send'],
  },
];

/**
 * The origin secret's rotation function (lambdas/handlers/rotate-origin-secret.ts): Secrets Manager calls it every
 * `rotateEveryDays`, and on `aws secretsmanager rotate-secret`, once per step (lib/constructs/origin-secret.ts; locally
 * the embedded stack's Secrets Manager does). setSecret waits for the API functions' cache of the secret to turn over.
 */
export const ORIGIN_SECRET_ROTATION = {
  id: 'rotateOriginSecret',
  handler: 'rotate-origin-secret',
  description: 'Rotates the origin header secret: a new value, sent by CloudFront once the API accepts it, then current',
  rotateEveryDays: 30,
  timeoutSeconds: 180,
  grants: ['secret:origin:rotate', 'cloudfront:origin-header'],
} as const satisfies Omit<BackgroundFunctionDef, 'trigger'> & { rotateEveryDays: number };
