#!/usr/bin/env bash
# Time and peak memory of `tessel viz` on the largest mesh (2^20 devices), for one or more
# tessel binaries side by side: the runs alternate between the binaries so that the noise
# of a shared machine falls on all of them alike. Prints one line per binary: the median
# wall time of the runs and the largest peak resident set.
#
#   benchmarks/viz_big_mesh.sh [--runs=N] [--file=PROGRAM] TESSEL [TESSEL...]
set -euo pipefail

runs=3
file="$(dirname "$0")/../tests/lit/tools/tessel_viz_big_mesh.mlir"
binaries=()
for arg in "$@"; do
  case "$arg" in
    --runs=*) runs="${arg#--runs=}" ;;
    --file=*) file="${arg#--file=}" ;;
    *) binaries+=("$arg") ;;
  esac
done
if [[ ${#binaries[@]} -eq 0 ]]; then
  echo "usage: $0 [--runs=N] [--file=PROGRAM] TESSEL [TESSEL...]" >&2
  exit 2
fi
if [[ ! -x /usr/bin/time ]]; then
  echo "$0: needs /usr/bin/time (Debian package 'time')" >&2
  exit 2
fi

scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
for ((run = 0; run < runs; ++run)); do
  for i in "${!binaries[@]}"; do
    /usr/bin/time -f "%e %M" -o "$scratch/time" "${binaries[$i]}" viz "$file" > /dev/null
    cat "$scratch/time" >> "$scratch/runs.$i"
  done
done
for i in "${!binaries[@]}"; do
  sort -n "$scratch/runs.$i" | awk -v name="${binaries[$i]}" '
    { seconds[NR] = $1; if ($2 > peak) peak = $2 }
    END { printf "%s: median %.2f s, peak %.0f MB over %d runs\n",
          name, seconds[int((NR + 1) / 2)], peak / 1024, NR }'
done
