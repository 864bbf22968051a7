import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { fanOutChanges } from '../app/fan-out-changes';
import { logger } from '../logger';
import { instrumented } from '../observability';
import { fanOutDeps } from '../wiring/deps';
import { batchFailures, tableChanges } from './stream-records';

/**
 * The table's stream (an event source mapping in the cloud, local/background.ts locally) -> each owner's open
 * WebSockets. The changes of an owner whose connections could not be reached are reported as failures, so the
 * stream retries from the first of them (messages carry whole states: a repeat is harmless).
 */
export const handler = instrumented('liveFanout', async (event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> => {
  const changes = tableChanges(event);
  const result = await fanOutChanges(fanOutDeps(), changes);
  if (result.messages) logger.debug('fan-out', { records: changes.length, ...result });
  if (result.failed.length) logger.warn('fan-out: some owners not reached, their changes will be retried', { failed: result.failed.length });
  return batchFailures(result.failed.map((i) => changes[i]!));
});
