/** The PayPal simulator's shapes: its options and handle, orders and captures as PayPal represents them, errors, events. */

export interface PaypalSimOptions {
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 0: a free port. */
  port?: number;
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
}

export interface PaypalSim {
  url: string;
  close(): Promise<void>;
  setWebhookUrl(url: string | undefined): void;
  /** A snapshot (deep copy) of every order, oldest first. */
  orders(): SimOrder[];
  /** Test hook: approve an order as the buyer would, without a browser (fires CHECKOUT.ORDER.APPROVED). */
  approve(orderId: string): void;
}

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

export interface SimCapture {
  id: string;
  status: 'COMPLETED';
  amount: SimMoney;
  final_capture: true;
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
