#!/usr/bin/env bash
# The scalar wasm build for bench/simd.mjs: the single-threaded module compiled without -msimd128 (math/wide_float.h
# then takes its scalar path; everything else is the same). Never copied into the package. Run it under the wasm
# lock: flock /tmp/wasm.lock bash .ci/build-wasm-scalar.sh [build dir, default build/wasm-scalar]
set -euo pipefail
cd "$(dirname "$0")/.."
export NODE_PATH=/usr/share/nodejs   # emcc's JS optimizer needs acorn from Debian's node modules
dir=${1:-build/wasm-scalar}
if [ ! -f "$dir/CMakeCache.txt" ]; then
  emcmake cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Release -DPBD_WASM_THREADS=OFF -DPBD_BUILD_TESTS=OFF \
    -DPBD_WASM_SIMD=OFF "-DCMAKE_CXX_LINKER_LAUNCHER=env;NODE_PATH=/usr/share/nodejs" >/dev/null
fi
cmake --build "$dir" --target pbd_wasm -j1
