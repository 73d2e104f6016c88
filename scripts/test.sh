#!/usr/bin/env bash
# Sets up a fresh machine, builds everything, runs every test, and ends with one line:
# `N passed, N failed`. This is the README's test command and what CI runs.
set -uo pipefail
cd "$(dirname "$0")/.."

./scripts/setup.sh || { echo "0 passed, 1 failed"; exit 1; }

log=$(mktemp)
trap 'rm -f "$log"' EXIT
bazel test //... --keep_going 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
python3 scripts/summarize_tests.py "$log" "$status" "$(bazel info bazel-testlogs 2>/dev/null)"
