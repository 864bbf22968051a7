/**
 * A scripted API behind the real api-client: a fetch stand-in that answers like the contract's routes and records
 * every request it was sent.
 */
export interface FakeRequest {
  method: string;
  url: string;
  path: string;
  query: URLSearchParams;
  body: unknown;
}

export interface FakeAnswer {
  status: number;
  body?: unknown;
  /** Raw text instead of JSON. */
  text?: string;
}

type Handler = (req: FakeRequest) => FakeAnswer | Promise<FakeAnswer>;

interface Route {
  method: string;
  match: (path: string) => boolean;
  handler: Handler;
}

export class FakeApi {
  readonly requests: FakeRequest[] = [];
  private routes: Route[] = [];

  /** Registers (or replaces, newest first) the answer for a method and a path (a prefix when it ends with '*'). */
  on(method: string, path: string, handler: Handler | FakeAnswer): this {
    const match = path.endsWith('*') ? (p: string) => p.startsWith(path.slice(0, -1)) : (p: string) => p === path;
    this.routes.unshift({ method, match, handler: typeof handler === 'function' ? handler : () => handler });
    return this;
  }

  calls(method: string, path: string): FakeRequest[] {
    return this.requests.filter((r) => r.method === method && (path.endsWith('*') ? r.path.startsWith(path.slice(0, -1)) : r.path === path));
  }

  readonly fetch = async (input: string | URL, init: RequestInit = {}) => {
    const url = new URL(String(input), 'http://app.test');
    const method = (init.method ?? 'GET').toUpperCase();
    let body: unknown = init.body;
    if (typeof init.body === 'string') {
      try {
        body = JSON.parse(init.body);
      } catch {
        body = init.body;
      }
    }
    const req: FakeRequest = { method, url: url.toString(), path: url.pathname, query: url.searchParams, body };
    this.requests.push(req);
    const route = this.routes.find((r) => r.method === method && r.match(url.pathname));
    const answer: FakeAnswer = route ? await route.handler(req) : { status: 404, body: { error: 'Not found.', code: 'NOT_FOUND' } };
    const text = answer.text ?? (answer.body === undefined ? '' : JSON.stringify(answer.body));
    return { ok: answer.status >= 200 && answer.status < 300, status: answer.status, text: async () => text, json: async () => JSON.parse(text) };
  };
}
