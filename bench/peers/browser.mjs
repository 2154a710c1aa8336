// Runs bench:peers' measurement (measure.mjs runBench) in headless Chromium: the system /usr/bin/chromium through
// playwright (no browser download), the repository served by Vite with the COOP/COEP headers of vite.config.js so
// the page is cross-origin isolated and the threaded builds get SharedArrayBuffer. The page (browser.html) runs
// the measurement in a module Worker (browser-worker.mjs; pthreads must not block a page's main thread) and hands
// the rows back here, where run.mjs reports them with the same code as Node's. Node-only.
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright';
import { createServer } from 'vite';
import { isolationHeaders } from '../../vite.config.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * o: run.mjs options ({ runs, frames, warmup, scenes, configs, bunnySurface }); progress(line) gets the worker's
 * progress lines.
 * Returns runBench's { results, memory } plus the browser's version, hardwareConcurrency and crossOriginIsolated.
 */
export async function runInChromium(o, progress) {
  // Root = the repository, so the page reaches bench/peers, web/lib (pbd-wasm) and node_modules/jolt-physics.
  // No dependency pre-bundling: the wasm glues find their .wasm and pthread workers next to themselves
  // (new URL(..., import.meta.url)), which a pre-bundled copy in node_modules/.vite would break.
  const server = await createServer({ configFile: false, logLevel: 'silent', root: ROOT,
    optimizeDeps: { noDiscovery: true, include: [] },
    server: { port: 0, host: '127.0.0.1', headers: isolationHeaders, hmr: false, watch: null } });
  await server.listen();
  let browser;
  try {
    browser = await chromium.launch({ executablePath: '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
        '--disable-sync', '--no-first-run'] });
    const page = await browser.newPage();
    const pageErrors = [];
    page.on('pageerror', (e) => pageErrors.push(e.message));
    await page.exposeFunction('__peersProgress', progress);
    await page.goto(new URL('bench/peers/browser.html', server.resolvedUrls.local[0]).href);
    await page.waitForFunction(() => typeof window.runPeers === 'function', null, { timeout: 60_000 });
    const { scenes, configs, runs, frames, warmup, bunnySurface } = o;
    const out = await page.evaluate((opts) => window.runPeers(opts), { scenes, configs, runs, frames, warmup,
      bunnySurface })
      .catch((e) => {
        throw new Error(`${e.message}${pageErrors.length ? `\npage errors: ${pageErrors.join('; ')}` : ''}`);
      });
    return { ...out, browserVersion: browser.version() };
  } finally {
    await browser?.close();
    await server.close();
  }
}
