/**
 * The local stream reader against DynamoDB Local's real stream (the stack's emulator, a table of this test's own):
 * consumers see every change in order, in Lambda's event shape; a failing batch is retried before anything newer;
 * a restart resumes after the last handled change, neither losing nor replaying; filter patterns deliver only what
 * they match (Lambda's event filtering) and refuse what Lambda refuses; a batch given up lands in the dead letters.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { DeleteTableCommand, DynamoDBClient, PutItemCommand } from '@aws-sdk/client-dynamodb';
import { ensureTable } from '../../local/dynamodb';
import { startStreamPoller, type StreamPoller } from '../../local/dynamodb/streams';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { stackEnv } from '../support/users';
import { BACKGROUND_FUNCTIONS } from '../../contract/functions';
import { filterCriteriaProblem, filterPatternProblem, OUTPUT_RECORDED, type FilterPattern } from '../../contract/stream-filters';

const endpoint = () => stackEnv().AWS_ENDPOINT_URL_DYNAMODB!;
const table = `stream-test-${process.pid}-${Date.now()}`;
let db: DynamoDBClient;
let dataDir: string;
const pollers: StreamPoller[] = [];

beforeAll(async () => {
  db = new DynamoDBClient({ endpoint: endpoint(), region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  await ensureTable(endpoint(), table);
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-streams-'));
});

afterAll(async () => {
  await Promise.all(pollers.map((p) => p.stop()));
  await db.send(new DeleteTableCommand({ TableName: table }));
  db.destroy();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const put = (sk: string) => db.send(new PutItemCommand({ TableName: table, Item: { pk: { S: 'P' }, sk: { S: sk }, n: { N: '1' } } }));

async function start(id: string, handler: (e: DynamoDBStreamEvent) => Promise<unknown>) {
  const p = await startStreamPoller({ endpoint: endpoint(), tableName: table, dataDir, consumers: [{ id, handler }], idleMs: 20 });
  pollers.push(p);
  return p;
}

test('each consumer gets every change in order, in the shape Lambda delivers', async () => {
  const seen: string[] = [];
  let first: DynamoDBStreamEvent['Records'][number] | undefined;
  const p = await start('order', async (e) => {
    first ??= e.Records[0];
    for (const r of e.Records) seen.push(r.dynamodb!.NewImage!.sk!.S!);
  });
  for (let i = 0; i < 25; i++) await put(`a${String(i).padStart(2, '0')}`);
  await p.drain();
  expect(seen).toEqual(Array.from({ length: 25 }, (_, i) => `a${String(i).padStart(2, '0')}`));
  expect(first).toMatchObject({ eventName: 'INSERT', eventSource: 'aws:dynamodb', dynamodb: { Keys: { pk: { S: 'P' } }, StreamViewType: 'NEW_AND_OLD_IMAGES' } });
  expect(typeof first!.dynamodb!.ApproximateCreationDateTime).toBe('number');
});

test('a failing batch is retried before anything newer, and a restart neither loses nor replays', async () => {
  const seen: string[] = [];
  let failures = 2;
  const handler = async (e: DynamoDBStreamEvent) => {
    if (failures > 0) {
      failures--;
      throw new Error('not yet');
    }
    for (const r of e.Records) seen.push(r.dynamodb!.NewImage!.sk!.S!);
  };
  const p = await start('retry', handler);
  await put('b1');
  await p.drain();
  expect(seen).toEqual(['b1']);
  await p.stop();

  await put('b2'); // written while the consumer is down
  const again = await start('retry', handler);
  await put('b3');
  await again.drain();
  expect(seen).toEqual(['b1', 'b2', 'b3']);
});

test('a partial batch response retries from the first failed record only, as Lambda does; an unknown identifier fails the whole batch', async () => {
  const deliveries: string[][] = [];
  let failOnce = true;
  let badOnce = true;
  // The consumer holds its first batch (the gate) until p0-p3 are written, so they arrive in one batch.
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  const p = await start('partial', async (e) => {
    const sks = e.Records.map((r) => r.dynamodb!.NewImage!.sk!.S!);
    if (sks.includes('gate')) await gate;
    deliveries.push(sks);
    const seq = (sk: string) => e.Records.find((r) => r.dynamodb!.NewImage!.sk!.S === sk)?.dynamodb?.SequenceNumber;
    if (sks.includes('p2') && failOnce) {
      failOnce = false;
      // p3 and p2 fail: the stream starts again at p2 (the lowest), p0 and p1 are done.
      return { batchItemFailures: [{ itemIdentifier: seq('p3')! }, { itemIdentifier: seq('p2')! }] };
    }
    if (sks.includes('p2') && badOnce) {
      badOnce = false;
      return { batchItemFailures: [{ itemIdentifier: 'not-in-this-batch' }] };
    }
    return { batchItemFailures: [] };
  });
  await put('gate');
  await new Promise((r) => setTimeout(r, 200));
  for (let i = 0; i < 4; i++) await put(`p${i}`);
  open();
  await p.drain();
  expect(deliveries.map((d) => d.filter((s) => s !== 'gate')).filter((d) => d.length)).toEqual([
    ['p0', 'p1', 'p2', 'p3'],
    // After the partial failure: from p2 on; after the unreadable answer, the same batch again; then done.
    ['p2', 'p3'],
    ['p2', 'p3'],
  ]);
});

test('an empty map arrives as Lambda delivers it ({"M":{}}), so a handler can unmarshall every image', async () => {
  const images: unknown[] = [];
  const p = await start('empty-map', async (e) => {
    for (const r of e.Records) if (r.dynamodb!.NewImage!.sk!.S === 'm0') images.push(r.dynamodb!.NewImage);
  });
  await db.send(new PutItemCommand({ TableName: table, Item: { pk: { S: 'P' }, sk: { S: 'm0' }, options: { M: {} }, nested: { M: { inner: { M: {} } } }, list: { L: [{ M: {} }] } } }));
  await p.drain();
  expect(images).toHaveLength(1);
  expect(images[0]).toMatchObject({ options: { M: {} }, nested: { M: { inner: { M: {} } } }, list: { L: [{ M: {} }] } });
  expect(unmarshall(images[0] as never)).toMatchObject({ options: {}, nested: { inner: {} }, list: [{}] });
});

describe("Lambda's event filtering, on the same patterns the cloud mapping gets", () => {
  const putItem = (item: Record<string, unknown>) => db.send(new PutItemCommand({ TableName: table, Item: item as never }));

  test('only records matching one of the patterns are delivered (exact, prefix, exists, anything-but, numeric); the rest are dropped as handled', async () => {
    const seen: string[] = [];
    const filters: FilterPattern[] = [
      // A job's output just recorded: the pattern save-job-output's mapping carries.
      OUTPUT_RECORDED,
      { dynamodb: { Keys: { sk: { S: [{ prefix: 'px-' }] } }, NewImage: { kind: { S: [{ 'anything-but': ['video'] }] } } } },
      // numeric matches JSON numbers only: SizeBytes is one; an N attribute is a string in the record and never does.
      { dynamodb: { NewImage: { sk: { S: ['sized'] } }, SizeBytes: [{ numeric: ['>', 0, '<', 100_000] }] } },
      { dynamodb: { NewImage: { sk: { S: ['counted'] }, n: { N: [{ numeric: ['>', 0] }] } } } },
    ];
    const p = await startStreamPoller({
      endpoint: endpoint(),
      tableName: table,
      dataDir,
      consumers: [{ id: 'filtered', handler: async (e) => void e.Records.forEach((r) => seen.push(r.dynamodb!.NewImage!.sk!.S!)), filters }],
      idleMs: 20,
    });
    pollers.push(p);
    await putItem({ pk: { S: 'F' }, sk: { S: 'job-1' }, type: { S: 'job' } });
    await putItem({ pk: { S: 'F' }, sk: { S: 'job-1' }, type: { S: 'job' }, outputUrl: { S: 'https://x/out.png' } }); // recorded: delivered
    await putItem({ pk: { S: 'F' }, sk: { S: 'job-1' }, type: { S: 'job' }, outputUrl: { S: 'https://x/out.png' }, status: { S: 'succeeded' } }); // had it: dropped
    await putItem({ pk: { S: 'F' }, sk: { S: 'px-image' }, kind: { S: 'image' } }); // delivered
    await putItem({ pk: { S: 'F' }, sk: { S: 'px-video' }, kind: { S: 'video' } }); // anything-but: dropped
    await putItem({ pk: { S: 'F' }, sk: { S: 'px-nokind' } }); // anything-but needs the field: dropped
    await putItem({ pk: { S: 'F' }, sk: { S: 'sized' } }); // delivered
    await putItem({ pk: { S: 'F' }, sk: { S: 'counted' }, n: { N: '5' } }); // N is a string: dropped
    await p.drain();
    expect(seen).toEqual(['job-1', 'px-image', 'sized']);
  });

  test('a pattern Lambda would refuse is refused before anything is read, and so is a sixth filter', async () => {
    const refused: unknown[] = [
      { eventName: ['INSERT'] }, // a DynamoDB mapping filters only under "dynamodb"
      { dynamodb: { NewImage: { type: { S: 'job' } } } }, // values are arrays
      { dynamodb: { NewImage: { type: { S: [{ contains: 'jo' }] } } } }, // no such operator
      { dynamodb: { NewImage: { type: { S: [{ exists: 'yes' }] } } } },
      { dynamodb: { SizeBytes: [{ numeric: ['<', 5, '>', 1] }] } }, // an upper bound before the lower one
      { dynamodb: { NewImage: { type: { S: ['x'.repeat(5000)] } } } }, // over 4096 characters
      {},
    ];
    for (const pattern of refused) {
      expect(filterPatternProblem(pattern)).toBeDefined();
      await expect(
        startStreamPoller({ endpoint: endpoint(), tableName: table, dataDir, consumers: [{ id: 'refused', handler: async () => undefined, filters: [pattern as FilterPattern] }] }),
      ).rejects.toThrow(/invalid FilterCriteria/);
    }
    await expect(
      startStreamPoller({ endpoint: endpoint(), tableName: table, dataDir, consumers: [{ id: 'six', handler: async () => undefined, filters: Array(6).fill(OUTPUT_RECORDED) }] }),
    ).rejects.toThrow(/at most 5/);
    // The contract's own patterns pass.
    for (const def of BACKGROUND_FUNCTIONS) if (def.trigger.kind === 'table-stream') expect(filterCriteriaProblem(def.trigger.filters ?? [])).toBeUndefined();
  });
});

describe('the on-failure destination (local dead letters)', () => {
  test('a batch that fails every retry is set aside with its stream position, and the stream goes on', async () => {
    const seen: string[] = [];
    const p = await startStreamPoller({
      endpoint: endpoint(),
      tableName: table,
      dataDir,
      consumers: [
        {
          id: 'dlq',
          maxRetries: 1,
          handler: async (e) => {
            const sks = e.Records.map((r) => r.dynamodb!.NewImage!.sk!.S!);
            if (sks.includes('poison')) throw new Error('cannot handle it');
            seen.push(...sks);
          },
        },
      ],
      idleMs: 20,
    });
    pollers.push(p);
    await put('poison');
    await p.drain();
    await put('after');
    await p.drain();
    expect(seen).toEqual(['after']);
    const letters = p.deadLetters('dlq');
    expect(letters).toHaveLength(1);
    expect(letters[0]).toMatchObject({
      requestContext: { condition: 'RetryAttemptsExhausted', approximateInvokeCount: 2 },
      version: '1.0',
      DDBStreamBatchInfo: { batchSize: 1, streamArn: expect.stringContaining(table) },
    });
  });

  test('a record that keeps failing is set aside once past its maximum age, before its retries run out', async () => {
    const seen: string[] = [];
    let attempts = 0;
    const p = await startStreamPoller({
      endpoint: endpoint(),
      tableName: table,
      dataDir,
      consumers: [
        {
          id: 'aged',
          maxRetries: 10,
          maxRecordAgeSeconds: 1,
          handler: async (e) => {
            const sks = e.Records.map((r) => r.dynamodb!.NewImage!.sk!.S!);
            if (sks.includes('old')) {
              attempts++;
              throw new Error('not yet');
            }
            seen.push(...sks);
          },
        },
      ],
      idleMs: 20,
    });
    pollers.push(p);
    await put('old');
    await p.drain();
    await put('next');
    await p.drain();
    expect(seen).toEqual(['next']);
    // Backing off 100, 200, 400, 800 ms: the second is past after a few attempts, far fewer than the 11 allowed.
    expect(attempts).toBeLessThan(8);
    expect(p.deadLetters('aged')).toEqual([expect.objectContaining({ requestContext: expect.objectContaining({ condition: 'RecordAgeExceeded' }) })]);
  });
});
