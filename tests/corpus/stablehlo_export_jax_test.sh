#!/usr/bin/env bash
# What `tessel partition --format=stablehlo` writes is StableHLO + Shardy as JAX and XLA
# read it: each HLO program of the corpus, exported propagated and partitioned, must parse
# and verify with jaxlib's own dialects (parse_with_jax.py). Needs a Python with JAX in
# TESSEL_JAX_PYTHON (scripts/test.sh sets it when setup made .venv-jax); without one the test
# reports itself skipped.
# Usage: stablehlo_export_jax_test.sh TESSEL PARSE_WITH_JAX_PY CORPUS_DIR MIN_FILES
set -uo pipefail
tessel="$1"
parser="$2"
dir="$3"
min_files="$4"
source "$(dirname "$0")/../skipped_test.sh"
python="${TESSEL_JAX_PYTHON:-}"
if [[ -z "$python" || ! -x "$python" ]] || ! "$python" -c "import jax" 2>/dev/null; then
  report_skipped stablehlo_export_jax_test "${XML_OUTPUT_FILE:-}" \
    "no Python with JAX (set TESSEL_JAX_PYTHON; scripts/setup.sh makes .venv-jax)"
  exit 0
fi
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
files=()
for file in "$dir"/*.hlo; do
  case "$file" in *.gspmd.hlo|*.partitioned.hlo) continue ;; esac
  name="$(basename "$file" .hlo)"
  "$tessel" partition "$file" --propagated -o "$tmp/$name.propagated.stablehlo.mlir" \
    2> /dev/null || { echo "FAIL $name: propagated export"; exit 1; }
  "$tessel" partition "$file" -o "$tmp/$name.partitioned.stablehlo.mlir" \
    2> /dev/null || { echo "FAIL $name: partitioned export"; exit 1; }
  files+=("$tmp/$name.propagated.stablehlo.mlir" "$tmp/$name.partitioned.stablehlo.mlir")
done
if [ "${#files[@]}" -lt $((2 * min_files)) ]; then
  echo "FAIL: expected at least $min_files HLO programs in $dir"
  exit 1
fi
# One interpreter for all files: starting JAX costs seconds.
JAX_PLATFORMS=cpu "$python" "$parser" "${files[@]}"
