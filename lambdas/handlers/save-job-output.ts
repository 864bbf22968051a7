import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { saveJobOutput } from '../app/save-job-output';
import { logger } from '../logger';
import { instrumented } from '../observability';
import { saveJobOutputDeps } from '../wiring/deps';
import { batchFailures, tableChanges, type StreamChange } from './stream-records';

/** A job whose provider output was just recorded (this change added outputUrl to an open job). */
function recordedJob(c: StreamChange): string | undefined {
  if (c.new?.type !== 'job' || !c.new.outputUrl || c.old?.outputUrl) return undefined;
  return typeof c.new.id === 'string' ? c.new.id : undefined;
}

/**
 * The table's stream: when a webhook, poll or the reconciler records a job's output, copy it to S3 and end the
 * job, outside the webhook's request. The batch's records are saved side by side; a stalled download is given up
 * within seconds and left to the reconciler (the save answers `deferred`), so it holds no other save for long. A
 * failed copy is reported as that record's failure, so the stream retries from it (the saves already made are
 * skipped then: their jobs have ended); the reconciler is the safety net after the retries.
 */
export const handler = instrumented('saveJobOutput', async (event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> => {
  const failed: StreamChange[] = [];
  await Promise.all(
    tableChanges(event).map(async (change) => {
      const jobId = recordedJob(change);
      if (!jobId) return;
      try {
        await saveJobOutput(saveJobOutputDeps(), jobId);
      } catch (err) {
        logger.warn('save-job-output: copy failed, will retry', { jobId, error: (err as Error).message });
        failed.push(change);
      }
    }),
  );
  return batchFailures(failed);
});
