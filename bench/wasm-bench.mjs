// Step time of the Foundation benchmark cloth in wasm under Node: threaded build at 1 and 2 threads, and the
// single-threaded build. Same scene and settings as tests/scenes/scenes.h (hangingCloth), so the native and wasm
// figures compare directly. Prints the median ms per 1/60 s frame over several runs, and projections per second.
import { createPbd } from '../web/lib/index.js';

const SIZES = [32, 64, 128, 256];  // the cost per projection should not depend on the size (cost growth, issue #8)
const CONFIGS = [['threaded', 1], ['threaded', 2], ['single', 1]];
const WARMUP_FRAMES = 120;  // past V8's tier-up from Liftoff to TurboFan
const RUNS = 7;
const FRAMES_PER_RUN = 30;

function hangingCloth(world, n) {
  world.setMethod('xpbd');
  world.setSubsteps(10);
  world.setIterations(1);
  world.setGround({ height: -2 });
  world.addCloth({ columns: n, rows: n, spacing: 1 / (n - 1), origin: [-0.5, 1, 0], axisU: [1, 0, 0], axisV: [0, 0, 1],
    mass: 1, pinned: [0, n - 1], bend: { compliance: 0, stiffness: 1 } });
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

console.log(`scene: hanging cloth NxN, 1 m, 1 kg, 2 corners pinned, XPBD rigid (compliance 0), stretch+shear+skip-one bend,`);
console.log(`       10 substeps x 1 iteration, frame 1/60 s; median of ${RUNS} runs x ${FRAMES_PER_RUN} frames after ${WARMUP_FRAMES} warm-up frames`);
console.log('build            threads     N  constraints   ms/frame   projections/s');
for (const [variant, threads] of CONFIGS) {
  const pbd = await createPbd({ variant, threads });
  for (const n of SIZES) {
    const world = new pbd.World();
    hangingCloth(world, n);
    for (let f = 0; f < WARMUP_FRAMES; f++) world.step(1 / 60);
    const perFrame = [];
    for (let r = 0; r < RUNS; r++) {
      const t0 = performance.now();
      for (let f = 0; f < FRAMES_PER_RUN; f++) world.step(1 / 60);
      perFrame.push((performance.now() - t0) / FRAMES_PER_RUN);
    }
    const ms = median(perFrame);
    const projections = world.constraintCount() * world.getSubsteps() * world.getIterations();
    console.log(`wasm ${variant.padEnd(10)} ${String(pbd.threads).padStart(7)} ${String(n).padStart(5)} ` +
      `${String(world.constraintCount()).padStart(12)} ${ms.toFixed(3).padStart(10)} ${(projections / ms * 1000 / 1e6).toFixed(1).padStart(12)} M`);
    world.delete();
  }
  pbd.terminate();
}
