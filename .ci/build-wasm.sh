#!/usr/bin/env bash
# Builds both wasm variants and copies them into the package (web/lib/wasm/{threaded,single}).
#   .ci/build-wasm.sh           the package and the GoogleTest suite as wasm (in the threaded variant's folder)
#   .ci/build-wasm.sh package   the package alone (`npm start`: the demo needs nothing else)
set -euo pipefail
case "${1:-all}" in
  all) targets=() ;;
  package) targets=(--target pbd_wasm) ;;
  *) echo "build-wasm: unknown argument '$1' (package, or none for the tests too)" >&2; exit 2 ;;
esac
cd "$(dirname "$0")/.."
export NODE_PATH=/usr/share/nodejs   # emcc's JS optimizer needs acorn from Debian's node modules
# Emscripten's test binaries (pbd_tests.js and its worker) are CommonJS; our package.json says "type":"module".
mkdir -p build && echo '{"type":"commonjs"}' > build/package.json
for variant in threaded single; do
  # The GoogleTest suite is also built as wasm, in the threaded variant (it tests the thread pool too).
  threads=ON; tests=ON
  [ "$variant" = single ] && threads=OFF && tests=OFF
  dir=build/wasm-$variant
  if [ ! -f "$dir/CMakeCache.txt" ]; then
    # The core as a unity build (batches of 8 files a layer): under half the compile time, the package as fast
    # within noise (docs/performance.md, "The test loop").
    emcmake cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DPBD_WASM_THREADS=$threads \
      -DPBD_BUILD_TESTS=$tests -DPBD_UNITY_BUILD=ON \
      "-DCMAKE_CXX_LINKER_LAUNCHER=env;NODE_PATH=/usr/share/nodejs" >/dev/null
  fi
  cmake --build "$dir" -j2 "${targets[@]}"
  out=web/lib/wasm/$variant
  mkdir -p "$out"
  cp "$dir"/wasm/pbd_wasm.mjs "$dir"/wasm/pbd_wasm.wasm "$out"/
  if [ "$variant" = threaded ]; then
    cp "$dir"/wasm/pbd_wasm.worker.js "$out"/
    # The worker is CommonJS; without this Node would load it as ESM inside our "type":"module" package.
    echo '{"type":"commonjs"}' > "$out"/package.json
  fi
done
