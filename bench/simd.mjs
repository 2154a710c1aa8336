// SIMD against scalar, wasm, one thread (issue #4's target: the SIMD kernels at least 1.5x faster than the scalar
// build of the same kernels). Loads the single-threaded package build (-msimd128) and the scalar build of the same
// sources (.ci/build-wasm-scalar.sh: no -msimd128, math/wide_float.h's scalar path) and times the coloured
// Gauss-Seidel solve of the 128² hanging cloth (bench/scenes.mjs hangingCloth, tests/scenes/scenes.h's scene: stretch,
// shear and skip-one bending constraints, all through the batched distance kernel).
//
// The kernel figure isolates the projections: a step of 1 substep with N iterations minus a step with 1 iteration,
// divided by N - 1, is the cost of one pass over the distance constraints (prediction, commit and the other
// once-per-substep stages cancel out). The step figure is the whole Foundation benchmark frame (10 substeps x 1
// iteration), for context. Each is the median of several runs after a warm-up past V8's tier-up.
//
//   node bench/simd.mjs [--scalar-dir=build/wasm-scalar/wasm] [--n=128] [--runs=7]
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import path from 'node:path';
import { DT, hangingCloth } from './scenes.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const arg = (name, fallback) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback;
const BUILDS = [
  ['simd128', path.join(root, 'web/lib/wasm/single')],
  ['scalar', path.resolve(root, arg('scalar-dir', 'build/wasm-scalar/wasm'))],
];
const N = Number(arg('n', 128));
const RUNS = Number(arg('runs', 7));
const ITERATIONS = 21;  // the kernel measure: 1 substep x 21 iterations against 1 x 1
const WARMUP_FRAMES = 40;
const FRAMES_PER_RUN = 8;

/** An Emscripten ES module loaded from `dir` under Node (what web/lib/index.js does for the package's builds). */
async function loadModule(dir) {
  const dirUrl = pathToFileURL(dir + '/');
  globalThis.__dirname ??= dir;
  globalThis.require ??= createRequire(new URL('pbd_wasm.mjs', dirUrl));
  const factory = (await import(new URL('pbd_wasm.mjs', dirUrl).href)).default;
  return factory({ pthreadPoolSize: 0, wasmBinary: await readFile(new URL('pbd_wasm.wasm', dirUrl)),
    locateFile: (file) => fileURLToPath(new URL(file, dirUrl)) });
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Median ms per frame of `frames` frames, over RUNS runs, after the warm-up. */
function msPerFrame(M, substeps, iterations) {
  const world = new M.World();
  hangingCloth(world, N, { solver: 'coloured-gauss-seidel', substeps, iterations });
  for (let f = 0; f < WARMUP_FRAMES; f++) world.step(DT);
  const runs = [];
  for (let r = 0; r < RUNS; r++) {
    const t0 = performance.now();
    for (let f = 0; f < FRAMES_PER_RUN; f++) world.step(DT);
    runs.push((performance.now() - t0) / FRAMES_PER_RUN);
  }
  const constraints = world.distanceConstraintCount();
  world.delete();
  return { ms: median(runs), constraints };
}

const results = {};
for (const [name, dir] of BUILDS) {
  let M;
  try {
    M = await loadModule(dir);
  } catch (e) {
    console.error(`cannot load the ${name} build from ${dir} (${e.message}); build it with:\n` +
      '  flock /tmp/wasm.lock bash .ci/build-wasm.sh && flock /tmp/wasm.lock bash .ci/build-wasm-scalar.sh');
    process.exit(1);
  }
  const many = msPerFrame(M, 1, ITERATIONS), one = msPerFrame(M, 1, 1), frame = msPerFrame(M, 10, 1);
  const perPass = (many.ms - one.ms) / (ITERATIONS - 1);
  results[name] = { perPass, frame: frame.ms, constraints: many.constraints };
}
console.log(`wasm, 1 thread, coloured Gauss-Seidel, ${N}² hanging cloth, ${results.simd128.constraints} distance ` +
  `constraints (stretch, shear, bend); median of ${RUNS} runs x ${FRAMES_PER_RUN} frames`);
console.log('build      ms/pass (kernels)   ns/constraint   ms/frame (10 substeps x 1)');
for (const [name, r] of Object.entries(results)) {
  console.log(`${name.padEnd(10)} ${r.perPass.toFixed(3).padStart(17)} ${(r.perPass * 1e6 / r.constraints).toFixed(2).padStart(15)} ` +
    `${r.frame.toFixed(3).padStart(16)}`);
}
const kernel = results.scalar.perPass / results.simd128.perPass, step = results.scalar.frame / results.simd128.frame;
console.log(`SIMD speed-up: kernels ${kernel.toFixed(2)}x (target >= 1.5x: ${kernel >= 1.5 ? 'met' : 'NOT met'}), ` +
  `whole frame ${step.toFixed(2)}x`);
