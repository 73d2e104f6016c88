#!/usr/bin/env bash
# Runs a Python test file (the first argument) with `tessel` importable from the runfiles'
# python/ directory (the sources beside the built _tessel.so), through junit_runner.py so
# that skipped tests are reported as skipped.
#
# The interpreter is the system python3, or TESSEL_JAX_PYTHON where that names a Python
# with JAX installed (scripts/setup.sh makes one in .venv-jax; scripts/test.sh passes it,
# .bazelrc lets it through): the JAX bridge's tests run there and skip elsewhere. It must be
# the CPython the extension was built for (3.11, Debian's python3-dev).
set -euo pipefail
export PYTHONPATH="$PWD/python:$PWD/python/tests${PYTHONPATH:+:$PYTHONPATH}"
python=python3
if [[ -n "${TESSEL_JAX_PYTHON:-}" ]]; then
  if [[ -x "$TESSEL_JAX_PYTHON" ]]; then
    python="$TESSEL_JAX_PYTHON"
  else
    echo "note: TESSEL_JAX_PYTHON=$TESSEL_JAX_PYTHON is not an executable; using python3"
  fi
fi
exec "$python" "$(dirname "$0")/junit_runner.py" "$@"
