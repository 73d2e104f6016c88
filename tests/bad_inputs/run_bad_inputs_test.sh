#!/usr/bin/env bash
# Runs bad_inputs_test.py (its arguments: the script, the tessel binary, then the other
# tools) on the catalogue beside it in the runfiles.
script="$1"
tessel="$2"
shift 2
exec python3 "$script" "$tessel" "$(dirname "$script")" "$@"
