import type { RefObject } from 'react';
import { Button } from '../../components/button';
import { Modal } from '../../components/modal';
import { Spinner } from '../../components/spinner';
import { type ActiveJob, JobProgress, type RunningStatus, useNow } from '../generation';

export interface GeneratingModalProps {
  open: boolean;
  /** The request is on its way (no job yet). */
  submitting: boolean;
  uploading: boolean;
  jobs: readonly ActiveJob[];
  statuses: Record<string, RunningStatus>;
  /** Closes the window; the job goes on and its progress stays in the sidebar. */
  onHide: () => void;
  actionRef: RefObject<HTMLButtonElement | null>;
}

/**
 * The loading modal while a video is generated. A video can take minutes, so it shows progress
 * and lets the user hide it (Escape or the button): the job keeps running and the controls stay disabled.
 */
export function GeneratingModal({ open, submitting, uploading, jobs, statuses, onHide, actionRef }: GeneratingModalProps) {
  const now = useNow(open);
  return (
    <Modal
      open={open}
      onClose={onHide}
      title="Generating your video"
      description="You can close this window: the video keeps rendering and appears on this page when it is ready."
      initialFocusRef={actionRef}
      footer={
        <Button ref={actionRef} variant="secondary" onClick={onHide}>
          Continue in background
        </Button>
      }
    >
      <div aria-live="polite" className="flex flex-col gap-4">
        {submitting ? (
          <p className="flex items-center gap-3 text-ink">
            <Spinner size="md" decorative className="text-brand-ink" />
            {uploading ? 'Uploading your start image...' : 'Sending your request...'}
          </p>
        ) : (
          jobs.map((job) => <JobProgress key={job.predictionId} job={job} status={statuses[job.predictionId]} now={now} />)
        )}
      </div>
    </Modal>
  );
}
