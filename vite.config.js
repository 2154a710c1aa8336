import { defineConfig } from 'vite';

/** Threads need SharedArrayBuffer, which browsers only give to cross-origin isolated pages. */
export const isolationHeaders = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
};

// The demo imports the package by name ('pbd-wasm', 'pbd-wasm/three'), as an app would: Vite resolves a package's
// own name through its package.json "exports" (self-reference), in dev, build and workers alike, so no alias.
export default defineConfig({
  root: 'web',
  server: { headers: isolationHeaders },
  preview: { headers: isolationHeaders },
  worker: { format: 'es' },
  build: { outDir: '../build/web', emptyOutDir: true, target: 'es2022', chunkSizeWarningLimit: 1000 },
});
