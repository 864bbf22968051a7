import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';

/** One change of the table as a stream function sees it: plain items before and after, and its place in the stream. */
export interface StreamChange {
  sequenceNumber: string;
  old?: Record<string, unknown>;
  new?: Record<string, unknown>;
}

type Image = Record<string, AttributeValue>;

/** The one decoder of the table's stream records: every stream function reads plain items, never attribute values. */
export function tableChanges(event: DynamoDBStreamEvent): StreamChange[] {
  return event.Records.map((r) => ({
    sequenceNumber: r.dynamodb?.SequenceNumber ?? '',
    ...(r.dynamodb?.OldImage ? { old: unmarshall(r.dynamodb.OldImage as Image) } : {}),
    ...(r.dynamodb?.NewImage ? { new: unmarshall(r.dynamodb.NewImage as Image) } : {}),
  }));
}

/**
 * The partial batch response of a stream function (its event source mapping reports batch item failures): the
 * changes that failed, so the stream retries from the first of them instead of the whole batch, and one bad record
 * does not hold back the records before it.
 */
export function batchFailures(failed: readonly StreamChange[]): DynamoDBBatchResponse {
  return { batchItemFailures: failed.map((c) => ({ itemIdentifier: c.sequenceNumber })) };
}
