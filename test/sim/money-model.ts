/**
 * The money model: what each person paid (PayPal's facts) against what our table gave them (its ledger rows), after
 * every step of the simulation. `settled` is true after a drain (every webhook delivered, streams and reconcilers run):
 * then "at most once" becomes "exactly once" and every job must have ended.
 *
 * The rules, each a line of `problems` naming the person and the thing:
 *  - paid pack granted once: a pack whose capture PayPal completed has at most one purchase row (exactly one when
 *    settled), of exactly the pack's credits;
 *  - paid month granted once: a plan's sale has at most one plan row (exactly one when settled), of positive credits;
 *  - nothing granted unpaid: every purchase row is an order PayPal captured for that person, every plan row a sale
 *    of that person's plan (no grant for a pending, declined or cancelled payment);
 *  - refunds land once: what is taken back of a payment never exceeds what it granted, nothing is taken back of a
 *    payment PayPal kept, and a payment PayPal gave back in full is taken back in full once settled;
 *  - every charged job is charged once and ends: one charge row per job; at most one refund row, present exactly when
 *    the job says it was refunded, and never for a success, except a batch's that succeeded with failed parts: one
 *    refund row of exactly those parts' price (domain/money-rules `batchFailedCredits`); once settled no job is open;
 *  - no plan billing an account that is gone, and at most one plan billing per person once settled (two approval
 *    pages may both be approved: the second is cancelled and its payment refunded in full when we hear of it, so a
 *    payment PayPal gave back in full needs no grant).
 * The table's own invariants (balance = ledger sum, plan credits, activeJobs, the open-jobs index, no orphan ledger
 * rows) are `invariantsOf` of test/support/invariants.ts, the rules the jest teardown scans with.
 */
import { batchFailedCredits } from '../../lambdas/domain/money-rules';
import { invariantsOf, type Item } from '../support/invariants';
import type { Facts } from './world';

const CHARGES = new Set(['image', 'video']);
const TAKE_BACKS = new Set(['purchase-refund', 'chargeback']);
const OPEN = new Set(['pending', 'starting', 'processing']);

export function moneyProblems(items: readonly Item[], facts: Facts, settled: boolean): string[] {
  const problems = [...invariantsOf(items).problems];
  const living = new Set(facts.people.filter((p) => !p.deleted).map((p) => p.sub));
  const ours = new Set(facts.people.map((p) => p.sub));
  const rows = new Map<string, Item[]>();
  for (const i of items) {
    if (i.type !== 'ledger') continue;
    const sub = String(i.pk).slice('USER#'.length);
    if (!ours.has(sub)) continue;
    const key = `${sub}|${String(i.ref)}`;
    rows.set(key, [...(rows.get(key) ?? []), i]);
  }
  const of = (sub: string, ref: string, reasons: Set<string> | string) =>
    (rows.get(`${sub}|${ref}`) ?? []).filter((r) => (typeof reasons === 'string' ? r.reason === reasons : reasons.has(String(r.reason))));
  const sum = (rs: Item[]) => rs.reduce((n, r) => n + Number(r.delta), 0);

  const paidBy = new Map(facts.paid.map((p) => [`${p.owner}|${p.ref}`, p]));
  for (const p of facts.paid) {
    if (!living.has(p.owner)) continue;
    const granted = of(p.owner, p.ref, p.kind === 'pack' ? 'purchase' : 'plan');
    const what = `${p.owner}: ${p.kind} ${p.ref}`;
    if (granted.length > 1) problems.push(`${what} granted ${granted.length} times`);
    // A payment refunded in full at PayPal before it was granted (a second plan's, refused) needs no grant.
    if (settled && granted.length === 0 && !p.returned) problems.push(`${what} paid at PayPal, never granted`);
    const credits = sum(granted);
    if (granted.length === 1 && (p.credits !== undefined ? credits !== p.credits : credits <= 0)) problems.push(`${what} granted ${credits} credits, bought ${p.credits ?? 'a plan month'}`);
    const back = -sum(of(p.owner, p.ref, TAKE_BACKS));
    if (back > credits) problems.push(`${what}: ${back} credits taken back of ${credits} granted`);
    if (!p.returned && back !== 0) problems.push(`${what}: ${back} credits taken back of a payment PayPal kept`);
    if (settled && p.returned && back !== credits) problems.push(`${what} given back at PayPal, ${back} of ${credits} credits taken back`);
  }
  for (const [key, rs] of rows) {
    const [sub, ref] = key.split('|') as [string, string];
    for (const r of rs) {
      if ((r.reason === 'purchase' && paidBy.get(key)?.kind !== 'pack') || (r.reason === 'plan' && paidBy.get(key)?.kind !== 'sale')) {
        problems.push(`${sub}: ${String(r.reason)} row of ${String(r.delta)} for ${ref}, which PayPal was not paid for`);
      }
    }
  }

  const jobs = items.filter((i) => String(i.pk).startsWith('JOB#') && i.sk === 'JOB' && ours.has(String(i.owner)));
  const jobIds = new Set(jobs.map((j) => String(j.pk).slice('JOB#'.length)));
  for (const j of jobs) {
    const id = String(j.pk).slice('JOB#'.length);
    const owner = String(j.owner);
    if (!living.has(owner)) {
      problems.push(`${owner}: job ${id} outlives its deleted account`);
      continue;
    }
    const charges = of(owner, id, CHARGES);
    const refunds = of(owner, id, 'refund');
    if (charges.length !== 1) problems.push(`${owner}: job ${id} charged ${charges.length} times`);
    if (refunds.length > 1) problems.push(`${owner}: job ${id} refunded ${refunds.length} times`);
    // A batch that succeeded with failed parts: those parts' price came back with the success.
    const part = j.status === 'succeeded' && Array.isArray(j.batch) ? batchFailedCredits({ cost: Number(j.cost), batch: j.batch as Array<{ failed?: string }> }) : 0;
    if (part) {
      if (refunds.length !== 1 || sum(refunds) !== part) problems.push(`${owner}: job ${id} succeeded with failed parts worth ${part}, refunded ${sum(refunds)} in ${refunds.length} rows`);
    } else {
      if (refunds.length === 1 && sum(refunds) !== -sum(charges)) problems.push(`${owner}: job ${id} refunded ${sum(refunds)} of a ${-sum(charges)} charge`);
      if ((refunds.length === 1) !== (j.refunded === true)) problems.push(`${owner}: job ${id} ${String(j.status)}, refunded ${String(j.refunded)}, with ${refunds.length} refund rows`);
      if (j.status === 'succeeded' && refunds.length) problems.push(`${owner}: job ${id} succeeded and was refunded`);
    }
    if (settled && OPEN.has(String(j.status))) {
      const seen = Object.fromEntries(Object.entries(j).filter(([k]) => ['createdAt', 'queued', 'queuedAt', 'providerId', 'batch', 'openpk', 'deadlineAt', 'cost'].includes(k)));
      problems.push(`${owner}: job ${id} still ${String(j.status)} after the drain (${JSON.stringify(seen)})`);
    }
  }
  for (const [key, rs] of rows) {
    const [sub, ref] = key.split('|') as [string, string];
    if (rs.some((r) => CHARGES.has(String(r.reason))) && !jobIds.has(ref)) problems.push(`${sub}: charge row for ${ref}, which is no job`);
  }

  const billing = new Map<string, string[]>();
  for (const b of facts.billing) billing.set(b.owner, [...(billing.get(b.owner) ?? []), b.id]);
  for (const [owner, ids] of billing) {
    // Deleting cancels the account's plan at PayPal first. Two approval pages may both be approved, and the one we have
    // not heard of yet bills until we do (its webhook, the reconciler): then it is cancelled and its payment refunded.
    if (!living.has(owner)) {
      const known = facts.people.find((p) => p.sub === owner)?.planAtDeletion;
      const gone = settled ? ids : ids.filter((id) => id === known);
      if (gone.length) problems.push(`${owner}: plan ${gone.join(', ')} bills an account that is gone`);
    } else if (settled && ids.length > 1) problems.push(`${owner}: ${ids.length} plans bill (${ids.join(', ')})`);
  }
  return problems;
}
