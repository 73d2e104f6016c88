#!/usr/bin/env bash
# Installs every system package that Tessel's build and tests need on a fresh Debian 12
# machine. Idempotent: packages already present are skipped, `apt-get update` runs at most once.
# Then, unless TESSEL_SETUP_JAX=0, a project-local virtual environment .venv-jax with JAX
# (CPU) for the tests of the JAX bridge (python/tessel/jax.py); see the end of this file.
set -euo pipefail

PACKAGES=(
  bazel-bootstrap           # Bazel 4.2.3, WORKSPACE mode, builds offline
  libmlir-19-dev mlir-19-tools llvm-19-dev llvm-19-tools  # MLIR/LLVM 19, tblgen, FileCheck, lit
  libabsl-dev               # Status/StatusOr, containers, flags, str_format
  libprotobuf-dev protobuf-compiler
  libgtest-dev libgmock-dev libbenchmark-dev
  libopenmpi-dev openmpi-bin
  libeigen3-dev
  coinor-libcbc-dev         # COIN-OR CBC (with CLP, OSI): the auto-sharding ILP
  # Archives the commands link in (third_party/build_defs.bzl): COIN-OR's LAPACK, BLAS,
  # Fortran runtime, bzip2 and zlib, and the C++ library.
  liblapack-dev libblas-dev libgfortran-12-dev libbz2-dev zlib1g-dev libstdc++-12-dev
  libmimalloc2.0 libmimalloc-dev  # the tessel command's allocator (mimalloc)
  python3
  python3-dev pybind11-dev  # the Python module (CPython 3.11 headers, pybind11 2.10)
  python3-numpy python3-pip  # numpy for runs from Python; pip for the wheel's install test
  clang-14 lld libclang-rt-14-dev  # the sanitized stage and the libFuzzer targets (--config=fuzz)
  iproute2                  # ip netns for the multi-host MPI test
  cmake pkg-config          # the installed-package test builds a project against an install
  chromium                  # headless, loads `tessel viz --format=html` in tests/viz
)

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if ((${#missing[@]})); then
  SUDO=""
  if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi
  echo "setup: installing ${missing[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
echo "setup: all packages present"

# JAX for the tests only: never a dependency of the library or the wheel. It is on by default
# because the bridge's tests compare against real JAX and would otherwise always be skipped
# in the test command; the environment is local to the checkout (.gitignore'd), made from the
# system python3 that the extension is built for (CPython 3.11), and pinned to the JAX that
# made tests/corpus. Without network it warns and the bridge's tests report themselves
# skipped. TESSEL_SETUP_JAX=0 leaves it out.
JAX_VERSION=0.10.2
venv="$(cd "$(dirname "$0")/.." && pwd)/.venv-jax"
if [[ "${TESSEL_SETUP_JAX:-1}" != 0 ]]; then
  if [[ -x "$venv/bin/python" ]] && "$venv/bin/python" -c "import jax" 2>/dev/null; then
    echo "setup: JAX present in .venv-jax"
  elif /usr/bin/python3 -m venv "$venv" &&
       "$venv/bin/pip" install --quiet --disable-pip-version-check "jax==$JAX_VERSION"; then
    echo "setup: installed JAX $JAX_VERSION in .venv-jax"
  else
    echo "setup: warning: could not install JAX into .venv-jax; the JAX bridge's tests will be skipped"
  fi
fi
