// The demo page in headless Chromium, driven by Playwright: served isolated (threaded build, zero-copy) and
// served without COOP/COEP (single-threaded fallback with a notice). It must render the cloth and follow a drag.
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer } from 'vite';
import viteConfig, { isolationHeaders } from '../../../vite.config.js';
import { launchChromium } from '../shared/chromium.js';

const COLUMNS = 64;

let browser;
const servers = [];

async function serve(headers) {
  // The config file's settings, but with these headers only (createServer would merge, not replace, them).
  const server = await createServer({ ...viteConfig, configFile: false, logLevel: 'silent',
    root: new URL('../../../web', import.meta.url).pathname,
    server: { port: 0, host: '127.0.0.1', headers, hmr: false } });
  await server.listen();
  servers.push(server);
  return server.resolvedUrls.local[0];
}

/** A new page (in its own context; hasTouch: it takes touch events) on the demo at `url`, once it runs. */
async function openDemo(url, { hasTouch = false } = {}) {
  const page = await browser.newPage({ viewport: { width: 900, height: 650 }, hasTouch });
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(url);
  await page.waitForFunction(() => window.__pbdDemo?.ready && window.__pbdDemo.frames > 30, null, { timeout: 90_000 });
  return { page, errors };
}

/**
 * Drags the cloth particle under row 50's middle by `by` (CSS px) in 20 moves with `input` ({press, moveTo, lift}:
 * the mouse's or a touch's), holds it 0.5 s, lets go, and waits 1.5 s of simulated time (90 frames, not wall time:
 * under load the worker steps slower than real time). Returns what the drag tests check.
 */
async function dragClothParticle(page, input, by) {
  await page.waitForTimeout(1500);                         // let the first swing calm down
  const start = await page.evaluate((i) => __pbdDemo.screenOf(i), 50 * COLUMNS + COLUMNS / 2);
  await input.press(start);
  const grabbed = await page.evaluate(() => __pbdDemo.grabbed);
  if (typeof grabbed !== 'number') return { grabbed };
  const before = await page.evaluate((i) => __pbdDemo.particle(i), grabbed);
  const end = { x: start.x + by.x, y: start.y + by.y };
  for (let k = 1; k <= 20; k++) {
    await input.moveTo({ x: start.x + (end.x - start.x) * k / 20, y: start.y + (end.y - start.y) * k / 20 });
    await page.waitForTimeout(30);
  }
  await page.waitForTimeout(500);
  const held = await page.evaluate((i) => __pbdDemo.particle(i), grabbed);
  const onScreen = await page.evaluate((i) => __pbdDemo.screenOf(i), grabbed);
  await input.lift();
  const released = await page.evaluate(() => __pbdDemo.frames);
  await page.waitForFunction((f) => __pbdDemo.frames > f + 90, released, { timeout: 100_000 });
  const after = await page.evaluate((i) => __pbdDemo.particle(i), grabbed);
  return { grabbed, before, held, after, cursorMiss: Math.hypot(onScreen.x - end.x, onScreen.y - end.y) };
}

/** The checks of a drag: the particle sat under the cursor, far from where it was, and fell once let go. */
function expectDraggedAndThrown({ grabbed, before, held, after, cursorMiss }) {
  expect(grabbed).toBeTypeOf('number');
  expect(cursorMiss).toBeLessThan(15);
  expect(Math.hypot(held[0] - before[0], held[1] - before[1], held[2] - before[2])).toBeGreaterThan(0.3);
  expect(after[1]).toBeLessThan(held[1] - 0.05);
  expect(after.every(Number.isFinite)).toBe(true);
}

beforeAll(async () => {
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await Promise.all(servers.map((s) => s.close()));
});

describe('served with COOP/COEP', () => {
  let page;
  let errors;
  beforeAll(async () => { ({ page, errors } = await openDemo(await serve(isolationHeaders))); }, 120_000);
  // Closed before the next pages open: it would go on simulating and drawing in software beside them.
  afterAll(() => page?.close());

  it('runs the threaded build and renders the cloth on a non-blank canvas', async () => {
    const info = await page.evaluate(() => ({ isolated: crossOriginIsolated, variant: __pbdDemo.variant,
      threads: __pbdDemo.threads, stats: __pbdDemo.canvasStats(), bunny: __pbdDemo.bunny,
      notice: getComputedStyle(document.getElementById('notice')).display,
      progress: document.getElementById('progress').textContent, renderer: __pbdDemo.renderer,
      build: document.getElementById('build').textContent, canvasWidth: document.querySelector('#app canvas').width,
      cssWidth: document.querySelector('#app canvas').clientWidth }));
    expect(info.isolated).toBe(true);
    // The bunny was tetrahedralized in the worker, its progress shown on the page.
    expect(info.bunny.tets).toBeGreaterThan(1000);
    expect(info.progress).toMatch(/bunny: \d+ tets/);
    expect(info.variant).toBe('threaded');
    expect(info.threads).toBeGreaterThanOrEqual(1);
    expect(info.stats.distinctColours).toBeGreaterThan(20);
    expect(info.stats.clothPixels).toBeGreaterThan(200);   // of 19,200 sampled pixels
    expect(info.notice).toBe('none');
    // Chromium runs with --disable-gpu, so SwiftShader draws: the page names it, says what that means, and draws at
    // half the pixel ratio without multisampling.
    expect(info.renderer).toEqual({ name: expect.stringMatching(/SwiftShader/), software: true,
      rasterizer: 'SwiftShader', pixelRatio: 0.5, antialias: false });
    expect(info.canvasWidth).toBe(Math.round(0.5 * info.cssWidth));
    expect(info.build).toMatch(new RegExp(`^threaded build, ${info.threads} solver threads`));
    expect(info.build).toContain('drawn in software (SwiftShader, pixel ratio 0.5, no antialiasing)');
    expect(errors).toEqual([]);
  });

  it('follows a scripted mouse drag and throws the cloth on release', async () => {
    const mouse = { press: async ({ x, y }) => { await page.mouse.move(x, y); await page.mouse.down(); },
      moveTo: ({ x, y }) => page.mouse.move(x, y), lift: () => page.mouse.up() };
    expectDraggedAndThrown(await dragClothParticle(page, mouse, { x: 240, y: -80 }));
    expect(errors).toEqual([]);
  }, 120_000);

  it('turns a dropped OBJ file into a soft body, and names the line of a broken one', async () => {
    // A cube with split vertices per face (as exporters write it): welding makes it closed.
    const corners = [[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0], [0, 0, 1], [1, 0, 1], [1, 1, 1], [0, 1, 1]];
    const faces = [[0, 3, 2, 1], [4, 5, 6, 7], [0, 1, 5, 4], [1, 2, 6, 5], [2, 3, 7, 6], [3, 0, 4, 7]];
    const lines = [];
    faces.forEach((face, f) => {
      for (const c of face) lines.push(`v ${corners[c].join(' ')}`);
      lines.push(`f ${4 * f + 1} ${4 * f + 2} ${4 * f + 3} ${4 * f + 4}`);
    });
    await page.evaluate((text) => __pbdDemo.dropMesh('cube.obj', text), lines.join('\n'));
    await page.waitForFunction(() => __pbdDemo.droppedCount === 1, null, { timeout: 60_000 });
    expect(await page.evaluate(() => document.getElementById('progress').textContent)).toMatch(/cube\.obj: \d+ tets/);
    // The Stanford bunny of the npm package, written as OBJ here (real data nobody here wrote).
    const bunny = createRequire(import.meta.url)('bunny');
    const bunnyObj = [...bunny.positions.map((p) => `v ${p.join(' ')}`),
      ...bunny.cells.map((c) => `f ${c.map((i) => i + 1).join(' ')}`)].join('\n');
    await page.evaluate((text) => __pbdDemo.dropMesh('bunny.obj', text), bunnyObj);
    await page.waitForFunction(() => __pbdDemo.droppedCount === 2, null, { timeout: 90_000 });
    expect(await page.evaluate(() => document.getElementById('progress').textContent)).toMatch(/bunny\.obj: \d+ tets/);
    await page.evaluate(() => __pbdDemo.dropMesh('broken.obj', 'v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 7\n'));
    await page.waitForFunction(() => getComputedStyle(document.getElementById('error')).display !== 'none');
    expect(await page.evaluate(() => document.getElementById('error').textContent)).toMatch(/readObj: line 4/);
    expect(errors).toEqual([]);
  }, 120_000);
});

describe('on a touch screen', () => {
  it('grabs and drags the cloth with a touch, as with the mouse', async () => {
    const { page: touchPage, errors: touchErrors } = await openDemo(await serve(isolationHeaders), { hasTouch: true });
    // Chromium's own touch events (touch → pointer events with pointerType 'touch'), through the DevTools protocol.
    const cdp = await touchPage.context().newCDPSession(touchPage);
    const touch = (type, point) => cdp.send('Input.dispatchTouchEvent', { type, touchPoints: point ? [point] : [] });
    const finger = { press: (at) => touch('touchStart', at), moveTo: (at) => touch('touchMove', at),
      lift: () => touch('touchEnd') };
    expectDraggedAndThrown(await dragClothParticle(touchPage, finger, { x: 240, y: -80 }));
    expect(touchErrors).toEqual([]);
    await touchPage.close();
  }, 120_000);
});

describe('the pixel ratio', () => {
  it('?pixelRatio sets it; a bad value is named on the page and the default kept', async () => {
    const base = await serve(isolationHeaders);
    const canvasOf = (page) => page.evaluate(() => ({ pixelRatio: __pbdDemo.renderer.pixelRatio,
      width: document.querySelector('#app canvas').width, cssWidth: document.querySelector('#app canvas').clientWidth,
      error: document.getElementById('error').textContent }));
    const sharp = await openDemo(`${base}?scene=ropes&pixelRatio=1.5`);
    expect(await canvasOf(sharp.page)).toEqual({ pixelRatio: 1.5, width: 1350, cssWidth: 900, error: '' });
    await sharp.page.close();
    const bad = await openDemo(`${base}?scene=ropes&pixelRatio=-2`);
    const info = await canvasOf(bad.page);
    expect(info.error).toMatch(/pixelRatio must be a number in \(0, 4\] \(got '-2'\); using 0\.5/);
    expect(info.width).toBe(450);
    expect([...sharp.errors, ...bad.errors]).toEqual([]);
    await bad.page.close();
  }, 120_000);
});

describe('served without COOP/COEP', () => {
  it('falls back to the single-threaded build, says so, and still simulates', async () => {
    const { page, errors } = await openDemo(await serve({}));
    const info = await page.evaluate(() => ({ isolated: crossOriginIsolated, variant: __pbdDemo.variant,
      notice: document.getElementById('notice').textContent, stats: __pbdDemo.canvasStats(), frames: __pbdDemo.frames,
      build: document.getElementById('build').textContent }));
    expect(info.isolated).toBe(false);
    expect(info.variant).toBe('single');
    expect(info.build).toMatch(/^single-threaded build \(positions transferred per frame\) · drawn in software/);
    expect(info.notice).toMatch(/not cross-origin isolated/);
    expect(info.stats.clothPixels).toBeGreaterThan(200);   // of 19,200 sampled pixels
    // It falls and swings: within 2.5 s the centre of mass passes well below its starting height of 1.3 m.
    // Sampled inside the page (one round trip: the software-rendered page answers slowly under load).
    // Sampled every 100 ms until 2.5 s of simulated time (150 frames) have passed, however slow the machine.
    const lowest = await page.evaluate(() => new Promise((resolve) => {
      let low = Infinity;
      const end = __pbdDemo.frames + 150;
      const sample = () => {
        let sum = 0;
        for (let i = 0; i < 64 * 64; i++) sum += __pbdDemo.particle(i)[1];
        low = Math.min(low, sum / (64 * 64));
        if (__pbdDemo.frames < end) setTimeout(sample, 100);
        else resolve(low);
      };
      sample();
    }));
    expect(lowest).toBeLessThan(1.0);
    expect(await page.evaluate(() => __pbdDemo.frames)).toBeGreaterThan(info.frames + 30);
    expect(errors).toEqual([]);
    await page.close();
  }, 120_000);
});
