#!/usr/bin/env bash
# One set-up for `npm start` and `npm test`: installs what is missing, from Debian's apt and the npm registry only.
set -euo pipefail
cd "$(dirname "$0")/.."

DEBIAN_PACKAGES=(emscripten libeigen3-dev libgtest-dev libbenchmark-dev chromium cmake ninja-build g++ make clang
  libclang-rt-14-dev g++-aarch64-linux-gnu qemu-user)  # the last two: the NEON build, cross-compiled, run under qemu

missing=()
for p in "${DEBIAN_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" -eq 0 ]; then
    echo "setup: installing Debian packages: ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -q >/dev/null
    apt-get install -y -q "${missing[@]}" >/dev/null
  else
    echo "setup: missing Debian packages: ${missing[*]}" >&2
    echo "setup: install them as root with:" >&2
    echo "  sudo apt-get update && sudo apt-get install -y ${missing[*]}" >&2
    exit 1
  fi
fi

# npm ci when node_modules is missing or older than the lock file.
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "setup: npm ci"
  npm ci --no-audit --no-fund 2>&1 | grep -v 'Unknown user config "nodedir"' || true
  [ -f node_modules/.package-lock.json ] || { echo "setup: npm ci failed" >&2; exit 1; }
fi
