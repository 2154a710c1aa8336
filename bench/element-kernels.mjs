// The batched element kernels through the public API: a Neo-Hookean tet cube of 10³ cells (E 1 MPa, ν 0.4, no
// edges, dropped 0.5 m: native NeoHookeanCubeStep's) and a hanging strain-triangle cloth of 64² and 128² (two corners
// pinned: native StrainClothStep's), 10 × 1, the single-threaded build. Median ms a frame of 5 blocks of 20 frames
// after 30. Usage: node bench/element-kernels.mjs [lib directory, default web/lib] (another checkout's web/lib
// compares builds).
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';
const lib = process.argv[2] ?? 'web/lib';
const { createPbd } = await import(pathToFileURL(resolve(lib, 'index.js')).href);
const pbd = await createPbd({ variant: 'single' });
function time(world) {
  for (let f = 0; f < 30; ++f) world.step(1 / 60);
  const blocks = [];
  for (let b = 0; b < 5; ++b) {
    const t = performance.now();
    for (let f = 0; f < 20; ++f) world.step(1 / 60);
    blocks.push((performance.now() - t) / 20);
  }
  return blocks.sort((a, b) => a - b)[2];
}
function cube() {
  const n = 10, pos = [], tets = [];
  const id = (x, y, z) => (z * (n + 1) + y) * (n + 1) + x;
  const cells = [];  // each cell's corners, then its six tets around the diagonal 0-6
  for (let z = 0; z <= n; ++z) {
    for (let y = 0; y <= n; ++y) {
      for (let x = 0; x <= n; ++x) {
        pos.push(x / n - 0.5, y / n + 0.5, z / n - 0.5);
        if (x < n && y < n && z < n) cells.push([x, y, z]);
      }
    }
  }
  for (const [x, y, z] of cells) {
    const c = [id(x, y, z), id(x + 1, y, z), id(x + 1, y + 1, z), id(x, y + 1, z),
      id(x, y, z + 1), id(x + 1, y, z + 1), id(x + 1, y + 1, z + 1), id(x, y + 1, z + 1)];
    for (const t of [[0, 1, 2, 6], [0, 2, 3, 6], [0, 3, 7, 6], [0, 7, 4, 6], [0, 4, 5, 6], [0, 5, 1, 6]]) {
      tets.push(...t.map((k) => c[k]));
    }
  }
  const world = new pbd.World();
  world.addSoftBody({ positions: new Float32Array(pos), tets: new Uint32Array(tets), material: 'neo-hookean',
    youngsModulus: 1e6, poissonRatio: 0.4, edgeConstraints: false, density: 1000 });
  const ms = time(world);
  world.delete();
  return ms;
}
function strainCloth(n) {
  const world = new pbd.World();
  world.addCloth({ columns: n, rows: n, spacing: 1 / (n - 1), origin: [-0.5, 1, 0], pinned: [0, n - 1],
    model: 'strain-triangles' });
  const ms = time(world);
  world.delete();
  return ms;
}
console.log(`${lib}: Neo-Hookean cube 10³ ${cube().toFixed(2)} ms, strain-triangle cloth 64² ` +
  `${strainCloth(64).toFixed(2)} ms, 128² ${strainCloth(128).toFixed(2)} ms`);
pbd.terminate();
