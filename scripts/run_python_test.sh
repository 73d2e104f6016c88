#!/usr/bin/env bash
# Runs a Python unittest file (the first argument) with the system python3.
exec python3 "$@"
