/**
 * The receipt mailed once an order is credited (by whichever trigger won the crediting transaction): the pack,
 * amount, currency, credits, PayPal's capture id and the date. A mail that fails is logged, never retried into
 * a second credit: the same details stay on the order in My Payments.
 */
import { findPack, formatUsd, toCents } from '../../../contract/packs';
import { WITHDRAWAL_CONSENT_TEXT } from '../../../contract/payments';
import type { AccountStore } from '../../ports/accounts';
import type { Mail, Mailer } from '../../ports/mailer';
import type { Order } from '../../ports/payments';

export interface ReceiptDeps {
  accounts: Pick<AccountStore, 'get'>;
  mailer: Mailer;
  log: (message: string, details: Record<string, unknown>) => void;
}

export function receiptMail(to: string, order: Order): Mail {
  const cents = toCents(order.amount);
  const amount = order.currency === 'USD' && cents !== undefined ? formatUsd(cents) : `${order.amount} ${order.currency}`;
  const pack = findPack(order.amount, order.credits);
  const lines = [
    'Thank you for your purchase. This is your receipt.',
    '',
    `Pack: ${pack ? `${pack.credits} credits (${pack.id})` : order.packId}`,
    `Amount: ${amount} (${order.currency})`,
    `Credits added: ${order.credits}`,
    `PayPal capture id: ${order.captureId ?? ''}`,
    `PayPal order id: ${order.id}`,
    `Date: ${order.capturedAt ?? ''}`,
    '',
    // The durable confirmation of checkout's consent (contract/payments WithdrawalConsent).
    ...(order.withdrawalConsentAt
      ? [
          `Right of withdrawal: at checkout (${order.withdrawalConsentAt}) you confirmed: "${WITHDRAWAL_CONSENT_TEXT}"`,
          'Unused credits of this purchase can still be refunded as our terms say (section 4, Refunds).',
          '',
        ]
      : []),
    'You can see this payment any time in My Account > My Payments.',
  ];
  return { to: [to], subject: `Your Framewright receipt: ${order.credits} credits`, text: lines.join('\n') };
}

export async function sendReceipt(deps: ReceiptDeps, order: Order): Promise<void> {
  try {
    const account = await deps.accounts.get(order.owner);
    if (!account?.email) throw new Error('the account has no email');
    await deps.mailer.send(receiptMail(account.email, order));
  } catch (err) {
    deps.log('Payment receipt not sent', { orderId: order.id, owner: order.owner, error: (err as Error).message });
  }
}
