/**
 * PayPal away, on demand: while an outage is on, the REST API (`/v1`, `/v2`) drops the connection without an answer,
 * as an unreachable host does to the caller, and no webhook about the orders concerned goes out (each failed attempt
 * is retried on the usual schedule, so deliveries resume when PayPal is back). The buyer's pages stay up: a buyer
 * can approve at PayPal while our server cannot reach it. An outage is for everything, or for one order's (or one
 * subscription's) calls and events (so a test can take PayPal away from its own order without touching the others running at the same time).
 *
 * POST /simulator/outage {"on": true|false, "order"?: "<id>"}.
 *
 * Webhooks lost, on demand: while on for an id (an order, a subscription, a sale), every new event about it is recorded
 * (readable, and resendable once off) but never delivered, as when each of PayPal's retries was claimed by a process that
 * died before applying it, or the retries ran out: only a reconciler finds what it said. The API stays up.
 *
 * POST /simulator/webhooks/lost {"on": true|false, "about": "<id>"}.
 */
export interface Outage {
  set(on: boolean, orderId?: string): void;
  /** True when a request to this API path cannot reach PayPal now. */
  blocksPath(path: string): boolean;
  /** True when an event about this order cannot be delivered now. */
  blocksOrder(orderId: string | undefined): boolean;
  describe(): { all: boolean; orders: string[] };
}

export interface LostWebhooks {
  set(on: boolean, about: string): void;
  /** True when an event about one of these ids is to be dropped. */
  drops(ids: readonly string[]): boolean;
  describe(): { lost: string[] };
}

export function createLostWebhooks(): LostWebhooks {
  const lost = new Set<string>();
  return {
    set: (on, about) => void (on ? lost.add(about) : lost.delete(about)),
    drops: (ids) => ids.some((id) => lost.has(id)),
    describe: () => ({ lost: [...lost] }),
  };
}

/** Every id an event is about: the resource, its order, and a sale's (or a sale refund's) subscription and sale. */
export function idsOfEvent(resource: unknown): string[] {
  const r = (resource ?? {}) as { id?: unknown; billing_agreement_id?: unknown; sale_id?: unknown };
  return [r.id, orderOfEvent(resource), r.billing_agreement_id, r.sale_id].filter((v): v is string => typeof v === 'string');
}

export function createOutage(): Outage {
  let all = false;
  const orders = new Set<string>();
  return {
    set(on, orderId) {
      if (orderId === undefined) {
        all = on;
        if (!on) orders.clear();
      } else if (on) orders.add(orderId);
      else orders.delete(orderId);
    },
    blocksPath(path) {
      if (!/^\/v[12]\//.test(path)) return false;
      if (all) return true;
      // One order's calls, or one subscription's (its reads, transactions and actions).
      const m = /^\/v2\/checkout\/orders\/([^/?]+)/.exec(path) ?? /^\/v1\/billing\/subscriptions\/([^/?]+)/.exec(path);
      return m !== null && orders.has(decodeURIComponent(m[1]!));
    },
    blocksOrder(orderId) {
      return all || (orderId !== undefined && orders.has(orderId));
    },
    describe: () => ({ all, orders: [...orders] }),
  };
}

/** The order an event is about: the order itself, or the order a capture belongs to. */
export function orderOfEvent(resource: unknown): string | undefined {
  const r = (resource ?? {}) as { id?: unknown; supplementary_data?: { related_ids?: { order_id?: unknown } } };
  const related = r.supplementary_data?.related_ids?.order_id;
  if (typeof related === 'string') return related;
  return typeof r.id === 'string' ? r.id : undefined;
}
