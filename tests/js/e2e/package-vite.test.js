// The package as a three.js developer meets it: `npm pack`, install the tarball with `three` and `vite` from npm
// into a new, empty Vite project, import `pbd-wasm` and `pbd-wasm/three` in ten lines, `vite build` with no
// configuration, serve the build, and check in headless Chromium that a cloth falls: threaded when the server sends
// COOP/COEP, single-threaded (the run-time fallback) when it does not.
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { preview } from 'vite';
import { isolationHeaders } from '../../../vite.config.js';
import { launchChromium } from '../shared/chromium.js';
import { installPackedApp, run } from '../shared/packed-app.js';

const scratch = mkdtempSync(join(tmpdir(), 'pbd-vite-app-'));
const app = join(scratch, 'app');
const servers = [];
let browser;

const MAIN_JS = `import { createPbd } from 'pbd-wasm';
import { PbdCloth } from 'pbd-wasm/three';
import { Scene } from 'three';

const pbd = await createPbd();
const world = new pbd.World();
const cloth = new PbdCloth(world, { columns: 16, rows: 16, spacing: 0.05, origin: [-0.4, 1.5, 0], pinned: [0, 15] });
new Scene().add(cloth);
const start = cloth.particlePosition(255).y;
for (let frame = 0; frame < 60; frame++) { world.step(1 / 60); cloth.update(); }
window.result = { variant: pbd.variant, threads: pbd.threads, fell: start - cloth.particlePosition(255).y };
`;

beforeAll(async () => {
  installPackedApp(scratch, app);
  writeFileSync(join(app, 'index.html'), '<!doctype html><html><body><script type="module" src="./main.js"></script>' +
    '</body></html>\n');
  writeFileSync(join(app, 'main.js'), MAIN_JS);
  run(join(app, 'node_modules/.bin/vite'), ['build', '--logLevel', 'error'], app);
  browser = await launchChromium();
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await Promise.all(servers.map((s) => s.close()));
  rmSync(scratch, { recursive: true, force: true });
});

async function openBuiltApp(headers) {
  const server = await preview({ root: app, configFile: false, logLevel: 'silent',
    preview: { port: 0, host: '127.0.0.1', headers } });
  servers.push(server);
  const page = await browser.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(server.resolvedUrls.local[0]);
  await page.waitForFunction(() => window.result, null, { timeout: 90_000 });
  const result = await page.evaluate(() => ({ ...window.result, isolated: crossOriginIsolated }));
  await page.close();
  return { result, errors };
}

it('the built app ships the wasm builds and the pthread worker', () => {
  const assets = readdirSync(join(app, 'dist/assets'));
  expect(assets.filter((f) => f.endsWith('.wasm')).length).toBe(2);
  expect(assets.some((f) => /worker.*\.js$/.test(f))).toBe(true);
});

it('runs threaded on a cross-origin isolated page, and the cloth falls', async () => {
  const { result, errors } = await openBuiltApp(isolationHeaders);
  expect(errors).toEqual([]);
  expect(result.isolated).toBe(true);
  expect(result.variant).toBe('threaded');
  expect(result.threads).toBeGreaterThanOrEqual(1);
  expect(result.fell).toBeGreaterThan(0.1);     // a free corner under gravity for 1 s, held by the cloth
}, 120_000);

it('falls back to the single-threaded build without COOP/COEP, and the cloth falls the same way', async () => {
  const { result, errors } = await openBuiltApp({});
  expect(errors).toEqual([]);
  expect(result.isolated).toBe(false);
  expect(result.variant).toBe('single');
  expect(result.fell).toBeGreaterThan(0.1);
}, 120_000);
