#!/usr/bin/env bash
# `npm run test:hardening`: the GoogleTest suite natively under ASan+UBSan (build/asan), then every libFuzzer target
# for SECONDS each (default 15; .ci/fuzz.sh). Kept out of `npm test` for now: on this 2-core machine the two extra
# builds add about ten minutes. Ends with one line "N passed, N failed" like .ci/test.sh.
set -uo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-15}
mkdir -p build/reports
passed=0
failed=0

echo "== GoogleTest under ASan+UBSan (build/asan)"
if [ ! -f build/asan/CMakeCache.txt ]; then
  cmake -S . -B build/asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPBD_SANITIZE=ON -DPBD_BUILD_BENCH=OFF >/dev/null
fi
if cmake --build build/asan -j2 >build/reports/build-asan.log 2>&1; then
  export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1}
  (cd build/asan && ctest -j2 --output-on-failure) 2>&1 | tee build/reports/ctest-asan.log
  line=$(grep -E '[0-9]+ tests failed out of [0-9]+' build/reports/ctest-asan.log | tail -1)
  f=$(sed -E 's/.* ([0-9]+) tests failed out of ([0-9]+).*/\1/' <<<"$line")
  t=$(sed -E 's/.* ([0-9]+) tests failed out of ([0-9]+).*/\2/' <<<"$line")
  passed=$((passed + ${t:-0} - ${f:-0}))
  failed=$((failed + ${f:-1}))
else
  tail -30 build/reports/build-asan.log
  failed=$((failed + 1))
fi

echo "== libFuzzer, $seconds s per target (.ci/fuzz.sh)"
bash .ci/fuzz.sh "$seconds" 2>&1 | tee build/reports/fuzz.log
passed=$((passed + $(grep -cE '^fuzz [a-z_]+: passed' build/reports/fuzz.log)))
fuzz_failed=$(grep -cE '^fuzz [a-z_]+: FAILED' build/reports/fuzz.log)
grep -qE '^fuzz [a-z_]+: (passed|FAILED)' build/reports/fuzz.log || fuzz_failed=1
failed=$((failed + fuzz_failed))

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
