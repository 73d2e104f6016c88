#!/usr/bin/env bash
# Runs lit on one test file with Tessel's tools and LLVM's FileCheck on PATH.
# Usage (from a Bazel sh_test): run_lit.sh TOOL_DIR... -- TEST_FILE
set -euo pipefail
LLVM_BIN=/usr/lib/llvm-19/bin
LIT=/usr/lib/llvm-19/build/utils/lit/lit.py
tool_path=""
while [ "$1" != "--" ]; do
  tool_path="$(cd "$(dirname "$1")" && pwd):$tool_path"
  shift
done
shift
export PATH="$tool_path$LLVM_BIN:$PATH"
exec python3 "$LIT" -v "$1"
