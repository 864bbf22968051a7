import type { Grant } from './routes';

/**
 * Functions that no HTTP route calls: fed by the table's stream, or run on a schedule. Like routes, each names
 * its handler file (lambdas/handlers/<handler>.ts) and exactly what it may touch; CDK builds the function and its
 * trigger (lib/constructs/background.ts), and `npm start` runs the same handler the same way (local/background.ts).
 */
export type BackgroundTrigger =
  /** Every change of the table, in Lambda's DynamoDBStreamEvent shape, batch by batch, in order per key. */
  | { kind: 'table-stream'; batchSize?: number; maxRetries?: number }
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
    trigger: { kind: 'table-stream', batchSize: 10, maxRetries: 10 },
    // The house caps every function at 29 s (lib/constructs/lambda-function.ts); a 200 MB copy in-region takes a few,
    // joining two 5 s 480p segments a few more (ffmpeg gets more CPU with more memory).
    timeoutSeconds: 29,
    memoryMb: 2048,
    ffmpeg: { ephemeralStorageMb: 2048 },
    // media:read for the segments to join; the secret to start a clip's next segment.
    grants: ['table:read', 'table:write', 'media:read', 'media:write', 'media:delete', 'secret:replicate'],
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
    // Open jobs are found on the sparse index gsi1, never by a scan.
    grants: ['table:read', 'table:write', 'table:index:gsi1', 'media:read', 'media:write', 'media:delete', 'secret:replicate'],
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
    id: 'liveFanout',
    handler: 'live-fanout',
    description: "Sends each change of a user's balance, jobs and media to that user's open WebSockets",
    trigger: { kind: 'table-stream', batchSize: 100, maxRetries: 3 },
    // Presigns result URLs (no S3 call), lists and forgets connections, posts to them.
    grants: ['table:read', 'table:write', 'media:read', 'live:send'],
  },
];
