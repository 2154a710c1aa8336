// `npm run bench:rods`: what Cosserat rods (world.addRod) cost beside a cloth and ropes of the same particle count,
// 1024 particles each, hanging under gravity at 10 substeps × 1 iteration, per frame of 1/60 s:
//   cloth       a 32² cloth (0.02 m spacing) pinned along its top row;
//   ropes       16 ropes of 63 links (64 particles, 0.02 m links, skip-one bending), pinned at the top;
//   hair        16 rods of 63 segments (0.02 m, radius 0.5 mm, hair's moduli), clamped at the top;
//   cable       one rod of 1023 segments (0.002 m, radius 2 mm, 1e8 / 4e7 Pa), clamped at one end, coiling down.
// Each config: WARMUP frames, then RUNS runs of FRAMES frames, interleaved; the median of the runs' ms per frame, with
// the fastest and slowest. Node, 1 solver thread.
//
// Options: --runs=N (7) --frames=N (60) --warmup=N (120)
import { createPbd } from '../web/lib/index.js';
import { printTimes, timeInterleaved } from './interleaved-runs.mjs';

const arg = (name, fallback) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback;
const RUNS = Number(arg('runs', 7)), FRAMES = Number(arg('frames', 60)), WARMUP = Number(arg('warmup', 120));
const STRANDS = 16, PER_STRAND = 64;

const pbd = await createPbd({ threads: 1 });

/** Points of a hanging strand: `count` particles `spacing` apart, down from (x, top, z). */
function strand(x, z, top, count, spacing) {
  return Array.from({ length: 3 * count }, (_, k) => [x, top - spacing * Math.floor(k / 3), z][k % 3]);
}

function config(name, build) {
  const world = new pbd.World();
  build(world);
  return { name, world, frame: () => world.step(1 / 60) };
}

const list = [
  config('cloth', (w) => w.addCloth({ columns: 32, rows: 32, spacing: 0.02, origin: [-0.3, 1.5, 0], axisV: [0, -1, 0.01],
    pinned: Array.from({ length: 32 }, (_, c) => c) })),
  config('ropes', (w) => {
    for (let k = 0; k < STRANDS; k++) {
      w.addRope({ segments: PER_STRAND - 1, start: [0.05 * k, 1.5, 0], end: [0.05 * k, 1.5 - 0.02 * (PER_STRAND - 1), 0.01],
        mass: 0.01, pinned: [0] });
    }
  }),
  config('hair', (w) => {
    for (let k = 0; k < STRANDS; k++) {
      w.addRod({ points: strand(0.05 * k, 0.01 * k, 1.5, PER_STRAND, 0.02), radius: 0.0005, density: 1300,
        youngsModulus: 4e9, shearModulus: 1.5e9, pinned: [0, 1], clampedSegments: [0] });
    }
  }),
  config('cable', (w) => {
    const points = Array.from({ length: 3 * STRANDS * PER_STRAND }, (_, k) => [0.002 * Math.floor(k / 3), 2.2, 0][k % 3]);
    w.addRod({ points, radius: 0.002, youngsModulus: 1e8, shearModulus: 4e7, pinned: [0, 1], clampedSegments: [0] });
  }),
];
const timed = timeInterleaved(list, { runs: RUNS, frames: FRAMES, warmup: WARMUP });
console.log(`${STRANDS * PER_STRAND} particles each, 10 substeps × 1 iteration; Node ${process.version}, 1 solver ` +
  `thread; ms per frame, median of ${RUNS} runs of ${FRAMES} frames [fastest, slowest]`);
printTimes(list, timed, 'cloth');
for (const c of list) c.world.delete();
pbd.terminate();
