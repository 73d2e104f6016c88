#!/usr/bin/env python3
"""Parses and verifies MLIR files with jaxlib's own StableHLO, CHLO and Shardy dialects.

What Tessel writes as StableHLO must be what JAX's and XLA's parsers accept: every file
named on the command line is parsed by jaxlib's MLIR bindings (the dialects JAX registers
for its own lowerings) and verified by those dialects' verifiers. Prints one line per file
and exits 1 if any fails.

    python parse_with_jax.py FILE.stablehlo.mlir...
"""
import sys

from jax._src.interpreters import mlir as jax_mlir
from jax._src.lib.mlir import ir


def main(paths):
    context = jax_mlir.make_ir_context()
    failed = 0
    for path in paths:
        with open(path) as f:
            text = f.read()
        try:
            with context:
                module = ir.Module.parse(text)
                if not module.operation.verify():
                    raise ValueError("the module does not verify")
            print(f"{path}: parsed and verified")
        except Exception as error:  # MLIR reports parse errors as exceptions of its own
            failed += 1
            print(f"FAIL {path}: {error}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
