#!/usr/bin/env bash
# seeds.sh — writes the fuzz seeds: the binary of every golden, manual listing and sample that compiles.
# usage: tests/fuzz/seeds.sh BUILD_DIR OUT_DIR [--text TEXT_DIR]   (BUILD_DIR holds bin/tcpc)
#        tests/fuzz/seeds.sh --text-only TEXT_DIR
# With --text, TEXT_DIR also gets the text of every sample, golden (.tcp, .repl) and listing: the seeds
# of the text targets (tcpc_check_fuzz, tcpi_host_fuzz, repl_fuzz, parse_diff_fuzz); --text-only
# writes only those (no tcpc needed).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
text_seeds() {  # TEXT_DIR
  mkdir -p "$1"
  find "$root/tests/golden" "$root/tests/conformance/manual" "$root/samples" \( -name '*.tcp' -o -name '*.repl' \) -size -8k |
    while IFS= read -r f; do cp "$f" "$1/$(echo "${f#"$root"/}" | tr '/' '_')"; done
}
if [ "${1:-}" = "--text-only" ]; then
  text_seeds "$2"
  exit 0
fi
build=$1
out=$2
mkdir -p "$out"
if [ "${3:-}" = "--text" ]; then text_seeds "$4"; fi
n=0
while IFS= read -r f; do
  target=rngd
  grep -q -- '--target=rngd-s' "$f" && target=rngd-s
  name=$(echo "${f#"$root"/}" | tr '/' '_')
  if "$build/bin/tcpc" --target=$target "$f" -o "$out/${name%.tcp}.tcpb" >/dev/null 2>&1; then n=$((n + 1)); fi
done < <(find "$root/tests/golden" "$root/tests/conformance/manual" "$root/samples" -name '*.tcp' | sort)
echo "seeds.sh: $n binaries in $out"
