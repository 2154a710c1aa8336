#!/usr/bin/env bash
# The native library as a C++ user takes it (ctest: Package.*), with examples/cpp-hanging-cloth:
#   installed     `cmake --install` of this build (the library ctest is testing) into a prefix, the example built
#                 against it with find_package(pbd), then run;
#   subdirectory  the example configured with add_subdirectory(<this checkout>) and its main.cpp compiled (building
#                 the library a second time would only repeat this build's compile).
# Both check what reaches the consumer: C++20 from pbd::core's compile features (the example sets no standard), none
# of our private flags (-ffp-contract=off, warnings), and no build type forced into the consumer's cache.
# Usage: cmake-consumer.sh SOURCE_DIR BUILD_DIR WORK_DIR CXX_COMPILER installed|subdirectory
set -euo pipefail
src=$1 build=$2 work=$3 cxx=$4 mode=$5
example=$src/examples/cpp-hanging-cloth
unset CMAKE_CXX_COMPILER_LAUNCHER
configure=(-G "Unix Makefiles" -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_EXPORT_COMPILE_COMMANDS=ON -DCMAKE_CXX_FLAGS=-g0)

# The consumer's compile line for main.cpp must ask for C++20 and carry none of our private flags.
check_consumer_flags() {
  local line
  line=$(grep -E '"command":.*main\.cpp' "$1/compile_commands.json" | head -1)
  [ -n "$line" ] || { echo "no compile command for main.cpp in $1" >&2; exit 1; }
  grep -qE -- '-std=(c|gnu)\+\+(20|2a)' <<<"$line" || { echo "C++20 did not reach the consumer: $line" >&2; exit 1; }
  if grep -qE -- '-ffp-contract|-Wall|-Wextra' <<<"$line"; then
    echo "a private flag of pbd reached the consumer: $line" >&2; exit 1
  fi
  if grep -qE '^CMAKE_BUILD_TYPE:[A-Z]*=.+' "$1/CMakeCache.txt"; then
    echo "pbd forced a build type into the consumer's cache: $(grep '^CMAKE_BUILD_TYPE' "$1/CMakeCache.txt")" >&2
    exit 1
  fi
}

case "$mode" in
  installed)
    prefix=$work/prefix consumer=$work/installed
    rm -rf "$prefix" "$consumer"
    cmake --install "$build" --prefix "$prefix" >/dev/null
    cmake -S "$example" -B "$consumer" "${configure[@]}" -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
    check_consumer_flags "$consumer"
    grep -q "^pbd_DIR:PATH=$prefix/" "$consumer"/CMakeCache.txt || { echo "pbd was not found in $prefix" >&2; exit 1; }
    cmake --build "$consumer" >/dev/null
    "$consumer"/hanging_cloth
    ;;
  subdirectory)
    consumer=$work/subdirectory
    rm -rf "$consumer"
    cmake -S "$example" -B "$consumer" "${configure[@]}" -DPBD_SOURCE_DIR="$src" >/dev/null
    check_consumer_flags "$consumer"
    make -C "$consumer" main.cpp.o >/dev/null
    ;;
  *) echo "cmake-consumer: unknown mode '$mode' (installed or subdirectory)" >&2; exit 2 ;;
esac
echo "cmake-consumer $mode: passed"
