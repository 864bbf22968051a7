/**
 * Reads DynamoDB Local's stream the way a Lambda event source mapping reads a table's stream in the cloud,
 * and hands each consumer batches in Lambda's DynamoDBStreamEvent shape: every consumer has its own position
 * (like one mapping per function), records arrive in order per shard, a batch that throws is retried (with
 * backoff) before the consumer sees anything newer, and positions are kept in the data dir so a restart
 * neither loses nor replays what was handled. Written by hand because no maintained library runs Lambda
 * handlers on DynamoDB Local's stream.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { DeleteItemCommand, DescribeTableCommand, DynamoDBClient, PutItemCommand } from '@aws-sdk/client-dynamodb';
import { randomUUID } from 'node:crypto';
import { readJsonFile, writeFileAtomic } from '../shared/atomic-file';
import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  ExpiredIteratorException,
  GetRecordsCommand,
  GetShardIteratorCommand,
  TrimmedDataAccessException,
  type _Record,
} from '@aws-sdk/client-dynamodb-streams';

export interface StreamConsumer {
  /** Names its saved position: keep it stable. */
  id: string;
  handler: (event: DynamoDBStreamEvent) => Promise<unknown>;
  /** Records per invocation (Lambda's BatchSize); default 100. */
  batchSize?: number;
  /** Attempts of a failing batch before it is skipped (Lambda's MaximumRetryAttempts); default 10. */
  maxRetries?: number;
}

export interface StreamPollerOptions {
  endpoint: string;
  tableName: string;
  /** Where positions are saved (one JSON file per consumer). */
  dataDir: string;
  consumers: StreamConsumer[];
  /** Pause between reads of a shard that had nothing new; default 100 ms. */
  idleMs?: number;
  log?: (line: string) => void;
}

export interface StreamPoller {
  /** Resolves once every consumer has handled everything written before the call. */
  drain(): Promise<void>;
  stop(): Promise<void>;
}

const credentials = { accessKeyId: 'local', secretAccessKey: 'local' };

/** The SDK's stream record in the shape Lambda delivers (epoch seconds, the same attribute values). */
function toLambdaRecord(r: _Record, region: string, streamArn: string): DynamoDBRecord {
  const d = r.dynamodb ?? {};
  return {
    eventID: r.eventID,
    eventName: r.eventName as DynamoDBRecord['eventName'],
    eventVersion: r.eventVersion ?? '1.1',
    eventSource: 'aws:dynamodb',
    awsRegion: region,
    eventSourceARN: streamArn,
    dynamodb: {
      ApproximateCreationDateTime: d.ApproximateCreationDateTime ? Math.floor(d.ApproximateCreationDateTime.getTime() / 1000) : undefined,
      Keys: d.Keys as never,
      NewImage: d.NewImage as never,
      OldImage: d.OldImage as never,
      SequenceNumber: d.SequenceNumber,
      SizeBytes: d.SizeBytes,
      StreamViewType: d.StreamViewType as never,
    },
  };
}

/**
 * Where a partial batch response says to start again: undefined when the batch succeeded (no response, or no
 * failures), the index of the lowest failed record, or -1 when the response names a record that is not in the batch.
 */
function firstFailed(response: unknown, records: readonly _Record[]): number | undefined {
  const failures = (response as { batchItemFailures?: Array<{ itemIdentifier?: unknown }> } | undefined)?.batchItemFailures;
  if (!Array.isArray(failures) || failures.length === 0) return undefined;
  const indexes = failures.map((f) => records.findIndex((r) => typeof f?.itemIdentifier === 'string' && f.itemIdentifier !== '' && r.dynamodb?.SequenceNumber === f.itemIdentifier));
  return indexes.some((i) => i < 0) ? -1 : Math.min(...indexes);
}

export async function startStreamPoller(o: StreamPollerOptions): Promise<StreamPoller> {
  const region = 'us-east-1';
  const idleMs = o.idleMs ?? 100;
  const log = o.log ?? (() => undefined);
  const ddb = new DynamoDBClient({ endpoint: o.endpoint, region, credentials });
  const streams = new DynamoDBStreamsClient({ endpoint: o.endpoint, region, credentials });
  const { Table } = await ddb.send(new DescribeTableCommand({ TableName: o.tableName }));
  const streamArn = Table?.LatestStreamArn;
  if (!streamArn) throw new Error(`Table ${o.tableName} has no stream`);

  const dir = path.join(o.dataDir, 'stream-positions');
  fs.mkdirSync(dir, { recursive: true });
  let stopped = false;
  /**
   * drain() writes a marker item and waits until every consumer has read past it: then everything written
   * before the call has been handled. Markers are never handed to consumers.
   */
  const waiting = new Map<string, Map<string, () => void>>();
  const runs: Promise<void>[] = [];

  for (const consumer of o.consumers) {
    const file = path.join(dir, `${streamArn.split('/').pop()}-${consumer.id}.json`);
    const read = readJsonFile<Record<string, string>>(file);
    // A position file that cannot be read (written in place before, and cut by a kill) loses the positions, not
    // the changes: the consumer reads again from the oldest record kept, as Lambda retries (handlers are idempotent).
    if (read === 'unreadable') log(`[streams] positions of ${consumer.id} unreadable: reading its stream from the oldest record`);
    const saved: Record<string, string> = typeof read === 'object' ? read.found : {};
    const fresh = read !== 'unreadable' && Object.keys(saved).length === 0;
    const save = () => writeFileAtomic(file, JSON.stringify(saved));
    waiting.set(consumer.id, new Map());
    // Positions are taken before this function returns: a change made right after start is never missed.
    const iterators = await initialIterators(saved, fresh);
    runs.push(runConsumer(consumer, saved, iterators, save));
  }

  async function initialIterators(saved: Record<string, string>, fresh: boolean): Promise<Map<string, string | undefined>> {
    const desc = await streams.send(new DescribeStreamCommand({ StreamArn: streamArn }));
    const iterators = new Map<string, string | undefined>();
    for (const shard of desc.StreamDescription?.Shards ?? []) iterators.set(shard.ShardId!, await iteratorFor(shard.ShardId!, saved[shard.ShardId!], fresh));
    return iterators;
  }

  async function iteratorFor(shardId: string, after: string | undefined, fresh: boolean): Promise<string | undefined> {
    const res = await streams.send(
      new GetShardIteratorCommand({
        StreamArn: streamArn,
        ShardId: shardId,
        ...(after ? { ShardIteratorType: 'AFTER_SEQUENCE_NUMBER', SequenceNumber: after } : { ShardIteratorType: fresh ? 'LATEST' : 'TRIM_HORIZON' }),
      }),
    );
    return res.ShardIterator;
  }

  async function runConsumer(
    consumer: StreamConsumer,
    saved: Record<string, string>,
    iterators: Map<string, string | undefined>,
    save: () => void,
  ): Promise<void> {
    const done = new Set<string>();
    while (!stopped) {
      try {
        // Shards that appeared since (DynamoDB rolls them over) are read from their start.
        const desc = await streams.send(new DescribeStreamCommand({ StreamArn: streamArn }));
        for (const shard of desc.StreamDescription?.Shards ?? []) {
          const id = shard.ShardId!;
          if (!iterators.has(id) && !done.has(id)) iterators.set(id, await iteratorFor(id, saved[id], false));
        }
        let any = false;
        for (const [shardId, iterator] of iterators) {
          if (stopped) return;
          if (!iterator) {
            iterators.delete(shardId);
            done.add(shardId);
            continue;
          }
          let res;
          try {
            res = await streams.send(new GetRecordsCommand({ ShardIterator: iterator, Limit: consumer.batchSize ?? 100 }));
          } catch (err) {
            if (err instanceof ExpiredIteratorException || err instanceof TrimmedDataAccessException) {
              iterators.set(shardId, await iteratorFor(shardId, saved[shardId], false));
              continue;
            }
            throw err;
          }
          const all = res.Records ?? [];
          if (all.length) {
            any = true;
            const markers = all.filter(isMarker);
            const records = all.filter((r) => !isMarker(r));
            if (records.length) await deliver(consumer, records);
            saved[shardId] = all[all.length - 1]!.dynamodb!.SequenceNumber!;
            save();
            for (const m of markers) waiting.get(consumer.id)?.get(m.dynamodb!.Keys!.pk!.S!)?.();
          }
          iterators.set(shardId, res.NextShardIterator);
        }
        if (!any) await sleep(idleMs);
      } catch (err) {
        if (stopped) return;
        log(`[streams] ${consumer.id}: ${(err as Error).message}`);
        // DynamoDB Local may have restarted (its iterators are gone): open the shards again from the saved positions.
        iterators.clear();
        await sleep(1000);
      }
    }
  }

  /**
   * One batch to one consumer, as an event source mapping that reports batch item failures does: a throw fails the
   * whole batch; a response naming failed records (`batchItemFailures`) retries from the lowest of them, the records
   * before it done; a response Lambda cannot read (an identifier that is empty or not in the batch) fails the batch.
   */
  async function deliver(consumer: StreamConsumer, all: _Record[]): Promise<void> {
    let records = all;
    const max = consumer.maxRetries ?? 10;
    for (let attempt = 0; ; attempt++) {
      let problem: string | undefined;
      try {
        const from = firstFailed(await consumer.handler({ Records: records.map((r) => toLambdaRecord(r, region, streamArn!)) }), records);
        if (from === undefined) return;
        if (from >= 0) records = records.slice(from);
        problem = from >= 0 ? `${records.length} record(s) reported failed` : 'an unreadable batch response';
      } catch (err) {
        problem = (err as Error).message;
      }
      if (attempt >= max || stopped) {
        log(`[streams] ${consumer.id}: batch of ${records.length} skipped after ${attempt + 1} attempts: ${problem}`);
        return;
      }
      await sleep(Math.min(5000, 100 * 2 ** attempt));
    }
  }

  return {
    async drain() {
      const pk = `${MARKER_PREFIX}${randomUUID()}`;
      const reached = [...waiting.values()].map(
        (w) =>
          new Promise<void>((resolve, reject) => {
            const timer = setTimeout(() => reject(new Error('stream consumers did not catch up within 30 s')), 30_000);
            w.set(pk, () => {
              clearTimeout(timer);
              w.delete(pk);
              resolve();
            });
          }),
      );
      const Key = { pk: { S: pk }, sk: { S: 'DRAIN' } };
      await ddb.send(new PutItemCommand({ TableName: o.tableName, Item: { ...Key, ttl: { N: String(Math.floor(Date.now() / 1000) + 300) } } }));
      try {
        await Promise.all(reached);
      } finally {
        await ddb.send(new DeleteItemCommand({ TableName: o.tableName, Key }));
      }
    },
    async stop() {
      stopped = true;
      await Promise.allSettled(runs);
      streams.destroy();
      ddb.destroy();
    },
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The items drain() writes; no consumer ever sees them. */
const MARKER_PREFIX = 'DRAIN#';
const isMarker = (r: _Record) => r.dynamodb?.Keys?.pk?.S?.startsWith(MARKER_PREFIX) ?? false;
