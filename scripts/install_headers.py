#!/usr/bin/env python3
"""Copies headers and every project header they include into an install tree.

Starting from the entry headers, follows each `#include "..."` that resolves to a file of the
source tree or of Bazel's output tree (generated .h.inc files), and copies each such file to
DEST under the same relative path, so that the copies' own includes resolve inside DEST.
Includes of other libraries (MLIR, LLVM, Abseil, the C++ library) are left to their packages.

With --forbid, fails if the closure of the entry headers reaches an include that starts with
one of the given prefixes: the public API's headers must not reach MLIR, LLVM or Eigen.

Usage: install_headers.py --source DIR --generated DIR --dest DIR [--forbid PREFIX]... HEADER...
"""
import argparse
import os
import re
import shutil
import sys

INCLUDE_RE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.MULTILINE)


def resolve(path, roots):
    for root in roots:
        candidate = os.path.join(root, path)
        if os.path.isfile(candidate):
            return candidate
    return None


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--source", required=True)
    parser.add_argument("--generated", required=True)
    parser.add_argument("--dest", required=True)
    parser.add_argument("--forbid", action="append", default=[])
    parser.add_argument("headers", nargs="+")
    args = parser.parse_args()
    roots = [args.source, args.generated]

    seen = set()
    # (header, the chain of includes that reached it), for messages that say how.
    pending = [(h, [h]) for h in args.headers]
    errors = []
    while pending:
        header, chain = pending.pop()
        if header in seen:
            continue
        seen.add(header)
        found = resolve(header, roots)
        if found is None:
            errors.append("%s: not found in the source or the build tree" % " -> ".join(chain))
            continue
        with open(found) as f:
            text = f.read()
        for included in INCLUDE_RE.findall(text):
            if any(included.startswith(p) for p in args.forbid):
                errors.append("%s includes \"%s\"" % (" -> ".join(chain), included))
                continue
            if resolve(included, roots) is not None:
                pending.append((included, chain + [included]))
        target = os.path.join(args.dest, header)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        shutil.copyfile(found, target)
    for error in errors:
        print("install_headers: " + error, file=sys.stderr)
    if errors:
        return 1
    print("install_headers: %d headers in %s" % (len(seen), args.dest), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
