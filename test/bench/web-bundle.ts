/**
 * What a marketing route makes the browser download before it can render, from Vite's build manifest
 * (web/dist/.vite/manifest.json): the entry chunk, the route's layout and page chunks, and every chunk
 * they import statically (dynamic imports load later, on demand, and are not counted).
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

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

export function readManifest(dist: string): Manifest {
  const file = path.join(dist, '.vite', 'manifest.json');
  if (!fs.existsSync(file)) throw new Error(`${file} is missing: build.manifest must be on in web/vite.config.ts`);
  return JSON.parse(fs.readFileSync(file, 'utf8')) as Manifest;
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

/** Text that only Amplify's code contains (its user agent and cache names survive minification). */
const AMPLIFY_MARKERS = [/aws-amplify/, /@aws-amplify\//];

export interface InitialJs {
  files: string[];
  rawBytes: number;
  gzipBytes: number;
  /** Files whose code (or source path) is Amplify's. */
  amplifyFiles: string[];
}

export function initialJs(dist: string, manifest: Manifest, roots: string[]): InitialJs {
  const chunks = staticClosure(manifest, [entryKey(manifest), ...roots])
    .map((key) => ({ key, file: manifest[key]!.file }))
    .filter((c) => c.file.endsWith('.js'));
  let rawBytes = 0;
  let gzipBytes = 0;
  const amplifyFiles: string[] = [];
  for (const { key, file } of chunks) {
    const code = fs.readFileSync(path.join(dist, file));
    rawBytes += code.length;
    gzipBytes += zlib.gzipSync(code, { level: 9 }).length;
    if (/amplify/i.test(key) || AMPLIFY_MARKERS.some((m) => m.test(code.toString('utf8')))) amplifyFiles.push(file);
  }
  const files = chunks.map((c) => c.file);
  return { files, rawBytes, gzipBytes, amplifyFiles };
}
