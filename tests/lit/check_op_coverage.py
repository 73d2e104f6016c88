#!/usr/bin/env python3
"""Fails unless every op of a dialect has a round-trip lit test and a row in docs/ops.md.

The op list comes from the dialect's generated op documentation (mlir-tblgen -gen-op-doc), so
an op added to a .td file without a round-trip test or a documentation row fails the tests.

Usage: check_op_coverage.py OPS_MD DOCS_TABLE TEST_FILE...
"""
import re
import sys


def main():
    ops_md, docs_table, test_files = sys.argv[1], sys.argv[2], sys.argv[3:]
    with open(ops_md) as f:
        ops = re.findall(r"^### `([a-z_]+\.[a-z_0-9]+)`", f.read(), re.MULTILINE)
    if not ops:
        print("no ops found in %s" % ops_md)
        return 1
    tests = ""
    for path in test_files:
        with open(path) as f:
            tests += f.read()
    with open(docs_table) as f:
        docs_rows = set(re.findall(r"^\| `([a-z_]+\.[a-z_0-9]+)` \|", f.read(), re.MULTILINE))
    problems = []
    for op in ops:
        if not re.search(re.escape(op) + r"\b", tests):
            problems.append("op %s has no round-trip test" % op)
        if op not in docs_rows:
            problems.append("op %s has no row in docs/ops.md" % op)
    for problem in problems:
        print(problem)
    print("%d ops checked, %d problems" % (len(ops), len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
