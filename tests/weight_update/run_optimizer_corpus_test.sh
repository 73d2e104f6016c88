#!/usr/bin/env bash
# Runs optimizer_corpus_test.py (its arguments: the script, the tessel binary, the corpus).
exec python3 "$@"
