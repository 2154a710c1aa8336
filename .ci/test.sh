#!/usr/bin/env bash
# Runs every test (GoogleTest via ctest, Vitest in Node and headless Chromium) and ends with one totals line.
set -uo pipefail
cd "$(dirname "$0")/.."
mkdir -p build/reports

echo "== GoogleTest (native, ctest)"
(cd build/native && ctest -j2 --output-on-failure) 2>&1 | tee build/reports/ctest.log
ctest_line=$(grep -E '[0-9]+ tests failed out of [0-9]+' build/reports/ctest.log | tail -1)
ctest_failed=$(sed -E 's/.* ([0-9]+) tests failed out of ([0-9]+).*/\1/' <<<"$ctest_line")
ctest_total=$(sed -E 's/.* ([0-9]+) tests failed out of ([0-9]+).*/\2/' <<<"$ctest_line")
if [ -z "$ctest_line" ]; then ctest_failed=1; ctest_total=1; echo "ctest did not report a result"; fi

echo "== Vitest (Node and headless Chromium)"
rm -f build/reports/vitest.json
npx vitest run --reporter=default --reporter=json --outputFile.json=build/reports/vitest.json
vitest_status=$?
read -r vitest_passed vitest_failed < <(node -e "
  try { const r = require('./build/reports/vitest.json'); console.log(r.numPassedTests, r.numFailedTests + (r.numRuntimeErrorTestSuites || 0)); }
  catch { console.log(0, 1); }")
[ "$vitest_status" -ne 0 ] && [ "$vitest_failed" -eq 0 ] && vitest_failed=1

passed=$(( ctest_total - ctest_failed + vitest_passed ))
failed=$(( ctest_failed + vitest_failed ))
echo "ctest: $(( ctest_total - ctest_failed )) passed, $ctest_failed failed; vitest: $vitest_passed passed, $vitest_failed failed"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
