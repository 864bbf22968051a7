import { ORDER_APPROVAL_WINDOW_MS, type OrderStatus } from '../../../contract/payments';
import type { Order } from '../../ports/payments';

/**
 * The status an order is shown with, and since when: one never approved within PayPal's approval window is
 * expired (derived here rather than stored, so no sweeper is needed; a late approval could still settle it).
 */
export function shownStatus(o: Order, now: Date): { status: OrderStatus; statusAt: string } {
  const deadline = Date.parse(o.createdAt) + ORDER_APPROVAL_WINDOW_MS;
  if (o.status === 'created' && now.getTime() > deadline) return { status: 'expired', statusAt: new Date(deadline).toISOString() };
  return { status: o.status, statusAt: o.statusAt ?? o.createdAt };
}
