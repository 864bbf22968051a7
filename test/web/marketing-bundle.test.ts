/**
 * @jest-environment node
 */
/**
 * The marketing pages' initial JavaScript holds no react-router, Amplify or zod. Bundles web/src/main.tsx
 * with esbuild (code splitting on, as Vite does) and follows only static imports from main.tsx, the
 * marketing entry and each page: what the browser must download before the page renders. Dynamic imports
 * (the app on hand-over, the config validator) are allowed to reach anything. `npm run bench:web` makes
 * the same check, with sizes, on the real Vite build.
 */
import path from 'node:path';
import { build, type Metafile } from 'esbuild';
import { APP_ENTRY as MANIFEST_APP_ENTRY, forbiddenPackageIn, MARKETING_ENTRY as MANIFEST_MARKETING_ENTRY, MARKETING_PAGES } from '../bench/web-bundle';

const ROOT = path.resolve(__dirname, '..', '..');
const MAIN = 'web/src/main.tsx';
// esbuild names modules from the repository root; the shared list names them from web/, as Vite's manifest does.
const MARKETING_ENTRY = `web/${MANIFEST_MARKETING_ENTRY}`;
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
  it.each(PAGES)('%s: React and the page, without react-router, Amplify or zod', (page) => {
    const inputs = initialInputs(MAIN, MARKETING_ENTRY, page);
    expect(inputs).toContain(page);
    expect(inputs).toContain('web/src/app/layouts/marketing-frame.tsx');
    expect(inputs.some((i) => i.includes('node_modules/react-dom/'))).toBe(true);
    expect(forbiddenIn(inputs)).toEqual([]);
  });

  it('main.tsx loads both entries lazily: neither is part of the other', () => {
    const lazy = initialChunks(MAIN)
      .flatMap((out) => metafile.outputs[out]!.imports)
      .filter((i) => i.kind === 'dynamic-import')
      .map((i) => metafile.outputs[i.path]?.entryPoint);
    expect(lazy).toEqual(expect.arrayContaining([MARKETING_ENTRY, APP_ENTRY, ...PAGES]));
    expect(forbiddenIn(initialInputs(MAIN))).toEqual([]);
  });

  it('would notice react-router: the app entry, loaded on hand-over, has it', () => {
    expect(forbiddenIn(initialInputs(APP_ENTRY))).toEqual(expect.arrayContaining(['react-router', 'react-router-dom', 'zod']));
  });
});
