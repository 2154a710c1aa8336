// One Vite project, a page per example (like three.js's examples). The headers make the pages cross-origin
// isolated, so pbd-wasm runs its threaded build; without them it runs single-threaded.
import { readdirSync } from 'node:fs';
import { defineConfig } from 'vite';

const isolation = { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' };
const root = new URL('.', import.meta.url).pathname;
const pages = Object.fromEntries(readdirSync(root).filter((f) => f.endsWith('.html')).map((f) => [f.slice(0, -5), root + f]));

export default defineConfig({
  server: { headers: isolation },             // vite (dev)
  preview: { headers: isolation },            // vite preview
  optimizeDeps: { exclude: ['pbd-wasm'] },    // dev: keep the module next to its .wasm and worker files
  build: { target: 'es2022', rollupOptions: { input: pages } },
});
