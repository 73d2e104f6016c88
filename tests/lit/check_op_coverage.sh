#!/usr/bin/env bash
# Bazel entry point for check_op_coverage.py (sh_test needs a shell script as its source).
exec python3 "$(dirname "$0")/check_op_coverage.py" "$@"
