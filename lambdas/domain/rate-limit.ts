/**
 * Rate limiting with the generic cell rate algorithm (GCRA): `limit` requests per `periodMs`, as a burst of
 * up to `limit` and then one more every `periodMs / limit`. One number per key is stored, the "theoretical
 * arrival time" (tat); unlike fixed hourly windows it allows no double burst across a window boundary.
 */
export interface Allowance {
  key: string;
  limit: number;
  periodMs: number;
}

export type GcraDecision = { allowed: true; nextTat: number } | { allowed: false; retryAfterMs: number };

export function gcra(tat: number | undefined, now: number, { limit, periodMs }: Pick<Allowance, 'limit' | 'periodMs'>): GcraDecision {
  const interval = periodMs / limit;
  const tolerance = interval * (limit - 1);
  const start = Math.max(tat ?? now, now);
  const waitMs = start - now - tolerance;
  if (waitMs > 0) return { allowed: false, retryAfterMs: Math.ceil(waitMs) };
  return { allowed: true, nextTat: start + interval };
}

export type AllowanceResult = { allowed: true } | { allowed: false; retryAfterMs: number };
