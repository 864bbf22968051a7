import type { LedgerReason, OrderStatus, PaymentReturnPath } from '../../contract/payments';
import type { Page } from './page';
import type { WebhookDelivery } from './webhooks';

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
  /** COMPLETED, PENDING, DECLINED, FAILED, ... */
  status: string;
  amount?: Money;
  customId?: string;
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
  id: string;
  /** e.g. CHECKOUT.ORDER.APPROVED, PAYMENT.CAPTURE.COMPLETED. */
  eventType: string;
  /** The order it is about, when it is about one of ours (a well-formed order id). */
  orderId?: string;
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
  /**
   * The event, when the provider confirms the delivery is genuine and meant for our webhook; undefined when it
   * is not. Throws PaymentProviderUnavailable when the provider cannot say.
   */
  parseWebhook(delivery: WebhookDelivery): Promise<PaymentEvent | undefined>;
}

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
  status: OrderStatus;
  createdAt: string;
  /** The app page PayPal's return and cancel send the buyer back to; orders stored before it existed have none ('/'). */
  returnPath?: PaymentReturnPath;
  captureId?: string;
  capturedAt?: string;
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
  /** The owner's orders, newest first. */
  list(owner: string, limit: number, cursor?: string): Promise<Page<Order>>;
}

export interface LedgerEntry {
  id: string;
  createdAt: string;
  reason: LedgerReason;
  delta: number;
  balance: number;
  ref: string;
}

export interface LedgerHistory {
  /** The owner's credit changes, newest first. */
  list(owner: string, limit: number, cursor?: string): Promise<Page<LedgerEntry>>;
}
