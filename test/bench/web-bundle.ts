/**
 * What a marketing route makes the browser download before it can render, from Vite's build output
 * (web/dist/.vite/manifest.json, and .vite/chunk-modules.json written by web/vite.config.mts):
 *
 *   main.ts (the only HTML entry) + the marketing entry + the route's page chunk, each with every chunk
 *   it imports statically. main.ts imports the last two dynamically, together; dynamic imports made
 *   later (the app on hand-over, the config validator, other pages) load on demand and are not counted.
 *
 * Also reports which forbidden packages (react-router, Amplify, zod) those chunks contain, from the
 * modules Rollup put in them, and, as a second line of defence, Amplify's text in the code itself.
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { PUBLIC_PAGE_SOURCES } from '../../contract/site';

export interface ManifestChunk {
  file: string;
  src?: string;
  name?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}
export type Manifest = Record<string, ManifestChunk>;
/** Chunk file -> the modules in it, relative to web/ ('../node_modules/react/index.js', 'src/main.ts'). */
export type ChunkModules = Record<string, string[]>;

/** The production build (`npm run build`). */
export const WEB_DIST = path.resolve(__dirname, '..', '..', 'web', 'dist');

/** Manifest key of the app's entry (web/src/app/app-entry.tsx): the router, which hydrates every page. */
export const APP_ENTRY = 'src/app/app-entry.tsx';
/** Manifest key of the public pages' layout. */
export const MARKETING_LAYOUT = 'src/app/layouts/marketing-layout.tsx';

/** The public routes and their page modules (relative to web/, as manifest keys): the one list, in contract/site.ts. */
export const MARKETING_PAGES: Readonly<Record<string, string>> = PUBLIC_PAGE_SOURCES;

/** Packages that must never be in a marketing page's initial JavaScript. */
export const FORBIDDEN_PACKAGES = ['aws-amplify', '@aws-amplify/*', 'zod', '@tanstack/*'] as const;

export function readManifest(dist: string): Manifest {
  const file = path.join(dist, '.vite', 'manifest.json');
  if (!fs.existsSync(file)) throw new Error(`${file} is missing: build.manifest must be on in web/vite.config.mts`);
  return JSON.parse(fs.readFileSync(file, 'utf8')) as Manifest;
}

export function readChunkModules(dist: string): ChunkModules {
  const file = path.join(dist, '.vite', 'chunk-modules.json');
  if (!fs.existsSync(file)) throw new Error(`${file} is missing: the chunkModules plugin must be in web/vite.config.mts`);
  return JSON.parse(fs.readFileSync(file, 'utf8')) as ChunkModules;
}

export function entryKey(manifest: Manifest): string {
  const entries = Object.entries(manifest).filter(([, c]) => c.isEntry);
  if (entries.length !== 1) throw new Error(`Expected one entry chunk, found ${entries.length}`);
  return entries[0]![0];
}

/** The manifest keys of `roots` and of everything they import statically, without repeats. */
export function staticClosure(manifest: Manifest, roots: string[]): string[] {
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    const chunk = manifest[key];
    if (!chunk) throw new Error(`${key} is not in the build manifest`);
    seen.add(key);
    for (const dep of chunk.imports ?? []) visit(dep);
  };
  roots.forEach(visit);
  return [...seen];
}

/** The package a module path belongs to ('@aws-amplify/core', 'react-dom'), or undefined for our own code. */
export function packageOf(modulePath: string): string | undefined {
  const m = /(?:^|\/)node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(modulePath);
  return m?.[1];
}

export function isForbidden(pkg: string): boolean {
  return FORBIDDEN_PACKAGES.some((f) => (f.endsWith('/*') ? pkg.startsWith(f.slice(0, -1)) : pkg === f));
}

/** The first forbidden package anywhere along a module path, a copy nested in another package's node_modules included. */
export function forbiddenPackageIn(modulePath: string): string | undefined {
  for (const m of modulePath.matchAll(/(?<![^/])node_modules\/((?:@[^/]+\/)?[^/]+)\//g)) if (isForbidden(m[1]!)) return m[1];
  return undefined;
}

/** Text that only Amplify's code contains (its user agent and cache names survive minification). */
const AMPLIFY_MARKERS = [/aws-amplify/, /@aws-amplify\//];

export interface InitialJs {
  files: string[];
  rawBytes: number;
  gzipBytes: number;
  /** Files whose code (or source path) is Amplify's. */
  amplifyFiles: string[];
  /** Forbidden packages found in those files, each with the file it is in ('react-router in assets/x.js'). */
  forbidden: string[];
  /** Every package bundled into those files. */
  packages: string[];
}

/** Sizes and contents of the JS chunks `roots` (manifest keys) load before rendering, main.ts's always included. */
export function initialJs(dist: string, manifest: Manifest, roots: string[], modules?: ChunkModules): InitialJs {
  const chunks = staticClosure(manifest, [entryKey(manifest), ...roots])
    .map((key) => ({ key, file: manifest[key]!.file }))
    .filter((c) => c.file.endsWith('.js'));
  let rawBytes = 0;
  let gzipBytes = 0;
  const amplifyFiles: string[] = [];
  const forbidden: string[] = [];
  const packages = new Set<string>();
  for (const { key, file } of chunks) {
    const code = fs.readFileSync(path.join(dist, file));
    rawBytes += code.length;
    gzipBytes += zlib.gzipSync(code, { level: 9 }).length;
    if (/amplify/i.test(key) || AMPLIFY_MARKERS.some((m) => m.test(code.toString('utf8')))) amplifyFiles.push(file);
    if (!modules) continue;
    const ids = modules[file];
    if (!ids) throw new Error(`${file} is missing from .vite/chunk-modules.json`);
    for (const pkg of new Set(ids.map(packageOf).filter((p): p is string => p !== undefined))) {
      packages.add(pkg);
      if (isForbidden(pkg)) forbidden.push(`${pkg} in ${file}`);
    }
  }
  const files = chunks.map((c) => c.file);
  return { files, rawBytes, gzipBytes, amplifyFiles, forbidden, packages: [...packages].sort() };
}

/**
 * The initial JS of a public page: main.ts, the app's entry (the router), the public layout and the page, as the
 * prerendered HTML preloads them. Throws when the router does not load `page`.
 */
export function marketingInitialJs(dist: string, manifest: Manifest, page: string, modules: ChunkModules): InitialJs {
  const loaded = staticClosure(manifest, [entryKey(manifest), APP_ENTRY]).flatMap((key) => manifest[key]!.dynamicImports ?? []);
  if (!loaded.includes(APP_ENTRY)) throw new Error(`main.ts does not load ${APP_ENTRY}`);
  if (!manifest[page]) throw new Error(`${page} is not in the build (missing from PUBLIC_PAGE_SOURCES in contract/site.ts?)`);
  return initialJs(dist, manifest, [APP_ENTRY, MARKETING_LAYOUT, page], modules);
}
