import type { ReactNode, RefObject } from 'react';
import { Button } from '../../components/button';

export interface PreviewSlotProps {
  /** The result preview's ref (`useResultPreview`): the slot is scrolled into view when a result arrives. */
  slotRef: RefObject<HTMLDivElement | null>;
  /** What screen readers are told, e.g. 'Image ready: ...'. */
  announcement: string;
  /** The last job's failure: shown in the preview's place (with the credits refunded) until dismissed. */
  failure?: string;
  onDismissFailure?: () => void;
  /**
   * A neutral line above the preview, which keeps its picture: a cancel the user chose, or a batch's images that could
   * not be made (the others are shown, the failed ones refunded).
   */
  canceled?: string;
  onDismissCanceled?: () => void;
  children: ReactNode;
}

/**
 * Where a generator's preview sits, with the live region that announces each new result. Scrolled into view it
 * stops below the sticky header (scroll-margin: the header is 4rem tall).
 */
export function PreviewSlot({ slotRef, announcement, failure, onDismissFailure, canceled, onDismissCanceled, children }: PreviewSlotProps) {
  return (
    <>
      <div ref={slotRef} className="scroll-mt-20">
        {canceled && !failure && (
          <div role="status" className="mb-3 flex items-center justify-between gap-3 rounded-control border border-line bg-surface-raised px-4 py-2 text-sm text-ink-muted">
            <p data-testid="preview-canceled">{canceled}</p>
            {onDismissCanceled && (
              <Button variant="ghost" size="sm" onClick={onDismissCanceled}>
                Dismiss
              </Button>
            )}
          </div>
        )}
        {failure ? (
          <section aria-labelledby="preview-failure-title" className="flex min-h-[18rem] flex-col items-center justify-center gap-4 rounded-card border border-danger/40 bg-danger-soft p-6 text-center shadow-card">
            <h2 id="preview-failure-title" className="text-lg font-semibold text-ink">
              This generation did not finish
            </h2>
            <p data-testid="preview-failure" className="max-w-prose break-words text-base text-danger">
              {failure}
            </p>
            {onDismissFailure && (
              <Button variant="secondary" size="sm" onClick={onDismissFailure}>
                Show the last result
              </Button>
            )}
          </section>
        ) : (
          children
        )}
      </div>
      <p aria-live="polite" className="sr-only">
        {announcement}
      </p>
    </>
  );
}
