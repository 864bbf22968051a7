/**
 * A running job's Cancel button. While the provider has not begun the job the server refunds it in full; once it
 * runs the provider bills it, so the user is asked first (the server's own 409 says so too, if the job moved on
 * between what this page knew and the click).
 */
import { useState } from 'react';
import { Messages } from '../../../../contract/errors';
import { Button } from '../../components/button';
import { Modal } from '../../components/modal';
import { api, ApiError } from '../../lib/api-client';
import { setCredits } from '../credits';
import type { ActiveJob } from './active-jobs';
import type { RunningStatus } from './followed-jobs';
import { reasonOf } from './generation-messages';
import { jobTracker } from './jobs';

async function cancelOnServer(job: ActiveJob, acceptCharge: boolean): Promise<void> {
  const res = await api.cancelJob({ params: { id: job.predictionId }, body: { acceptCharge } });
  setCredits(res.credits);
  jobTracker.canceled(job.predictionId, res.error);
}

export interface CancelJobButtonProps {
  job: ActiveJob;
  status: RunningStatus | undefined;
  /** What went wrong, for the page's error line. */
  onError: (message: string) => void;
}

export function CancelJobButton({ job, status, onError }: CancelJobButtonProps) {
  const [confirm, setConfirm] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  async function run(acceptCharge: boolean) {
    setBusy(true);
    try {
      await cancelOnServer(job, acceptCharge);
      setConfirm(undefined);
    } catch (err) {
      // It began running since this page last heard: ask, in the server's words.
      if (err instanceof ApiError && err.status === 409 && !acceptCharge && err.message.endsWith('?')) setConfirm(err.message);
      else {
        setConfirm(undefined);
        onError(reasonOf(err));
      }
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      <Button
        variant="secondary"
        size="sm"
        loading={busy && !confirm}
        aria-label={`Cancel ${job.prompt || 'this generation'}`}
        onClick={() => (status === 'processing' ? setConfirm(Messages.cancelSpendsCredits(job.cost ?? 1)) : void run(false))}
      >
        Cancel
      </Button>
      <Modal
        open={confirm !== undefined}
        onClose={() => setConfirm(undefined)}
        size="sm"
        title="Cancel this generation?"
        description={confirm}
        footer={
          <>
            <Button variant="secondary" onClick={() => setConfirm(undefined)}>
              Keep it running
            </Button>
            <Button variant="danger" loading={busy} onClick={() => void run(true)}>
              Cancel without refund
            </Button>
          </>
        }
      >
        {job.prompt ? <p className="line-clamp-3 break-words text-ink">“{job.prompt}”</p> : undefined}
      </Modal>
    </>
  );
}
