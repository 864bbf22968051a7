/**
 * The public pages are named twice: by the router (web/src/app/public-pages.ts, lazy imports Vite can split) and by
 * the build and servers (contract/site.ts, module paths in Vite's manifest). This holds the two lists together: the
 * same paths, and each loader importing the module the contract names.
 */
import { PUBLIC_PAGE_SOURCES } from '../../contract/site';
import { PUBLIC_PAGES } from '../../web/src/app/public-pages';

describe('public pages', () => {
  it('the router and the contract list the same paths', () => {
    expect(Object.keys(PUBLIC_PAGES).sort()).toEqual(Object.keys(PUBLIC_PAGE_SOURCES).sort());
  });

  it.each(Object.entries(PUBLIC_PAGE_SOURCES))("%s's loader imports %s", (path, source) => {
    const loader = PUBLIC_PAGES[path]!.toString();
    const module = source.replace(/^src\//, '').replace(/\.tsx$/, '');
    expect(loader).toContain(module);
  });
});
