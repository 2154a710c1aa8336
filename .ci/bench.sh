#!/usr/bin/env bash
# `npm run bench`: native (Google Benchmark) and wasm (Node) step times for the Foundation cloth scenes.
set -euo pipefail
cd "$(dirname "$0")/.."
echo "== native (g++ -O3, Google Benchmark; hanging cloth n x n, XPBD rigid, 10 substeps x 1 iteration, 1/60 s frame)"
./build/native/bench/pbd_bench --benchmark_repetitions=5 --benchmark_report_aggregates_only=true \
  --benchmark_min_time=0.5 2>&1 | grep -E 'Benchmark|----|_median'
echo
echo "== wasm in Node $(node --version)"
node bench/wasm-bench.mjs
