import type { PaymentReturnPath } from '../../contract/payments';
import type { Plan } from '../../contract/plans';
import type { SubscriptionStatus } from '../../contract/subscriptions';
import type { Page } from './page';
import type { CreditResult, Money, Order } from './payments';

// ---- the provider (PayPal Subscriptions v1, Catalog Products v1) -------------------------------------------------

/** The parts of a PayPal subscription we act on. */
export interface ProviderSubscription {
  id: string;
  /** APPROVAL_PENDING, APPROVED, ACTIVE, SUSPENDED, CANCELLED, EXPIRED */
  status: string;
  /** PayPal's plan id. */
  paypalPlanId: string;
  /** Ours: the subscriber's sub. */
  customId?: string;
  nextBillingAt?: string;
  failedPayments: number;
  /** When PayPal will try a failed payment again (absent once it gave up and suspended). */
  nextRetryAt?: string;
  /** The buyer's approval page, while it waits for approval. */
  approvalUrl?: string;
}

/** A billing payment (PayPal's transaction list and PAYMENT.SALE.* events: a sale). */
export interface ProviderSale {
  id: string;
  /** COMPLETED, PARTIALLY_REFUNDED, REFUNDED, DECLINED, PENDING... */
  status: string;
  amount: Money;
  time: string;
}

export interface NewProviderSubscription {
  requestId: string;
  paypalPlanId: string;
  customId: string;
  returnUrl: string;
  cancelUrl: string;
  brandName: string;
}

export interface SubscriptionProvider {
  /** Our catalog product at PayPal; the same requestId gives the same product. */
  createProduct(requestId: string, name: string): Promise<string>;
  /** A monthly billing plan for the product at the plan's price; the same requestId gives the same plan. */
  createPlan(requestId: string, productId: string, plan: Plan): Promise<string>;
  createSubscription(s: NewProviderSubscription): Promise<ProviderSubscription>;
  getSubscription(id: string): Promise<ProviderSubscription>;
  /** The subscription's billing payments between two dates. */
  listSales(id: string, from: Date, to: Date): Promise<ProviderSale[]>;
  /** A billing payment with the subscription it belongs to. */
  getSale(id: string): Promise<ProviderSale & { subscriptionId?: string }>;
  cancel(id: string, reason: string): Promise<void>;
  /** Asks PayPal to move the subscription to another plan: the buyer approves at the returned page. */
  revise(id: string, paypalPlanId: string, returnUrl: string, cancelUrl: string): Promise<{ approvalUrl: string }>;
  /**
   * Refunds all that is left of a billing payment (POST /v1/payments/sale/{id}/refund with an empty body); the same
   * requestId (PayPal-Request-Id) answers a retry with the first refund. PayPal refuses a sale refunded already
   * (PaymentRefused).
   */
  refundSale(saleId: string, requestId: string): Promise<{ id: string; amount: Money }>;
}

// ---- our records ---------------------------------------------------------------------------------------------

export interface Subscription {
  owner: string;
  /** PayPal's subscription id. */
  id: string;
  planId: string;
  status: Exclude<SubscriptionStatus, 'none'>;
  createdAt: string;
  statusAt: string;
  returnPath: PaymentReturnPath;
  /** When the buyer asked for each month's credits at once and acknowledged losing the right of withdrawal. */
  withdrawalConsentAt?: string;
  nextBillingAt?: string;
  /** A plan change the buyer approved at PayPal whose price is billed from the next cycle (planId: the one paid now). */
  nextPlanId?: string;
  /** When PayPal retries a failed payment (the user is told; absent when paid). */
  nextRetryAt?: string;
  failedPayments?: number;
}

/**
 * A billing payment we refunded instead of granting: of a second plan the person approved while another one billed
 * (`second-plan`), or of a plan whose account was deleted (`account-deleted`). Kept for support under the sale's id,
 * without the person: no owner, no email, nothing of the account; PayPal's ids, the amount and the dates.
 */
export interface RefusedSale {
  saleId: string;
  subscriptionId: string;
  amount: Money;
  /** When PayPal took the payment. */
  saleTime: string;
  reason: 'second-plan' | 'account-deleted';
  /** refunding: recorded, PayPal's refund not confirmed yet (a retry refunds it, same request id); refunded. */
  outcome: 'refunding' | 'refunded';
  /** PayPal's refund id (absent when PayPal said the sale was refunded already). */
  refundId?: string;
  recordedAt: string;
  refundedAt?: string;
}

/**
 * A PayPal subscription the plans' reconciler reads (reconcile-subscriptions): every one we made, from its creation
 * until it has been over (cancelled or expired at PayPal) for a while, or was never approved.
 */
export interface WatchedPlan {
  /** PayPal's subscription id. */
  id: string;
  owner: string;
  createdAt: string;
  /** When the reconciler last read it at PayPal. */
  checkedAt?: string;
  /** When the reconciler first found it over at PayPal. */
  endedAt?: string;
}

/** A completed billing payment to credit: stored like an order (its id is the sale id), with the plan's grant. */
export interface SaleGrant {
  owner: string;
  saleId: string;
  subscriptionId: string;
  planId: string;
  /** The grant: the plan's credits for each month the payment paid. */
  credits: number;
  /** One month's grant (the rollover cap). */
  monthCredits: number;
  amount: Money;
  at: string;
  /** When PayPal took the payment: the rollover cap applies as of then (a month granted late keeps its credits). */
  saleAt?: string;
}

/** The order a granted sale is stored as: captured, under the sale's id, naming its plan and subscription. */
export function orderOfSale(g: SaleGrant): Order {
  return {
    id: g.saleId,
    owner: g.owner,
    packId: g.planId,
    credits: g.credits,
    amount: g.amount.value,
    currency: g.amount.currency,
    status: 'captured',
    createdAt: g.at,
    statusAt: g.at,
    captureId: g.saleId,
    capturedAt: g.at,
    subscriptionId: g.subscriptionId,
  };
}

export interface SubscriptionStore {
  /** PayPal's id of what we made there under this key (our product, or a plan at a price), if we made it. */
  paypalId(key: string): Promise<string | undefined>;
  rememberPaypalId(key: string, paypalId: string, planId?: string): Promise<void>;
  /** Our plan id of a PayPal plan we made. */
  planOfPaypal(paypalPlanId: string): Promise<string | undefined>;
  get(owner: string): Promise<Subscription | undefined>;
  /** The owner's whole balance and its plan part (0 and 0 without an account). */
  balances(owner: string): Promise<{ credits: number; planCredits: number }>;
  /** The owner of a PayPal subscription made by us. */
  ownerOf(id: string): Promise<string | undefined>;
  /** Records a new subscription as the owner's (replacing a cancelled or never approved one); false while another is active or suspended. */
  start(s: Subscription): Promise<boolean>;
  /**
   * Makes a subscription PayPal activated the owner's plan, unless another one of theirs is active or suspended, or
   * the account is gone or being deleted: false then (the caller refuses it). True when it is (now) the owner's plan.
   */
  adopt(s: Subscription): Promise<boolean>;
  /** Marks a subscription of ours as refused (a second plan, or one of a deleted account): none of its payments is granted. */
  refuse(id: string, at: string, reason: RefusedSale['reason']): Promise<void>;
  /** Why and when the subscription was refused, if it was. */
  refusal(id: string): Promise<{ at: string; reason: RefusedSale['reason'] } | undefined>;
  /** Whether a billing payment was granted (its order exists). */
  isGranted(saleId: string): Promise<boolean>;
  /** A refused billing payment's record (`REFUSED_SALE#<saleId>`), if any. */
  refusedSale(saleId: string): Promise<RefusedSale | undefined>;
  /** Writes the refused payment's record (a later write of the same sale replaces it: refunding, then refunded). */
  recordRefusedSale(r: RefusedSale): Promise<void>;
  /** Changes the owner's subscription record, if it is still this PayPal subscription. */
  update(
    owner: string,
    id: string,
    fields: Partial<Pick<Subscription, 'status' | 'planId' | 'nextPlanId' | 'nextBillingAt' | 'nextRetryAt' | 'failedPayments' | 'statusAt' | 'returnPath'>>,
  ): Promise<void>;
  /** The watched subscriptions, least recently read first. */
  listWatched(limit: number, cursor?: string): Promise<Page<WatchedPlan>>;
  /** The reconciler read it at `at` (it moves to the end of the list); `endedAt` once PayPal says it is over. */
  markChecked(plan: WatchedPlan, at: string, endedAt?: string): Promise<void>;
  /** It leaves the watched list (over long enough ago, never approved, or unknown to PayPal). */
  stopWatching(plan: WatchedPlan): Promise<void>;
  /**
   * One transaction: the sale stored as a captured order of the owner (`ORDER#<saleId>`, once: its own condition), the
   * owner's payment copy, the plan credits granted with the rollover cap, and their ledger rows. Refused (not
   * credited) when the subscription was refused meanwhile.
   */
  grant(g: SaleGrant): Promise<CreditResult>;
}
