#!/usr/bin/env bash
# Runs a Python test file (the first argument) with the system python3, `tessel` importable
# from the runfiles' python/ directory (the sources beside the built _tessel.so).
set -euo pipefail
export PYTHONPATH="$PWD/python:$PWD/python/tests${PYTHONPATH:+:$PYTHONPATH}"
exec python3 "$@"
