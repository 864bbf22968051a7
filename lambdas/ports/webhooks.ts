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

/** Provider events claimed before they are handled: at most one handler per delivery, however many copies come. */
export interface WebhookInbox {
  /**
   * Claims the event in one conditional write: true for exactly one of any number of concurrent copies of a
   * delivery (the others count as redeliveries).
   */
  claim(eventId: string, info: Record<string, string>): Promise<boolean>;
  /** Gives a claim back when handling it failed, so the provider's retry is handled instead of dropped. */
  release(eventId: string): Promise<void>;
  /** Adds what handling the claimed event did to its record, for operators. */
  note(eventId: string, info: Record<string, string>): Promise<void>;
}
