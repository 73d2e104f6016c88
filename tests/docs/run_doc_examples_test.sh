#!/usr/bin/env bash
# Runs doc_examples_test.py (its arguments: the script, the tessel binary) from the runfiles
# root, where README.md, docs/, examples/ and tests/corpus/ are.
exec python3 "$1" "$2" .
