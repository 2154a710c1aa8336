// Vitest browser mode (headless Chromium, page served with COOP/COEP): the threaded build loads and runs here.
import { expect, it } from 'vitest';
import { createPbd, preferredVariant } from '../../../web/lib/index.js';

it('the test page is cross-origin isolated, so the threaded build is preferred', () => {
  expect(globalThis.crossOriginIsolated).toBe(true);
  expect(typeof SharedArrayBuffer).toBe('function');
  expect(preferredVariant().variant).toBe('threaded');
});

it('leaves one core to the page by default, and can take it back with setThreads', async () => {
  const pbd = await createPbd();
  const cores = navigator.hardwareConcurrency;
  expect(pbd.threads).toBe(Math.max(1, Math.min(cores - 1, 4)));
  expect(pbd.maxThreads).toBe(Math.max(2, Math.min(cores, 4)));
  expect(pbd.setThreads(pbd.maxThreads)).toBe(pbd.maxThreads);
  expect(pbd.threads).toBe(pbd.maxThreads);
  expect(pbd.setThreads(pbd.maxThreads + 1)).toBe(pbd.maxThreads);   // capped at the pool spawned at load
});

it('loads the threaded build with two threads and steps a cloth in shared memory', async () => {
  const pbd = await createPbd({ threads: 2 });
  expect(pbd.variant).toBe('threaded');
  expect(pbd.threads).toBe(2);
  const world = new pbd.World();
  world.addCloth({ columns: 16, rows: 16, spacing: 0.05, origin: [0, 1, 0], pinned: [0, 15] });
  const view = world.positions();
  expect(view.buffer).toBeInstanceOf(SharedArrayBuffer);
  const y = view[3 * 255 + 1];
  for (let f = 0; f < 10; f++) world.step(1 / 60);
  expect(view[3 * 255 + 1]).toBeLessThan(y);
  expect(() => world.step(NaN)).toThrow(/step: dt must be finite/);
  world.delete();
});

it('the single-threaded build also loads on an isolated page when forced', async () => {
  const pbd = await createPbd({ variant: 'single' });
  expect(pbd.variant).toBe('single');
  const world = new pbd.World();
  world.addRope({ segments: 8, start: [0, 1, 0], end: [1, 1, 0], pinned: [0] });
  world.step(1 / 60);
  expect(world.positions()[3 * 8 + 1]).toBeLessThan(1);
  expect(world.positions().buffer).toBeInstanceOf(ArrayBuffer);
  world.delete();
});
