import type { LedgerReason, OrderStatus, PaymentReturnPath } from '../../contract/payments';
import type { Page } from './page';
import type { WebhookVerifier } from './webhooks';

export interface Money {
  /** ISO 4217, e.g. USD. */
  currency: string;
  /** A decimal string, e.g. "6.99". */
  value: string;
}

// ---- the payment provider (PayPal Orders v2) ----------------------------------------------------------------

export interface NewProviderOrder {
  /** Sent as PayPal-Request-Id: a retried create gives the same order. */
  requestId: string;
  amount: Money;
  /** Ties the payment to our user (the owner's sub); PayPal copies it onto the capture. */
  customId: string;
  /** Shown to the buyer on PayPal. */
  description: string;
  itemName: string;
  referenceId: string;
  returnUrl: string;
  cancelUrl: string;
  brandName: string;
}

export interface ProviderCapture {
  id: string;
  /** COMPLETED, PENDING, DECLINED, FAILED, PARTIALLY_REFUNDED, REFUNDED */
  status: string;
  amount?: Money;
  customId?: string;
  /** The order it captured (supplementary_data.related_ids.order_id), when PayPal says. */
  orderId?: string;
}

/** The parts of a PayPal order we act on (first purchase unit; we create orders with one). */
export interface ProviderOrder {
  id: string;
  /** CREATED, PAYER_ACTION_REQUIRED, APPROVED, COMPLETED, VOIDED, ... */
  status: string;
  amount?: Money;
  customId?: string;
  captures: ProviderCapture[];
  /** Where the buyer approves the order (the payer-action or approve link), while approval is pending. */
  approvalUrl?: string;
}

/** A verified PayPal event, reduced to what the use cases act on. */
export interface PaymentEvent {
  /** PayPal's event id: the same on every retry of one event. */
  eventId: string;
  /** e.g. CHECKOUT.ORDER.APPROVED, PAYMENT.CAPTURE.COMPLETED, PAYMENT.CAPTURE.REFUNDED, CUSTOMER.DISPUTE.CREATED. */
  eventType: string;
  /** The order it is about, when the event names it (a well-formed order id). */
  orderId?: string;
  /** The capture it is about (PAYMENT.CAPTURE.*: the capture, or the refund's capture; disputes: the disputed one). */
  captureId?: string;
  /** PAYMENT.CAPTURE.REFUNDED / REVERSED: the refund (or reversal) and the amount that went back, positive. */
  refund?: { id: string; amount: Money };
  /** BILLING.SUBSCRIPTION.* and PAYMENT.SALE.*: the subscription it is about (a well-formed PayPal subscription id). */
  subscriptionId?: string;
  /** PAYMENT.SALE.COMPLETED: the billing payment. */
  sale?: { id: string; amount: Money; time: string };
}

/** The provider answered, and the answer is no (4xx): retrying the same request will not help. */
export class PaymentRefused extends Error {
  constructor(
    message: string,
    readonly status: number,
    /** PayPal's error name and first issue, e.g. UNPROCESSABLE_ENTITY / INSTRUMENT_DECLINED. */
    readonly providerError: string,
    readonly issue?: string,
  ) {
    super(message);
    this.name = 'PaymentRefused';
  }
}
/**
 * The buyer's funding source failed at capture (INSTRUMENT_DECLINED, PAYER_ACTION_REQUIRED, ...): PayPal says to
 * send the buyer back to the approval page to choose another one. `redirectUrl`: the link PayPal gave, if any.
 */
export class FundingDeclined extends PaymentRefused {
  redirectUrl?: string;
}
/** Capture before the buyer approved (ORDER_NOT_APPROVED). */
export class OrderNotApproved extends PaymentRefused {}
/** The order was captured before (ORDER_ALREADY_CAPTURED): read it to see the capture. */
export class OrderAlreadyCaptured extends PaymentRefused {}
/** The provider could not be reached or failed (network, timeout, 5xx): the outcome is unknown, retry later. */
export class PaymentProviderUnavailable extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PaymentProviderUnavailable';
  }
}

export interface PaymentProvider {
  createOrder(order: NewProviderOrder): Promise<ProviderOrder>;
  getOrder(id: string): Promise<ProviderOrder>;
  /** Captures an approved order; the same requestId makes a retried capture return the first one's result. */
  captureOrder(id: string, requestId: string): Promise<ProviderOrder>;
  /** A capture, with the order it belongs to. */
  getCapture(id: string): Promise<ProviderCapture>;
}

/**
 * PayPal's webhooks: the event, when PayPal confirms the delivery is genuine and meant for our webhook; undefined
 * when it is not. Throws PaymentProviderUnavailable when PayPal cannot say.
 */
export type PaymentWebhooks = WebhookVerifier<PaymentEvent>;

// ---- our records ----------------------------------------------------------------------------------------------

export interface Order {
  /** The provider's order id. */
  id: string;
  /** Who pays and gets the credits (Cognito sub). */
  owner: string;
  packId: string;
  credits: number;
  /** "6.99" */
  amount: string;
  currency: string;
  status: StoredOrderStatus;
  createdAt: string;
  /** When it reached its status (createdAt for a new order). */
  statusAt?: string;
  /** PayPal's approval page for this order: where a buyer whose funding source was declined goes back to. */
  approvalUrl?: string;
  /** A plan's billing payment (the id is PayPal's sale id): the subscription it paid, and its claw-back takes plan credits first. */
  subscriptionId?: string;
  /** The app page PayPal's return and cancel send the buyer back to; orders stored before it existed have none ('/'). */
  returnPath?: PaymentReturnPath;
  /**
   * When the buyer asked for the credits at once and acknowledged losing the right of withdrawal (checkout's
   * WithdrawalConsent); orders from before it was asked, and plan billings (their plan holds it), have none.
   */
  withdrawalConsentAt?: string;
  captureId?: string;
  capturedAt?: string;
  /** Cents refunded or reversed so far, and the credits that took back. */
  refundedCents?: number;
  creditsTakenBack?: number;
  /** The refunds and reversals applied (PayPal's ids): each takes credits back once. */
  refundIds?: string[];
  dispute?: 'open' | 'resolved';
  /** Why PayPal did not pay (failed). */
  failReason?: string;
  /**
   * When the buyer came back from PayPal's approval while PayPal could not be reached to capture: the order is shown
   * pending (not failed) until the reconciler or a webhook captures it.
   */
  returnedAt?: string;
}

/** Every status but 'expired', which is derived when the order is shown. */
export type StoredOrderStatus = Exclude<OrderStatus, 'expired'>;

export interface TakeBack {
  /** PayPal's refund or reversal id. */
  refundId: string;
  reason: 'purchase-refund' | 'chargeback';
  /** Refunded cents in all after this one, and the credits taken back in all after it. */
  refundedCents: number;
  creditsTakenBack: number;
  status: 'partially_refunded' | 'refunded' | 'reversed';
  at: string;
}

export type CreditResult = { credited: true; balance: number } | { credited: false };

export interface OrderStore {
  /** Stores a new order (status created) and its entry in the owner's payment list, in one transaction. */
  create(order: Order): Promise<void>;
  get(id: string): Promise<Order | undefined>;
  /**
   * One transaction: the order created -> captured, the owner's balance + credits and a "purchase" ledger row.
   * { credited: false } when the order was already captured (nothing is written then).
   */
  captureAndCredit(order: Order, capture: { captureId: string; capturedAt: string }): Promise<CreditResult>;
  /**
   * One transaction: the credits a refund or reversal takes back (the balance may go below zero: the one change
   * allowed to), its ledger row, and the order's new refund totals. Conditioned on the order being as read (same
   * refunded total, refund not applied yet): 'stale' when it is not, so the caller reads it again.
   */
  takeBack(order: Order, t: TakeBack): Promise<{ applied: true; balance: number } | { applied: false; why: 'stale' }>;
  /** The order from one of `from` to `to` (with the given fields), owner's copy too; false when it was in no `from`. */
  transition(order: Order, from: StoredOrderStatus[], to: StoredOrderStatus, at: string, fields?: { failReason?: string }): Promise<boolean>;
  /** Records that the buyer came back approved but the capture could not be made now (the order shows pending). */
  markReturned(order: Order, at: string): Promise<void>;
  /** Orders PayPal may still settle (not captured or failed yet), oldest first, a page at a time. */
  listOpen(limit: number, cursor?: string): Promise<Page<Order>>;
  /** Takes an order off the open list (it can no longer be approved at PayPal); its status stays. */
  closeOpen(order: Order): Promise<void>;
  /** Marks a dispute opened or resolved on a paid order. */
  setDispute(order: Order, dispute: 'open' | 'resolved'): Promise<void>;
  /** The owner's orders, newest first. */
  list(owner: string, limit: number, cursor?: string): Promise<Page<Order>>;
}

export interface LedgerEntry {
  id: string;
  createdAt: string;
  reason: LedgerReason;
  delta: number;
  balance: number;
  /** The part of delta that was plan credits. */
  plan?: number;
  ref: string;
}

export interface LedgerHistory {
  /** The owner's credit changes, newest first. */
  list(owner: string, limit: number, cursor?: string): Promise<Page<LedgerEntry>>;
}
