/**
 * Every key the backend builds, in one place: the single table's keys (listed in
 * docs/architecture.md) and the media bucket's object keys.
 */
import { OPEN_JOB_SHARDS } from '../../contract/capacity';
import { MEDIA_KINDS, type MediaKind } from '../../contract/media-kinds';

export const keys = {
  user: (sub: string) => `USER#${sub}`,
  account: 'ACCOUNT',
  ledger: (createdAt: string, id: string) => `LEDGER#${createdAt}#${id}`,
  media: (createdAt: string, id: string) => `MEDIA#${createdAt}#${id}`,
  job: (predictionId: string) => `JOB#${predictionId}`,
  order: (orderId: string) => `ORDER#${orderId}`,
  /** The owner's copy of an order, so listing a user's payments is one Query. */
  payment: (createdAt: string, orderId: string) => `PAYMENT#${createdAt}#${orderId}`,
  webhook: (provider: string, eventId: string) => `WEBHOOK#${provider}:${eventId}`,
  /** Sort key (under the user) of how many generations the user started on a UTC day (yyyy-mm-dd). */
  generationsOn: (day: string) => `GENERATIONS#${day}`,
  /** Sort key (under the user) of the job a generation call's Idempotency-Key started (attribute jobId, a day's ttl). */
  startedBy: (requestKey: string) => `STARTED#${requestKey}`,
  /**
   * Welcome credits given to an email address, kept when the account is deleted: named by the keyed hash of the
   * normalised address (domain/email-hash.ts), never the address itself.
   */
  welcome: (emailHash: string) => `WELCOME#${emailHash}`,
  /** A named collection of the user's (`USER#<sub>`/`COLLECTION#<id>`); its members hold its id in `collections`. */
  collection: (id: string) => `COLLECTION#${id}`,
  /** How many collections the user has (`USER#<sub>`/`COLLECTIONS`, attribute n): what caps them, atomically. */
  collectionCount: 'COLLECTIONS',
  /** A share link (`SHARE#<token>`/`SHARE`): names its owner's media item. */
  share: (token: string) => `SHARE#${token}`,
  shareItem: 'SHARE',
  /**
   * gsi1 partition of the jobs not yet ended written before the open-jobs index: still read by the reconciler, never
   * written (the write that ends such a job removes its keys).
   */
  openJobs: 'OPEN_JOB',
  /** The open-jobs index partition of a job (`OPEN_JOB#<n>`, n from its id), one of OPEN_JOB_SHARDS. */
  openJobShard: (id: string) => `OPEN_JOB#${shardOf(id)}`,
  openJobShardN: (n: number) => `OPEN_JOB#${n}`,
  /** gsi1 sort key of an open job: oldest first. */
  openJob: (createdAt: string, id: string) => `${createdAt}#${id}`,
  /**
   * gsi1 partition of the orders PayPal may still settle (created, pending, canceled: a late approval still pays), so
   * the order reconciler finds them without a scan; the keys go in the write that captures or fails an order, or when
   * the reconciler finds one that can no longer be approved. Sort key: openJob's shape, oldest first.
   */
  openOrders: 'OPEN_ORDER',
  /**
   * gsi1 partition of the PayPal subscriptions the plans' reconciler reads (on `SUBSCRIPTION#<id>`, from subscribe on):
   * every one not yet ended 35 days ago. Sort key `<checkedAt>#<id>` (first `<createdAt>#<id>`): least recently read first.
   */
  watchedPlans: 'PLAN_WATCH',
  /** An open WebSocket of the push channel: `USER#<sub>`/`CONN#<id>` (listed per user) and `CONN#<id>`/`CONN` (its owner, for $disconnect). */
  connection: (connectionId: string) => `CONN#${connectionId}`,
  connectionOwner: 'CONN',
  /**
   * A deleted account's tombstone (`DELETED#<sub>`/`DELETED`, with a ttl): refuses the tokens issued before the
   * deletion, and the account's creation. It holds the opaque sub alone, no personal data.
   */
  deletedAccount: (sub: string) => `DELETED#${sub}`,
  deletedItem: 'DELETED',
  /**
   * A call's first answer under its Idempotency-Key (`IDEMPOTENCY#<route>#<hash of the caller's sub and key>`), with a
   * ttl of a day: written by Powertools Idempotency (adapters/dynamodb-idempotency.ts), one partition per key.
   */
  idempotency: (key: string) => `IDEMPOTENCY#${key}`,
  idempotencyItem: 'IDEMPOTENCY',
  /**
   * The route an Idempotency-Key was first sent to (`IDEMPOTENCY#KEY#<sha-256 of [sub, key]>`/`ROUTE`), ttl a day: a
   * key names one request of one route, so the same key on another route is refused (handlers/idempotent.ts).
   */
  idempotencyKeyRoute: (hash: string) => `IDEMPOTENCY#KEY#${hash}`,
  idempotencyKeyRouteItem: 'ROUTE',
  /** The user's plan (`USER#<sub>`/`SUBSCRIPTION`): PayPal's subscription id, our plan, status, next billing. */
  subscription: 'SUBSCRIPTION',
  /**
   * A PayPal subscription we made (`SUBSCRIPTION#<id>`/`SUBSCRIPTION`): its owner, for PayPal's webhooks, and
   * `refusedAt` once it was refused (a second plan of one person, or a plan of a deleted account).
   */
  subscriptionOwner: (id: string) => `SUBSCRIPTION#${id}`,
  /**
   * A billing payment refunded instead of granted (`REFUSED_SALE#<saleId>`/`REFUSED_SALE`): PayPal's ids, amount,
   * dates, reason and outcome, for support; no owner, nothing personal.
   */
  refusedSale: (saleId: string) => `REFUSED_SALE#${saleId}`,
  refusedSaleItem: 'REFUSED_SALE',
  /**
   * What we made at PayPal (`PAYPAL#<key>`/`PAYPAL`): our catalog product (`product`), each plan at its price and credits
   * (`plan:<id>@<cents>/<credits>`), and back from a PayPal plan id to ours (`paypal-plan:<id>`).
   */
  paypalRef: (key: string) => `PAYPAL#${key}`,
  paypalRefItem: 'PAYPAL',
} as const;

/** A stable shard for an id: FNV-1a over its characters (ids are random, so the jobs spread evenly). */
function shardOf(id: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 0x01000193) >>> 0;
  return h % OPEN_JOB_SHARDS;
}

/** Object keys in the private media bucket: everything of a user lives under `users/<sub>/`. */
export const objectKeys = {
  /** Everything of one user: deleting the account removes every object under it. */
  userPrefix: (owner: string) => `users/${owner}/`,
  /** Where a user's images live: uploaded start images and generated images. */
  imagesOf: (owner: string) => `users/${owner}/images/`,
  /** A start image the user uploads (spec: users/{uid}/images/{timestamp}.png). */
  startImage: (owner: string, at: number) => `users/${owner}/images/${at}.png`,
  /**
   * A job's result: deterministic, so a repeated copy overwrites, never duplicates
   * (spec: users/{uid}/videos/video-{timestamp}.mp4 for videos).
   */
  result: (job: { id: string; owner: string; kind: MediaKind; createdAt: string }, index = 0) => {
    const ts = Date.parse(job.createdAt);
    // The second and later images of a several-image job carry their index.
    const suffix = (job.id.split('-')[1] ?? job.id) + (index ? `-${index}` : '');
    const { folder, fileNamePrefix, extension } = MEDIA_KINDS[job.kind];
    return `users/${job.owner}/${folder}/${fileNamePrefix}${ts}-${suffix}.${extension}`;
  },
  /** A video's poster frame, beside it. */
  poster: (videoKey: string) => videoKey.replace(/\.mp4$/, '-poster.jpg'),
  /** A clip's finished segment (segment 1, 2...) before the join, and its last frame (the next segment's start image). */
  segment: (job: { id: string; owner: string }, n: number) => `users/${job.owner}/videos/segments/${job.id}-${n}.mp4`,
  segmentFrame: (job: { id: string; owner: string }, n: number) => `users/${job.owner}/videos/segments/${job.id}-${n}-last.png`,
  /** True when `key` is an image of this owner's (and no path trick). */
  isOwnImage: (owner: string, key: string) => key.startsWith(`users/${owner}/images/`) && !key.includes('..'),
} as const;
