#!/usr/bin/env bash
# run_dm_sharing_probe.sh [RUNS] [PAUSE] — builds dm_sharing_probe.c and runs huge/cow RUNS times each,
# alternating, PAUSE seconds apart (on a VM that reports free memory to its host, a pause makes the
# next run's memory cold; 0 keeps it warm).
set -euo pipefail
runs=${1:-5}; pause=${2:-3}
here=$(cd "$(dirname "$0")" && pwd)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
cc -O2 -o "$out/probe" "$here/dm_sharing_probe.c"
for ((i = 0; i < runs; ++i)); do
  for mode in huge cow; do
    sleep "$pause"
    "$out/probe" "$mode"
  done
done
