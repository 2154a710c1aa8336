#!/usr/bin/env bash
# Runs every test: the GoogleTest suite natively under ASan + UBSan and as wasm under Node (ctest), its SIMD and
# determinism tests cross-compiled for 64-bit Arm under qemu (the NEON path; the whole suite there takes 14 minutes:
# `npm run test:arm64`), Vitest (Node and headless Chromium), then every libFuzzer target for PBD_FUZZ_SECONDS
# (default 10) on its committed corpus.
# Expects the wasm build (.ci/build-wasm.sh) and the sanitized and arm64 native builds (.ci/build-native.sh sanitized,
# arm64); builds the fuzz targets itself (.ci/fuzz.sh). Ends with one line totalling them all: "N passed, N failed".
# The Release native build is not run here: the sanitized one runs the same suite with the same IEEE arithmetic (no
# fast-math, no FMA contraction on x86-64), and a third native build would add minutes to every CI run.
set -uo pipefail
cd "$(dirname "$0")/.."
mkdir -p build/reports
passed=0
failed=0

# run_ctest NAME DIR [CTEST ARGS...]: adds the suite's counts to the totals.
run_ctest() {
  local name=$1 dir=$2 log=build/reports/ctest-${2##*/}.log line
  shift 2
  echo "== GoogleTest, $name (ctest in $dir)"
  (cd "$dir" && ctest -j2 --output-on-failure "$@") 2>&1 | tee "$log"
  line=$(grep -E '[0-9]+ tests failed out of [0-9]+' "$log" | tail -1)
  if [ -z "$line" ]; then
    echo "ctest ($name) did not report a result"
    failed=$((failed + 1))
    return
  fi
  local f t
  f=$(sed -E 's/.* ([0-9]+) tests failed out of ([0-9]+).*/\1/' <<<"$line")
  t=$(sed -E 's/.* ([0-9]+) tests failed out of ([0-9]+).*/\2/' <<<"$line")
  local skipped
  skipped=$(grep -c '(Skipped)$' "$log")
  passed=$((passed + t - f - skipped))
  failed=$((failed + f))
  summary+="ctest $name: $((t - f - skipped)) passed, $f failed, $skipped skipped; "
}

summary=""
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1}
# The long whole-scene tests (tests/native/long_scene.h) skip themselves here and run in the wasm suite.
run_ctest "native ASan+UBSan" build/asan
# Eight GoogleTest shards of the whole suite, one ctest test each (tests/CMakeLists.txt).
run_ctest "wasm, in shards" build/wasm-threaded
# Every kernel (the batched ones against one by one), the lane operations, the determinism goldens and snapshots.
# Not the matrix's thread-count and repeat checks (1.9 minutes under qemu): they compare runs of one build with each
# other, which the native and wasm suites do; what is Arm's own is whether its bits are the goldens'.
run_ctest "arm64 NEON under qemu" build/arm64 -R \
  '^arm64\.([A-Za-z]+Kernels?|WideFloat|WideDouble|ParticleAdvance|BandLayout|DeterministicAtan2|Determinism\.|DeterminismMatrix\.(MixedScene|TheScene)|Snapshot\.ContinuesBitIdentically|BlockSchedule\.(TheBandedCloth|ABandedPass))'

echo "== Vitest (Node and headless Chromium)"
rm -f build/reports/vitest.json
npx vitest run --reporter=default --reporter=json --outputFile.json=build/reports/vitest.json
vitest_status=$?
read -r vitest_passed vitest_failed < <(node -e "
  try { const r = require('./build/reports/vitest.json'); console.log(r.numPassedTests, r.numFailedTests + (r.numRuntimeErrorTestSuites || 0)); }
  catch { console.log(0, 1); }")
[ "$vitest_status" -ne 0 ] && [ "$vitest_failed" -eq 0 ] && vitest_failed=1
passed=$((passed + vitest_passed))
failed=$((failed + vitest_failed))

seconds=${PBD_FUZZ_SECONDS:-10}
echo "== libFuzzer, $seconds s per target (.ci/fuzz.sh)"
bash .ci/fuzz.sh "$seconds" 2>&1 | tee build/reports/fuzz.log
fuzz_passed=$(grep -cE '^fuzz [a-z_]+: passed' build/reports/fuzz.log)
fuzz_failed=$(grep -cE '^fuzz [a-z_]+: FAILED' build/reports/fuzz.log)
[ $((fuzz_passed + fuzz_failed)) -eq 0 ] && fuzz_failed=1   # the fuzz build failed: no target ran
passed=$((passed + fuzz_passed))
failed=$((failed + fuzz_failed))

echo "${summary}vitest: $vitest_passed passed, $vitest_failed failed; fuzz: $fuzz_passed passed, $fuzz_failed failed"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
