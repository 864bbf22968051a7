import type { WebhookInbox } from '../../../lambdas/ports/webhooks';

/** The webhook inbox in memory: a claim is a conditional put (one winner per delivery id), released on failure. */
export class MemoryInbox implements WebhookInbox {
  readonly claims = new Map<string, Record<string, string>>();

  async claim(eventId: string, info: Record<string, string>) {
    if (this.claims.has(eventId)) return false;
    this.claims.set(eventId, { ...info });
    return true;
  }

  async release(eventId: string) {
    this.claims.delete(eventId);
  }

  async note(eventId: string, info: Record<string, string>) {
    this.claims.set(eventId, { ...this.claims.get(eventId), ...info });
  }
}
