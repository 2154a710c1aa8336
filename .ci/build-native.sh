#!/usr/bin/env bash
# Builds the native library, GoogleTest suite and benchmark.
#   release    (default) build/native: Release, what C++ users link and what `npm run bench` measures.
#   sanitized  build/asan: clang, RelWithDebInfo, ASan + UBSan (-fno-sanitize-recover): the GoogleTest suite that
#              `npm test` runs, and the libFuzzer targets (tests/fuzz), which share its one sanitized build of the core.
#   arm64      build/arm64: Release cross-compiled for 64-bit Arm (.ci/aarch64-toolchain.cmake), the GoogleTest suite
#              run under qemu-aarch64: the NEON path of math/wide_float.h, tested on this x86 machine.
set -euo pipefail
cd "$(dirname "$0")/.."
case "${1:-release}" in
  release) dir=build/native; flags=(-DCMAKE_BUILD_TYPE=Release) ;;
  sanitized) dir=build/asan; export CC=clang CXX=clang++
    flags=(-DCMAKE_BUILD_TYPE=RelWithDebInfo -DPBD_SANITIZE=ON -DPBD_BUILD_FUZZERS=ON -DPBD_BUILD_BENCH=OFF) ;;
  arm64) dir=build/arm64
    flags=(-DCMAKE_TOOLCHAIN_FILE=.ci/aarch64-toolchain.cmake -DCMAKE_BUILD_TYPE=Release -DPBD_BUILD_BENCH=OFF) ;;
  *) echo "build-native: unknown flavour '$1' (release, sanitized or arm64)" >&2; exit 2 ;;
esac
[ -f "$dir/CMakeCache.txt" ] || cmake -S . -B "$dir" "${flags[@]}" >/dev/null
cmake --build "$dir" -j2
