/**
 * Whether an error says a service could not be reached at all (connection refused or reset, a timeout, a name that
 * does not resolve) or answered that it is unavailable, as opposed to a request it refused or a bug of ours: the
 * SDK's and fetch's errors carry the network cause in `code`, in `cause`, or in an AggregateError's `errors`.
 */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'UND_ERR_SOCKET', 'UND_ERR_CONNECT_TIMEOUT']);
const UNAVAILABLE_NAMES = new Set(['TimeoutError', 'ServiceUnavailable', 'ServiceUnavailableException', 'RequestTimeout']);

export function isDependencyUnreachable(err: unknown, depth = 0): boolean {
  if (!err || typeof err !== 'object' || depth > 5) return false;
  const e = err as { code?: unknown; name?: unknown; cause?: unknown; errors?: unknown; $metadata?: { httpStatusCode?: number } };
  if (typeof e.code === 'string' && NETWORK_CODES.has(e.code)) return true;
  if (typeof e.name === 'string' && UNAVAILABLE_NAMES.has(e.name)) return true;
  if (e.$metadata?.httpStatusCode === 503) return true;
  if (Array.isArray(e.errors) && e.errors.some((x) => isDependencyUnreachable(x, depth + 1))) return true;
  return isDependencyUnreachable(e.cause, depth + 1);
}
