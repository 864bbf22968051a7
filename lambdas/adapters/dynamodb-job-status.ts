import { BatchGetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { keys } from '../domain/keys';
import type { Job } from '../ports/jobs';
import type { JobStatusReader } from '../ports/job-status';

/** The job and its owner's balance in one BatchGetItem (strongly consistent), retrying keys DynamoDB left unprocessed. */
export function dynamoJobStatusReader(db: DynamoDBDocumentClient, table: string): JobStatusReader {
  return {
    async read(jobId, owner) {
      const jobKey = { pk: keys.job(jobId), sk: 'JOB' };
      const accountKey = { pk: keys.user(owner), sk: keys.account };
      let request: Record<string, { Keys: Record<string, unknown>[]; ConsistentRead: boolean }> | undefined = {
        [table]: { Keys: [jobKey, accountKey], ConsistentRead: true },
      };
      const items: Record<string, unknown>[] = [];
      for (let attempt = 0; request && Object.keys(request).length > 0; attempt++) {
        if (attempt > 0) await new Promise((r) => setTimeout(r, 20 * 2 ** attempt));
        if (attempt > 5) throw new Error('BatchGetItem left keys unprocessed');
        const res = await db.send(new BatchGetCommand({ RequestItems: request }));
        items.push(...(res.Responses?.[table] ?? []));
        request = res.UnprocessedKeys as typeof request;
      }
      const jobItem = items.find((i) => i.pk === jobKey.pk);
      const account = items.find((i) => i.pk === accountKey.pk);
      let job: Job | undefined;
      if (jobItem) {
        const { pk: _pk, sk: _sk, type: _type, ...rest } = jobItem;
        job = rest as unknown as Job;
      }
      return { job, balance: account ? Number(account.credits) : 0 };
    },
  };
}
