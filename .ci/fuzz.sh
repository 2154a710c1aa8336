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
targets=(obj_reader_fuzz tetgen_reader_fuzz tetrahedralize_fuzz mesh_body_fuzz world_api_fuzz snapshot_fuzz)

bash .ci/build-native.sh sanitized || { echo "fuzz: build failed" >&2; exit 1; }

failed=0
for t in "${targets[@]}"; do
  corpus=build/asan/fuzz/corpus/$t
  artifacts=build/asan/fuzz/artifacts/$t
  log=build/asan/fuzz/logs/$t.log
  mkdir -p "$corpus" "$artifacts" build/asan/fuzz/logs
  cp -f tests/fuzz/corpus/"$t"/* "$corpus"/
  dict=()
  [ -f tests/fuzz/"$t".dict ] && dict=(-dict=tests/fuzz/"$t".dict)
  start=$SECONDS
  # A crash writes crash-/leak-/timeout-/oom-<sha1> into $artifacts; -print_final_stats gives the execution count.
  build/asan/tests/fuzz/"$t" "$corpus" "${dict[@]}" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -print_final_stats=1 -artifact_prefix="$artifacts"/ >"$log" 2>&1
  status=$?
  execs=$(grep -oE 'stat::number_of_executed_units: [0-9]+' "$log" | tail -1 | grep -oE '[0-9]+$')
  inputs=$(find "$corpus" -type f | wc -l)
  artifact=$(grep -oE "Test unit written to [^ ]+" "$log" | tail -1 | sed 's/Test unit written to //')
  if [ "$status" -eq 0 ] && [ -z "$artifact" ]; then
    echo "fuzz $t: passed (${execs:-?} executions in $((SECONDS - start)) s, corpus $inputs inputs)"
  else
    failed=$((failed + 1))
    reason=$(grep -m1 -oE 'ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer): [^(]*|runtime error: .*|FUZZ INVARIANT BROKEN: .*' "$log")
    echo "fuzz $t: FAILED (exit $status: ${reason:-see $log}; reproducer ${artifact:-none}; log $log)"
    grep -m1 -B2 -A25 -E 'ERROR: |runtime error: |FUZZ INVARIANT BROKEN' "$log" | sed 's/^/    /'
  fi
done
[ "$failed" -eq 0 ]
