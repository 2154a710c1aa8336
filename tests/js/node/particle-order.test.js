// Particle reordering through the package (issue #8): reorderSoftBody / reorderTriangleMesh return a reordered copy
// and a vertex map that is a permutation, under which positions, tets, triangles and pins follow their vertices; the
// reordered body simulates as the original; bad input is rejected naming the argument.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPbd } from '../../../web/lib/index.js';
import { surfaceVolume } from '../shared/bunny-scenarios.js';
import { uvSphere } from '../shared/uv-sphere.js';

let pbd;
beforeAll(async () => { pbd = await createPbd({ threads: 2 }); });
afterAll(() => pbd?.terminate());

/** A cube of n³ cells of edge `size` from `origin`, each cell cut into 6 positive tets around its diagonal. */
function tetCube(n, size, [ox, oy, oz]) {
  const positions = [];
  const id = (x, y, z) => (z * (n + 1) + y) * (n + 1) + x;
  for (let z = 0; z <= n; ++z) for (let y = 0; y <= n; ++y) for (let x = 0; x <= n; ++x) {
    positions.push(ox + size * x / n, oy + size * y / n, oz + size * z / n);
  }
  const tets = [];
  const orders = [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]];
  for (let z = 0; z < n; ++z) for (let y = 0; y < n; ++y) for (let x = 0; x < n; ++x) {
    for (const order of orders) {
      const c = [x, y, z];
      const t = [id(...c)];
      for (const axis of order) { c[axis]++; t.push(id(...c)); }
      if (tetVolume(positions, t, 0) < 0) [t[2], t[3]] = [t[3], t[2]];   // keep every tet right-handed
      tets.push(...t);
    }
  }
  return { positions: Float32Array.from(positions), tets: Uint32Array.from(tets) };
}

function tetVolume(p, t, k) {
  const at = (i) => [0, 1, 2].map((a) => p[3 * t[4 * k + i] + a]);
  const [a, b, c, d] = [at(0), at(1), at(2), at(3)];
  const u = b.map((x, i) => x - a[i]), v = c.map((x, i) => x - a[i]), w = d.map((x, i) => x - a[i]);
  return (u[0] * (v[1] * w[2] - v[2] * w[1]) - u[1] * (v[0] * w[2] - v[2] * w[0]) + u[2] * (v[0] * w[1] - v[1] * w[0])) / 6;
}

/** Vertex i renumbered to a random place (a fixed-seed LCG, so every run is the same). */
function shuffle(mesh, key, seed) {
  const n = mesh.positions.length / 3;
  const to = Array.from({ length: n }, (_, i) => i);
  let s = seed;
  for (let i = n - 1; i > 0; --i) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    const j = s % (i + 1);
    [to[i], to[j]] = [to[j], to[i]];
  }
  const positions = new Float32Array(mesh.positions.length);
  for (let i = 0; i < n; ++i) for (let a = 0; a < 3; ++a) positions[3 * to[i] + a] = mesh.positions[3 * i + a];
  return { ...mesh, positions, [key]: mesh[key].map((v) => to[v]) };
}

function expectPermutation(map, n) {
  expect(map).toBeInstanceOf(Uint32Array);
  expect(map.length).toBe(n);
  expect(new Set(map).size).toBe(n);
  expect(Math.max(...map)).toBe(n - 1);
}

/** The elements (groups of `corners`) as sorted strings of their corner lists, mapped through `map` if given. */
function elementSet(indices, corners, map = null) {
  const out = [];
  for (let e = 0; e < indices.length; e += corners) {
    out.push(Array.from(indices.slice(e, e + corners), (v) => (map ? map[v] : v)).join(','));
  }
  return out.sort();
}

/** Σ m x / Σ m over a world's particles. */
function centreOfMass(world) {
  const x = world.positions(), w = world.inverseMasses();
  const sum = [0, 0, 0];
  let mass = 0;
  for (let i = 0; i < w.length; ++i) {
    for (let a = 0; a < 3; ++a) sum[a] += x[3 * i + a] / w[i];
    mass += 1 / w[i];
  }
  return { c: sum.map((s) => s / mass), mass };
}

describe('reorderSoftBody', () => {
  const original = { ...shuffle(tetCube(4, 0.4, [-0.2, 0.6, -0.2]), 'tets', 9), density: 800, pinned: [5, 40] };

  it('returns a permutation under which positions, tets and pins follow their vertices', () => {
    const before = original.positions.slice();
    const { def, particleOfVertex: map } = pbd.reorderSoftBody(original);
    const n = original.positions.length / 3;
    expectPermutation(map, n);
    expect(def.positions).toBeInstanceOf(Float32Array);
    expect(def.tets).toBeInstanceOf(Uint32Array);
    for (let v = 0; v < n; ++v) {
      for (let a = 0; a < 3; ++a) expect(def.positions[3 * map[v] + a]).toBe(original.positions[3 * v + a]);
    }
    expect(elementSet(def.tets, 4)).toEqual(elementSet(original.tets, 4, map));
    for (let k = 0; k < def.tets.length / 4; ++k) expect(tetVolume(def.positions, def.tets, k)).toBeGreaterThan(0);
    expect(def.pinned).toEqual([map[5], map[40]]);
    expect(def.density).toBe(800);                      // other fields pass through
    expect(original.positions).toEqual(before);        // the input is not modified
    // Neighbours in space became neighbours in memory: the mean index gap along tet edges shrinks.
    const span = (tets) => {
      let sum = 0;
      for (let t = 0; t < tets.length; t += 4) {
        for (let a = 0; a < 4; ++a) for (let b = a + 1; b < 4; ++b) sum += Math.abs(tets[t + a] - tets[t + b]);
      }
      return sum / (tets.length / 4 * 6);
    };
    expect(span(def.tets)).toBeLessThan(0.5 * span(original.tets));
  });

  it('gives a body that falls like the original', () => {
    const { def } = pbd.reorderSoftBody(original);
    const a = new pbd.World(), b = new pbd.World();
    try {
      for (const w of [a, b]) {
        w.setGround({ friction: 0 });   // no horizontal force: only the vertical motion to compare
        w.setIterations(10);            // Gauss-Seidel's answer depends on the order until it converges
      }
      const unpinned = { ...original, pinned: [] };
      a.addSoftBody(unpinned);
      b.addSoftBody({ ...def, pinned: [] });
      const [ca0, cb0] = [centreOfMass(a), centreOfMass(b)];
      expect(cb0.mass).toBeCloseTo(800 * 0.064, 3);
      expect(Math.abs(cb0.mass - ca0.mass)).toBeLessThan(1e-6 * ca0.mass);
      let worst = 0;
      for (let f = 1; f <= 90; ++f) {
        a.step(1 / 60);
        b.step(1 / 60);
        const [ca, cb] = [centreOfMass(a).c, centreOfMass(b).c];
        const gap = Math.hypot(ca[0] - cb[0], ca[1] - cb[1], ca[2] - cb[2]);
        worst = Math.max(worst, gap);
        const k = 10 * f, h = 1 / 600;                   // substeps so far; implicit Euler's free fall
        const y = 0.8 - 9.81 * h * h * k * (k + 1) / 2;
        if (y > 0.21) {
          expect(Math.abs(cb[1] - y)).toBeLessThan(1e-4);
          expect(gap).toBeLessThan(1e-4);
        }
      }
      expect(worst).toBeLessThan(0.01);                 // through the impact: projection order only (0.4 m cube)
      expect(centreOfMass(b).c[1]).toBeCloseTo(0.2, 2); // resting on the ground
    } finally {
      a.delete();
      b.delete();
    }
  });

  it('rejects bad input naming the argument', () => {
    expect(() => pbd.reorderSoftBody({ ...original, tets: [0, 1, 2, 999] })).toThrow(/reorderSoftBody: tets\[3\] is out of range/);
    const nan = original.positions.slice();
    nan[4] = NaN;
    expect(() => pbd.reorderSoftBody({ ...original, positions: nan })).toThrow(/reorderSoftBody: positions\[4\] must be finite/);
    expect(() => pbd.reorderSoftBody({ ...original, pinned: [1e6] })).toThrow(/reorderSoftBody: pinned\[0\] is out of range/);
    expect(() => pbd.reorderSoftBody({ ...original, tets: [0, 1, 2] })).toThrow(/reorderSoftBody: tets length/);
    expect(() => pbd.reorderSoftBody(null)).toThrow(/reorderSoftBody: options/);
    expect(() => pbd.reorderSoftBody({ tets: original.tets })).toThrow(/reorderSoftBody: positions/);
  });
});

describe('reorderTriangleMesh', () => {
  it('maps render vertices so that the welded balloon lines up with the original', () => {
    const sphere = shuffle(uvSphere(16, 12, 0.3, [0, 1, 0]), 'triangles', 4);
    const original = { ...sphere, pressure: 1, pinned: [0] };
    const { def, particleOfVertex: map } = pbd.reorderTriangleMesh(original);
    const n = sphere.positions.length / 3;
    expectPermutation(map, n);
    expect(elementSet(def.triangles, 3)).toEqual(elementSet(sphere.triangles, 3, map));
    expect(surfaceVolume(def.positions, def.triangles)).toBeCloseTo(surfaceVolume(sphere.positions, sphere.triangles), 6);
    expect(def.pressure).toBe(1);
    const a = new pbd.World(), b = new pbd.World();
    try {
      const ba = a.addTriangleMesh(original), bb = b.addTriangleMesh(def);
      expect(bb.particleCount).toBe(ba.particleCount);  // the same seams welded
      for (let f = 0; f < 20; ++f) { a.step(1 / 60); b.step(1 / 60); }
      const [xa, xb] = [a.positions(), b.positions()];
      let worst = 0;
      for (let v = 0; v < n; ++v) {
        const i = ba.renderToParticle[v], j = bb.renderToParticle[map[v]];
        for (let k = 0; k < 3; ++k) worst = Math.max(worst, Math.abs(xa[3 * i + k] - xb[3 * j + k]));
      }
      expect(worst).toBeLessThan(0.02);                 // every render vertex finds its particle (radius 0.3 m)
    } finally {
      a.delete();
      b.delete();
    }
    expect(() => pbd.reorderTriangleMesh({ ...sphere, triangles: [0, 1, n] })).toThrow(/reorderTriangleMesh: triangles\[2\]/);
  });
});
