/** How My Payments words and formats orders and ledger rows. */
import type { LedgerReason, OrderStatus } from '../../../../contract/payments';
import { formatUsd, toCents } from '../../../../contract/packs';

export const LEDGER_REASON_LABELS: Record<LedgerReason, string> = {
  welcome: 'Welcome bonus',
  image: 'Image',
  video: 'Video',
  refund: 'Refund',
  purchase: 'Purchase',
  'purchase-refund': 'Refund',
  chargeback: 'Chargeback',
  plan: 'Plan credits',
  'plan-expiry': 'Plan credits expired (over one month’s rollover)',
};

export const ORDER_STATUS_LABELS: Record<OrderStatus, string> = {
  captured: 'Paid',
  created: 'Awaiting payment',
  pending: 'Pending',
  failed: 'Failed',
  canceled: 'Canceled',
  expired: 'Expired',
  partially_refunded: 'Partly refunded',
  refunded: 'Refunded',
  reversed: 'Reversed',
};

/** A label for a reason this app version does not know yet (a newer server), rather than nothing. */
export function ledgerReasonLabel(reason: string): string {
  return LEDGER_REASON_LABELS[reason as LedgerReason] ?? reason.charAt(0).toUpperCase() + reason.slice(1);
}

export function orderStatusLabel(status: string): string {
  return ORDER_STATUS_LABELS[status as OrderStatus] ?? status;
}

/** "+72", "−1" (a true minus sign), "0". */
export function formatDelta(delta: number): string {
  if (delta > 0) return `+${delta}`;
  if (delta < 0) return `\u2212${Math.abs(delta)}`;
  return '0';
}

/** "$6.99" for USD; "6.99 EUR" for a currency this app does not sell in (never guessed into dollars). */
export function formatAmount(amount: string, currency: string): string {
  const cents = toCents(amount);
  if (cents === undefined) return `${amount} ${currency}`;
  if (currency === 'USD') return formatUsd(cents);
  return `${(cents / 100).toFixed(2)} ${currency}`;
}
