/**
 * The Idempotency-Key of the calls that charge or order (contract/idempotency.ts), on Powertools Idempotency: the
 * record is keyed by the route, the caller's sub and the header (a key is per user and route: the same key sent to
 * another route is a 422, adapters/dynamodb-idempotency.ts's key routes), its payload hash is the validated body, and
 * it holds the first answer for a day. A repeat answers that, marked `Idempotent-Replayed`; another body under the
 * same key is a 422; a repeat while the first runs is a 409 (IDEMPOTENCY_IN_PROGRESS), which the web app retries.
 *
 * Kept: 2xx and 4xx answers, as Stripe keeps them: the request ran and what it decided stands (a 402 retried with the
 * same key is not charged on a later balance; the web makes a new key per click, so a new click asks again). Not
 * kept: 5xx (thrown, so Powertools deletes the record): the call may not have happened, and a retry must run it. A
 * body that fails validation never reaches here, as Stripe does not keep those either.
 */
import type { Context } from 'aws-lambda';
import {
  IdempotencyAlreadyInProgressError,
  IdempotencyConfig,
  IdempotencyValidationError,
  makeIdempotent,
} from '@aws-lambda-powertools/idempotency';
import { ErrorCode, Messages, httpStatusOf } from '../../contract/errors';
import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENCY_TTL_SECONDS, IDEMPOTENT_REPLAYED_HEADER, IdempotencyKey } from '../../contract/idempotency';
import { AppError, InvalidInput } from '../domain/errors';
import type { RouteDef } from '../../contract/routes';
import { idempotencyKeyRoutes, idempotencyStore } from '../wiring/deps';
import { userRoute, type HttpResult, type Identity, type UserRouteOptions } from './http';

interface Call {
  routeId: string;
  sub: string;
  /** The Idempotency-Key header as sent, if any. */
  header: string | undefined;
  body: unknown;
  context: Context | undefined;
}

/**
 * Runs `handle` once per (sub, key, body) within a day; without a key it simply runs. A key first sent to another
 * route is a 422 (Messages.idempotencyKeyOtherRoute).
 */
export async function answerOnce(call: Call, handle: () => Promise<HttpResult>): Promise<HttpResult> {
  if (call.header === undefined) return handle();
  const key = IdempotencyKey.safeParse(call.header);
  if (!key.success) throw new InvalidInput(Messages.idempotencyKeyInvalid);
  // A key names one request of one route: the same key on another route is refused before anything runs.
  if (!(await idempotencyKeyRoutes().bind(call.sub, key.data, call.routeId))) throw new AppError(ErrorCode.IdempotencyKeyReused, Messages.idempotencyKeyOtherRoute);

  // A config per call: Powertools records the invocation's context on it, and locally one process serves many calls.
  const config = new IdempotencyConfig({
    eventKeyJmesPath: '[sub, key]',
    payloadValidationJmesPath: 'body',
    expiresAfterSeconds: IDEMPOTENCY_TTL_SECONDS,
    responseHook: (response) => {
      const r = response as { headers?: Record<string, string> };
      return { ...(response as Record<string, never>), headers: { ...r.headers, [IDEMPOTENT_REPLAYED_HEADER.toLowerCase()]: 'true' } };
    },
  });
  const once = makeIdempotent(
    async (_payload: { sub: string; key: string; body: unknown }, _context?: Context): Promise<HttpResult> => {
      try {
        // Stored as JSON: the answer as the client would read it again.
        return JSON.parse(JSON.stringify(await handle())) as HttpResult;
      } catch (err) {
        if (err instanceof AppError && httpStatusOf[err.code] < 500) {
          return { status: httpStatusOf[err.code], body: { error: err.message, code: err.code, ...(err.details ?? {}) } };
        }
        throw err;
      }
    },
    { persistenceStore: idempotencyStore(call.routeId), config, keyPrefix: call.routeId },
  );
  try {
    return await once({ sub: call.sub, key: key.data, body: call.body ?? null }, call.context);
  } catch (err) {
    if (err instanceof IdempotencyValidationError) throw new AppError(ErrorCode.IdempotencyKeyReused, Messages.idempotencyKeyReused);
    if (err instanceof IdempotencyAlreadyInProgressError) throw new AppError(ErrorCode.IdempotencyInProgress, Messages.idempotencyInProgress);
    // The use case's own error (a 5xx), which Powertools passes on as it was.
    throw err;
  }
}

/** The call's Idempotency-Key as sent (answerOnce has checked its form), for a use case that keys its own writes by it. */
export const requestKeyOf = (req: { headers: Record<string, string | undefined> }): string | undefined => req.headers[IDEMPOTENCY_KEY_HEADER.toLowerCase()];

/**
 * A user route that honours the Idempotency-Key header (its contract entry says `idempotencyKey`). Its own module, apart
 * from http.ts, so only these functions bundle Powertools Idempotency.
 */
export function idempotentUserRoute<R extends RouteDef & { idempotencyKey: true }>(
  route: R,
  fn: Parameters<typeof userRoute<R>>[1],
  opts?: UserRouteOptions,
) {
  return userRoute(
    route,
    (req, identity: Identity, context) =>
      answerOnce({ routeId: route.id, sub: identity.sub, header: requestKeyOf(req), body: req.body, context }, () => fn(req, identity)),
    opts,
  );
}
