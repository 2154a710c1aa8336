#!/usr/bin/env bash
# Builds the native library, GoogleTest suite and benchmark.
#   release    (default) build/native: Release, what C++ users link and what `npm run bench` measures.
#   sanitized  build/asan: clang, RelWithDebInfo, ASan + UBSan (-fno-sanitize-recover): the GoogleTest suite that
#              `npm test` runs, and the libFuzzer targets (tests/fuzz), which share its one sanitized build of the core.
#   arm64      build/arm64: Release cross-compiled for 64-bit Arm (.ci/aarch64-toolchain.cmake), with the tests of bits
#              (kernels, SIMD lanes, determinism goldens; tests/CMakeLists.txt PBD_CROSS_ARCH_TESTS) that `npm test`
#              runs under qemu-aarch64: the NEON path of math/wide_float.h, tested on this x86 machine.
#   arm64-full build/arm64-full: the same with the whole GoogleTest suite (`npm run test:arm64`).
# PBD_CMAKE_ARGS adds CMake arguments to a first configure (e.g. a compiler launcher that times each file).
set -euo pipefail
cd "$(dirname "$0")/.."
case "${1:-release}" in
  release) dir=build/native; flags=(-DCMAKE_BUILD_TYPE=Release) ;;
  sanitized) dir=build/asan; export CC=clang CXX=clang++
    # Line tables are all a sanitizer's stack trace needs; full debug info of Eigen's templates doubled the compile.
    flags=(-DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O2 -gline-tables-only -DNDEBUG"
      -DPBD_SANITIZE=ON -DPBD_BUILD_FUZZERS=ON -DPBD_BUILD_BENCH=OFF -DPBD_UNITY_BUILD=ON) ;;
  arm64) dir=build/arm64
    flags=(-DCMAKE_TOOLCHAIN_FILE=.ci/aarch64-toolchain.cmake -DCMAKE_BUILD_TYPE=Release -DPBD_BUILD_BENCH=OFF
      -DPBD_TESTS_CROSS_ARCH_ONLY=ON -DPBD_UNITY_BUILD=ON) ;;
  arm64-full) dir=build/arm64-full
    flags=(-DCMAKE_TOOLCHAIN_FILE=.ci/aarch64-toolchain.cmake -DCMAKE_BUILD_TYPE=Release -DPBD_BUILD_BENCH=OFF) ;;
  *) echo "build-native: unknown flavour '$1' (release, sanitized, arm64 or arm64-full)" >&2; exit 2 ;;
esac
[ -f "$dir/CMakeCache.txt" ] || cmake -S . -B "$dir" -G Ninja "${flags[@]}" ${PBD_CMAKE_ARGS:-} >/dev/null
cmake --build "$dir" -j2
