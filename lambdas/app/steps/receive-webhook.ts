import { Messages } from '../../../contract/errors';
import { WEBHOOK_LEASE_SECONDS } from '../../../contract/webhooks';
import { Conflict, Unauthorized } from '../../domain/errors';
import type { WebhookDelivery, WebhookInbox, WebhookVerifier } from '../../ports/webhooks';

export interface ReceiveWebhookDeps<E extends { eventId: string }> {
  webhooks: () => Promise<WebhookVerifier<E>>;
  inbox: WebhookInbox;
  now: () => Date;
  /** How long a claim without an outcome holds (ms); default WEBHOOK_LEASE_SECONDS (contract/webhooks.ts). */
  webhookLeaseMs?: number;
}

export type Received<R> = { duplicate: true } | { duplicate: false; result: R };

/**
 * The one protocol of every provider's webhook: the provider's adapter verifies and parses the delivery (401
 * otherwise); the first of any number of copies of one delivery claims its id (one conditional write) for a lease;
 * the claimed event is applied and the claim settled with what applying did, after which copies answer at once as
 * duplicates. A copy that comes while the claim is leased and unsettled is answered 409 (Conflict): the provider
 * retries it later. If applying fails the claim is given back; if the process dies before settling (a timeout, out
 * of memory, a kill), the lease runs out and the provider's next retry takes the claim and applies the event, which
 * every apply does idempotently by the provider's own object id (the sale, the prediction).
 */
export async function receiveWebhook<E extends { eventId: string }, R>(
  deps: ReceiveWebhookDeps<E>,
  delivery: WebhookDelivery,
  handler: { claimInfo(event: E): Record<string, string>; apply(event: E): Promise<R>; outcome?(result: R): Record<string, string> },
): Promise<Received<R>> {
  const event = await (await deps.webhooks()).parse(delivery);
  if (!event) throw new Unauthorized(Messages.invalidWebhookSignature);
  const now = deps.now();
  const leaseUntil = new Date(now.getTime() + (deps.webhookLeaseMs ?? WEBHOOK_LEASE_SECONDS * 1000));
  const claim = await deps.inbox.claim(event.eventId, handler.claimInfo(event), { now, leaseUntil });
  if (claim === 'done') return { duplicate: true };
  if (claim === 'held') throw new Conflict(Messages.webhookInProgress);
  let result: R;
  try {
    result = await handler.apply(event);
  } catch (err) {
    await deps.inbox.release(event.eventId).catch(() => undefined);
    throw err;
  }
  // The event is applied: a settlement that fails to land leaves the lease to run out, and the next copy applies it
  // again, changing nothing.
  await deps.inbox.settle(event.eventId, handler.outcome?.(result) ?? {}, deps.now()).catch(() => undefined);
  return { duplicate: false, result };
}
