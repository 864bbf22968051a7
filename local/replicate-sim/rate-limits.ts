/**
 * Replicate's API rate limits for one account: creating predictions at 600 requests a minute, every other endpoint at
 * 3,000, with short bursts above them allowed; over a limit the call is answered 429 with Retry-After and a detail
 * saying when it resets, and nothing is done. Written here because it is the simulator's own behaviour: a token
 * bucket per limit, one minute's worth deep (the burst), refilled evenly over the minute.
 */
import { REPLICATE_LIMITS } from '../../contract/capacity';
import { problem } from './validation';

export interface RateLimits {
  createsPerMinute: number;
  otherRequestsPerMinute: number;
}

export type RequestKind = 'create' | 'other';

/** The calls that count against the create limit: POST /v1/predictions and an official model's predictions. */
export function kindOf(method: string, apiPath: string): RequestKind {
  return method === 'POST' && /^\/(?:predictions|models\/[^/]+\/[^/]+\/predictions|deployments\/[^/]+\/[^/]+\/predictions)$/.test(apiPath) ? 'create' : 'other';
}

export function createRateLimiter(limits: RateLimits = REPLICATE_LIMITS, now: () => number = Date.now) {
  const buckets = new Map<RequestKind, { tokens: number; at: number; perMinute: number }>([
    ['create', { tokens: limits.createsPerMinute, at: now(), perMinute: limits.createsPerMinute }],
    ['other', { tokens: limits.otherRequestsPerMinute, at: now(), perMinute: limits.otherRequestsPerMinute }],
  ]);
  return {
    /** Takes one request of this kind, or throws Replicate's 429. */
    take(kind: RequestKind): void {
      const b = buckets.get(kind)!;
      const t = now();
      b.tokens = Math.min(b.perMinute, b.tokens + ((t - b.at) / 60_000) * b.perMinute);
      b.at = t;
      if (b.tokens >= 1) {
        b.tokens -= 1;
        return;
      }
      const seconds = Math.max(1, Math.ceil(((1 - b.tokens) / b.perMinute) * 60));
      throw problem(429, 'Request was throttled', `Request was throttled. Your rate limit resets in ~${seconds}s.`, {}, { 'retry-after': String(seconds) });
    },
  };
}
