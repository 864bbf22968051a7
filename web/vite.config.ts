import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const webRoot = fileURLToPath(new URL('.', import.meta.url));

/**
 * The SPA build. No dev proxy on purpose: the embedded stack (bin/local.ts) runs Vite in middleware
 * mode and mounts /api, /config.json and /_dev/* on the same origin itself.
 */
export default defineConfig({
  root: webRoot,
  publicDir: 'public',
  plugins: [react(), tailwindcss()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    // .vite/manifest.json maps each source module to its chunk and static imports (npm run bench:web reads it).
    manifest: true,
  },
});
