import type { ClaimResult, WebhookInbox } from '../../../lambdas/ports/webhooks';

/**
 * The webhook inbox in memory: a claim is a conditional put (one winner per delivery id), a lease until it is
 * settled (taken again once `leaseUntil` has passed with no outcome), released on failure. `claims` holds each
 * delivery's info and outcome as the table would; `leases` and `applied` the protocol's state.
 */
export class MemoryInbox implements WebhookInbox {
  readonly claims = new Map<string, Record<string, string>>();
  readonly leases = new Map<string, number>();
  readonly applied = new Set<string>();

  async claim(eventId: string, info: Record<string, string>, at: { now: Date; leaseUntil: Date }): Promise<ClaimResult> {
    if (this.applied.has(eventId)) return 'done';
    const lease = this.leases.get(eventId);
    if (lease !== undefined && lease >= at.now.getTime()) return 'held';
    this.claims.set(eventId, { ...this.claims.get(eventId), ...info });
    this.leases.set(eventId, at.leaseUntil.getTime());
    return 'claimed';
  }

  async release(eventId: string) {
    this.claims.delete(eventId);
    this.leases.delete(eventId);
  }

  async settle(eventId: string, outcome: Record<string, string>) {
    if (!this.claims.has(eventId)) return;
    this.claims.set(eventId, { ...this.claims.get(eventId), ...outcome });
    this.leases.delete(eventId);
    this.applied.add(eventId);
  }
}
