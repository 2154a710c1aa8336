// Mesh figures in wasm under Node: tetrahedralizing the Stanford bunny at two resolutions, and the soft bunny's step
// time (the scenes of bench/native_bench.cpp: TetrahedralizeBunny and SoftBunnyStep; bench/scenes.mjs softBunny).
// Medians of several runs.
import { createPbd } from '../web/lib/index.js';
import { bunnyMesh } from '../web/demo/bunny-mesh.js';
import { DT, softBunny } from './scenes.mjs';

const RUNS = 5;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const time = (fn) => { const t0 = performance.now(); fn(); return performance.now() - t0; };

const { positions, triangles } = bunnyMesh(0.05, 0.3);
console.log(`scene: Stanford bunny (${positions.length / 3} vertices, ${triangles.length / 3} triangles) scaled to 0.5 m`);
console.log('build            what                                         median ms');
for (const variant of ['threaded', 'single']) {
  const pbd = await createPbd({ variant, threads: 1 });
  for (const resolution of [10, 20]) {
    let tets = 0;
    const ms = median(Array.from({ length: RUNS }, () =>
      time(() => { tets = pbd.tetrahedralize(positions, triangles, { resolution }).tets.length / 4; })));
    console.log(`wasm ${variant.padEnd(10)}  tetrahedralize, resolution ${String(resolution).padStart(2)} (${tets} tets)`.padEnd(62) +
      ms.toFixed(1).padStart(10));
  }
  const mesh = pbd.tetrahedralize(positions, triangles, { resolution: 10 });
  for (const material of ['volume', 'neo-hookean']) {
    const world = new pbd.World();
    softBunny(world, mesh, material);
    for (let f = 0; f < 60; f++) world.step(DT);
    const ms = median(Array.from({ length: RUNS }, () => time(() => { for (let f = 0; f < 10; f++) world.step(DT); }) / 10));
    console.log(`wasm ${variant.padEnd(10)}  soft bunny step, ${material}, 10 substeps x 1`.padEnd(62) + ms.toFixed(2).padStart(10));
    world.delete();
  }
  pbd.terminate();
}
