#!/usr/bin/env bash
# Builds Tessel and installs it under a prefix, for projects that are not built with Bazel:
#   PREFIX/include/tessel/...             the public API (partitioner/api/*.h: no MLIR, LLVM
#                                         or Eigen type in them) and the dialect and pass
#                                         headers, generated .h.inc files included
#   PREFIX/lib/libtessel.so.X.Y.Z         one shared library (SONAME libtessel.so.X.Y) and
#                                         its libtessel.so.X.Y and libtessel.so links
#   PREFIX/lib/cmake/Tessel/              TesselConfig.cmake (target Tessel::tessel) and
#                                         TesselConfigVersion.cmake
#   PREFIX/lib/pkgconfig/tessel.pc
# The version comes from partitioner/api/version.h. Consumers write the include paths the
# library itself uses: #include "partitioner/api/program.h". docs/embedding.md shows a CMake
# project using it. Bazel's progress goes to standard error.
# Usage: scripts/install.sh --prefix DIR
set -euo pipefail

usage="usage: scripts/install.sh --prefix DIR"
prefix=""
while (($#)); do
  case "$1" in
    --prefix)
      (($# >= 2)) || { echo "$usage" >&2; exit 2; }
      prefix="$2"
      shift 2
      ;;
    --prefix=*)
      prefix="${1#--prefix=}"
      shift
      ;;
    -h | --help)
      echo "$usage"
      exit 0
      ;;
    *)
      echo "install.sh: unknown argument '$1'" >&2
      echo "$usage" >&2
      exit 2
      ;;
  esac
done
[[ -n "$prefix" ]] || { echo "$usage" >&2; exit 2; }

root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"

version_part() {
  sed -n "s/^#define TESSEL_VERSION_$1 \([0-9][0-9]*\)\$/\1/p" partitioner/api/version.h
}
major="$(version_part MAJOR)"
minor="$(version_part MINOR)"
patch="$(version_part PATCH)"
if [[ -z "$major" || -z "$minor" || -z "$patch" ]]; then
  echo "install.sh: cannot read the version from partitioner/api/version.h" >&2
  exit 1
fi
version="$major.$minor.$patch"
soname="libtessel.so.$major.$minor"
library_file="libtessel.so.$version"

bazel build //install:libtessel //partitioner/api:public_headers >&2
bin="$(bazel info bazel-bin 2>/dev/null)"
library="$bin/install/libtessel.so"
built_soname="$(readelf -d "$library" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')"
if [[ "$built_soname" != "$soname" ]]; then
  echo "install.sh: the library's SONAME is '$built_soname' but version.h says $version:" \
    "set soname = \"$soname\" in install/BUILD" >&2
  exit 1
fi

mkdir -p "$prefix"
prefix="$(cd "$prefix" && pwd)"
includes="$prefix/include/tessel"
# Headers of an earlier install that this one no longer has must not linger.
rm -rf "$includes"
mkdir -p "$includes" "$prefix/lib/cmake/Tessel" "$prefix/lib/pkgconfig"

# The public API: each header and what it includes, none of it reaching MLIR, LLVM or Eigen.
mapfile -t public_headers < <(bazel query 'labels(srcs, //partitioner/api:public_headers)' \
  2>/dev/null | sed 's|^//\(.*\):\(.*\)$|\1/\2|')
python3 scripts/install_headers.py --source . --generated "$bin" --dest "$includes" \
  --forbid mlir/ --forbid llvm/ --forbid Eigen/ "${public_headers[@]}"
# For compilers that embed Tessel's dialects and passes in their own MLIR pipeline.
python3 scripts/install_headers.py --source . --generated "$bin" --dest "$includes" \
  partitioner/ir/hlo/hlo_ops.h \
  partitioner/ir/tessel/tessel_ops.h \
  partitioner/ir/parse_module.h \
  partitioner/rules/passes.h \
  partitioner/rules/sharding_rule_models.h \
  partitioner/sharding/transforms/passes.h \
  partitioner/propagation/passes.h \
  partitioner/spmd/passes.h \
  partitioner/passes/passes.h \
  partitioner/stablehlo/dialects.h \
  partitioner/stablehlo/import.h

install -m 755 "$library" "$prefix/lib/$library_file"
ln -sfn "$library_file" "$prefix/lib/$soname"
ln -sfn "$soname" "$prefix/lib/libtessel.so"

fill() {
  sed -e "s|@VERSION@|$version|g" -e "s|@MAJOR@|$major|g" -e "s|@MINOR@|$minor|g" \
    -e "s|@SONAME@|$soname|g" -e "s|@LIBRARY_FILE@|$library_file|g" -e "s|@PREFIX@|$prefix|g" \
    "$1" > "$2"
}
fill install/TesselConfig.cmake.in "$prefix/lib/cmake/Tessel/TesselConfig.cmake"
fill install/TesselConfigVersion.cmake.in "$prefix/lib/cmake/Tessel/TesselConfigVersion.cmake"
fill install/tessel.pc.in "$prefix/lib/pkgconfig/tessel.pc"
echo "installed Tessel $version under $prefix"
