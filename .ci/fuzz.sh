#!/usr/bin/env bash
# `npm run fuzz` (and, briefly, `npm run test:hardening`): builds the libFuzzer targets of tests/fuzz with clang, ASan and UBSan
# into build/fuzz and runs each for SECONDS (default 60) on its corpus. The committed seeds (tests/fuzz/corpus/<target>)
# are copied into build/fuzz/corpus/<target>, which keeps what earlier runs found. Prints one line per target,
#   fuzz <target>: passed (<executions> executions in <s> s, corpus <n> inputs)
#   fuzz <target>: FAILED (<reason>; reproducer <file>)
# and exits non-zero if any target crashed, hung (-timeout), ran out of memory or found a sanitizer report; the
# reproducer is kept in build/fuzz/artifacts/<target>/ (replay: build/fuzz/tests/fuzz/<target> <file>).
set -uo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
targets=(obj_reader_fuzz tetgen_reader_fuzz tetrahedralize_fuzz mesh_body_fuzz world_api_fuzz snapshot_fuzz)

if [ ! -f build/fuzz/CMakeCache.txt ]; then
  CC=clang CXX=clang++ cmake -S . -B build/fuzz -DPBD_BUILD_FUZZERS=ON -DPBD_BUILD_TESTS=OFF -DPBD_BUILD_BENCH=OFF \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null || { echo "fuzz: cmake configure failed" >&2; exit 1; }
fi
cmake --build build/fuzz -j"${PBD_BUILD_JOBS:-2}" || { echo "fuzz: build failed" >&2; exit 1; }

failed=0
for t in "${targets[@]}"; do
  corpus=build/fuzz/corpus/$t
  artifacts=build/fuzz/artifacts/$t
  log=build/fuzz/logs/$t.log
  mkdir -p "$corpus" "$artifacts" build/fuzz/logs
  cp -f tests/fuzz/corpus/"$t"/* "$corpus"/
  dict=()
  [ -f tests/fuzz/"$t".dict ] && dict=(-dict=tests/fuzz/"$t".dict)
  start=$SECONDS
  # A crash writes crash-/leak-/timeout-/oom-<sha1> into $artifacts; -print_final_stats gives the execution count.
  build/fuzz/tests/fuzz/"$t" "$corpus" "${dict[@]}" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
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
