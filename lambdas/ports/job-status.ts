import type { Job } from './jobs';

/** What a status answer needs, read together: the job (with its result's key at success) and its owner's balance. */
export interface JobStatusReader {
  read(jobId: string, owner: string): Promise<{ job: Job | undefined; balance: number }>;
}
