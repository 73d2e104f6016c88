#!/usr/bin/env bash
# Runs bad_inputs_test.py (its arguments: the script, the tessel binary) on the catalogue
# beside it in the runfiles.
exec python3 "$1" "$2" "$(dirname "$1")"
