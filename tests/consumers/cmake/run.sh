#!/usr/bin/env bash
# The installed-package test: installs Tessel into a scratch prefix with scripts/install.sh,
# builds this directory's CMake project against it (find_package(Tessel), Tessel::tessel),
# runs its two programs, builds the API program a second time through pkg-config, and checks
# that the version agrees everywhere it is written (version.h, the CMake package, tessel.pc,
# the library's SONAME, the macro the installed headers define).
#
# Each step is one test case. The result goes where scripts/test.sh's summary reads it: a
# line `//tests/consumers/cmake:install_test PASSED|FAILED` on standard output and a JUnit
# test.xml under TESTLOGS/tests/consumers/cmake/install_test/. Exits non-zero if a step
# fails.
# Usage: tests/consumers/cmake/run.sh [TESTLOGS]   (default: a scratch directory)
set -uo pipefail

root="$(cd "$(dirname "$0")/../../.." && pwd)"
project="$root/tests/consumers/cmake"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
testlogs="${1:-$scratch/testlogs}"
prefix="$scratch/prefix"
build="$scratch/build"

cases=()
failed=0

# run_case NAME COMMAND...: runs the command, its output into the case's log.
run_case() {
  local name="$1"
  shift
  local log="$scratch/$name.log"
  if "$@" > "$log" 2>&1; then
    echo "PASSED: $name"
    cases+=("<testcase name=\"$name\"/>")
  else
    echo "FAILED: $name"
    tail -n 40 "$log" | sed 's/^/  /'
    local message
    message="$(tail -n 40 "$log" | sed -e 's/&/\&amp;/g' -e 's/</\&lt;/g' -e 's/>/\&gt;/g')"
    cases+=("<testcase name=\"$name\"><failure message=\"$name failed\">$message</failure></testcase>")
    failed=$((failed + 1))
  fi
}

version_part() {
  sed -n "s/^#define TESSEL_VERSION_$1 \([0-9][0-9]*\)\$/\1/p" "$root/partitioner/api/version.h"
}
version="$(version_part MAJOR).$(version_part MINOR).$(version_part PATCH)"
soname="libtessel.so.$(version_part MAJOR).$(version_part MINOR)"

install_tessel() { "$root/scripts/install.sh" --prefix "$prefix"; }

configure() {
  cmake -S "$project" -B "$build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$prefix"
}

build_project() { cmake --build "$build" -j 2; }

run_api_consumer() {
  "$build/api_consumer" | tee "$scratch/api_consumer.out"
  [[ ${PIPESTATUS[0]} -eq 0 ]] || return 1
  # The version macro of the installed headers, as the program printed it.
  grep -qx "Tessel $version" "$scratch/api_consumer.out"
}

run_mlir_consumer() { "$build/mlir_consumer"; }

# The same API program through pkg-config instead of CMake.
pkg_config_build() {
  export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
  [[ "$(pkg-config --modversion tessel)" == "$version" ]] || {
    echo "tessel.pc says version $(pkg-config --modversion tessel), version.h $version"
    return 1
  }
  # shellcheck disable=SC2046  # pkg-config's flags are separate words
  g++ -std=c++17 "$project/api_consumer.cc" -o "$scratch/api_consumer_pc" \
    $(pkg-config --cflags --libs tessel) -Wl,-rpath,"$prefix/lib" &&
    "$scratch/api_consumer_pc"
}

# finds VERSION: whether find_package(Tessel VERSION) succeeds against the install.
finds() {
  local dir="$scratch/finds_$1"
  mkdir -p "$dir"
  printf 'cmake_minimum_required(VERSION 3.20)\nproject(finds CXX)\nfind_package(Tessel %s REQUIRED CONFIG)\n' \
    "$1" > "$dir/CMakeLists.txt"
  cmake -S "$dir" -B "$dir/build" -DCMAKE_PREFIX_PATH="$prefix" > "$dir/log" 2>&1
}

# The CMake package, the library file and its SONAME agree with version.h.
versions_agree() {
  grep -q "set(PACKAGE_VERSION \"$version\")" "$prefix/lib/cmake/Tessel/TesselConfigVersion.cmake" ||
    { echo "TesselConfigVersion.cmake does not say $version"; return 1; }
  [[ -f "$prefix/lib/libtessel.so.$version" ]] || { echo "no lib/libtessel.so.$version"; return 1; }
  readelf -d "$prefix/lib/libtessel.so" | grep -q "(SONAME).*\[$soname\]" ||
    { echo "the SONAME is not $soname"; return 1; }
  # find_package(Tessel X.Y) takes this install for its own minor version and refuses it
  # for the next one (0.x releases may break the ABI with each minor version).
  local own="$(version_part MAJOR).$(version_part MINOR)"
  local newer="$(version_part MAJOR).$(($(version_part MINOR) + 1))"
  finds "$own" || { echo "find_package(Tessel $own) does not accept version $version"; return 1; }
  if finds "$newer"; then
    echo "find_package(Tessel $newer) accepts version $version"
    return 1
  fi
  return 0
}

run_case install install_tessel
if [[ $failed -eq 0 ]]; then
  run_case versions versions_agree
  run_case cmake_configure configure
  run_case cmake_build build_project
  run_case api_consumer run_api_consumer
  run_case mlir_consumer run_mlir_consumer
  run_case pkg_config pkg_config_build
fi

mkdir -p "$testlogs/tests/consumers/cmake/install_test"
{
  echo '<?xml version="1.0" encoding="UTF-8"?>'
  echo "<testsuites><testsuite name=\"install_test\" tests=\"${#cases[@]}\" failures=\"$failed\">"
  printf '%s\n' "${cases[@]}"
  echo '</testsuite></testsuites>'
} > "$testlogs/tests/consumers/cmake/install_test/test.xml"

if [[ $failed -eq 0 ]]; then
  echo "//tests/consumers/cmake:install_test PASSED"
else
  echo "//tests/consumers/cmake:install_test FAILED"
  exit 1
fi
