/**
 * Webhooks signed for real, with PayPal's scheme: an RSA key pair made at start, and
 * paypal-transmission-sig = base64(RSA-SHA256(`${transmissionId}|${transmissionTime}|${webhookId}|${crc32(body)}`)).
 * Every event and every delivery (its raw body) is kept, so events can be read and resent and
 * verify-webhook-signature can check a delivery as PayPal does.
 */
import crypto from 'node:crypto';
import { webhookSender } from '../shared/webhook-delivery';
import { crc32 } from './crc32';
import { randomAlnum } from './ids';
import type { Delivery, SimLink, WebhookEvent } from './types';
import type { VerifyRequest } from './validation';

export interface WebhookOptions {
  /** The webhook id deliveries are signed with (and verify-webhook-signature accepts). */
  webhookId: string;
  fetchImpl: typeof fetch;
  log: (line: string) => void;
  /** The simulator's URL (known once it listens): event and certificate links start with it. */
  url: () => string;
  /** Where deliveries go now; none are sent while it is undefined. */
  target: () => string | undefined;
  /** Delays before the attempts after a failed one. */
  retryDelaysMs: number[];
  /** The first attempt of each delivery waits a random 0..N ms (events can overtake each other). */
  jitterMs: number;
  /** Called when what is kept changed (a delivery recorded, or settled): the simulator saves its state. */
  changed?: () => void;
  /** True while PayPal is away for this event's order (outage.ts): the attempt fails without being sent. */
  held?: (event: WebhookEvent) => boolean;
  /** True when this new event is to be lost (outage.ts, lost webhooks): recorded, never delivered. */
  lost?: (event: WebhookEvent) => boolean;
}

/**
 * The event's JSON as sent: compact, with every "/" escaped as "\/" (valid JSON, as some serialisers write it).
 * A receiver that parses and serialises the event again changes these bytes, so verify-webhook-signature fails
 * for it, as it can on PayPal: only the raw body as received verifies.
 */
export function serializeEvent(event: WebhookEvent): string {
  return JSON.stringify(event).replace(/\//g, '\\/');
}

export type Webhooks = ReturnType<typeof createWebhooks>;

/** What a restart brings back: the signing key (deliveries sent before still verify), events, deliveries, and the events still to deliver. */
export interface WebhooksSnapshot {
  privateKeyPem: string;
  certId: string;
  events: [string, { event: WebhookEvent; raw: string }][];
  deliveries: [string, Delivery][];
  undelivered: string[];
}

export function createWebhooks(o: WebhookOptions, saved?: WebhooksSnapshot) {
  const privateKey = saved ? crypto.createPrivateKey(saved.privateKeyPem) : crypto.generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
  const publicKey = crypto.createPublicKey(privateKey);
  const publicKeyPem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
  const certId = saved?.certId ?? `CERT-360caa42-fca2a594-${randomAlnum(8).toLowerCase()}`;
  const certUrl = () => `${o.url()}/v1/notifications/certs/${certId}`;

  const events = new Map<string, { event: WebhookEvent; raw: string }>(saved?.events ?? []);
  const deliveries = new Map<string, Delivery>(saved?.deliveries ?? []); // transmission id -> what was sent
  /** Events not delivered yet (first attempt or retries pending): delivered again after a restart. */
  const undelivered = new Set<string>(saved?.undelivered ?? []);
  const closing = new AbortController();
  const send = webhookSender(o.fetchImpl, closing.signal);

  function makeEvent(type: string, resourceType: string, summary: string, resource: unknown): WebhookEvent {
    const id = `WH-${randomAlnum(17)}-${randomAlnum(17)}`;
    const href = `${o.url()}/v1/notifications/webhooks-events/${id}`;
    const links: SimLink[] = [
      { href, rel: 'self', method: 'GET' },
      { href: `${href}/resend`, rel: 'resend', method: 'POST' },
    ];
    const event: WebhookEvent = {
      id,
      event_version: '1.0',
      create_time: new Date().toISOString(),
      resource_type: resourceType,
      resource_version: '2.0',
      event_type: type,
      summary,
      resource,
      links,
    };
    events.set(id, { event, raw: serializeEvent(event) });
    return event;
  }

  function sign(transmissionId: string, transmissionTime: string, raw: string): string {
    const message = `${transmissionId}|${transmissionTime}|${o.webhookId}|${crc32(raw)}`;
    return crypto.sign('sha256', Buffer.from(message, 'utf8'), privateKey).toString('base64');
  }

  function settled(eventId: string): void {
    undelivered.delete(eventId);
    o.changed?.();
  }

  /**
   * Delivers in the background with retries (shared/webhook-delivery.ts); never throws. The transmission is
   * recorded before it is sent, and the event stays undelivered until it settles (sent or given up), so a restart
   * sends it again; closing the simulator leaves it so.
   */
  function deliver(eventId: string): void {
    const stored = events.get(eventId);
    const target = o.target();
    if (!stored || !target || closing.signal.aborted) return;
    const { raw, event } = stored;
    const transmissionId = crypto.randomUUID();
    const transmissionTime = new Date().toISOString();
    deliveries.set(transmissionId, { raw, eventId, transmissionTime });
    undelivered.add(eventId);
    o.changed?.();
    const headers = {
      'content-type': 'application/json',
      'user-agent': 'PayPal/AUHD-214.0-58904720',
      'paypal-transmission-id': transmissionId,
      'paypal-transmission-time': transmissionTime,
      'paypal-transmission-sig': sign(transmissionId, transmissionTime, raw),
      'paypal-cert-url': certUrl(),
      'paypal-auth-algo': 'SHA256withRSA',
      'paypal-auth-version': 'v2',
    };
    const what = `paypal-sim: webhook ${event.event_type} ${event.id} to ${target}`;
    void send({
      url: target,
      body: raw,
      headers: () => headers,
      retryDelaysMs: o.retryDelaysMs,
      firstDelayMs: o.jitterMs > 0 ? Math.floor(Math.random() * o.jitterMs) : 0,
      held: () => o.held?.(event) ?? false,
      onRetry: (failure, delay) => o.log(`${what} failed (${failure}); retrying in ${delay} ms`),
    }).then((outcome) => {
      if (outcome === 'closed') return;
      if (!outcome.delivered) o.log(`${what} failed after ${outcome.attempts} attempts: ${outcome.failure}`);
      settled(eventId);
    });
  }

  /**
   * SUCCESS only when the webhook id is the configured one, auth_algo and cert_url are what was sent, the
   * transmission is one this simulator sent, the signature verifies over that transmission's id, time, webhook id
   * and the CRC-32 of the raw body sent, and the request carries that raw body, byte for byte, as its
   * webhook_event (`requestText`: the verify request as received). An event parsed and serialised again fails.
   */
  function verify(b: VerifyRequest, requestText: string): boolean {
    const sent = deliveries.get(b.transmission_id);
    let ok =
      b.webhook_id === o.webhookId &&
      b.auth_algo === 'SHA256withRSA' &&
      b.cert_url === certUrl() &&
      sent !== undefined &&
      /"webhook_event"\s*:\s*$/.test(requestText.slice(0, Math.max(0, requestText.indexOf(sent.raw)))) &&
      requestText.includes(sent.raw);
    if (ok && sent) {
      const message = `${b.transmission_id}|${b.transmission_time}|${b.webhook_id}|${crc32(sent.raw)}`;
      try {
        ok = crypto.verify('sha256', Buffer.from(message, 'utf8'), publicKey, Buffer.from(b.transmission_sig, 'base64'));
      } catch {
        ok = false;
      }
    }
    return ok;
  }

  return {
    certId,
    publicKeyPem,
    /** An event sent earlier, with the exact JSON it was sent as. */
    event: (id: string) => events.get(id),
    /** Records a new event and delivers it. */
    emit(type: string, resourceType: string, summary: string, resource: unknown): void {
      const event = makeEvent(type, resourceType, summary, resource);
      if (o.lost?.(event)) {
        o.log(`paypal-sim: webhook ${event.event_type} ${event.id} lost (POST /simulator/webhooks/lost)`);
        o.changed?.();
        return;
      }
      deliver(event.id);
    },
    /** Delivers a recorded event again (a new transmission). */
    resend: deliver,
    snapshot: (): WebhooksSnapshot => ({
      privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      certId,
      events: [...events],
      deliveries: [...deliveries],
      undelivered: [...undelivered],
    }),
    /** After a restart: the events that were still being delivered go out again (PayPal keeps retrying). */
    resumeDeliveries(): void {
      for (const id of [...undelivered]) deliver(id);
    },
    verify,
    /** Stops the retries and aborts the deliveries in flight; nothing is sent after. */
    close(): void {
      closing.abort();
    },
  };
}
