import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import path from 'node:path';
import { defineConfig, type Plugin } from 'vite';

const webRoot = fileURLToPath(new URL('.', import.meta.url));

/**
 * Writes .vite/chunk-modules.json: each JS chunk's file and the modules bundled into it (paths relative
 * to web/). npm run bench:web reads it to prove which packages a page's initial JavaScript contains.
 */
function chunkModules(): Plugin {
  return {
    name: 'framewright-chunk-modules',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks: Record<string, string[]> = {};
      for (const item of Object.values(bundle)) {
        if (item.type !== 'chunk') continue;
        chunks[item.fileName] = item.moduleIds.map((id) => path.relative(webRoot, id.replace(/^\0/, '')).split(path.sep).join('/'));
      }
      this.emitFile({ type: 'asset', fileName: '.vite/chunk-modules.json', source: `${JSON.stringify(chunks, null, 1)}\n` });
    },
  };
}

/**
 * The SPA build. No dev proxy on purpose: the embedded stack (bin/local.ts) runs Vite in middleware
 * mode and mounts /api, /config.json and /_dev/* on the same origin itself.
 */
export default defineConfig({
  root: webRoot,
  publicDir: 'public',
  plugins: [react(), tailwindcss(), chunkModules()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    // .vite/manifest.json maps each source module to its chunk and static imports (npm run bench:web reads it).
    manifest: true,
    rolldownOptions: {
      treeshake: {
        // A feature's index.ts only re-exports (test/web/feature-indexes.test.ts), so a page that imports one name
        // through it loads that name's module, not every module the index names (My Account would otherwise carry
        // the generators' start-image code, and the video chooser the payment history).
        moduleSideEffects: [{ test: /[\\/]web[\\/]src[\\/]features[\\/][\w-]+[\\/]index\.ts$/, sideEffects: false }],
      },
      // React in a chunk of its own name (otherwise it is named after whichever small module shares it first).
      output: { codeSplitting: { groups: [{ name: 'react', test: /[\\/]node_modules[\\/](react|react-dom|scheduler)[\\/]/ }] } },
    },
  },
});
