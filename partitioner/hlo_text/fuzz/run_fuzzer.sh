#!/usr/bin/env bash
# Builds the HLO text fuzz target with --config=fuzz and runs it for SECONDS (default 1200)
# on a working corpus seeded from the lit inputs and the JAX corpus. Findings land in
# ARTIFACTS (default /tmp/hlo_fuzz/artifacts); copy each into crashes/ once it is fixed.
#   partitioner/hlo_text/fuzz/run_fuzzer.sh [SECONDS] [WORKDIR]
set -euo pipefail
cd "$(dirname "$0")/../../.."
seconds="${1:-1200}"
workdir="${2:-/tmp/hlo_fuzz}"
bazel build --config=fuzz //partitioner/hlo_text/fuzz:hlo_text_fuzzer
fuzzer="$(bazel info --config=fuzz bazel-bin)/partitioner/hlo_text/fuzz/hlo_text_fuzzer"
mkdir -p "$workdir/corpus" "$workdir/artifacts"
for seed in tests/lit/hlo_text/*.hlo tests/corpus/*.hlo partitioner/hlo_text/fuzz/seeds/*.hlo \
  partitioner/hlo_text/fuzz/crashes/*; do
  [[ -f "$seed" && "$seed" != *README.md ]] || continue
  cp "$seed" "$workdir/corpus/seed_$(basename "$(dirname "$seed")")_$(basename "$seed")"
done
exec "$fuzzer" -max_len=4096 -timeout=10 -rss_limit_mb=4096 \
  -dict=partitioner/hlo_text/fuzz/hlo.dict -artifact_prefix="$workdir/artifacts/" \
  -max_total_time="$seconds" -print_final_stats=1 "$workdir/corpus"
