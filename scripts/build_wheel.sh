#!/usr/bin/env bash
# Builds the `tessel` Python wheel offline into dist/ and prints its path:
#   ./scripts/build_wheel.sh && python3 -m pip install --no-index dist/tessel-*.whl
# The module is for the system Python 3.11 and needs MLIR 19 at run time (scripts/setup.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh >&2
bazel build //python/tessel:_tessel.so >&2
python3 python/build_wheel.py --module bazel-bin/python/tessel/_tessel.so \
  --sources python/tessel --version_header partitioner/api/version.h --out dist
