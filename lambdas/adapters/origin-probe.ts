import { ORIGIN_HEADER } from '../../contract/origin';
import type { OriginProbe } from '../ports/origin-rotation';

/** A GET of `url` (the API's own endpoint) carrying the origin header, bounded in time. */
export function httpOriginProbe(url: string, timeoutMs = 10_000): OriginProbe {
  return async (value) => {
    const res = await fetch(url, { headers: { [ORIGIN_HEADER]: value }, signal: AbortSignal.timeout(timeoutMs) });
    await res.body?.cancel();
    return res.status;
  };
}
