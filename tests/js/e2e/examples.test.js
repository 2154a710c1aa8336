// The examples as a user runs them: examples/browser copied into a new project with the packed package installed
// (no access to this repository's files), each page served by `vite dev` and built by `vite build` (served by
// `vite preview`), with the project's own vite.config.js. In headless Chromium each page loads without an error,
// draws a canvas that is not blank, and its bodies move. The Node example runs against the same install, and
// make-model.mjs writes the committed glTF model again, byte for byte.
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, preview } from 'vite';
import { launchChromium } from '../shared/chromium.js';
import { installPackedApp, run } from '../shared/packed-app.js';

const examples = new URL('../../../examples/', import.meta.url).pathname;
const SCREENSHOTS = new URL('../../../build/screenshots/', import.meta.url).pathname;   // git-ignored, to look at
// `npm run screenshot` sets PBD_README_SCREENSHOT: this page's built screenshot becomes the README's picture.
const README_PAGE = 'world-in-worker.html';
const README_PICTURE = new URL('../../../docs/images/drape.png', import.meta.url).pathname;
const scratch = mkdtempSync(join(tmpdir(), 'pbd-examples-'));
const app = join(scratch, 'browser');
const PAGES = readdirSync(join(examples, 'browser')).filter((f) => f.endsWith('.html') && f !== 'index.html');
const servers = [];
let browser, decoder;

beforeAll(async () => {
  cpSync(join(examples, 'browser'), app, { recursive: true });
  cpSync(join(examples, 'node'), join(scratch, 'browser', 'node'), { recursive: true });
  installPackedApp(scratch, app);
  run(join(app, 'node_modules/.bin/vite'), ['build', '--logLevel', 'error'], app);
  browser = await launchChromium();
  decoder = await browser.newPage();   // decodes screenshots with the browser's own PNG decoder
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await Promise.all(servers.map((s) => s.close()));
  rmSync(scratch, { recursive: true, force: true });
});

/** Distinct colours of screenshot `a`, and the pixels that differ clearly between `a` and `b` (PNG buffers). */
function compare(a, b) {
  return decoder.evaluate(async ([a64, b64]) => {
    const pixels = async (png) => {
      const image = await createImageBitmap(await (await fetch(`data:image/png;base64,${png}`)).blob());
      const context = new OffscreenCanvas(image.width, image.height).getContext('2d');
      context.drawImage(image, 0, 0);
      return context.getImageData(0, 0, image.width, image.height).data;
    };
    const [pa, pb] = [await pixels(a64), await pixels(b64)];
    const colours = new Set();
    let changed = 0;
    for (let i = 0; i < pa.length; i += 4) {
      colours.add((pa[i] << 16) | (pa[i + 1] << 8) | pa[i + 2]);
      if (Math.abs(pa[i] - pb[i]) + Math.abs(pa[i + 1] - pb[i + 1]) + Math.abs(pa[i + 2] - pb[i + 2]) > 24) changed++;
    }
    return { colours: colours.size, changed };
  }, [a.toString('base64'), b.toString('base64')]);
}

/**
 * Opens `page` of the server at `base`: the first screenshot once the scene is drawn, a second after the mouse has
 * crossed the view (saved as build/screenshots/example-<page>.png).
 */
async function watch(base, pageName) {
  const page = await browser.newPage({ viewport: { width: 640, height: 480 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {   // the browser's own request for /favicon.ico is no error of the example
    if (m.type() === 'error' && !m.location().url.endsWith('/favicon.ico')) errors.push(`${m.text()} ${m.location().url}`);
  });
  await page.goto(new URL(pageName, base).href);
  await page.waitForSelector('canvas', { timeout: 60_000 });
  let first, stats = { colours: 0 };
  for (const end = Date.now() + 60_000; stats.colours <= 50 && Date.now() < end;) {   // until drawn (wasm loaded)
    await page.waitForTimeout(300);
    first = await page.screenshot();
    stats = await compare(first, first);
  }
  for (let k = 0; k <= 20; k++) {   // a hand's pace across the view: moves the colliders page's sphere
    await page.mouse.move(200 + 12 * k, 300);
    await page.waitForTimeout(30);
  }
  const second = await page.screenshot();
  mkdirSync(SCREENSHOTS, { recursive: true });
  writeFileSync(`${SCREENSHOTS}example-${pageName.replace('.html', '')}.png`, second);
  const result = await compare(first, second);
  const isolated = await page.evaluate(() => crossOriginIsolated);
  await page.close();
  return { ...result, errors, isolated };
}

function expectAlive({ colours, changed, errors, isolated }) {
  expect(errors).toEqual([]);
  expect(isolated).toBe(true);               // the examples' vite.config.js sends COOP/COEP in dev and preview
  expect(colours).toBeGreaterThan(50);       // lit meshes on a background, not a blank canvas
  expect(changed).toBeGreaterThan(300);      // of 640 x 480: the bodies moved
}

describe('examples/browser, served by vite dev', () => {
  let base;
  beforeAll(async () => {
    const server = await createServer({ root: app, logLevel: 'silent',
      server: { port: 0, host: '127.0.0.1', hmr: false } });
    servers.push(server);
    await server.listen();
    base = server.resolvedUrls.local[0];
  }, 60_000);

  for (const page of PAGES) {
    it(`${page} loads, draws and moves`, async () => { expectAlive(await watch(base, page)); }, 150_000);
  }
});

describe('examples/browser, built by vite build', () => {
  let base;
  beforeAll(async () => {
    const server = await preview({ root: app, logLevel: 'silent', preview: { port: 0, host: '127.0.0.1' } });
    servers.push(server);
    base = server.resolvedUrls.local[0];
  }, 60_000);

  it('the build has every page, and public/ (the glTF model)', () => {
    expect(PAGES).toEqual(expect.arrayContaining(['hanging-cloth.html', 'balloon.html', 'colliders.html',
      'world-in-worker.html', 'flag.html', 'gltf-soft-body.html', 'rapier-hammock.html',
      'character-cape.html', 'twisted-wire.html', 'tearing.html']));
    expect(readdirSync(join(app, 'dist')).filter((f) => f.endsWith('.html')).sort())
      .toEqual([...PAGES, 'index.html'].sort());
    expect(readdirSync(join(app, 'dist'))).toContain('rounded-cube.glb');
  });

  for (const page of PAGES) {
    it(`${page} loads, draws and moves`, async () => {
      expectAlive(await watch(base, page));
      if (page === README_PAGE && process.env.PBD_README_SCREENSHOT) {
        copyFileSync(`${SCREENSHOTS}example-${page.replace('.html', '')}.png`, README_PICTURE);
      }
    }, 150_000);
  }
});

it('examples/browser/make-model.mjs writes the public/rounded-cube.glb that is in the repository', () => {
  const committed = readFileSync(join(examples, 'browser/public/rounded-cube.glb'));
  run('node', [join(app, 'make-model.mjs')], app);   // overwrites the copy in the scratch project
  expect(readFileSync(join(app, 'public/rounded-cube.glb')).equals(committed)).toBe(true);
  expect(committed.length).toBeLessThan(50_000);
});

it('examples/node/hanging-cloth.mjs runs in Node against the installed package', () => {
  const out = run('node', [join(app, 'node', 'hanging-cloth.mjs')], app);
  expect([...out.matchAll(/lowest point y = (-?[\d.]+) m/g)].length).toBe(4);
  const deepest = Number(/deepest: y = (-?[\d.]+) m/.exec(out)[1]);
  expect(deepest).toBeGreaterThan(0.4);      // a 1 m cloth pinned at 1.5 m swings down to about 0.5 m, no further
  expect(deepest).toBeLessThan(0.6);
}, 60_000);
