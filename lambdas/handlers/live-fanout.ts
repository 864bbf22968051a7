import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { fanOutChanges } from '../app/fan-out-changes';
import type { TableChange } from '../domain/live-changes';
import { logger } from '../logger';
import { instrumented } from '../observability';
import { fanOutDeps } from '../wiring/deps';

type Image = Record<string, AttributeValue>;

/** The table's stream (an event source mapping in the cloud, local/background.ts locally) -> each owner's open WebSockets. */
export const handler = instrumented('liveFanout', async (event: DynamoDBStreamEvent): Promise<void> => {
  const changes: TableChange[] = event.Records.map((r) => ({
    old: r.dynamodb?.OldImage ? unmarshall(r.dynamodb.OldImage as Image) : undefined,
    new: r.dynamodb?.NewImage ? unmarshall(r.dynamodb.NewImage as Image) : undefined,
  }));
  const result = await fanOutChanges(fanOutDeps(), changes);
  if (result.messages) logger.debug('fan-out', { records: changes.length, ...result });
});
