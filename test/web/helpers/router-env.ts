/**
 * What a data router needs from jsdom to render the real route table in tests.
 *
 * jsdom has no fetch API classes, but a data router creates a `Request` for every navigation that
 * loads something (lazy routes, loaders). This minimal stand-in covers GET navigations; node's own
 * Request cannot be used because it rejects jsdom's AbortSignal.
 * (Candidate for test/support/web-setup.ts once more suites need it.)
 */
class MinimalRequest {
  readonly url: string;
  readonly method: string;
  readonly signal: AbortSignal | undefined;
  readonly headers: Headers | undefined;
  constructor(input: string | URL, init: { signal?: AbortSignal; method?: string; headers?: Headers } = {}) {
    this.url = String(input);
    this.method = init.method ?? 'GET';
    this.signal = init.signal;
    this.headers = init.headers;
  }
}

if (typeof globalThis.Request === 'undefined') {
  Object.assign(globalThis, { Request: MinimalRequest });
}

// ScrollRestoration scrolls on every navigation; jsdom only logs 'Not implemented'.
window.scrollTo = () => undefined;
