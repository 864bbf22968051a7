/** A webhook delivery as received: verification needs the raw body and the transmission headers. */
export interface WebhookDelivery {
  /** Lower-case header names. */
  headers: Record<string, string>;
  rawBody: string;
  /** The query string of the URL the provider called (ours: it may carry the job id). */
  query: Record<string, string>;
}

/**
 * A provider's webhook check, one per provider: its own signature scheme verified and the event parsed to what the
 * use case acts on, named by the delivery's id (the same on every retry of one delivery).
 */
export interface WebhookVerifier<E extends { eventId: string }> {
  /** The event, or undefined when the delivery is not genuine. Throws when the provider cannot say (retry later). */
  parse(delivery: WebhookDelivery): Promise<E | undefined>;
}

/**
 * What a claim found: `claimed` (this call handles the delivery: its first copy, or a copy retried after an earlier
 * claim's lease ran out with no outcome), `done` (handled already: a redelivery), `held` (another call is handling it
 * now, or died doing so and its lease has not run out: the provider must retry later).
 */
export type ClaimResult = 'claimed' | 'done' | 'held';

/**
 * Provider events claimed before they are handled: at most one handler per delivery at a time, however many copies
 * come. A claim is a lease until its outcome is recorded: a handler that dies (a timeout, out of memory, a kill)
 * records none, and once the lease has run out the delivery can be claimed again, so the provider's retry applies it.
 * Applying is idempotent by the provider's own object id, so a claim taken again never applies anything twice.
 */
export interface WebhookInbox {
  /**
   * Claims the event in one conditional write: `claimed` for exactly one of any number of concurrent copies of a
   * delivery (the others count as redeliveries), again after `leaseUntil` of a claim with no outcome has passed.
   */
  claim(eventId: string, info: Record<string, string>, at: { now: Date; leaseUntil: Date }): Promise<ClaimResult>;
  /** Gives a claim back when handling it failed, so the provider's retry is handled instead of dropped. */
  release(eventId: string): Promise<void>;
  /** Records that the claimed event was applied (its claim holds for ever after), with what it did, for operators. */
  settle(eventId: string, outcome: Record<string, string>, now: Date): Promise<void>;
}
