/**
 * The steps every subscription trigger shares (the buyer's return, PayPal's webhooks, the user's own calls): our plans
 * made at PayPal on first use, a subscription's state read from PayPal, and its billing payments granted once each.
 * Whatever order PayPal's events arrive in, each trigger reads PayPal's current answer and grants what PayPal says was
 * paid; a sale's grant is one transaction guarded by its own marker, so the webhook, its redeliveries and the return
 * grant it once between them.
 */
import type { Plan } from '../../../contract/plans';
import type { SubscriptionStatus } from '../../../contract/subscriptions';
import { salePaysFor } from '../../domain/money-rules';
import type { AccountStore } from '../../ports/accounts';
import type { Mailer } from '../../ports/mailer';
import type { Money } from '../../ports/payments';
import type { ProviderSale, ProviderSubscription, Subscription, SubscriptionProvider, SubscriptionStore } from '../../ports/subscriptions';

export interface SubscriptionDeps {
  subscriptions: SubscriptionStore;
  subscriptionProvider: () => Promise<SubscriptionProvider>;
  /** The receipt goes to the owner's email. */
  accounts: Pick<AccountStore, 'get'>;
  mailer: Mailer;
  now: () => Date;
  log: (message: string, details: Record<string, unknown>) => void;
}

const PRODUCT_KEY = 'product';
const PRODUCT_NAME = 'Framewright monthly credits';
/** A price or credits change makes a new PayPal plan (PayPal plans keep their price): the key names both. */
const planKey = (p: Plan) => `plan:${p.id}@${p.cents}/${p.credits}`;

/** PayPal's plan for ours, made (with our catalog product) the first time anyone subscribes to it. */
export async function paypalPlanFor(deps: Pick<SubscriptionDeps, 'subscriptions' | 'subscriptionProvider'>, plan: Plan): Promise<string> {
  const known = await deps.subscriptions.paypalId(planKey(plan));
  if (known) return known;
  const provider = await deps.subscriptionProvider();
  let product = await deps.subscriptions.paypalId(PRODUCT_KEY);
  if (!product) {
    // The request ids make a retry (or two first subscribers at once) get PayPal's first answer, not a second product.
    product = await provider.createProduct('framewright-product-v1', PRODUCT_NAME);
    await deps.subscriptions.rememberPaypalId(PRODUCT_KEY, product);
  }
  const id = await provider.createPlan(`framewright-${planKey(plan).replace(/[^A-Za-z0-9-]/g, '-')}`, product, plan);
  await deps.subscriptions.rememberPaypalId(planKey(plan), id, plan.id);
  return id;
}

export type GrantResult = 'granted' | 'already-granted' | 'ignored';

/** Grants a completed billing payment of a subscription of ours, once (its sale id is the marker). */
export async function grantSale(deps: SubscriptionDeps, subscriptionId: string, sale: Pick<ProviderSale, 'id' | 'amount' | 'time'>): Promise<GrantResult> {
  const owner = await deps.subscriptions.ownerOf(subscriptionId);
  if (!owner) {
    deps.log('A billing payment of a subscription we did not make', { subscriptionId, saleId: sale.id });
    return 'ignored';
  }
  const mine = await deps.subscriptions.get(owner);
  // What it paid for is a money rule (domain/money-rules: months left outstanding included, after a plan change too).
  const paid = salePaysFor(sale.amount, mine?.id === subscriptionId ? mine.planId : undefined);
  if (!paid) {
    deps.log('A billing payment that pays for no plan of ours', { subscriptionId, saleId: sale.id, amount: sale.amount });
    return 'ignored';
  }
  const at = deps.now().toISOString();
  const { credits } = paid;
  const r = await deps.subscriptions.grant({
    owner,
    saleId: sale.id,
    subscriptionId,
    planId: paid.plan.id,
    credits,
    monthCredits: paid.monthCredits,
    amount: sale.amount,
    at,
    // A month granted late (its webhook lost, found by the reconciler) is capped as of the sale, not of now.
    ...(Number.isNaN(Date.parse(sale.time)) ? {} : { saleAt: sale.time }),
  });
  if (!r.credited) return 'already-granted';
  await sendPlanReceipt(deps, owner, { saleId: sale.id, subscriptionId, plan: paid.plan, credits, amount: sale.amount, at });
  return 'granted';
}

async function sendPlanReceipt(
  deps: SubscriptionDeps,
  owner: string,
  r: { saleId: string; subscriptionId: string; plan: Plan; credits: number; amount: Money; at: string },
): Promise<void> {
  try {
    const account = await deps.accounts.get(owner);
    if (!account?.email) throw new Error('the account has no email');
    await deps.mailer.send({
      to: [account.email],
      subject: `Your Framewright receipt: ${r.plan.name} plan, ${r.credits} credits`,
      text: [
        'Thank you for your subscription. This is your receipt.',
        '',
        `Plan: ${r.plan.name} (${r.plan.credits} credits a month)`,
        `Amount: $${r.amount.value} (${r.amount.currency})`,
        `Plan credits added: ${r.credits}`,
        `PayPal transaction id: ${r.saleId}`,
        `PayPal subscription id: ${r.subscriptionId}`,
        `Date: ${r.at}`,
        '',
        'You can see this payment any time in My Account > My Payments, and cancel the plan there.',
      ].join('\n'),
    });
  } catch (err) {
    // The payment is granted and listed in My Payments; a lost mail is logged, never retried into a second grant.
    deps.log('Plan receipt not sent', { owner, saleId: r.saleId, error: (err as Error).message });
  }
}

export function statusOf(paypalStatus: string): Exclude<SubscriptionStatus, 'none'> {
  if (paypalStatus === 'ACTIVE') return 'active';
  if (paypalStatus === 'SUSPENDED') return 'suspended';
  if (paypalStatus === 'CANCELLED' || paypalStatus === 'EXPIRED') return 'cancelled';
  return 'pending';
}

/** Billing payments that took the buyer's money (later refunds are taken back by their own events). */
export const PAID_SALES: ReadonlySet<string> = new Set(['COMPLETED', 'PARTIALLY_REFUNDED', 'REFUNDED']);

/**
 * Reads the subscription at PayPal and records what it says on the owner's plan (if it is still the owner's). Undefined
 * for a subscription we did not make.
 */
export async function readSubscription(deps: SubscriptionDeps, id: string): Promise<{ owner: string; at: ProviderSubscription; mine?: Subscription } | undefined> {
  const owner = await deps.subscriptions.ownerOf(id);
  if (!owner) return undefined;
  const provider = await deps.subscriptionProvider();
  const at = await provider.getSubscription(id);
  if (at.customId && at.customId !== owner) {
    deps.log('A subscription whose custom_id is not its owner', { id, owner, customId: at.customId });
    return undefined;
  }
  const status = statusOf(at.status);
  const planId = await deps.subscriptions.planOfPaypal(at.paypalPlanId);
  const now = deps.now();
  const before = await deps.subscriptions.get(owner);
  await deps.subscriptions.update(owner, id, {
    status,
    ...(before?.status !== status ? { statusAt: now.toISOString() } : {}),
    ...(planId ? { planId } : {}),
    nextBillingAt: status === 'active' ? at.nextBillingAt : undefined,
    nextRetryAt: at.nextRetryAt,
    failedPayments: at.failedPayments,
  });
  const mine = await deps.subscriptions.get(owner);
  return { owner, at, ...(mine ? { mine } : {}) };
}

/**
 * Reads the subscription at PayPal, records what it says on the owner's plan, and grants every billing payment PayPal
 * lists that was not granted yet. Undefined for a subscription we did not make.
 */
export async function syncSubscription(deps: SubscriptionDeps, id: string): Promise<Subscription | undefined> {
  const read = await readSubscription(deps, id);
  if (!read) return undefined;
  const { owner, mine } = read;
  if (mine && mine.status !== 'pending' && mine.id === id) {
    const provider = await deps.subscriptionProvider();
    const now = deps.now();
    const from = new Date(Date.parse(mine.createdAt) - 24 * 60 * 60 * 1000);
    const to = new Date(now.getTime() + 24 * 60 * 60 * 1000);
    for (const sale of await provider.listSales(id, from, to)) {
      if (PAID_SALES.has(sale.status)) await grantSale(deps, id, sale);
    }
  }
  return (await deps.subscriptions.get(owner)) ?? undefined;
}
