// Every gallery scene of the demo page in headless Chromium (served cross-origin isolated): it loads, simulates and
// renders a non-blank canvas, with the bodies' shadows on, without errors; a screenshot of each is saved under
// build/screenshots/ (git-ignored) for looking at. A panel change reaches the simulation, the solver comparison labels
// its cloths and its residual legend names every curve, and an unknown scene name falls back with a message.
import { mkdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer } from 'vite';
import viteConfig, { isolationHeaders } from '../../../vite.config.js';
import { launchChromium } from '../shared/chromium.js';
import { SCENES } from '../../../web/demo/scenes/index.js';
import { LANES } from '../../../web/demo/scenes/solvers.js';

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

async function open(query, viewport = { width: 800, height: 600 }) {
  const page = await browser.newPage({ viewport });
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
        title: document.getElementById('title').textContent, worlds: __pbdDemo.worlds, shadows: __pbdDemo.shadows,
        software: __pbdDemo.renderer.software }));
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
      // Shadows on, the sun's shadow camera fitted around this scene's bodies: all of them cast. Drawn in software
      // (as here, headless), on the ground only and from a smaller map.
      expect(info.shadows).toMatchObject({ enabled: true, sunCasts: true, fitted: true, groundReceives: true,
        bodiesCast: true, collidersCast: true, bodiesReceive: !info.software, mapSize: info.software ? 512 : 2048 });
      expect(info.shadows.covered).toBeGreaterThan(0.99);
      expect(errors).toEqual([]);
      await page.close();
    }, 150_000);
  }
});

describe('tearing', () => {
  it('the ball rips the drum, Shift + drag cuts the curtain, and the page draws both as torn', async () => {
    const { page, errors } = await open('scene=tearing');
    const [drum, curtain] = await page.evaluate(() => __pbdDemo.drawables);
    await page.waitForFunction((n) => __pbdDemo.drawables[0].particleCount > n, drum.particleCount, { timeout: 60_000 });
    // A stroke across the curtain's middle row, with Shift held (it starts on the background beside the curtain).
    const row = 15 * 36;
    const [left, right] = await page.evaluate((r) => [__pbdDemo.screenOf(r, 1), __pbdDemo.screenOf(r + 35, 1)], row);
    await page.keyboard.down('Shift');
    await page.mouse.move(left.x - 20, left.y);
    await page.mouse.down();
    for (let k = 0; k <= 10; k++) await page.mouse.move(left.x - 20 + (right.x - left.x + 40) * k / 10, left.y);
    await page.mouse.up();
    await page.keyboard.up('Shift');
    await page.waitForFunction((n) => __pbdDemo.drawables[1].particleCount > n, curtain.particleCount,
      { timeout: 30_000 });
    await page.waitForFunction(() => __pbdDemo.drawn.every((m, k) => m.vertices === __pbdDemo.drawables[k].particleCount),
      null, { timeout: 10_000 });
    // Read together: the drum may tear again between two reads.
    const [drawn, drawables] = await page.evaluate(() => [__pbdDemo.drawn, __pbdDemo.drawables]);
    drawn.forEach((m, k) => expect(m.highestIndex).toBe(drawables[k].particleCount - 1));
    expect(drawables[1].firstParticle).toBe(drawables[0].particleCount);   // after the grown drum
    expect(errors).toEqual([]);
    await page.close();
  }, 150_000);
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
    // Paused, updates still arrive (no frames): after a few, every call sent before has been answered and drawn.
    const settle = async () => {
      const u = await page.evaluate(() => __pbdDemo.updates);
      await page.waitForFunction((n) => __pbdDemo.updates > n + 2, u);
    };
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

  it('the solver comparison labels each cloth above it with its solver and settings, and its residual legend names ' +
    'each curve', async () => {
    const { page, errors } = await open('scene=solvers', { width: 1280, height: 720 });
    const labels = () => page.evaluate(() => __pbdDemo.labels);
    // Shown once the positions arrive; looked at once the cloths hang (they start level and swing down).
    await page.waitForFunction(() => __pbdDemo.labels.every((l) => l.visible) && __pbdDemo.frames > 150, null,
      { timeout: 100_000 });
    let shown = await labels();
    expect(shown.map((l) => l.name)).toEqual(LANES.map((l) => l.label));
    const { substeps, iterations } = SCENES.solvers.params;
    shown.forEach((label, k) => {
      const method = LANES[k].method === 'pbd' ? 'PBD, stiffness 1' : 'XPBD, compliance 0 m/N';
      expect(label.settings.slice(0, 2)).toEqual([method, `${substeps} substeps × ${iterations} iter.`]);
    });
    expect(shown[LANES.findIndex((l) => l.solver === 'jacobi')].settings[2]).toMatch(/^relaxation ω = /);
    expect(shown[LANES.findIndex((l) => l.solver === 'hierarchical')].settings[2]).toMatch(/^\d+ levels, \d+ parents$/);
    // Where they hang: each label just above its own cloth's highest particle and over its middle; side by side, left
    // to right, none over another, all on the page with their settings (not crowded at 1280 px).
    const clothTops = await page.evaluate(() => __pbdDemo.drawables.map((d) => {
      const x = __pbdDemo.positions(d.worldIndex);
      let top = -Infinity, lo = Infinity, hi = -Infinity;
      for (let i = d.firstParticle; i < d.firstParticle + d.particleCount; i++) {
        top = Math.max(top, x[3 * i + 1]);
        lo = Math.min(lo, x[3 * i]);
        hi = Math.max(hi, x[3 * i]);
      }
      return { top, middle: (lo + hi) / 2, half: (hi - lo) / 2 };
    }));
    shown = await labels();
    shown.forEach((label, k) => {
      expect(label.anchor[1]).toBeGreaterThan(clothTops[k].top);
      expect(label.anchor[1]).toBeLessThan(clothTops[k].top + 0.2);
      expect(Math.abs(label.anchor[0] - clothTops[k].middle)).toBeLessThan(clothTops[k].half);
      expect(label.compact).toBe(false);
      expect(label.rect.top).toBeGreaterThan(0);
      if (k > 0) expect(label.rect.left).toBeGreaterThanOrEqual(shown[k - 1].rect.right);
    });
    await page.screenshot({ path: `${SCREENSHOTS}solvers-labels.png` });
    // The labels follow the worlds' settings: a panel change shows in every one.
    await page.evaluate(() => __pbdDemo.setParams({ iterations: 3 }));
    await page.waitForFunction(() => __pbdDemo.labels.every((l) => l.settings[1].endsWith('× 3 iter.')), null,
      { timeout: 100_000 });
    // The legend: every lane by name, in the colour of its own curve, every colour different.
    await page.waitForFunction(() => __pbdDemo.residualLegend.curves.length > 0, null, { timeout: 100_000 });
    const legend = await page.evaluate(() => __pbdDemo.residualLegend);
    expect(legend.entries.map((e) => e.name)).toEqual(LANES.map((l) => l.label));
    expect(new Set(legend.entries.map((e) => e.colour)).size).toBe(LANES.length);
    expect(legend.curves.map((c) => c.world)).toEqual(LANES.map((_, k) => k));   // every world's curve is drawn
    for (const curve of legend.curves) expect(legend.entries[curve.world].colour).toBe(curve.colour);
    expect(errors).toEqual([]);
    await page.close();
  }, 150_000);

  it('a scene of one world has neither labels nor a legend', async () => {
    const { page, errors } = await open('scene=ropes');
    expect(await page.evaluate(() => __pbdDemo.labels)).toEqual([]);
    expect(await page.evaluate(() => __pbdDemo.residualLegend.entries)).toEqual([]);
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
