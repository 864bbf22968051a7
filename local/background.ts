/**
 * The functions of contract/functions, run the way the cloud runs them: stream functions on DynamoDB Local's
 * stream (as an event source mapping would feed them), scheduled ones on a timer with EventBridge's event.
 * Tests and developers can wait for the stream to be handled, or run a scheduled function now, through
 * /_dev/background (see local/origin-routes.ts).
 */
import { randomUUID } from 'node:crypto';
import type { ScheduledEvent } from 'aws-lambda';
import { BACKGROUND_FUNCTIONS, type BackgroundFunctionDef } from '../contract/functions';
import { startStreamPoller, type StreamPoller } from './dynamodb/streams';
import { functionHandler } from './functions';

type Handler = (event: unknown) => Promise<unknown>;

export interface Background {
  /** Resolves once every stream function has handled every change made before the call. */
  drain(): Promise<void>;
  /** Runs a scheduled function now (as its schedule would); false when there is no such function. */
  runNow(id: string): Promise<boolean>;
  stop(): Promise<void>;
}

export interface BackgroundOptions {
  dynamoEndpoint: string;
  tableName: string;
  dataDir: string;
  region: string;
  functions?: readonly BackgroundFunctionDef[];
  log: (line: string) => void;
}

// Run as that function: its AWS calls are evaluated against its own statements (local/iam).
const loadHandler = (def: BackgroundFunctionDef): Promise<Handler> => functionHandler(def.id, def.handler);

function scheduledEvent(def: BackgroundFunctionDef, region: string): ScheduledEvent {
  return {
    version: '0',
    id: randomUUID(),
    'detail-type': 'Scheduled Event',
    source: 'aws.events',
    account: '000000000000',
    time: new Date().toISOString(),
    region,
    resources: [`arn:aws:events:${region}:000000000000:rule/${def.id}`],
    detail: {},
  };
}

export async function startBackground(o: BackgroundOptions): Promise<Background> {
  const defs = o.functions ?? BACKGROUND_FUNCTIONS;
  const streamDefs = defs.filter((d) => d.trigger.kind === 'table-stream');
  const scheduleDefs = defs.filter((d) => d.trigger.kind === 'schedule');

  let poller: StreamPoller | undefined;
  if (streamDefs.length) {
    const consumers = await Promise.all(
      streamDefs.map(async (def) => {
        const handler = await loadHandler(def);
        const t = def.trigger as Extract<BackgroundFunctionDef['trigger'], { kind: 'table-stream' }>;
        // One batch at a time per shard (ParallelizationFactor is a throughput setting; it keeps per-key order).
        return { id: def.id, handler, batchSize: t.batchSize, maxRetries: t.maxRetries, filters: t.filters, maxRecordAgeSeconds: t.maxRecordAgeSeconds };
      }),
    );
    poller = await startStreamPoller({ endpoint: o.dynamoEndpoint, tableName: o.tableName, dataDir: o.dataDir, consumers, log: o.log });
  }

  const timers: NodeJS.Timeout[] = [];
  const scheduled = new Map<string, () => Promise<void>>();
  for (const def of scheduleDefs) {
    const t = def.trigger as Extract<BackgroundFunctionDef['trigger'], { kind: 'schedule' }>;
    const handler = await loadHandler(def);
    let running: Promise<void> | undefined;
    // One run at a time, like a function whose previous invocation has not ended.
    const run = () =>
      (running ??= handler(scheduledEvent(def, o.region))
        .then(() => undefined)
        .catch((err: unknown) => o.log(`[background] ${def.id} failed: ${(err as Error).message}`))
        .finally(() => (running = undefined)));
    scheduled.set(def.id, run);
    const fromEnv = t.localIntervalEnv ? Number(process.env[t.localIntervalEnv]) : NaN;
    const intervalMs = Number.isFinite(fromEnv) && fromEnv > 0 ? fromEnv : t.everyMinutes * 60_000;
    timers.push(setInterval(() => void run(), intervalMs).unref());
  }
  if (defs.length) o.log(`[background] ${streamDefs.length} stream and ${scheduleDefs.length} scheduled function(s)`);

  return {
    drain: async () => poller?.drain(),
    async runNow(id) {
      const run = scheduled.get(id);
      if (!run) return false;
      await run();
      return true;
    },
    async stop() {
      for (const t of timers) clearInterval(t);
      await poller?.stop();
    },
  };
}
