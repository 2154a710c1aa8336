// Smoke test of `npm run bench:peers` (bench/peers/): every scene builder runs a few frames in both engines at the
// smallest size and simulates, so the benchmark cannot rot unnoticed. Not a benchmark: no timings are checked.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadPbd, pbdCloth, pbdCube } from '../../../bench/peers/pbd-scenes.mjs';
import { joltCloth, joltCube, loadJolt } from '../../../bench/peers/jolt-scenes.mjs';
import { clothSanity, cubeSanity } from '../../../bench/peers/sanity.mjs';
import { CLOTH_SIZES, CUBE_CELLS, CUBE_DROP, CUBE_SIZE } from '../../../bench/scenes.mjs';

const n = Math.min(...CLOTH_SIZES);
const FRAMES = 30;  // 0.5 s

let pbd, jolt;
beforeAll(async () => {
  pbd = await loadPbd({ variant: 'threaded', threads: 1 });  // the build createPbd() picks in Node
  jolt = await loadJolt('wasm');
});
afterAll(() => pbd?.terminate());

function run(h, frames = FRAMES) {
  try {
    for (let f = 0; f < frames; f++) h.step();
    return h.positions();
  } finally {
    h.delete();
  }
}

describe('bench:peers scenes', () => {
  it.each([
    ['pbd-wasm', () => pbdCloth(pbd, n), 1],
    ['jolt', () => joltCloth(jolt, n), 1],
    ["jolt with Jolt's own constraints", () => joltCloth(jolt, n, { layout: 'jolt' }), 0.98],
  ])('%s: the cloth falls and swings on its two pins, in one piece', (_engine, make, constraintShare) => {
      const h = make();
      expect(h.particleCount).toBe(n * n);
      expect(h.constraintCount).toBeGreaterThanOrEqual(Math.floor(constraintShare * h.def.constraintCount));
      expect(h.constraintCount).toBeLessThanOrEqual(h.def.constraintCount);
      const p = run(h);
      const s = clothSanity(p, h.def);
      expect(s.finite).toBe(true);
      expect(s.freeCornerY).toBeLessThan(0.9);  // starts at 1
      for (const pin of h.def.pinned) expect(p[3 * pin + 1]).toBeCloseTo(1, 4);
      // 10 x 1 XPBD passes leave a fast-falling rigid cloth stretched (~1.4 at 0.5 s in both engines, ~1.1 once it
      // swings slower); 2 catches a blow-up, not a quality change.
      expect(s.maxStretch).toBeLessThan(2);
    });

  it('both engines move the cloth alike', () => {
    const a = pbdCloth(pbd, n), b = joltCloth(jolt, n);
    const [sa, sb] = [clothSanity(run(a), a.def), clothSanity(run(b), b.def)];
    expect(Math.abs(sa.freeCornerY - sb.freeCornerY)).toBeLessThan(0.1);
    expect(Math.abs(sa.lowestY - sb.lowestY)).toBeLessThan(0.1);
  });

  it.each([['pbd-wasm', () => pbdCube(pbd, CUBE_CELLS)], ['jolt', () => joltCube(jolt, CUBE_CELLS)]])(
    '%s: the soft cube falls onto the ground and keeps its volume', (_engine, make) => {
      const h = make();
      expect(h.constraintCount).toBe(h.def.edges.length + h.def.tets.length / 4);
      const s = cubeSanity(run(h, 40), h.def);  // lands at t ~ 0.32 s
      expect(s.finite).toBe(true);
      expect(s.centroidY).toBeLessThan(CUBE_DROP + CUBE_SIZE / 2 - 0.3);
      expect(s.lowestY).toBeGreaterThan(-0.05);
      expect(s.volumeRatio).toBeGreaterThan(0.9);
      expect(s.volumeRatio).toBeLessThan(1.1);
    });

  it("jolt-physics' multithread glue still has the line jolt-node.mjs patches", () => {
    const require = createRequire(import.meta.url);
    const glue = readFileSync(join(dirname(require.resolve('jolt-physics/wasm')), 'jolt-physics.multithread.wasm.js'), 'utf8');
    expect(glue).toContain('isPthread=await import("node:worker_threads").workerData==="em-pthread"');
  });
});
