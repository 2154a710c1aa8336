#!/usr/bin/env bash
# `npm run fuzz` (and, for 10 s per target, `npm test`): builds the libFuzzer targets of tests/fuzz with clang, ASan and
# UBSan in the sanitized native build (build/asan, .ci/build-native.sh sanitized) and runs each for SECONDS (default
# 60) on its corpus. The committed seeds (tests/fuzz/corpus/<target>) are copied into build/asan/fuzz/corpus/<target>,
# which keeps what earlier runs found. Prints one line per target,
#   fuzz <target>: passed (<executions> executions in <s> s, corpus <n> inputs)
#   fuzz <target>: FAILED (<reason>; reproducer <file>)
# and exits non-zero if any target crashed, hung (-timeout), ran out of memory or found a sanitizer report; the
# reproducer is kept in build/asan/fuzz/artifacts/<target>/ (replay: build/asan/tests/fuzz/<target> <file>).
set -uo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
targets=(obj_reader_fuzz tetgen_reader_fuzz tetrahedralize_fuzz mesh_body_fuzz world_api_fuzz snapshot_fuzz tearing_fuzz)

bash .ci/build-native.sh sanitized || { echo "fuzz: build failed" >&2; exit 1; }

# fuzz_one TARGET: runs it and writes its one-line verdict (and a failure's excerpt) to build/asan/fuzz/logs/TARGET.verdict.
fuzz_one() {
  local t=$1 corpus=build/asan/fuzz/corpus/$1 artifacts=build/asan/fuzz/artifacts/$1 log=build/asan/fuzz/logs/$1.log
  local verdict=build/asan/fuzz/logs/$1.verdict dict=() start=$SECONDS status execs inputs artifact reason
  mkdir -p "$corpus" "$artifacts" build/asan/fuzz/logs
  cp -f tests/fuzz/corpus/"$t"/* "$corpus"/
  [ -f tests/fuzz/"$t".dict ] && dict=(-dict=tests/fuzz/"$t".dict)
  # A crash writes crash-/leak-/timeout-/oom-<sha1> into $artifacts; -print_final_stats gives the execution count.
  build/asan/tests/fuzz/"$t" "$corpus" "${dict[@]}" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -print_final_stats=1 -artifact_prefix="$artifacts"/ >"$log" 2>&1
  status=$?
  execs=$(grep -oE 'stat::number_of_executed_units: [0-9]+' "$log" | tail -1 | grep -oE '[0-9]+$')
  inputs=$(find "$corpus" -type f | wc -l)
  artifact=$(grep -oE "Test unit written to [^ ]+" "$log" | tail -1 | sed 's/Test unit written to //')
  if [ "$status" -eq 0 ] && [ -z "$artifact" ]; then
    echo "fuzz $t: passed (${execs:-?} executions in $((SECONDS - start)) s, corpus $inputs inputs)" >"$verdict"
  else
    reason=$(grep -m1 -oE 'ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer): [^(]*|runtime error: .*|FUZZ INVARIANT BROKEN: .*' "$log")
    { echo "fuzz $t: FAILED (exit $status: ${reason:-see $log}; reproducer ${artifact:-none}; log $log)"
      grep -m1 -B2 -A25 -E 'ERROR: |runtime error: |FUZZ INVARIANT BROKEN' "$log" | sed 's/^/    /'; } >"$verdict"
  fi
}

# Two targets at a time, one per core (each fuzzer is one process); verdicts printed in the targets' order.
for t in "${targets[@]}"; do
  rm -f build/asan/fuzz/logs/"$t".verdict
  fuzz_one "$t" &
  [ "$(jobs -rp | wc -l)" -ge 2 ] && wait -n
done
wait
failed=0
for t in "${targets[@]}"; do
  cat build/asan/fuzz/logs/"$t".verdict 2>/dev/null || echo "fuzz $t: FAILED (no verdict)"
  grep -q '^fuzz [a-z_]*: passed' build/asan/fuzz/logs/"$t".verdict 2>/dev/null || failed=$((failed + 1))
done
[ "$failed" -eq 0 ]
