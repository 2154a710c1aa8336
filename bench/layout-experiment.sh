#!/usr/bin/env bash
# Builds and runs bench/layout-experiment.cpp (wasm SIMD, single-threaded, under Node): ns per projection of the
# 128² cloth's constraints in the engine's padded layout and in blocks of four particles. Not part of npm run bench:
# an experiment for the single-threaded target of issue #8 (docs/performance.md, "The distance kernel's layout").
set -euo pipefail
cd "$(dirname "$0")/.."
export NODE_PATH=/usr/share/nodejs
out=build/layout-experiment
mkdir -p "$out"
echo '{"type":"commonjs"}' > "$out/package.json"  # the root package.json says "type":"module"
em++ -std=c++20 -O3 -msimd128 -ffp-contract=off -Isrc/include -Isrc -I/usr/include/eigen3 \
  bench/layout-experiment.cpp src/constraints/distance_batch.cpp -sALLOW_MEMORY_GROWTH=1 -sENVIRONMENT=node \
  -o "$out/layout-experiment.js"
node --no-experimental-fetch "$out/layout-experiment.js"
