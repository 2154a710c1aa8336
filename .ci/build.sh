#!/usr/bin/env bash
# Builds the native library, tests and benchmark (Release) and both wasm variants into web/lib/wasm.
set -euo pipefail
cd "$(dirname "$0")/.."
bash .ci/build-native.sh release
bash .ci/build-wasm.sh
