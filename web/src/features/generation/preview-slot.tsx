import type { ReactNode, RefObject } from 'react';

export interface PreviewSlotProps {
  /** The result preview's ref (`useResultPreview`): the slot is scrolled into view when a result arrives. */
  slotRef: RefObject<HTMLDivElement | null>;
  /** What screen readers are told, e.g. 'Image ready: ...'. */
  announcement: string;
  children: ReactNode;
}

/** Where a generator's preview sits, with the live region that announces each new result. */
export function PreviewSlot({ slotRef, announcement, children }: PreviewSlotProps) {
  return (
    <>
      <div ref={slotRef}>{children}</div>
      <p aria-live="polite" className="sr-only">
        {announcement}
      </p>
    </>
  );
}
