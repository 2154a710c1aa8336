// 10,000 create/fill/step/delete cycles, with the mesh tools and a failing call of each kind, leave the malloc'd heap
// and the wasm memory where they were; views over a wasm memory that grew are re-fetched and read the right values.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPbd } from '../../../web/lib/index.js';

let pbd;
beforeAll(async () => { pbd = await createPbd({ threads: 2 }); });
afterAll(() => pbd?.terminate());

// A unit cube as OBJ text: 8 vertices, 6 quads (fan-triangulated by readObj), counter-clockwise from outside.
const CUBE_OBJ = ['v 0 0 0', 'v 1 0 0', 'v 1 1 0', 'v 0 1 0', 'v 0 0 1', 'v 1 0 1', 'v 1 1 1', 'v 0 1 1',
  'f 1 4 3 2', 'f 5 6 7 8', 'f 1 2 6 5', 'f 2 3 7 6', 'f 3 4 8 7', 'f 4 1 5 8'].join('\n');

function cycle() {
  const w = new pbd.World();
  try {
    w.addCloth({ columns: 6, rows: 6, spacing: 0.05, origin: [0, 1, 0], pinned: [0, 5] });
    const surface = pbd.readObj(CUBE_OBJ);
    const tets = pbd.tetrahedralize(surface.positions, surface.triangles, { resolution: 1 });
    w.addSoftBody({ positions: tets.positions.map((x) => 0.1 * x + 0.5), tets: tets.tets, density: 100 });
    const a = w.addAttachment(20, 0, 1, 0, undefined);
    w.step(1 / 60);
    w.removeAttachment(a);
    // One failing call of each kind: a world method (with a number, and with a string longer than libc++'s
    // in-place buffer), a mesh tool and a reader. Their exceptions must not leak.
    expect(() => w.step(-1)).toThrow(/step: dt/);
    expect(() => w.setSolver('gauss-seidel-but-misspelt')).toThrow(/setSolver: solver must be .* \(got 'gauss-seidel-but-misspelt'\)/);
    expect(() => pbd.tetrahedralize(surface.positions, surface.triangles.slice(3))).toThrow(/tetrahedralize:/);
    expect(() => pbd.readObj('v 0 0 0\nf 1 2 3\n')).toThrow(/readObj: line 2/);
  } finally {
    w.delete();
  }
}

describe('heap', () => {
  const slow = { timeout: 300_000 };   // 54 s measured on a loaded 2-core machine
  it('does not grow over 10,000 create/fill/step/delete cycles with mesh tools and failing calls', slow, () => {
    for (let i = 0; i < 20; i++) cycle();          // warm-up: allocator bins, embind type tables
    const before = pbd.heapBytesInUse();
    const memoryBefore = pbd.memory.byteLength;
    const t0 = performance.now();
    for (let i = 0; i < 10_000; i++) cycle();
    console.log(`memory.test: 10,000 cycles in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    expect(pbd.heapBytesInUse()).toBe(before);
    expect(pbd.memory.byteLength).toBe(memoryBefore);
  });

  it('a failing call gives back the wasm stack it used (else ~13,000 failures overflow it)', () => {
    const M = pbd.module;
    const w = new pbd.World();
    try {
      const sp = M.stackSave();
      for (let i = 0; i < 100; i++) {
        expect(() => w.step(-1)).toThrow(/step: dt/);                                  // a World method
        expect(() => pbd.readObj('v 0 0 0\nf 1 2 3\n')).toThrow(/readObj: line 2/);  // a module function
        expect(() => new pbd.Embedding([0, 0, 0], [0, 0, 0, 0], [0, 0, 0])).toThrow(/tets/);   // a constructor
        expect(() => pbd.tetrahedralize([0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1], [0, 2, 1, 0, 1, 3, 1, 2, 3, 0, 3, 2],
          { onProgress: () => { throw new Error('from the callback'); } })).toThrow(/from the callback/);
      }
      expect(M.stackSave()).toBe(sp);
      w.step(1 / 60);   // and the module still works
      expect(w.positions().length).toBe(0);
    } finally {
      w.delete();
    }
  });

  it('turns an allocation that does not fit into an Error and stays usable', () => {
    const before = pbd.heapBytesInUse();
    const w = new pbd.World();
    // 4000 x 4000 particles is under the size limit but does not fit in the 1 GB threaded heap.
    expect(() => w.addCloth({ columns: 4000, rows: 4000, spacing: 0.001 })).toThrow(/addCloth: out of memory/);
    expect(w.particleCount()).toBe(0);
    w.addCloth({ columns: 8, rows: 8, spacing: 0.1 });
    w.step(1 / 60);
    expect(w.positions().every(Number.isFinite)).toBe(true);
    w.delete();
    expect(pbd.heapBytesInUse()).toBe(before);
  });
});

// A view is a Float32Array over the wasm memory's buffer. When the memory grows (any allocation anywhere in the
// module: another world, a mesh tool) the buffer is replaced: the single-threaded build detaches the old one (length
// 0), the threaded build leaves it over the old, shorter SharedArrayBuffer. Either way a fresh view is right.
describe.each(['threaded', 'single'])('views after the %s memory grows', (variant) => {
  it('a fresh view reads the right values, the old one is detached or on the old buffer', async () => {
    const module = variant === 'threaded' ? pbd : await createPbd({ variant });
    const w = new module.World();
    const big = new module.World();
    try {
      w.addCloth({ columns: 8, rows: 8, spacing: 0.1, origin: [0, 1, 0], pinned: [0, 7] });
      for (let f = 0; f < 10; f++) w.step(1 / 60);
      const old = w.positions();
      const expected = old.slice();
      const bytesBefore = module.memory.byteLength;
      big.addParticles(new Float32Array(3 * 2_000_000), undefined);   // 24 MB of positions alone: the memory grows
      expect(module.memory.byteLength).toBeGreaterThan(bytesBefore);
      const fresh = w.positions();
      expect(fresh.buffer).toBe(module.memory);
      expect(fresh).toEqual(expected);
      if (variant === 'single') {
        expect(old.length).toBe(0);               // detached
      } else {
        expect(old.buffer).not.toBe(module.memory);
        expect(old.buffer.byteLength).toBe(bytesBefore);
      }
      // The fresh view is live: a step changes it in place, like a view fetched after the step; the pins stay put.
      w.step(1 / 60);
      expect(fresh.some((x, i) => x !== expected[i])).toBe(true);
      expect(fresh).toEqual(w.positions());
      for (const i of [0, 1, 2, 21, 22, 23]) expect(fresh[i]).toBe(expected[i]);   // particles 0 and 7
    } finally {
      w.delete();
      big.delete();
      if (module !== pbd) module.terminate();
    }
  });
});
