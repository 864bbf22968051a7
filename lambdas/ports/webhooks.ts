/** A webhook delivery as received: verification needs the raw body and the transmission headers. */
export interface WebhookDelivery {
  /** Lower-case header names. */
  headers: Record<string, string>;
  rawBody: string;
  /** The query string of the URL the provider called (ours: it may carry the job id). */
  query: Record<string, string>;
}

/** Provider events already handled, so a redelivered event changes nothing. */
export interface WebhookInbox {
  /** True when the event was handled before (and counts this redelivery). */
  seen(eventId: string): Promise<boolean>;
  record(eventId: string, info: Record<string, string>): Promise<void>;
}

/** Provider events claimed before they are handled: at most one handler per delivery, however many copies come. */
export interface DeliveryClaims {
  /**
   * Claims the event in one conditional write: true for exactly one of any number of concurrent copies of a
   * delivery (the others count as redeliveries).
   */
  claim(eventId: string, info: Record<string, string>): Promise<boolean>;
  /** Gives a claim back when handling it failed, so the provider's retry is handled instead of dropped. */
  release(eventId: string): Promise<void>;
}
