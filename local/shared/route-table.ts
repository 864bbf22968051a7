/**
 * A simulator's routes as data: each method and path (`/v2/checkout/orders/{id}`, written as the contract writes the
 * API's routes and matched by the same `compilePath`) to its handler. Both simulators route through one of these,
 * so a reader finds every endpoint of either in one list.
 */
import { compilePath } from '../../contract/routes';

export interface Route<H> {
  method: string;
  path: string;
  handle: H;
}

/** The route and its path parameters; or why none: no route has this path, or none with this method. */
export type Matched<H> = { handle: H; params: Record<string, string> } | 'no-such-path' | 'wrong-method';

export function routeTable<H>(routes: readonly Route<H>[]): (method: string, path: string) => Matched<H> {
  const table = routes.map((route) => ({ route, match: compilePath(route.path) }));
  return (method, path) => {
    let pathKnown = false;
    for (const { route, match } of table) {
      let params: Record<string, string> | null;
      try {
        params = match(path);
      } catch {
        // A parameter that is not valid percent-encoding names nothing there is.
        params = null;
      }
      if (!params) continue;
      if (route.method === method) return { handle: route.handle, params };
      pathKnown = true;
    }
    return pathKnown ? 'wrong-method' : 'no-such-path';
  };
}
