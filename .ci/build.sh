#!/usr/bin/env bash
# Builds the native library, tests and benchmark (Release) and both wasm variants into web/lib/wasm.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -f build/native/CMakeCache.txt ]; then
  cmake -S . -B build/native -DCMAKE_BUILD_TYPE=Release >/dev/null
fi
cmake --build build/native -j2
bash .ci/build-wasm.sh
