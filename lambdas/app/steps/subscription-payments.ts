/**
 * The steps every subscription trigger shares (the buyer's return, PayPal's webhooks, the user's own calls): our plans
 * made at PayPal on first use, a subscription's state read from PayPal, and its billing payments granted once each.
 * Whatever order PayPal's events arrive in, each trigger reads PayPal's current answer and grants what PayPal says was
 * paid; a sale's grant is one transaction guarded by its own marker, so the webhook, its redeliveries and the return
 * grant it once between them.
 *
 * At most one plan bills per person: the first subscription PayPal activates becomes the person's plan (`adopt`); one
 * activated while another bills (two approval pages approved), or after the account was deleted, is refused: cancelled
 * at PayPal and every payment of it refunded in full, never granted (a `REFUSED_SALE#` record per payment, for support).
 */
import type { Plan } from '../../../contract/plans';
import type { SubscriptionStatus } from '../../../contract/subscriptions';
import { saleAsOf, salePaysFor } from '../../domain/money-rules';
import type { AccountStore } from '../../ports/accounts';
import type { Mailer } from '../../ports/mailer';
import { DEFAULT_PAYMENT_RETURN_PATH } from '../../../contract/payments';
import { PaymentRefused, type Money } from '../../ports/payments';
import type { ProviderSale, ProviderSubscription, RefusedSale, Subscription, SubscriptionProvider, SubscriptionStore } from '../../ports/subscriptions';

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

export type GrantResult = 'granted' | 'already-granted' | 'ignored' | 'refunded';

/**
 * Grants a completed billing payment of a subscription of ours, once (its sale id is the marker). A payment of a
 * refused subscription, of a second plan, or of an account that is gone is refunded instead ('refunded').
 */
export async function grantSale(deps: SubscriptionDeps, subscriptionId: string, sale: Pick<ProviderSale, 'id' | 'amount' | 'time'>): Promise<GrantResult> {
  const owner = await deps.subscriptions.ownerOf(subscriptionId);
  if (!owner) {
    deps.log('A billing payment of a subscription we did not make', { subscriptionId, saleId: sale.id });
    return 'ignored';
  }
  let refusal = await deps.subscriptions.refusal(subscriptionId);
  if (!refusal && !(await deps.accounts.get(owner))) {
    // The account is gone (deleted; every plan of it was cancelled first, so a payment racing the deletion).
    await refuseSubscription(deps, subscriptionId, 'account-deleted');
    refusal = { at: deps.now().toISOString(), reason: 'account-deleted' };
  }
  let mine = await deps.subscriptions.get(owner);
  if (!refusal && mine?.id !== subscriptionId) {
    // Not the person's plan: an older plan's payment (granted), or a second plan's, which the sync refuses.
    await syncSubscription(deps, subscriptionId);
    refusal = await deps.subscriptions.refusal(subscriptionId);
    mine = await deps.subscriptions.get(owner);
  }
  if (refusal) return refundRefusedSale(deps, subscriptionId, sale, refusal.reason);
  // What it paid for is a money rule (domain/money-rules: months left outstanding included, after a plan change too).
  const paid = salePaysFor(sale.amount, ...(mine?.id === subscriptionId ? [mine.nextPlanId, mine.planId] : []));
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
    // A month granted late (its webhook lost, found by the reconciler) is capped as of the sale, not of now
    // (domain/money-rules `saleAsOf`).
    ...(Number.isNaN(Date.parse(sale.time)) ? {} : { saleAt: saleAsOf(sale.time) }),
  });
  if (!r.credited) {
    // Refused between our read and the grant (the grant's own condition): refunded, as any payment of it.
    const late = await deps.subscriptions.refusal(subscriptionId);
    return late ? refundRefusedSale(deps, subscriptionId, sale, late.reason) : 'already-granted';
  }
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

const DAY_MS = 24 * 60 * 60 * 1000;
/** How far back a refused subscription's payments are listed: it is refused when it starts billing. */
const REFUSED_SALES_DAYS = 31;

const REFUSAL_REASONS: Record<RefusedSale['reason'], string> = {
  'second-plan': 'A second plan of the same account: the first one bills; this one is refunded',
  'account-deleted': 'The account was deleted',
};

/**
 * Refuses a subscription of ours: marked first (no grant of it lands after), cancelled at PayPal (one cancelled or
 * never approved already is fine), and every payment PayPal took for it refunded in full. Throws while PayPal cannot be
 * reached, so the webhook that found it is delivered again and finishes it (each step is idempotent). A payment of it
 * granted already (a deleted account's earlier months, or a grant that won the race with the mark) is not refunded.
 */
export async function refuseSubscription(deps: SubscriptionDeps, id: string, reason: RefusedSale['reason']): Promise<void> {
  const now = deps.now();
  await deps.subscriptions.refuse(id, now.toISOString(), reason);
  const provider = await deps.subscriptionProvider();
  await cancelAtPaypal(provider, id, REFUSAL_REASONS[reason]);
  const sales = await provider.listSales(id, new Date(now.getTime() - REFUSED_SALES_DAYS * DAY_MS), new Date(now.getTime() + DAY_MS));
  for (const sale of sales) if (PAID_SALES.has(sale.status)) await refundRefusedSale(deps, id, sale, reason);
  deps.log('A subscription was refused: cancelled at PayPal and its payments refunded', { id, reason, payments: sales.length });
}

/** Cancels at PayPal; PayPal's SUBSCRIPTION_STATUS_INVALID (cancelled already, or never approved) counts as done. */
export async function cancelAtPaypal(provider: SubscriptionProvider, id: string, reason: string): Promise<void> {
  try {
    await provider.cancel(id, reason);
  } catch (err) {
    if (err instanceof PaymentRefused && err.issue === 'SUBSCRIPTION_STATUS_INVALID') return;
    throw err;
  }
}

/**
 * Refunds a payment of a refused subscription in full, once (never one granted before the refusal: a deleted
 * account's earlier months, or a grant that won the race with the mark, were used): recorded first (no grant of the sale lands after it),
 * refunded at PayPal under a request id of the sale (a retry gets the first refund), then recorded as refunded.
 */
async function refundRefusedSale(
  deps: SubscriptionDeps,
  subscriptionId: string,
  sale: Pick<ProviderSale, 'id' | 'amount' | 'time'>,
  reason: RefusedSale['reason'],
): Promise<'refunded' | 'already-granted'> {
  const known = await deps.subscriptions.refusedSale(sale.id);
  if (known?.outcome === 'refunded') return 'refunded';
  // Granted before the refusal (an earlier month of an account deleted since): it was used, it stays.
  if (!known && (await deps.subscriptions.isGranted(sale.id))) return 'already-granted';
  const record: RefusedSale = known ?? {
    saleId: sale.id,
    subscriptionId,
    amount: sale.amount,
    saleTime: sale.time,
    reason,
    outcome: 'refunding',
    recordedAt: deps.now().toISOString(),
  };
  if (!known) await deps.subscriptions.recordRefusedSale(record);
  const provider = await deps.subscriptionProvider();
  let refundId: string | undefined;
  try {
    refundId = (await provider.refundSale(sale.id, `framewright-refund-${sale.id}`)).id;
  } catch (err) {
    // PayPal refuses a sale refunded already (by an earlier attempt without its request id, or at PayPal): done.
    if (!(err instanceof PaymentRefused) || !/REFUNDED/.test((await provider.getSale(sale.id)).status)) throw err;
  }
  await deps.subscriptions.recordRefusedSale({ ...record, outcome: 'refunded', ...(refundId ? { refundId } : {}), refundedAt: deps.now().toISOString() });
  deps.log('A billing payment was refunded instead of granted', { subscriptionId, saleId: sale.id, reason, refundId });
  return 'refunded';
}

/**
 * Reads the subscription at PayPal and records what it says on the owner's plan. One PayPal bills that is not the
 * owner's plan becomes it when no other bills, else it is refused (cancelled and refunded; `refused`). Undefined for a
 * subscription we did not make.
 */
export async function readSubscription(
  deps: SubscriptionDeps,
  id: string,
): Promise<{ owner: string; at: ProviderSubscription; planId?: string; mine?: Subscription; refused?: true } | undefined> {
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
  if (before?.id !== id && (status === 'active' || status === 'suspended')) {
    const refused = await deps.subscriptions.refusal(id);
    const adopted =
      !refused &&
      planId !== undefined &&
      (await deps.subscriptions.adopt({
        owner,
        id,
        planId,
        status,
        createdAt: now.toISOString(),
        statusAt: now.toISOString(),
        returnPath: before?.returnPath ?? DEFAULT_PAYMENT_RETURN_PATH,
      }));
    if (!adopted) {
      await refuseSubscription(deps, id, refused?.reason ?? ((await deps.accounts.get(owner)) ? 'second-plan' : 'account-deleted'));
      const mine = await deps.subscriptions.get(owner);
      return { owner, at, refused: true, ...(mine ? { mine } : {}) };
    }
  }
  await deps.subscriptions.update(owner, id, {
    status,
    ...(before?.id === id && before.status !== status ? { statusAt: now.toISOString() } : {}),
    // A plan PayPal moved to (an approved change) is the next one until a payment of it arrives (syncSubscription
    // decides from the payments): the record never shows a plan as paid for in between.
    ...(planId && before?.id === id && before.planId && before.planId !== planId ? { nextPlanId: planId } : planId ? { planId } : {}),
    nextBillingAt: status === 'active' ? at.nextBillingAt : undefined,
    nextRetryAt: at.nextRetryAt,
    failedPayments: at.failedPayments,
  });
  const mine = await deps.subscriptions.get(owner);
  return { owner, at, ...(planId ? { planId } : {}), ...(mine ? { mine } : {}) };
}

/**
 * Reads the subscription at PayPal (readSubscription), and grants every billing payment PayPal lists that was not
 * granted yet. The plan paid now and the one PayPal bills next (`nextPlanId`, after an approved change) come from the
 * latest payment. Undefined for a subscription we did not make.
 *
 * `grants: false` reads and records the plan without granting its payments: a sale's own event re-reads the plan after
 * granting its sale, while the other sales' events (delivered together after a burst of billing) grant theirs. Granting
 * all of them from every sale's event made each of N events attempt N grant transactions on one account, racing one
 * another, so the events failed and PayPal's retries (30 s, 120 s) came too late.
 */
export async function syncSubscription(deps: SubscriptionDeps, id: string, opts: { grants?: boolean } = {}): Promise<Subscription | undefined> {
  const read = await readSubscription(deps, id);
  if (!read) return undefined;
  const { owner, mine, planId } = read;
  if (!read.refused && mine && mine.status !== 'pending' && mine.id === id) {
    const provider = await deps.subscriptionProvider();
    const now = deps.now();
    const from = new Date(Date.parse(mine.createdAt) - DAY_MS);
    const to = new Date(now.getTime() + DAY_MS);
    const paid = (await provider.listSales(id, from, to)).filter((sale) => PAID_SALES.has(sale.status));
    // A payment granted already is skipped with one read (a grant attempt is a transaction on the account).
    if (opts.grants !== false) for (const sale of paid) if (!(await deps.subscriptions.isGranted(sale.id))) await grantSale(deps, id, sale);
    // PayPal moves plan_id when the buyer approves a change and bills its price from the next cycle: until a payment
    // of it, the plan paid for is the latest payment's, and PayPal's is the next one.
    const latest = paid.reduce<ProviderSale | undefined>((a, b) => (!a || Date.parse(b.time) >= Date.parse(a.time) ? b : a), undefined);
    const paidPlan = latest ? salePaysFor(latest.amount, planId, mine.planId)?.plan.id : undefined;
    if (planId && paidPlan && paidPlan !== planId) await deps.subscriptions.update(owner, id, { planId: paidPlan, nextPlanId: planId });
    else if (planId && (mine.planId !== planId || mine.nextPlanId)) await deps.subscriptions.update(owner, id, { planId, nextPlanId: undefined });
  }
  return (await deps.subscriptions.get(owner)) ?? undefined;
}
