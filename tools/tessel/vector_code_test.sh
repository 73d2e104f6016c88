#!/bin/bash
# The tessel binary runs on any x86-64: the only functions in it that use AVX or AVX-512
# instructions (VEX or EVEX encoded, or mask registers) are those of the f32 product
# variants, which run only after the CPU was found to have the extension
# (runtime/kernels/sgemm/sgemm_kernel.h). Anything else would be code compiled for a newer
# CPU reaching the rest of the program, e.g. a template instantiation the linker took from
# a variant unit.
set -euo pipefail
binary="$1"
allowed='^_ZN6tessel7runtime5sgemm12_GLOBAL__N_1'
found=$(objdump -d --no-show-raw-insn "$binary" | awk '
  /^[0-9a-f]+ <.*>:$/ { fn = substr($2, 2, length($2) - 3); next }
  {
    n = split($0, parts, "\t")
    if (n >= 2 && parts[2] ~ /^(v[a-z]|k(mov|and|or|xor|not|shift|test|unpck|add))/) used[fn] = 1
  }
  END { for (f in used) print f }' | sort)
if [[ -z "$found" ]]; then
  echo "no AVX code at all in $binary: the vector kernels are missing"
  exit 1
fi
bad=$(grep -Ev "$allowed" <<<"$found" || true)
if [[ -n "$bad" ]]; then
  echo "functions outside the f32 product variants use AVX or AVX-512 instructions:"
  echo "$bad"
  exit 1
fi
echo "AVX and AVX-512 instructions only in:"
echo "$found"
