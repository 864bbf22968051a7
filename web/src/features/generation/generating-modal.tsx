import type { RefObject } from 'react';
import { Button } from '../../components/button';
import { Modal } from '../../components/modal';
import { Spinner } from '../../components/spinner';
import type { ActiveJob } from './active-jobs';
import type { RunningStatus } from './followed-jobs';
import { JobProgress } from './running-jobs';
import { useNow } from './use-now';

export interface GeneratingModalProps {
  open: boolean;
  /** The request is on its way (no job yet). */
  submitting: boolean;
  uploading: boolean;
  jobs: readonly ActiveJob[];
  statuses: Record<string, RunningStatus>;
  /** Closes the window for good (the choice is kept); the job goes on as a tile above the results. */
  onHide: () => void;
  actionRef: RefObject<HTMLButtonElement | null>;
}

/**
 * The spec's loading modal while a video is generated, for a Generate pressed on this page. A video can take minutes,
 * so it shows progress and lets the user put it aside (Escape or the button): the job keeps running as a tile, nothing
 * is locked, and the window does not open again in this browser.
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
