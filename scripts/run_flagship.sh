#!/usr/bin/env bash
# run_flagship.sh — the main job: the GEMM sample through tcpi (run on the CPU model, checked against
# the answer key) and tcpc (engine configurations, binary, cycle report), then the mapping REPL.
set -euo pipefail
BUILD=${1:-build}
GEMM=samples/hello/gemm.tcp
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT

echo "== tcpi $GEMM   (runs the kernel on the CPU model of TCP and checks C against the answer key)"
"$BUILD/bin/tcpi" "$GEMM"
echo
echo "== tcpc $GEMM -o gemm.tcpb   (type-checks, lowers and writes the engine configurations)"
"$BUILD/bin/tcpc" "$GEMM" -o "$OUT/gemm.tcpb"
echo "wrote $(stat -c %s "$OUT/gemm.tcpb") bytes"
echo
echo "== tcpc --emit=cycles $GEMM   (cycle estimate per operation and the schedule)"
"$BUILD/bin/tcpc" --emit=cycles "$GEMM"
echo
echo "== tcpi REPL, scripted: mapping queries"
printf '%s\n' 'axes![A = 8, B = 512];' 'type E = m![A, B];' 'E::SIZE' 'E::map(519)' 'E::map(4096)' ':type E' \
  | "$BUILD/bin/tcpi"
