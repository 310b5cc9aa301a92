#!/usr/bin/env bash
# test_sanitize.sh — builds the tools and tests with AddressSanitizer + UBSan and runs the unit and golden
# tests under them; with clang, the same build has the libFuzzer targets, each run for a short fixed budget.
# usage: scripts/test_sanitize.sh [BUILD_DIR] [JOBS] [FUZZ_SECONDS]   (make test-sanitize)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-build-sanitize}
jobs=${2:-$(nproc)}
fuzz_seconds=${3:-30}
cd "$root"

flags=(-DCMAKE_BUILD_TYPE=Release "-DCMAKE_CXX_FLAGS_RELEASE=-O1" "-DCMAKE_C_FLAGS_RELEASE=-O1"
       -DTCP_BUILD_BENCHMARKS=OFF)
fuzz=0
if command -v clang++ >/dev/null 2>&1 && ls /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a >/dev/null 2>&1; then
  fuzz=1
  flags+=(-DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ -DTCP_FUZZ=ON)
else
  echo "test_sanitize: clang with libFuzzer not found: sanitizers with the default compiler, no fuzzing"
  flags+=(-DTCP_SANITIZE=ON)
fi
if command -v ccache >/dev/null 2>&1; then flags+=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache); fi
cmake -S . -B "$build" "${flags[@]}" >/dev/null
# The tools, the tests and (with clang) the fuzz targets: one goal (CMakeLists.txt, tcp_sanitize_suite).
cmake --build "$build" -j "$jobs" --target tcp_sanitize_suite

export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
# The unit tests (in two shards) and the goldens (one job per folder) share the cores through one
# queue, the longest jobs first, so neither kind waits for the other.
echo "test_sanitize: unit and golden tests under ASan + UBSan"
logs="$build/test-logs"
rm -rf "$logs" && mkdir -p "$logs"
run_job() {  # NAME COMMAND...: runs the command, its output in $logs/NAME.log, its exit status in $logs/NAME.status
  local name=$1 status=0
  shift
  "$@" >"$logs/$name.log" 2>&1 || status=$?
  echo "$status" >"$logs/$name.status"
}
queue=()
for shard in 0 1; do queue+=("unit-$shard"); done
# the golden folders, the largest first (a folder's size stands in for its time)
while read -r _ dir; do queue+=("golden-$(basename "$dir")"); done < <(
  for d in tests/golden/*/; do echo "$(find "$d" -name '*.tcp' | wc -l) ${d%/}"; done | sort -rn)
start_job() {
  case $1 in
    unit-*) run_job "$1" env GTEST_TOTAL_SHARDS=2 GTEST_SHARD_INDEX="${1#unit-}" "$build/tests/tcp_unit_tests" --gtest_brief=1 ;;
    golden-*) run_job "$1" env TCP_GOLDEN_TIME_SCALE=10 "$build/tests/tcp_golden" --bin "$build/bin" "tests/golden/${1#golden-}" ;;
  esac
}
running=0
for j in "${queue[@]}"; do
  start_job "$j" &
  running=$((running + 1))
  if [ "$running" -ge "$jobs" ]; then wait -n || true; running=$((running - 1)); fi
done
wait
failed=0 passed_golden=0
for j in "${queue[@]}"; do
  status=$(cat "$logs/$j.status" 2>/dev/null || echo 1)
  case $j in
    unit-*) echo "test_sanitize: $j: $(grep -E '^\[  PASSED  \]|FAILED TEST' "$logs/$j.log" | head -n 1)" ;;
    golden-*) passed_golden=$((passed_golden + $(tail -n 1 "$logs/$j.log" | sed -nE 's/^([0-9]+) passed.*/\1/p'))) ;;
  esac
  if [ "$status" != 0 ]; then
    failed=1
    echo "test_sanitize: $j failed (status $status, log $logs/$j.log):"
    grep -E -A 12 "^FAIL|FAILED|ERROR: AddressSanitizer|runtime error|SUMMARY" "$logs/$j.log" | head -n 60
  fi
done
echo "test_sanitize: $passed_golden goldens passed"
if [ "$failed" != 0 ]; then
  echo "test_sanitize: failed (logs: $logs)"
  exit 1
fi

if [ "$fuzz" = 1 ]; then
  work="$build/fuzz-run"
  rm -rf "$work" && mkdir -p "$work/text" "$work/binary"
  # Binary seeds are compiled by the Release tcpc when there is one (the sanitized one is slower).
  seed_build="$build"
  [ -x "${RELEASE_BUILD:-build}/bin/tcpc" ] && seed_build="${RELEASE_BUILD:-build}"
  bash tests/fuzz/seeds.sh "$seed_build" "$work/binary" --text "$work/text" >/dev/null
  # One fuzzer per core at a time; each writes its log and exit status, read in order below.
  fuzz_one() {
    local t=$1 seeds="$work/text" status=0
    [ "$t" = binary_reader_fuzz ] && seeds="$work/binary"
    mkdir -p "$work/corpus-$t"
    # tests/fuzz/README.md ("Speed") measures why: the entropic schedule's bookkeeping took half the
    # time at ~100k features; shorter allocation stacks and no strcmp checks save a quarter of the CPU.
    ASAN_OPTIONS="$ASAN_OPTIONS:intercept_strcmp=0:malloc_context_size=8" \
    "$build/fuzz/$t" -max_total_time="$fuzz_seconds" -timeout=60 -rss_limit_mb=2048 -print_final_stats=1 -entropic=0 \
      -dict=tests/fuzz/tcp.dict -artifact_prefix="$work/$t-" "$work/corpus-$t" "$seeds" >"$work/$t.log" 2>&1 || status=$?
    echo "$status" >"$work/$t.status"
  }
  # The targets tests/fuzz/CMakeLists.txt defines (and tcp_sanitize_suite built), one per line.
  if [ ! -s "$build/fuzz/targets.txt" ]; then
    echo "test_sanitize: $build/fuzz/targets.txt is missing: the build has no fuzz targets"
    exit 1
  fi
  mapfile -t fuzzers <"$build/fuzz/targets.txt"
  running=0
  for t in "${fuzzers[@]}"; do
    echo "test_sanitize: fuzzing $t for ${fuzz_seconds}s"
    fuzz_one "$t" &
    running=$((running + 1))
    if [ "$running" -ge "$jobs" ]; then wait -n || true; running=$((running - 1)); fi
  done
  wait
  failed=0
  for t in "${fuzzers[@]}"; do
    echo "test_sanitize: $t"
    grep -E "^stat::(number_of_executed_units|peak_rss_mb)|^#[0-9]+ +DONE" "$work/$t.log" || true
    status=$(cat "$work/$t.status" 2>/dev/null || echo 1)
    if [ "$status" != 0 ]; then
      tail -n 40 "$work/$t.log"
      echo "test_sanitize: $t found a defect (status $status; input in $work/$t-*)"
      failed=1
    fi
  done
  [ "$failed" = 0 ] || exit 1
fi
echo "test_sanitize: ok"
