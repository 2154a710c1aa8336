#!/usr/bin/env bash
# The build rejects a backward include between the core's layers (cmake/layers.cmake), both ways it can (ctest: Layers.*):
#   configure  a copy of the tree with one backward include added (mesh including world) does not configure, and the
#              error names the file and the rule; the unchanged copy configures;
#   compile    a mesh source compiled as the build compiles it (against the mesh layer's view of src/) cannot open a
#              world header, and can open a header of a layer below (constraints).
# Usage: layers.sh SOURCE_DIR BUILD_DIR WORK_DIR CXX_COMPILER EIGEN_INCLUDE_DIR configure|compile
set -euo pipefail
src=$1 build=$2 work=$3 cxx=$4 eigen=$5 mode=$6
backward='#include "world/world_state.h"'
case "$mode" in
  configure)
    copy=$work/layers-tree
    rm -rf "$copy" && mkdir -p "$copy"
    cp -r "$src"/CMakeLists.txt "$src"/cmake "$src"/src "$copy"/
    options=(-DPBD_BUILD_TESTS=OFF -DPBD_BUILD_BENCH=OFF -DPBD_INSTALL=OFF -DCMAKE_CXX_COMPILER="$cxx")
    cmake -S "$copy" -B "$copy"/build-unchanged "${options[@]}" >/dev/null \
      || { echo "the unchanged tree did not configure" >&2; exit 1; }
    echo "$backward" >>"$copy"/src/mesh/delaunay.h
    if cmake -S "$copy" -B "$copy"/build-backward "${options[@]}" >"$copy"/backward.log 2>&1; then
      echo "a backward include (mesh -> world) configured without an error" >&2; exit 1
    fi
    # CMake wraps its messages: the check reads the log as one line.
    tr -s ' \n' ' ' <"$copy"/backward.log |
      grep -q 'src/mesh/delaunay.h includes "world/world_state.h": the mesh layer may include only src/mesh/' \
      || { echo "the configure failed, but not naming the backward include:" >&2; cat "$copy"/backward.log >&2; exit 1; }
    ;;
  compile)
    view=$build/src/layer-includes/mesh
    [ -d "$view/constraints" ] || { echo "no view of src/ for the mesh layer in $view" >&2; exit 1; }
    flags=(-std=c++20 -fsyntax-only -x c++ -I "$view" -I "$src"/src/include -I "$eigen")
    echo '#include "constraints/tet_volume.h"' | "$cxx" "${flags[@]}" - \
      || { echo "the mesh layer cannot include a layer below it" >&2; exit 1; }
    if echo "$backward" | "$cxx" "${flags[@]}" - 2>"$work"/layers-compile.log; then
      echo "a mesh source compiled with a world include" >&2; exit 1
    fi
    grep -qi 'world/world_state.h.*not found\|world/world_state.h: No such file' "$work"/layers-compile.log \
      || { echo "the compile failed, but not for the backward include:" >&2; cat "$work"/layers-compile.log >&2; exit 1; }
    ;;
  *) echo "layers: unknown mode '$mode' (configure or compile)" >&2; exit 2 ;;
esac
