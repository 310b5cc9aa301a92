#!/usr/bin/env bash
# long_run.sh — one long run of a fuzz target with the README's "Long runs" settings, counted per tree.
# usage: tests/fuzz/long_run.sh BUILD TARGET WORK [--runs N] [--seconds S] [--procs P] [--nice K]
#   BUILD  a -DTCP_FUZZ=ON build (BUILD/fuzz/TARGET); WORK keeps the corpus, seeds, logs and artifacts
#          between runs (WORK/corpus-TARGET grows over every run on it).
#   --runs N     stop after N executions in all (split over the processes); --seconds S: after S seconds
#   --procs P    P processes on one corpus (they share new inputs through it; default 1)
# It prints the fingerprint of the sources the target links (git blobs of compiler/, interp/, grammar/,
# stdlib/, tests/fuzz/ and the CMake files; for parse_diff_fuzz and binary_reader_fuzz only the compiler
# stages they link, grammar/, their harness and the CMake files; documentation and scripts (.md, .sh, .py)
# excluded): runs on one fingerprint count toward one tree's total, whatever commit they ran on.
# The fingerprint is HEAD's: build BUILD from this checkout's HEAD. Exit status 1 if any process found a defect.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
[ $# -ge 3 ] || { sed -n '3,9p' "$0" >&2; exit 2; }
build=$(cd "$1" && pwd) target=$2 work=$3
shift 3
runs="" seconds=86400 procs=1 nice=5
while [ $# -gt 0 ]; do
  case $1 in
    --runs) runs=$2 ;;
    --seconds) seconds=$2 ;;
    --procs) procs=$2 ;;
    --nice) nice=$2 ;;
    *) echo "long_run: unknown option $1" >&2; exit 2 ;;
  esac
  shift 2
done
binary="$build/fuzz/$target"
[ -x "$binary" ] || { echo "long_run: $binary is not built" >&2; exit 2; }

# What the count belongs to: the sources behind the binary, not the commit (docs-only commits keep it).
paths=(compiler interp grammar stdlib tests/fuzz CMakeLists.txt)
case $target in  # the libraries each one links (tests/fuzz/CMakeLists.txt, compiler/CMakeLists.txt)
  parse_diff_fuzz)
    paths=(compiler/syntax grammar tests/fuzz/parse_diff_fuzz.cpp tests/fuzz/FuzzWatchdog.h CMakeLists.txt
           compiler/CMakeLists.txt tests/fuzz/CMakeLists.txt) ;;
  binary_reader_fuzz)
    paths=(compiler/syntax compiler/mapping compiler/types compiler/engines compiler/lower compiler/binary grammar
           tests/fuzz/binary_reader_fuzz.cpp CMakeLists.txt compiler/CMakeLists.txt tests/fuzz/CMakeLists.txt) ;;
esac
fingerprint=$(git -C "$root" ls-tree -r HEAD -- "${paths[@]}" | grep -vE '\.(md|sh|py)$' | sha1sum | cut -c1-12)
if [ -n "$(git -C "$root" status --porcelain -- "${paths[@]}" | grep -vE '\.(md|sh|py)$' || true)" ]; then
  fingerprint="$fingerprint+uncommitted"
fi

mkdir -p "$work/logs" "$work/corpus-$target" "$work/artifacts-$target"
seeds="$work/text-seeds"
if [ "$target" = binary_reader_fuzz ]; then
  seeds="$work/bin-seeds"
  [ -d "$seeds" ] || bash "$root/tests/fuzz/seeds.sh" "${RELEASE_BUILD:-$root/build}" "$seeds" >/dev/null
elif [ ! -d "$seeds" ]; then
  bash "$root/tests/fuzz/seeds.sh" --text-only "$seeds"
fi

stamp=$(date +%Y%m%d-%H%M%S)
echo "long_run: $target, sources $fingerprint (HEAD $(git -C "$root" rev-parse --short HEAD)), $procs process(es)," \
  "${runs:-no} run limit, ${seconds}s limit; logs $work/logs/$target-$stamp-*.log"
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:intercept_strcmp=0:malloc_context_size=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
export TCP_FUZZ_STACKS_AFTER=${TCP_FUZZ_STACKS_AFTER:-30} TCP_FUZZ_STACKS_DIR="$work/artifacts-$target"
limit=()
[ -n "$runs" ] && limit=(-runs=$(((runs + procs - 1) / procs)))
pids=()
for p in $(seq 1 "$procs"); do
  # -detect_leaks=0: LeakSanitizer after every input costs 39 % (README); the exit check stays on.
  nice -n "$nice" "$binary" -entropic=0 -detect_leaks=0 -timeout="${TIMEOUT:-60}" -rss_limit_mb=2048 \
    -dict="$root/tests/fuzz/tcp.dict" "${limit[@]}" -max_total_time="$seconds" -print_final_stats=1 \
    -artifact_prefix="$work/artifacts-$target/" "$work/corpus-$target" "$seeds" \
    >"$work/logs/$target-$stamp-$p.log" 2>&1 &
  pids+=($!)
  [ "$p" = "$procs" ] || sleep 20  # the first process writes the corpus's seeds before the next reads it
done
failed=0
for pid in "${pids[@]}"; do wait "$pid" || failed=1; done
total=0
for p in $(seq 1 "$procs"); do
  log="$work/logs/$target-$stamp-$p.log"
  n=$(sed -nE 's/^stat::number_of_executed_units: *([0-9]+)/\1/p' "$log" | tail -n 1)
  echo "long_run: process $p: ${n:-no} executions; $(grep -E '^#[0-9]+\s' "$log" | tail -n 1 | grep -oE 'cov: [0-9]+ ft: [0-9]+' || true);" \
    "peak RSS $(sed -nE 's/^stat::peak_rss_mb: *([0-9]+)/\1/p' "$log" | tail -n 1) MB"
  [ -n "$n" ] || failed=1
  total=$((total + ${n:-0}))
  grep -qE '^==[0-9]+==ERROR|^SUMMARY: |runtime error:|ERROR: libFuzzer' "$log" && failed=1
done
echo "long_run: $target on sources $fingerprint: $total executions, $([ "$failed" = 0 ] && echo "no defect" || echo "DEFECT (see the logs and $work/artifacts-$target)")"
exit "$failed"
