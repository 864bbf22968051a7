/**
 * Reads DynamoDB Local's stream the way a Lambda event source mapping reads a table's stream in the cloud,
 * and hands each consumer batches in Lambda's DynamoDBStreamEvent shape: every consumer has its own position
 * (like one mapping per function), records arrive in order per shard, a batch that throws is retried (with
 * backoff) before the consumer sees anything newer, and positions are kept in the data dir so a restart
 * neither loses nor replays what was handled. Each consumer's filter patterns drop the records it does not act on
 * (Lambda's event filtering, ./event-filter.ts); a batch that failed every retry, or records past their maximum age,
 * are set aside as the mapping's on-failure destination would get them (`deadLetters`). Written by hand because no
 * maintained library runs Lambda handlers on DynamoDB Local's stream.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { DeleteItemCommand, DescribeTableCommand, DynamoDBClient, PutItemCommand } from '@aws-sdk/client-dynamodb';
import { randomUUID } from 'node:crypto';
import { filterCriteriaProblem, type FilterPattern } from '../../contract/stream-filters';
import { readJsonFile, writeFileAtomic } from '../shared/atomic-file';
import { passesFilters } from './event-filter';
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
  /** Attempts of a failing batch before it is set aside in the dead letters (Lambda's MaximumRetryAttempts); default 10. */
  maxRetries?: number;
  /** Lambda's FilterCriteria: only records matching one of them are delivered, the others are dropped as handled. */
  filters?: readonly FilterPattern[];
  /** Records older than this are not delivered (or retried) but set aside in the dead letters (MaximumRecordAgeInSeconds). */
  maxRecordAgeSeconds?: number;
}

/**
 * What Lambda sends a stream mapping's on-failure destination (an SQS message) for a batch it gave up: which records,
 * where, and why. Locally kept under the data dir, one JSON line per batch, and readable through the poller.
 */
export interface DeadLetter {
  requestContext: { requestId: string; functionArn: string; condition: 'RetryAttemptsExhausted' | 'RecordAgeExceeded'; approximateInvokeCount: number };
  responseContext: { statusCode: number; executedVersion: string; functionError?: string };
  version: '1.0';
  timestamp: string;
  DDBStreamBatchInfo: {
    shardId: string;
    startSequenceNumber: string;
    endSequenceNumber: string;
    approximateArrivalOfFirstRecord: string;
    approximateArrivalOfLastRecord: string;
    batchSize: number;
    streamArn: string;
  };
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
  /** The batches a consumer gave up (its local on-failure destination), oldest first. */
  deadLetters(consumerId: string): DeadLetter[];
  stop(): Promise<void>;
}

const credentials = { accessKeyId: 'local', secretAccessKey: 'local' };

/** The SDK's stream record in the shape Lambda delivers (epoch seconds, the same attribute values). */
type WireValue = Record<string, unknown>;

/**
 * An image as Lambda delivers it (the service's own JSON). The streams client deserialises an empty map as `{}`
 * where the wire has `{"M":{}}` (an attribute value always names its type), and a handler's unmarshall would
 * refuse it: every value without a type member is put back as the empty map it was, at any depth.
 */
function asLambdaImage(image: Record<string, unknown> | undefined): Record<string, WireValue> | undefined {
  if (!image) return undefined;
  const value = (v: unknown): WireValue => {
    const av = (v ?? {}) as WireValue;
    if (Object.keys(av).length === 0) return { M: {} };
    if (av.M && typeof av.M === 'object') return { M: Object.fromEntries(Object.entries(av.M as Record<string, unknown>).map(([k, x]) => [k, value(x)])) };
    if (Array.isArray(av.L)) return { L: av.L.map(value) };
    return av;
  };
  return Object.fromEntries(Object.entries(image).map(([k, v]) => [k, value(v)]));
}

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
      NewImage: asLambdaImage(d.NewImage) as never,
      OldImage: asLambdaImage(d.OldImage) as never,
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

  // A mapping Lambda would refuse is refused here too, before anything is read.
  for (const c of o.consumers) {
    const problem = filterCriteriaProblem(c.filters ?? []);
    if (problem) throw new Error(`Stream consumer ${c.id}: invalid FilterCriteria: ${problem}`);
  }
  const dir = path.join(o.dataDir, 'stream-positions');
  fs.mkdirSync(dir, { recursive: true });
  const deadDir = path.join(o.dataDir, 'stream-dead-letters');
  fs.mkdirSync(deadDir, { recursive: true });
  const deadFile = (id: string) => path.join(deadDir, `${id}.jsonl`);
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
            // Records no filter matches are dropped as handled, as the mapping drops them before invoking.
            const records = all.filter((r) => !isMarker(r) && passesFilters(consumer.filters, toLambdaRecord(r, region, streamArn!)));
            if (records.length) await deliver(consumer, shardId, records);
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
  async function deliver(consumer: StreamConsumer, shardId: string, all: _Record[]): Promise<void> {
    const readAt = Date.now();
    let records = all;
    const max = consumer.maxRetries ?? 10;
    for (let attempt = 0; ; attempt++) {
      // Records past their maximum age go to the dead letters instead of the function, first or on a retry.
      if (consumer.maxRecordAgeSeconds !== undefined) {
        const cutoff = Date.now() - consumer.maxRecordAgeSeconds * 1000;
        const tooOld = records.filter((r) => writtenAt(r, readAt) < cutoff);
        if (tooOld.length) {
          setAside(consumer, shardId, tooOld, 'RecordAgeExceeded', attempt);
          records = records.slice(tooOld.length);
          if (!records.length) return;
        }
      }
      let problem: string | undefined;
      try {
        const from = firstFailed(await consumer.handler({ Records: records.map((r) => toLambdaRecord(r, region, streamArn!)) }), records);
        if (from === undefined) return;
        if (from >= 0) records = records.slice(from);
        problem = from >= 0 ? `${records.length} record(s) reported failed` : 'an unreadable batch response';
      } catch (err) {
        problem = (err as Error).message;
      }
      if (stopped) return;
      if (attempt >= max) {
        log(`[streams] ${consumer.id}: batch of ${records.length} set aside after ${attempt + 1} attempts: ${problem}`);
        setAside(consumer, shardId, records, 'RetryAttemptsExhausted', attempt + 1, problem);
        return;
      }
      await sleep(Math.min(5000, 100 * 2 ** attempt));
    }
  }

  function setAside(consumer: StreamConsumer, shardId: string, records: _Record[], condition: DeadLetter['requestContext']['condition'], invokes: number, problem?: string) {
    const at = (r: _Record) => (r.dynamodb?.ApproximateCreationDateTime ?? new Date()).toISOString();
    const letter: DeadLetter = {
      requestContext: { requestId: randomUUID(), functionArn: `arn:aws:lambda:${region}:000000000000:function:${consumer.id}`, condition, approximateInvokeCount: invokes },
      responseContext: { statusCode: 200, executedVersion: '$LATEST', ...(problem ? { functionError: 'Unhandled' } : {}) },
      version: '1.0',
      timestamp: new Date().toISOString(),
      DDBStreamBatchInfo: {
        shardId,
        startSequenceNumber: records[0]!.dynamodb!.SequenceNumber!,
        endSequenceNumber: records[records.length - 1]!.dynamodb!.SequenceNumber!,
        approximateArrivalOfFirstRecord: at(records[0]!),
        approximateArrivalOfLastRecord: at(records[records.length - 1]!),
        batchSize: records.length,
        streamArn: streamArn!,
      },
    };
    fs.appendFileSync(deadFile(consumer.id), `${JSON.stringify(letter)}\n`);
  }

  return {
    deadLetters(consumerId) {
      let text = '';
      try {
        text = fs.readFileSync(deadFile(consumerId), 'utf8');
      } catch {
        return [];
      }
      return text
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as DeadLetter);
    },
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

/**
 * When a record was written, for its maximum age. DynamoDB gives ApproximateCreationDateTime to the second, DynamoDB
 * Local only to the minute: the record is taken as written at the end of its minute, or when it was read if earlier
 * (a record read as it comes is timed exactly; one read after a restart, never older than it can be).
 */
function writtenAt(r: _Record, readAt: number): number {
  const stamped = r.dynamodb?.ApproximateCreationDateTime?.getTime();
  return stamped === undefined ? readAt : Math.min(readAt, stamped + 60_000);
}

/** The items drain() writes; no consumer ever sees them. */
const MARKER_PREFIX = 'DRAIN#';
const isMarker = (r: _Record) => r.dynamodb?.Keys?.pk?.S?.startsWith(MARKER_PREFIX) ?? false;
