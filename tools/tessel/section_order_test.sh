#!/bin/bash
# tessel_executable lays out the commands' hot code side by side, in the order of
# section_order.txt (third_party/build_defs.bzl). Of the list's 200 hottest functions, those
# a binary links (at least 100) must lie within 4 MiB of each other; where the linker puts
# code by default they spread over most of its 19 MB.
#
# Usage: section_order_test.sh section_order.txt binary...
set -euo pipefail
order="$1"
shift
status=0
for binary in "$@"; do
  # Each wanted function's address (hex), from the binary's symbol table.
  addresses=$(awk '
    NR == FNR {
      if ($0 !~ /^#/ && wanted < 200) {
        name = $0
        sub(/^\.text\.((unlikely|hot|startup)\.)?/, "", name)
        want[name] = 1
        wanted++
      }
      next
    }
    ($2 ~ /^[tTwW]$/) && ($3 in want) { print $1; delete want[$3] }
  ' "$order" <(nm "$binary"))
  found=0 low=0 high=0
  for hex in $addresses; do
    address=$((16#$hex))
    if ((found == 0 || address < low)); then low=$address; fi
    if ((address > high)); then high=$address; fi
    found=$((found + 1))
  done
  span=$((high - low))
  echo "$binary: $found of the 200 hottest functions, spread over $span bytes"
  if ((found < 100)); then
    echo "$binary: too few of section_order.txt's functions found;" \
      "regenerate it with benchmarks/make_section_order.py"
    status=1
  elif ((span > 4 * 1024 * 1024)); then
    echo "$binary: the hot functions are not side by side: is --section-ordering-file linked?"
    status=1
  fi
done
exit $status
