#!/usr/bin/env bash
# Runs every test: GoogleTest natively and as wasm under Node (ctest), then Vitest (Node and headless Chromium).
# Ends with one line totalling them all: "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/.."
mkdir -p build/reports
passed=0
failed=0

# run_ctest NAME DIR: adds the suite's counts to the totals.
run_ctest() {
  local name=$1 dir=$2 log=build/reports/ctest-$1.log line
  echo "== GoogleTest, $name (ctest in $dir)"
  (cd "$dir" && ctest -j2 --output-on-failure) 2>&1 | tee "$log"
  line=$(grep -E '[0-9]+ tests failed out of [0-9]+' "$log" | tail -1)
  if [ -z "$line" ]; then
    echo "ctest ($name) did not report a result"
    failed=$((failed + 1))
    return
  fi
  local f t
  f=$(sed -E 's/.* ([0-9]+) tests failed out of ([0-9]+).*/\1/' <<<"$line")
  t=$(sed -E 's/.* ([0-9]+) tests failed out of ([0-9]+).*/\2/' <<<"$line")
  passed=$((passed + t - f))
  failed=$((failed + f))
  summary+="ctest $name: $((t - f)) passed, $f failed; "
}

summary=""
run_ctest native build/native
run_ctest wasm build/wasm-threaded

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

echo "${summary}vitest: $vitest_passed passed, $vitest_failed failed"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
