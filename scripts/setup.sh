#!/usr/bin/env bash
# setup.sh — installs what a fresh Debian bookworm machine lacks to build and test tcp.
# As root it runs apt-get itself; otherwise it prints the `sudo apt-get install …` line and fails.
set -euo pipefail

PACKAGES=(
  build-essential cmake make python3 python3-numpy libopenblas0-pthread
  antlr4 libantlr4-runtime-dev uuid-dev
  llvm-16-dev libzstd-dev zlib1g-dev libedit-dev
  libboost-program-options-dev libgtest-dev libbenchmark-dev libhwy-dev
  clang libclang-rt-14-dev   # make test: the ASan+UBSan build with the libFuzzer targets
)

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

if [ "$(id -u)" -eq 0 ]; then
  echo "setup: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  # antlr4 needs a Java runtime; --no-install-recommends keeps its hard dependency.
  echo "setup: done"
else
  echo "setup: missing packages; run:" >&2
  echo "  sudo apt-get install -y ${missing[*]}" >&2
  exit 1
fi
