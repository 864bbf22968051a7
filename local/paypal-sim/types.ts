/** The PayPal simulator's shapes: its options and handle, orders and captures as PayPal represents them, errors, events. */

export interface PaypalSimOptions {
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 0: a free port. */
  port?: number;
  /** Keep the state on disk here (persist.ts); default: in memory only. */
  dataDir?: string;
  /** OAuth client credentials the token endpoint accepts. */
  clientId: string;
  clientSecret: string;
  /** The webhook id verify-webhook-signature checks against (and the one webhooks are signed with). */
  webhookId: string;
  /** Where to POST webhook events (the app's /api/webhooks/paypal); may be set later with setWebhookUrl. */
  webhookUrl?: string;
  /** Base URL the browser uses for the approval page; default the simulator's own URL. */
  publicBaseUrl?: string;
  /** Used to deliver webhooks; default globalThis.fetch. */
  fetchImpl?: typeof fetch;
  /** Diagnostic lines (webhook delivery failures); default silent. */
  log?: (line: string) => void;
  /**
   * Delays between a failed webhook delivery and its next attempts (PayPal retries a non-2xx delivery up to 25
   * times over 3 days); default 250 ms, 1 s, 5 s, 30 s, 2 min.
   */
  webhookRetryDelaysMs?: number[];
  /**
   * Each event's first delivery waits a random 0..N ms, so events close together can arrive out of order, as
   * PayPal's do; default 100 ms (0: in order).
   */
  webhookJitterMs?: number;
  /** How long a buyer has to approve an order before it expires; default PayPal's 3 hours. */
  approvalWindowMs?: number;
}

export interface PaypalSim {
  url: string;
  close(): Promise<void>;
  setWebhookUrl(url: string | undefined): void;
  /** A snapshot (deep copy) of every order, oldest first. */
  orders(): SimOrder[];
  /**
   * Test hook: approve an order as the buyer would, without a browser (fires CHECKOUT.ORDER.APPROVED), with the
   * funding outcome the approval page offers (default COMPLETED).
   */
  approve(orderId: string, outcome?: SimFundingOutcome): void;
  /** Test hook: bill a subscription's next cycle now, as POST /simulator/subscriptions/{id}/bill does. */
  billSubscription(id: string, outcome: 'completed' | 'failed'): void;
}

/**
 * What the buyer's funding source does at capture, chosen on the approval page: COMPLETED; PENDING (held for
 * review: PAYMENT.CAPTURE.PENDING, then completed or denied from the dashboard); DECLINED (capture DECLINED,
 * PAYMENT.CAPTURE.DECLINED); INSTRUMENT_DECLINED (the capture call fails with 422 INSTRUMENT_DECLINED and a
 * redirect link: the buyer must approve again with another funding source).
 */
export const SIM_FUNDING_OUTCOMES = ['COMPLETED', 'PENDING', 'DECLINED', 'INSTRUMENT_DECLINED'] as const;
export type SimFundingOutcome = (typeof SIM_FUNDING_OUTCOMES)[number];

export type SimOrderStatus = 'CREATED' | 'PAYER_ACTION_REQUIRED' | 'APPROVED' | 'COMPLETED';

export interface SimMoney {
  currency_code: string;
  value: string;
}

export interface SimLink {
  href: string;
  rel: string;
  method: 'GET' | 'POST' | 'PATCH';
}

export interface SimPayer {
  name: { given_name: string; surname: string };
  email_address: string;
  payer_id: string;
  address: { country_code: string };
}

export type SimCaptureStatus = 'COMPLETED' | 'PENDING' | 'DECLINED' | 'PARTIALLY_REFUNDED' | 'REFUNDED';

export interface SimCapture {
  id: string;
  status: SimCaptureStatus;
  status_details?: { reason: string };
  amount: SimMoney;
  final_capture: boolean;
  seller_protection: { status: 'ELIGIBLE'; dispute_categories: string[] };
  seller_receivable_breakdown: { gross_amount: SimMoney; paypal_fee: SimMoney; net_amount: SimMoney };
  custom_id?: string;
  invoice_id?: string;
  links: SimLink[];
  create_time: string;
  update_time: string;
}

export interface SimPurchaseUnit {
  reference_id: string;
  amount: SimMoney & { breakdown?: Record<string, SimMoney> };
  payee: { email_address: string; merchant_id: string };
  description?: string;
  custom_id?: string;
  invoice_id?: string;
  soft_descriptor?: string;
  items?: unknown[];
  payments?: { captures: SimCapture[] };
}

export interface SimExperienceContext {
  return_url?: string;
  cancel_url?: string;
  brand_name?: string;
  user_action?: string;
  shipping_preference?: string;
  landing_page?: string;
  locale?: string;
  payment_method_preference?: string;
}

export interface SimOrder {
  id: string;
  intent: 'CAPTURE';
  status: SimOrderStatus;
  create_time: string;
  update_time?: string;
  purchase_units: SimPurchaseUnit[];
  /** Set on approval. */
  payer?: SimPayer;
  /** `{ paypal: {} }` when created with payment_source.paypal; filled with the buyer's account on approval. */
  payment_source?: { paypal: Record<string, unknown> };
  /** Not in PayPal's representation: what the merchant asked for (experience_context, or legacy application_context). */
  experience_context: SimExperienceContext;
  /** Not in PayPal's representation: the PayPal-Request-Id the order was created with. */
  request_id?: string;
  /** Not in PayPal's representation: what the buyer's funding source does at capture (approval page). */
  funding?: SimFundingOutcome;
}

/** A refund (or a reversal: a chargeback PayPal takes back) as PayPal represents it. */
export interface SimRefund {
  id: string;
  status: 'COMPLETED';
  amount: SimMoney;
  note_to_payer?: string;
  seller_payable_breakdown: { gross_amount: SimMoney; paypal_fee: SimMoney; net_amount: SimMoney; total_refunded_amount: SimMoney };
  custom_id?: string;
  invoice_id?: string;
  create_time: string;
  update_time: string;
  links: SimLink[];
}

/** A buyer's dispute of a capture (the parts of PayPal's dispute resource the simulator keeps). */
export interface SimDispute {
  dispute_id: string;
  create_time: string;
  update_time: string;
  disputed_transactions: { seller_transaction_id: string; create_time: string; transaction_status: string; gross_amount: SimMoney; custom?: string }[];
  reason: 'UNAUTHORISED' | 'MERCHANDISE_OR_SERVICE_NOT_RECEIVED';
  status: 'OPEN' | 'RESOLVED';
  dispute_amount: SimMoney;
  dispute_outcome?: { outcome_code: 'RESOLVED_BUYER_FAVOUR' | 'RESOLVED_SELLER_FAVOUR'; amount_refunded?: SimMoney };
  dispute_life_cycle_stage: 'INQUIRY' | 'CHARGEBACK';
  dispute_channel: 'INTERNAL' | 'EXTERNAL';
  links: SimLink[];
}

/** The simulated buyer who approves every order. */
export const SIM_BUYER: SimPayer = {
  name: { given_name: 'Sandbox', surname: 'Buyer' },
  email_address: 'sb-buyer@personal.example.com',
  payer_id: 'SB7BUYERQXZ4N',
  address: { country_code: 'US' },
};

/** The merchant every order pays. */
export const SIM_PAYEE = { email_address: 'sb-merchant@business.example.com', merchant_id: 'SIMMERCH7Q2ZK' };

export interface PaypalIssue {
  field?: string;
  value?: string;
  location?: 'body' | 'path' | 'query' | 'header';
  issue: string;
  description: string;
}

export interface PaypalErrorBody {
  name: string;
  message: string;
  debug_id: string;
  details?: PaypalIssue[];
  links: SimLink[];
}

/** A webhook event as PayPal sends it (and serves at /v1/notifications/webhooks-events/{id}). */
export interface WebhookEvent {
  id: string;
  event_version: string;
  create_time: string;
  resource_type: string;
  resource_version: string;
  event_type: string;
  summary: string;
  resource: unknown;
  links: SimLink[];
}

/** What one webhook delivery sent, kept to verify its signature later. */
export interface Delivery {
  raw: string;
  eventId: string;
  transmissionTime: string;
}

export type Json = Record<string, unknown>;

export const isRecord = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
