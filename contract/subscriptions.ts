/**
 * Monthly plans through PayPal Subscriptions: request and response schemas.
 *
 * The flow:
 * 1. POST /api/subscriptions {planId, returnPath?} -> {approvalUrl}: PayPal's approval page for the plan.
 * 2. PayPal sends the browser (approved or cancelled) to GET /api/paypal/subscription-return?to=<returnPath>&subscription_id=...
 *    (the `to` is in the URL we gave PayPal): a public link anyone can call with any id, so it reads and changes
 *    nothing and always redirects to `to` (an allowed path, else '/') with `?subscription=returned`
 *    (subscriptionReturnPath in payment-return-paths.ts). The page, signed in, asks GET /api/subscription, which reads a
 *    plan still pending at PayPal first (it may just have been approved) and grants what PayPal already took.
 * 3. PayPal's webhooks: each completed billing payment (PAYMENT.SALE.COMPLETED, keyed by the sale id) grants the plan's
 *    credits once; BILLING.SUBSCRIPTION.* keep the status; a refunded or reversed billing payment takes its credits back.
 * 4. GET /api/subscription shows the plan; POST /api/subscription/cancel cancels at PayPal; POST /api/subscription/change
 *    revises the plan at PayPal (the buyer approves; the new price and credits from the next cycle).
 */
import * as z from 'zod';
import { Messages } from './errors';
import { PaymentReturnPath, WithdrawalConsent } from './payments';
import { PLANS } from './plans';

export const PlanView = z.object({
  id: z.string(),
  name: z.string(),
  /** Monthly price in USD, "9.99". */
  price: z.string(),
  currency: z.string(),
  /** Credits granted each month. */
  credits: z.number().int().positive(),
});
export const PlansResponse = z.object({ plans: z.array(PlanView) });
export type PlansResponse = z.infer<typeof PlansResponse>;

export const PlanId = z.enum(PLANS.map((p) => p.id) as [string, ...string[]], { error: Messages.invalidPlan });

export const CreateSubscriptionRequest = z.object(
  {
    planId: PlanId,
    /** The app page to come back to after PayPal; '/' when left out. */
    returnPath: PaymentReturnPath.optional(),
    /** As for a pack: the buyer asks for each month's credits at once and acknowledges the lost right of withdrawal. */
    withdrawalConsent: WithdrawalConsent,
  },
  { error: Messages.invalidPlan },
);
export type CreateSubscriptionRequest = z.infer<typeof CreateSubscriptionRequest>;

export const ChangeSubscriptionRequest = z.object(
  {
    planId: PlanId,
    /** The app page PayPal's revision page comes back to (My Account changes plan); the subscription's own when left out. */
    returnPath: PaymentReturnPath.optional(),
  },
  { error: Messages.invalidPlan },
);
export type ChangeSubscriptionRequest = z.infer<typeof ChangeSubscriptionRequest>;

export const ApprovalResponse = z.object({
  /** PayPal's approval page: send the browser there. */
  approvalUrl: z.string(),
});
export type ApprovalResponse = z.infer<typeof ApprovalResponse>;

/**
 * none: never subscribed (or the last one never approved); pending: waiting for the buyer's approval or PayPal's first
 * payment; active; suspended: PayPal stopped billing after failed payments (no grants until it is paid); cancelled.
 */
export const SubscriptionStatus = z.enum(['none', 'pending', 'active', 'suspended', 'cancelled']);
export type SubscriptionStatus = z.infer<typeof SubscriptionStatus>;

export const SubscriptionView = z.object({
  /** PayPal's subscription id (absent with status none). */
  id: z.string().optional(),
  planId: z.string().optional(),
  status: SubscriptionStatus,
  /** When PayPal bills next (active), ISO 8601. */
  nextBillingAt: z.string().optional(),
  /** The plan credits on the account now (spent before pack credits; at most two months' grants). */
  planCredits: z.number().int(),
  /** The pack and welcome credits, which never expire. */
  packCredits: z.number().int(),
  /** A plan change the buyer approved, applied by PayPal from the next cycle. */
  nextPlanId: z.string().optional(),
  /** Why the last payment failed and what to do (suspended, or a retry pending). */
  problem: z.string().optional(),
});
export type SubscriptionView = z.infer<typeof SubscriptionView>;

/** PayPal's subscription ids: I- and upper-case letters and digits. */
export const PaypalSubscriptionId = z.string().regex(/^I-[A-Z0-9]{6,40}$/);

/**
 * The return's query: only `to` is used. PayPal adds subscription_id, ba_token and token, which the return ignores
 * (anyone can put any id there), so they are not checked; a `to` not allowed lands on '/'.
 */
export const SubscriptionReturnQuery = z.object({
  to: PaymentReturnPath.optional().catch(undefined),
});
export type SubscriptionReturnQuery = z.infer<typeof SubscriptionReturnQuery>;
