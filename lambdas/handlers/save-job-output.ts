import type { DynamoDBStreamEvent } from 'aws-lambda';
import { saveJobOutput } from '../app/save-job-output';
import { logger } from '../logger';
import { instrumented } from '../observability';
import { saveJobOutputDeps } from '../wiring/deps';

type Image = NonNullable<NonNullable<DynamoDBStreamEvent['Records'][number]['dynamodb']>['NewImage']>;

/** A job whose provider output was just recorded (this change added outputUrl to an open job). */
function recordedJob(newImage?: Image, oldImage?: Image): string | undefined {
  if (newImage?.type?.S !== 'job' || !newImage.outputUrl?.S || oldImage?.outputUrl?.S) return undefined;
  return newImage.id?.S;
}

/**
 * The table's stream: when a webhook, poll or the reconciler records a job's output, copy it to S3 and end the
 * job, outside the webhook's request. The batch's records are saved side by side; a stalled download is given up
 * within seconds and left to the reconciler (the save answers `deferred`), so it holds no other save for long. A
 * failed copy fails the batch, so the event source mapping retries it (the saves already made are skipped then:
 * their jobs have ended); the reconciler is the safety net after the retries.
 */
export const handler = instrumented('saveJobOutput', async (event: DynamoDBStreamEvent): Promise<void> => {
  const failures: string[] = [];
  await Promise.all(
    event.Records.map(async (record) => {
      const jobId = recordedJob(record.dynamodb?.NewImage, record.dynamodb?.OldImage);
      if (!jobId) return;
      try {
        await saveJobOutput(saveJobOutputDeps(), jobId);
      } catch (err) {
        logger.warn('save-job-output: copy failed, will retry', { jobId, error: (err as Error).message });
        failures.push(jobId);
      }
    }),
  );
  if (failures.length) throw new Error(`Job output(s) not saved yet: ${failures.join(', ')}`);
});
