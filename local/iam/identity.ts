import { AsyncLocalStorage } from 'node:async_hooks';
import http from 'node:http';

/** The header that carries the calling function's id from its SDK request to the IAM front (never forwarded). */
export const FUNCTION_HEADER = 'x-framewright-function';

const current = new AsyncLocalStorage<string>();

/** Runs a function's handler as that function: every AWS call it makes, awaited or not, is evaluated as it. */
export function asFunction<A extends unknown[], R>(id: string, handler: (...args: A) => Promise<R>): (...args: A) => Promise<R> {
  return (...args) => current.run(id, () => handler(...args));
}

let installed = false;

/**
 * Marks every outgoing HTTP request made inside a function's invocation with that function's id.
 *
 * All handlers share one process and the module-scope SDK clients (lambdas/adapters/*-client.ts), whose credentials
 * are resolved once per client: the invocation's identity can only join a request when it is sent. The SDK's Node
 * handler sends through `http.request` (looked up when its agent is first made), so this wraps it; it must run
 * before the first AWS call of the process. Calls of the stack itself (table setup, the stream poller, test
 * helpers, the mailbox) run outside any invocation and carry no id: the fronts pass them unevaluated.
 */
export function markFunctionRequests(): void {
  if (installed) return;
  installed = true;
  const request = http.request;
  http.request = function markedRequest(this: unknown, ...args: unknown[]) {
    const req = (request as (...a: unknown[]) => http.ClientRequest).apply(this, args);
    const id = current.getStore();
    if (id && !req.headersSent) req.setHeader(FUNCTION_HEADER, id);
    return req;
  } as typeof http.request;
}
