import type { ReactNode } from 'react';
import { cx } from '../lib/cx';
import { CloseButton } from './close-button';

export type AlertVariant = 'success' | 'error' | 'info';

const styles: Record<AlertVariant, string> = {
  success: 'border-success/40 bg-success-soft text-success',
  error: 'border-danger/40 bg-danger-soft text-danger',
  info: 'border-info/40 bg-info-soft text-info',
};

export interface AlertProps {
  variant?: AlertVariant;
  title?: ReactNode;
  children?: ReactNode;
  /** Adds a dismiss button. */
  onDismiss?: () => void;
  className?: string;
}

/** Errors use role="alert" (announced at once); success and info use role="status" (polite). */
export function Alert({ variant = 'info', title, children, onDismiss, className }: AlertProps) {
  return (
    <div
      role={variant === 'error' ? 'alert' : 'status'}
      className={cx('flex items-start gap-3 rounded-control border px-4 py-3 text-sm', styles[variant], className)}
    >
      <div className="min-w-0 flex-1">
        {title && <p className="font-semibold">{title}</p>}
        {children && <div className={cx(title ? 'mt-0.5' : undefined, 'text-ink')}>{children}</div>}
      </div>
      {onDismiss && <CloseButton label="Dismiss" onClick={onDismiss} className="-m-1" />}
    </div>
  );
}
