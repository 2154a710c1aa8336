// The Stanford bunny (npm `bunny`, real data nobody here wrote) through the JS API: tetrahedralized with progress
// events, checked like the C++ tests check it, then simulated. Shared by the Node and Chromium suites.
import { expect } from 'vitest';
import { bunnyMesh } from '../../../web/demo/bunny-mesh.js';

/** The bunny as flat arrays, about 0.5 m tall, 0.3 m above the ground. */
export const bunnyArrays = () => bunnyMesh(0.05, 0.3);

function tetVolume(p, t, k) {
  const at = (i) => [p[3 * t[4 * k + i]], p[3 * t[4 * k + i] + 1], p[3 * t[4 * k + i] + 2]];
  const [a, b, c, d] = [at(0), at(1), at(2), at(3)];
  const u = b.map((v, i) => v - a[i]), v = c.map((x, i) => x - a[i]), w = d.map((x, i) => x - a[i]);
  return (u[0] * (v[1] * w[2] - v[2] * w[1]) - u[1] * (v[0] * w[2] - v[2] * w[0]) + u[2] * (v[0] * w[1] - v[1] * w[0])) / 6;
}

/** Volume enclosed by a closed triangle surface (divergence theorem). */
export function surfaceVolume(p, tris) {
  let six = 0;
  for (let t = 0; t < tris.length; t += 3) {
    const [a, b, c] = [tris[t], tris[t + 1], tris[t + 2]].map((i) => [p[3 * i], p[3 * i + 1], p[3 * i + 2]]);
    six += a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0]) + a[2] * (b[0] * c[1] - b[1] * c[0]);
  }
  return six / 6;
}

/** Tetrahedralizes the bunny, checks the mesh and the progress events, and returns the mesh. */
export function tetrahedralizeBunny(pbd, resolution) {
  const { positions, triangles } = bunnyArrays();
  const progress = [];
  const mesh = pbd.tetrahedralize(positions, triangles, { resolution, onProgress: (f) => { progress.push(f); } });
  expect(progress.length).toBeGreaterThan(2);
  for (let k = 1; k < progress.length; ++k) expect(progress[k]).toBeGreaterThanOrEqual(progress[k - 1]);
  expect(progress.at(-1)).toBe(1);
  const tetCount = mesh.tets.length / 4;
  expect(tetCount).toBeGreaterThan(1000);
  let total = 0;
  let smallest = Infinity;
  for (let k = 0; k < tetCount; ++k) {
    const v = tetVolume(mesh.positions, mesh.tets, k);
    smallest = Math.min(smallest, v);
    total += v;
  }
  expect(smallest).toBeGreaterThan(0);
  const enclosed = surfaceVolume(positions, triangles);
  expect(Math.abs(total - enclosed)).toBeLessThan(0.03 * enclosed);
  const used = new Uint8Array(mesh.positions.length / 3);
  for (const i of mesh.tets) used[i] = 1;
  for (let i = 0; i < positions.length / 3; ++i) expect(used[i]).toBe(1);
  expect(mesh.surfaceVertexCount).toBe(positions.length / 3);
  expect(mesh.gridPointCount).toBeGreaterThan(0);
  return mesh;
}

/** Drops the tetrahedralized bunny as a soft body; it must land, stay finite and keep its volume. */
export function dropSoftBunny(pbd, mesh, seconds = 1) {
  const world = new pbd.World();
  try {
    world.setSubsteps(10);
    const body = world.addSoftBody({ positions: mesh.positions, tets: mesh.tets, density: 500,
      edges: { compliance: 1e-6 }, volume: { compliance: 0 } });
    expect(body.particleCount).toBe(mesh.positions.length / 3);
    const rest = restVolume(mesh);
    for (let f = 0; f < seconds * 60; ++f) world.step(1 / 60);
    expect(world.lastStepReport().rolledBack).toBe(false);
    const x = world.positions();
    let lowest = Infinity;
    for (let i = 1; i < x.length; i += 3) lowest = Math.min(lowest, x[i]);
    expect(Number.isFinite(lowest)).toBe(true);
    expect(lowest).toBeGreaterThan(-0.01);
    expect(lowest).toBeLessThan(0.05);  // it fell 0.3 m onto the ground
    const now = restVolume({ positions: x, tets: mesh.tets });
    expect(Math.abs(now - rest)).toBeLessThan(0.02 * rest);
  } finally {
    world.delete();
  }
}

function restVolume(mesh) {
  let total = 0;
  for (let k = 0; k < mesh.tets.length / 4; ++k) total += tetVolume(mesh.positions, mesh.tets, k);
  return total;
}

/** Cancelling: an AbortSignal aborted during the run, or onProgress returning false, throws an AbortError. */
export function cancelTetrahedralize(pbd) {
  const { positions, triangles } = bunnyArrays();
  const controller = new AbortController();
  let calls = 0;
  expect(() => pbd.tetrahedralize(positions, triangles, {
    resolution: 16, signal: controller.signal, onProgress: () => { if (++calls === 2) controller.abort(); },
  })).toThrow(expect.objectContaining({ name: 'AbortError' }));
  expect(calls).toBe(2);
  expect(() => pbd.tetrahedralize(positions, triangles, { resolution: 16, onProgress: () => false }))
    .toThrow(/cancelled/);
}
