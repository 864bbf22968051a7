import { Messages } from '../../../contract/errors';
import { Unauthorized } from '../../domain/errors';
import type { WebhookDelivery, WebhookInbox, WebhookVerifier } from '../../ports/webhooks';

export interface ReceiveWebhookDeps<E extends { eventId: string }> {
  webhooks: () => Promise<WebhookVerifier<E>>;
  inbox: WebhookInbox;
}

export type Received<R> = { duplicate: true } | { duplicate: false; result: R };

/**
 * The one protocol of every provider's webhook: the provider's adapter verifies and parses the delivery (401
 * otherwise); the first of any number of copies of one delivery claims its id (one conditional write) and the rest
 * answer at once as duplicates; the claimed event is applied, and what applying did is noted on its claim; if
 * applying fails the claim is given back, so the provider's retry is handled instead of dropped.
 */
export async function receiveWebhook<E extends { eventId: string }, R>(
  deps: ReceiveWebhookDeps<E>,
  delivery: WebhookDelivery,
  handler: { claimInfo(event: E): Record<string, string>; apply(event: E): Promise<R>; outcome?(result: R): Record<string, string> },
): Promise<Received<R>> {
  const event = await (await deps.webhooks()).parse(delivery);
  if (!event) throw new Unauthorized(Messages.invalidWebhookSignature);
  if (!(await deps.inbox.claim(event.eventId, handler.claimInfo(event)))) return { duplicate: true };
  let result: R;
  try {
    result = await handler.apply(event);
  } catch (err) {
    await deps.inbox.release(event.eventId).catch(() => undefined);
    throw err;
  }
  const outcome = handler.outcome?.(result);
  // The event is applied: a note that fails to land loses only the operators' record of it.
  if (outcome) await deps.inbox.note(event.eventId, outcome).catch(() => undefined);
  return { duplicate: false, result };
}
