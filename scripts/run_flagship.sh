#!/usr/bin/env bash
# run_flagship.sh — the main job: the GEMM sample through tcpi (run on the CPU model, checked against
# the answer key) and tcpc (engine configurations, binary, cycle report), then the transformer layer
# (prefill + 2 decode steps against its numpy reference, and its cycle summary per phase), then the
# mapping REPL.
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
LAYER=samples/transformer/layer.tcp
echo "== tcpi $LAYER   (a Llama-style decoder layer: prefill of 128 tokens, then 2 decode steps"
echo "   against the KV cache; weights and the numpy reference from samples/transformer/reference.py)"
/usr/bin/python3 samples/transformer/reference.py "$OUT/data"
(cd "$OUT" && "$OLDPWD/$BUILD/bin/tcpi" "$OLDPWD/$LAYER")
echo
echo "== tcpc --emit=cycles $LAYER   (per kernel; a phase is the sum of its launches)"
"$BUILD/bin/tcpc" --emit=cycles "$LAYER" | awk '
  / makespan / { k[$1] = $3; print }
  /^total / { print }
  /^roofline / || /^kernel  / || /^\(program\)/ { print }
  END {
    p = 2 * k["rmsnorm_rows"] + k["q_rope"] + k["k_rope"] + k["v_t"] + k["attention"] + k["o_proj_residual"] + k["gate_up_swiglu"] + k["down_residual"]
    d = 2 * k["rmsnorm_vec"] + k["q_rope_vec"] + k["k_rope_vec"] + k["v_vec"] + k["attention_decode"] + k["o_proj_residual_vec"] + k["gate_up_swiglu_vec"] + k["down_residual_vec"] + k["append_k"] + k["append_vt"]
    printf "prefill (9 launches): %d cycles (%.3f ms at 1 GHz)\n", p, p / 1e6
    printf "decode step (11 launches, the KV-cache append included): %d cycles (%.3f ms at 1 GHz)\n", d, d / 1e6
  }'
echo
echo "== tcpi REPL, scripted: mapping queries"
printf '%s\n' 'axes![A = 8, B = 512];' 'type E = m![A, B];' 'E::SIZE' 'E::map(519)' 'E::map(4096)' ':type E' \
  | "$BUILD/bin/tcpi"
