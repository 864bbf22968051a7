/**
 * The public pages are listed once, in the contract (PUBLIC_PAGE_SOURCES, which the build prerenders and the servers
 * serve), and the router's loaders are made from that list (web/src/app/public-pages.ts). This proves the two agree:
 * the router's marketing routes are exactly the contract's paths, and each loader loads a page component.
 */
import { PUBLIC_PAGE_SOURCES } from '../../contract/site';
import { PUBLIC_PAGES } from '../../web/src/app/public-pages';
import { marketingRoutes } from '../../web/src/app/router';

describe('public pages', () => {
  it("the router's marketing routes are the contract's public paths", () => {
    const routed = marketingRoutes.map((r) => (r.index ? '/' : `/${r.path}`));
    expect(routed.sort()).toEqual(Object.keys(PUBLIC_PAGE_SOURCES).sort());
    expect(Object.keys(PUBLIC_PAGES).sort()).toEqual(Object.keys(PUBLIC_PAGE_SOURCES).sort());
  });

  it.each(Object.keys(PUBLIC_PAGE_SOURCES))('%s loads a page component', async (path) => {
    const page = await PUBLIC_PAGES[path]!();
    expect(typeof page.default).toBe('function');
  });
});
