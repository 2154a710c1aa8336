#!/usr/bin/env bash
# `npm run bench`: native (Google Benchmark) and wasm (Node) figures: the hanging cloth's step time, the
# tetrahedralizer on the Stanford bunny at two resolutions, the soft bunny's step time, render-mesh binding, and the
# self-collision scenes by stage from 64² to 256² (a cloth folding on the bunny, and a folded sheet whose contact
# density does not change with the resolution).
# Then every gallery scene of the demo page in headless Chromium (solver time per step, render-frame interval,
# main-thread work per frame), and the same with the simulation paused: what drawing alone costs on this machine.
set -euo pipefail
cd "$(dirname "$0")/.."
echo "== native (g++ -O3, Google Benchmark; ClothStep: hanging cloth n x n, XPBD rigid, 10 substeps x 1 iteration,"
echo "   1/60 s frame; TetrahedralizeBunny: 0.5 m bunny, grid cells along its longest side; SoftBunnyStep: that bunny at"
echo "   resolution 10, XPBD 10 x 1, volume or Neo-Hookean tets; BindRenderMesh: 100k points onto 10368 tets;"
echo "   NumberedClothStep: the 128² cloth at rest numbered row-major or at random; HangingClothIterations: the hanging"
echo "   128² cloth at 10 x 1 and 10 x 2 under coloured Gauss-Seidel and VBD, an iteration = the difference / 10)"
./build/native/bench/pbd_bench --benchmark_repetitions=5 --benchmark_report_aggregates_only=true \
  --benchmark_min_time=0.5 2>&1 | grep -E 'Benchmark|----|_median'
echo
echo "== wasm in Node $(node --version): the hanging cloth (ClothStep's scene) in bench:peers' pbd-wasm rows"
node bench/peers/run.mjs --node --no-files --scenes=cloth32,cloth64,cloth128,cloth256 \
  --configs=pbd-single,pbd-threaded-1,pbd-threaded-2
echo
node bench/wasm-mesh-bench.mjs
echo
node bench/self-collision-bench.mjs
echo
node bench/residual-cost.mjs solvers
echo
echo "== the demo's gallery scenes in headless Chromium"
node bench/gallery-bench.mjs
node bench/gallery-bench.mjs --single
node bench/gallery-bench.mjs --paused
