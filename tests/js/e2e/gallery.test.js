// Every gallery scene of the demo page in headless Chromium (served cross-origin isolated): it loads, simulates and
// renders a non-blank canvas without errors; a screenshot of each is saved under build/screenshots/ (git-ignored) for
// looking at. A panel change reaches the simulation, and an unknown scene name falls back with a message.
import { mkdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer } from 'vite';
import viteConfig, { isolationHeaders } from '../../../vite.config.js';
import { launchChromium } from '../shared/chromium.js';
import { SCENES } from '../../../web/demo/scenes/index.js';

const SCREENSHOTS = new URL('../../../build/screenshots/', import.meta.url).pathname;

let browser;
let server;
let base;

beforeAll(async () => {
  mkdirSync(SCREENSHOTS, { recursive: true });
  server = await createServer({ ...viteConfig, configFile: false, logLevel: 'silent',
    root: new URL('../../../web', import.meta.url).pathname,
    server: { port: 0, host: '127.0.0.1', headers: isolationHeaders, hmr: false } });
  await server.listen();
  base = server.resolvedUrls.local[0];
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function open(query) {
  const page = await browser.newPage({ viewport: { width: 800, height: 600 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${base}?${query}`);
  // Ready and stepping, or failed with the page's error box up (the assertions then show its message).
  await page.waitForFunction(() => (window.__pbdDemo?.ready && window.__pbdDemo.frames > 20)
    || document.getElementById('error')?.style.display === 'block', null, { timeout: 100_000 });
  return { page, errors };
}

describe('every gallery scene', () => {
  for (const name of Object.keys(SCENES)) {
    it(`'${name}' loads, simulates and renders`, async () => {
      const { page, errors } = await open(`scene=${name}`);
      const info = await page.evaluate(() => ({ scene: __pbdDemo.scene, stats: __pbdDemo.canvasStats(),
        error: document.getElementById('error').style.display === 'block'
          ? document.getElementById('error').textContent : null,
        title: document.getElementById('title').textContent, worlds: __pbdDemo.worlds }));
      await page.screenshot({ path: `${SCREENSHOTS}${name}.png` });
      expect(info.scene).toBe(name);
      expect(info.title).toBe(SCENES[name].title);
      expect(info.error).toBeNull();
      expect(info.worlds).toBeGreaterThanOrEqual(1);
      expect(info.stats.distinctColours).toBeGreaterThan(20);      // not a blank or single-colour canvas
      // And the bodies are drawn: rendered again without them, enough pixels change (the ground and grid alone
      // give more than 20 colours, so the line above cannot tell), and in shades, not one flat colour.
      expect(info.stats.bodyPixels).toBeGreaterThan(40);             // thin ropes: ~90 of 160 x 120
      expect(info.stats.bodyColours).toBeGreaterThan(8);
      expect(errors).toEqual([]);
      await page.close();
    }, 150_000);
  }
});

describe('the panel and the URL', () => {
  it('a compliance change from the panel makes the ropes stretch', async () => {
    const { page, errors } = await open('scene=ropes');
    const ropeLength = () => page.evaluate(() => {
      const d = __pbdDemo.drawables[0];
      const x = __pbdDemo.positions(d.worldIndex);
      let length = 0;
      for (let i = d.firstParticle; i + 1 < d.firstParticle + d.particleCount; i++) {
        length += Math.hypot(x[3 * i + 3] - x[3 * i], x[3 * i + 4] - x[3 * i + 1], x[3 * i + 5] - x[3 * i + 2]);
      }
      return length;
    });
    const rigid = await ropeLength();
    expect(rigid).toBeGreaterThan(1.55);                             // 40 links over 1.6 m, rigid (compliance 0)
    expect(rigid).toBeLessThan(1.65);
    const frames = await page.evaluate(() => { __pbdDemo.setParams({ compliance: 0.01 }); return __pbdDemo.frames; });
    await page.waitForFunction((f) => __pbdDemo.frames > f + 90, frames, { timeout: 100_000 });
    expect(await ropeLength()).toBeGreaterThan(rigid * 1.05);        // 0.01 m/N under a rope's own weight: ~10 %
    expect(errors).toEqual([]);
    await page.close();
  }, 150_000);

  it('a constraint type\'s compliance from the panel changes the simulation: a balloon deflates and re-inflates',
    async () => {
      const { page, errors } = await open('scene=balloon');
      // The middle balloon is inflated to 1.4 V0 by its volume constraint (p = 1.4): its shell stretches to about
      // 1.4^(1/3) = 1.12 x its rest diameter. Its widest extent (m) tells how full it is.
      const extent = () => page.evaluate(() => {
        const d = __pbdDemo.drawables[1];
        const x = __pbdDemo.positions(d.worldIndex);
        const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
        for (let i = d.firstParticle; i < d.firstParticle + d.particleCount; i++) {
          for (let a = 0; a < 3; a++) {
            lo[a] = Math.min(lo[a], x[3 * i + a]);
            hi[a] = Math.max(hi[a], x[3 * i + a]);
          }
        }
        return Math.max(...hi.map((h, a) => h - lo[a]));
      });
      const waitFrames = async (n) => {
        const f = await page.evaluate(() => __pbdDemo.frames);
        await page.waitForFunction((m) => __pbdDemo.frames > m, f + n, { timeout: 100_000 });
      };
      await waitFrames(60);
      const inflated = await extent();
      expect(inflated).toBeGreaterThan(0.62);                         // rest diameter 0.6 m, x 1.12 = 0.67 m
      await page.evaluate(() => __pbdDemo.setParams({ surfaceVolumeCompliance: 1 }));   // m⁶/J: the volume lets go
      await waitFrames(120);
      const deflated = await extent();
      expect(deflated).toBeLessThan(inflated - 0.03);                 // back to the shell's own size
      await page.evaluate(() => __pbdDemo.setParams({ surfaceVolumeCompliance: 0 }));   // and it re-inflates
      await waitFrames(120);
      expect(await extent()).toBeGreaterThan(deflated + 0.03);
      expect(errors).toEqual([]);
      await page.close();
    }, 150_000);

  it('the contacts toggle draws the contacts of bodies resting on the ground', async () => {
    const { page, errors } = await open('scene=stack');
    await page.waitForFunction(() => __pbdDemo.frames > 120, null, { timeout: 100_000 });
    const off = await page.evaluate(() => ({ drawn: __pbdDemo.contactsDrawn, stats: __pbdDemo.canvasStats() }));
    expect(off.drawn).toBe(0);
    await page.evaluate(() => __pbdDemo.setParams({ contacts: true }));
    await page.waitForFunction(() => __pbdDemo.contactsDrawn > 0, null, { timeout: 100_000 });
    const on = await page.evaluate(() => ({ drawn: __pbdDemo.contactsDrawn, stats: __pbdDemo.canvasStats() }));
    expect(on.drawn).toBeGreaterThanOrEqual(16);                    // at least a cube's bottom face of vertices
    expect(on.stats.contactPixels).toBeGreaterThan(off.stats.contactPixels + 10);
    await page.evaluate(() => __pbdDemo.setParams({ contacts: false }));
    await page.waitForFunction(() => __pbdDemo.contactsDrawn === 0, null, { timeout: 100_000 });
    expect(errors).toEqual([]);
    await page.close();
  }, 150_000);

  it('saves a snapshot of the scene and loads it back exactly; a broken file is refused on the page', async () => {
    const { page, errors } = await open('scene=drape');                // cloth on a triangle-mesh collider
    const frames = () => page.evaluate(() => __pbdDemo.frames);
    const settle = async () => { const f = await frames(); await page.waitForFunction((n) => __pbdDemo.frames > n + 2, f); };
    await page.evaluate(() => __pbdDemo.pause(true));
    await settle();
    const saved = await page.evaluate(() => __pbdDemo.positions(0));
    expect(await page.evaluate(() => __pbdDemo.saveSnapshot())).toBeGreaterThan(1000);
    await page.evaluate(() => __pbdDemo.pause(false));
    const f0 = await frames();
    await page.waitForFunction((n) => __pbdDemo.frames > n + 30, f0, { timeout: 100_000 });
    await page.evaluate(() => __pbdDemo.pause(true));
    await settle();
    expect(await page.evaluate(() => __pbdDemo.positions(0))).not.toEqual(saved);   // it moved on
    await page.evaluate(() => __pbdDemo.loadSnapshot());
    await page.waitForFunction(() => /snapshot loaded/.test(document.getElementById('progress').textContent));
    await settle();
    expect(await page.evaluate(() => __pbdDemo.positions(0))).toEqual(saved);       // exactly where it was saved
    await page.evaluate(() => __pbdDemo.loadSnapshotBytes([1, 2, 3, 4, 5]));
    await page.waitForFunction(() => document.getElementById('error').style.display === 'block');
    expect(await page.evaluate(() => document.getElementById('error').textContent)).toMatch(/loadSnapshot: /);
    expect(await page.evaluate(() => __pbdDemo.positions(0))).toEqual(saved);       // and nothing changed
    expect(errors).toEqual([]);
    await page.close();
  }, 150_000);

  it('an unknown scene name shows the default scene and says so', async () => {
    const { page, errors } = await open('scene=no-such-scene');
    await page.waitForFunction(() => window.__pbdDemo?.ready, null, { timeout: 100_000 });   // the message came first
    expect(await page.evaluate(() => __pbdDemo.scene)).toBe('showcase');
    expect(await page.evaluate(() => document.getElementById('error').textContent)).toMatch(/no scene 'no-such-scene'/);
    expect(errors).toEqual([]);
    await page.close();
  }, 150_000);
});
