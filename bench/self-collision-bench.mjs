// Issue #5's self-collision benchmark in wasm under Node, the twin of bench/native_bench.cpp ClothOnBunnyStep
// (bench/scenes.mjs clothOnBunny, tests/scenes/cloth_on_bunny.h): an n x n cloth, 1 m, 1 kg, continuous
// self-collision on (thickness 0.45 x the spacing), dropped from 0.1 m above the Stanford bunny (0.5 m tall, a
// triangle-mesh collider, thickness 1 cm) onto the ground; XPBD 10 substeps x 1 iteration, 1/60 s frames. Timed
// from 0.5 s in, with the step split into stages (world.lastStepTimings()): broad and narrow phase of
// self-collision, solve, collider contacts; and the self-collision cost per particle (broad + narrow, µs per frame),
// which should stay flat as the cloth grows.
// Usage: node bench/self-collision-bench.mjs [--sizes=64,128,256] [--frames=10] [--runs=3]
import { createPbd } from '../web/lib/index.js';
import { bunnyMesh } from '../web/demo/bunny-mesh.js';
import { DT, clothOnBunny } from './scenes.mjs';

const opt = Object.fromEntries(process.argv.slice(2).map((a) => a.replace(/^--/, '').split('=')));
const SIZES = (opt.sizes ?? '64,128,256').split(',').map(Number);
const FRAMES = Number(opt.frames ?? 10);
const RUNS = Number(opt.runs ?? 3);
const WARMUP = 30;  // 0.5 s: the cloth is on the bunny and folding
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const bunny = bunnyMesh(0.05, 0);

console.log(`self-collision: n x n cloth on the Stanford bunny, continuous self-collision on, XPBD 10 x 1, 1/60 s;`);
console.log(`median of ${RUNS} runs x ${FRAMES} frames after ${WARMUP} frames; ms per frame by stage (lastStepTimings)`);
console.log('build          threads     N  particles   total   broad  narrow   solve  contacts  self µs/particle');
for (const [variant, threads] of [['single', 1], ['threaded', 2]]) {
  const pbd = await createPbd({ variant, threads });
  for (const n of SIZES) {
    const world = new pbd.World();
    const cloth = clothOnBunny(world, n, bunny);
    for (let f = 0; f < WARMUP; f++) world.step(DT);
    world.setStepTimings(true);
    const runs = [];
    for (let r = 0; r < RUNS; r++) {
      const sum = { totalMs: 0, broadPhaseMs: 0, narrowPhaseMs: 0, solveMs: 0, colliderContactsMs: 0 };
      for (let f = 0; f < FRAMES; f++) {
        world.step(DT);
        const t = world.lastStepTimings();
        for (const k of Object.keys(sum)) sum[k] += t[k] / FRAMES;
      }
      runs.push(sum);
    }
    const m = (k) => median(runs.map((r) => r[k]));
    const selfUs = 1000 * (m('broadPhaseMs') + m('narrowPhaseMs')) / cloth.particleCount;
    console.log(`wasm ${variant.padEnd(9)} ${String(pbd.threads).padStart(7)} ${String(n).padStart(5)} ` +
      `${String(cloth.particleCount).padStart(10)} ${m('totalMs').toFixed(1).padStart(7)} ${m('broadPhaseMs').toFixed(1).padStart(7)} ` +
      `${m('narrowPhaseMs').toFixed(1).padStart(7)} ${m('solveMs').toFixed(1).padStart(7)} ${m('colliderContactsMs').toFixed(1).padStart(9)} ` +
      `${selfUs.toFixed(2).padStart(17)}`);
    world.delete();
  }
  pbd.terminate();
}
