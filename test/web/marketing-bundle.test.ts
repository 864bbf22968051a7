/**
 * @jest-environment node
 */
/**
 * The public pages' initial JavaScript holds no Amplify or zod. Bundles web/src/main.ts with esbuild (code
 * splitting on, as Vite does) and follows only static imports from main.ts, the app's entry (the router), the
 * public layout and each page: what the browser downloads to hydrate the prerendered page. Dynamic imports (the
 * signed-in pages, the config validator) may reach anything. `npm run bench:web` makes the same check, with
 * sizes, on the real Vite build.
 */
import path from 'node:path';
import { build, type Metafile } from 'esbuild';
import { APP_ENTRY as MANIFEST_APP_ENTRY, forbiddenPackageIn, MARKETING_LAYOUT, MARKETING_PAGES } from '../bench/web-bundle';

const ROOT = path.resolve(__dirname, '..', '..');
const MAIN = 'web/src/main.ts';
// esbuild names modules from the repository root; the shared list names them from web/, as Vite's manifest does.
const LAYOUT = `web/${MARKETING_LAYOUT}`;
const APP_ENTRY = `web/${MANIFEST_APP_ENTRY}`;
const PAGES = Object.values(MARKETING_PAGES).map((page) => `web/${page}`);

let metafile: Metafile;

beforeAll(async () => {
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: [MAIN],
    bundle: true,
    splitting: true,
    format: 'esm',
    outdir: 'out',
    write: false,
    metafile: true,
    platform: 'browser',
    jsx: 'automatic',
    loader: { '.css': 'empty' },
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'silent',
  });
  metafile = result.metafile;
}, 60_000);

function outputOf(entryPoint: string): string {
  const found = Object.entries(metafile.outputs).find(([, o]) => o.entryPoint === entryPoint);
  if (!found) throw new Error(`${entryPoint} is not a chunk of its own (is it still imported dynamically?)`);
  return found[0];
}

/** The chunks of `entryPoints` and every chunk they import statically. */
function initialChunks(...entryPoints: string[]): string[] {
  const seen = new Set<string>();
  const visit = (out: string) => {
    if (seen.has(out)) return;
    seen.add(out);
    for (const i of metafile.outputs[out]!.imports) if (i.kind === 'import-statement' && !i.external) visit(i.path);
  };
  entryPoints.map(outputOf).forEach(visit);
  return [...seen];
}

/** Source files in those chunks. */
const initialInputs = (...entryPoints: string[]) => initialChunks(...entryPoints).flatMap((out) => Object.keys(metafile.outputs[out]!.inputs));

const forbiddenIn = (inputs: string[]) => [...new Set(inputs.map(forbiddenPackageIn).filter(Boolean))];

describe("the marketing pages' initial JavaScript", () => {
  it.each(PAGES)('%s: React, the router and the page, without Amplify or zod', (page) => {
    const inputs = initialInputs(MAIN, APP_ENTRY, LAYOUT, page);
    expect(inputs).toContain(page);
    expect(inputs).toContain('web/src/app/layouts/marketing-frame.tsx');
    expect(inputs.some((i) => i.includes('node_modules/react-dom/'))).toBe(true);
    expect(forbiddenIn(inputs)).toEqual([]);
    // The push handlers belong to the signed-in app shell.
    expect(inputs).not.toContain('web/src/app/live-handlers.ts');
  });

  it('main.ts loads the app entry, which loads the pages lazily', () => {
    const lazy = initialChunks(MAIN)
      .flatMap((out) => metafile.outputs[out]!.imports)
      .filter((i) => i.kind === 'dynamic-import')
      .map((i) => metafile.outputs[i.path]?.entryPoint);
    expect(lazy).toContain(APP_ENTRY);
    // Nothing but main.ts itself before the first paint: React arrives with the app entry.
    expect(initialInputs(MAIN).filter((i) => i.includes('node_modules/'))).toEqual([]);
    const pages = initialChunks(APP_ENTRY)
      .flatMap((out) => metafile.outputs[out]!.imports)
      .filter((i) => i.kind === 'dynamic-import')
      .map((i) => metafile.outputs[i.path]?.entryPoint);
    expect(pages).toEqual(expect.arrayContaining([LAYOUT, ...PAGES]));
    expect(forbiddenIn(initialInputs(MAIN))).toEqual([]);
  });

  it('would notice zod and Amplify: the sign-in page, loaded on demand, has them', () => {
    expect(forbiddenIn(initialInputs('web/src/features/auth/login-page.tsx'))).toEqual(expect.arrayContaining(['zod']));
  });
});
