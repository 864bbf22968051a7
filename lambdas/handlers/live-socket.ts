/**
 * The WebSocket API's event (API Gateway's WebSocket Lambda proxy event) and answers, for the live-* handlers.
 * Only what they read: the connection id, and on $connect the offered subprotocols.
 */
import { httpStatusOf } from '../../contract/errors';
import { AppError } from '../domain/errors';
import { logger } from '../logger';
import { instrumented } from '../observability';

export interface LiveSocketEvent {
  requestContext: { connectionId?: string; routeKey?: string; eventType?: string };
  headers?: Record<string, string | undefined>;
  body?: string;
}

export interface LiveSocketResult {
  statusCode: number;
  headers?: Record<string, string>;
  body?: string;
}

/** Header names arrive in whatever case the client sent. */
export function headerOf(event: LiveSocketEvent, name: string): string | undefined {
  const wanted = name.toLowerCase();
  for (const [k, v] of Object.entries(event.headers ?? {})) if (k.toLowerCase() === wanted) return v;
  return undefined;
}

/**
 * Runs one socket route (`name`: its id in contract/live.ts, for traces and metrics); a typed error is its status
 * (401 refuses the handshake), anything else a logged 500.
 */
export function socketRoute(name: string, fn: (event: LiveSocketEvent, connectionId: string) => Promise<LiveSocketResult>) {
  return instrumented(name, async (event: LiveSocketEvent): Promise<LiveSocketResult> => {
    try {
      return await fn(event, event.requestContext?.connectionId ?? '');
    } catch (err) {
      if (err instanceof AppError) return { statusCode: httpStatusOf[err.code] };
      logger.error('WebSocket route failed', { routeKey: event.requestContext?.routeKey, error: err as Error });
      return { statusCode: 500 };
    }
  });
}
