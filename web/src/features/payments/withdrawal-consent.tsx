import { useId } from 'react';
import { WITHDRAWAL_CONSENT_TEXT } from '../../../../contract/payments';
import { cx } from '../../lib/cx';

export interface WithdrawalConsentProps {
  checked: boolean;
  onChange: (checked: boolean) => void;
  /** Shown under the box when the buyer tried to pay without ticking it. */
  error?: string;
  className?: string;
}

/**
 * Checkout's unticked box (contract/payments WithdrawalConsent): before PayPal, the buyer asks for the credits at once
 * and acknowledges losing the 14-day right of withdrawal once they are used. Packs and plans send it; the server
 * refuses either without it and records when it was given, and the receipt repeats it.
 */
export function WithdrawalConsent({ checked, onChange, error, className }: WithdrawalConsentProps) {
  const id = useId();
  return (
    <div className={cx('text-sm', className)}>
      <label className="flex items-start gap-2 text-ink">
        <input
          type="checkbox"
          className="mt-0.5 size-4 shrink-0 accent-brand"
          checked={checked}
          onChange={(e) => onChange(e.target.checked)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
        />
        <span>{WITHDRAWAL_CONSENT_TEXT}</span>
      </label>
      {error && (
        <p id={`${id}-error`} role="alert" className="mt-1 text-danger">
          {error}
        </p>
      )}
    </div>
  );
}
