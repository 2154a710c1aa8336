// `npm run bench:tearing`: what tearing (addCloth's `tearing`) costs, on a 64² cloth (4096 particles, 0.02 m spacing)
// hanging from its top row at 10 substeps × 1 iteration.
//   Per frame of 1/60 s (interleaved runs, as bench:rods):
//     cloth            the cloth as it is (no tearing);
//     tearable         the same cloth with tearing: { strain: 0.5 }, never stretched that far: the step's scan of
//                      its edges is all it pays.
//   Per tear (each a fresh world, stepped WARMUP frames first; median of RUNS):
//     tearEdges, 1 edge     one edge from the left border of row 32 (one vertex splits);
//     tearEdges, a row      every edge of row 32 (the cloth in two, 64 vertices split);
//     step after a tear     the step that follows (its schedules are made again).
// Node, 1 solver thread.
//
// Options: --runs=N (7) --frames=N (60) --warmup=N (30)
import { performance } from 'node:perf_hooks';
import { createPbd } from '../web/lib/index.js';
import { printTimes, timeInterleaved } from './interleaved-runs.mjs';
import { median } from './solvers/metrics.mjs';

const arg = (name, fallback) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback;
const RUNS = Number(arg('runs', 7)), FRAMES = Number(arg('frames', 60)), WARMUP = Number(arg('warmup', 30));
const N = 64;

const pbd = await createPbd({ threads: 1 });

function cloth(world, tearing) {
  return world.addCloth({ columns: N, rows: N, spacing: 0.02, origin: [-0.6, 1.5, 0], axisV: [0, -1, 0.01],
    pinned: Array.from({ length: N }, (_, c) => c), ...(tearing ? { tearing } : {}) });
}

function config(name, tearing) {
  const world = new pbd.World();
  cloth(world, tearing);
  return { name, world, frame: () => world.step(1 / 60) };
}

const list = [config('cloth', null), config('tearable', { strain: 0.5 })];
const timed = timeInterleaved(list, { runs: RUNS, frames: FRAMES, warmup: 120 });
console.log(`${N}² cloth, 10 substeps × 1 iteration; Node ${process.version}, 1 solver thread; ms per frame, median ` +
  `of ${RUNS} runs of ${FRAMES} frames [fastest, slowest]`);
printTimes(list, timed, 'cloth');
for (const c of list) c.world.delete();

/** ms of tearing `edges(body)` in a fresh world stepped WARMUP frames, and of the step after it. */
function timeTear(edges) {
  const world = new pbd.World();
  const body = cloth(world, {});
  for (let f = 0; f < WARMUP; f++) world.step(1 / 60);
  let start = performance.now();
  world.tearEdges(body, edges(body));
  const tear = performance.now() - start;
  start = performance.now();
  world.step(1 / 60);
  const step = performance.now() - start;
  world.delete();
  return { tear, step };
}

const row = (body, count) => Array.from({ length: 2 * count }, (_, k) => body.firstParticle + 32 * N + (k >> 1) + (k & 1));
const one = [], across = [];
for (let r = 0; r < RUNS; r++) {
  one.push(timeTear((b) => row(b, 1)));
  across.push(timeTear((b) => row(b, N - 1)));
}
const f = (list, key) => `${median(list.map((t) => t[key])).toFixed(2)} [${Math.min(...list.map((t) => t[key])).toFixed(2)}, ` +
  `${Math.max(...list.map((t) => t[key])).toFixed(2)}]`;
console.log(`\n| tear of the ${N}² cloth | ms, median of ${RUNS} [fastest, slowest] |`);
console.log('|---|---|');
console.log(`| tearEdges, 1 edge | ${f(one, 'tear')} |`);
console.log(`| tearEdges, a row (${N - 1} edges) | ${f(across, 'tear')} |`);
console.log(`| the step after a 1-edge tear | ${f(one, 'step')} |`);
pbd.terminate();
