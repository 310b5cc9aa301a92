#!/usr/bin/env bash
# run_flagship.sh — the main job: the flagship sample through tcpi (its checks) and tcpc (its phases).
set -euo pipefail
BUILD=${1:-build}
SAMPLE=samples/mappings.tcp
echo "== tcpi --test $SAMPLE"
"$BUILD/bin/tcpi" --test "$SAMPLE"
echo
echo "== tcpc --emit=resolved $SAMPLE"
"$BUILD/bin/tcpc" --emit=resolved "$SAMPLE"
echo
echo "== tcpi REPL, scripted"
printf '%s\n' 'axes![A = 8, B = 512];' 'type E = m![A, B];' 'E::SIZE' 'E::map(519)' 'E::map(4096)' \
  ':type E' | tee /dev/stderr | "$BUILD/bin/tcpi"
echo
echo "== tcpc --emit=config samples/hello/gemm.tcp (engine configurations of the GEMM kernel)"
"$BUILD/bin/tcpc" --emit=config samples/hello/gemm.tcp
