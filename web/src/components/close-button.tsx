import { cx } from '../lib/cx';

const sizes = {
  sm: { button: 'p-1', icon: 'size-4' },
  md: { button: 'p-2', icon: 'size-5' },
} as const;

export interface CloseButtonProps {
  /** The accessible name, e.g. 'Close' or 'Dismiss'. */
  label: string;
  onClick: () => void;
  size?: keyof typeof sizes;
  /** Negative margins that line the icon up with its container's edge. */
  className?: string;
}

/** An icon-only × button that closes or dismisses what it sits in. */
export function CloseButton({ label, onClick, size = 'sm', className }: CloseButtonProps) {
  return (
    <button
      type="button"
      onClick={onClick}
      aria-label={label}
      className={cx(className, 'rounded-control text-ink-muted hover:bg-surface-hover hover:text-ink', sizes[size].button)}
    >
      <svg aria-hidden="true" viewBox="0 0 20 20" className={sizes[size].icon} fill="currentColor">
        <path d="M5.28 4.22a.75.75 0 0 0-1.06 1.06L8.94 10l-4.72 4.72a.75.75 0 1 0 1.06 1.06L10 11.06l4.72 4.72a.75.75 0 1 0 1.06-1.06L11.06 10l4.72-4.72a.75.75 0 0 0-1.06-1.06L10 8.94 5.28 4.22Z" />
      </svg>
    </button>
  );
}
