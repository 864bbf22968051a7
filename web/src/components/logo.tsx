import { useId } from 'react';
import { cx } from '../lib/cx';

/** The Framewright mark: a frame whose corner opens into a spark. Same drawing as public/favicon.svg. */
export function LogoMark({ className }: { className?: string }) {
  // Unique per instance: the mark appears in both header and footer.
  const gradientId = useId();
  return (
    <svg viewBox="0 0 32 32" aria-hidden="true" className={cx('size-7', className)}>
      <defs>
        <linearGradient id={gradientId} x1="0" y1="0" x2="32" y2="32" gradientUnits="userSpaceOnUse">
          <stop offset="0" stopColor="#8f74ff" />
          <stop offset="1" stopColor="#22d3ee" />
        </linearGradient>
      </defs>
      <rect width="32" height="32" rx="8" fill="#12121a" />
      <path
        d="M9 21V11a2 2 0 0 1 2-2h10M23 15v6a2 2 0 0 1-2 2h-10"
        fill="none"
        stroke={`url(#${gradientId})`}
        strokeWidth="2.5"
        strokeLinecap="round"
      />
      <path d="M23 6.5l1 2.5 2.5 1-2.5 1-1 2.5-1-2.5-2.5-1 2.5-1z" fill="#22d3ee" />
    </svg>
  );
}

export function Logo({ className }: { className?: string }) {
  return (
    <span className={cx('inline-flex items-center gap-2 font-semibold tracking-tight text-ink', className)}>
      <LogoMark />
      <span>Framewright</span>
    </span>
  );
}
