"""Assembles the `tessel` wheel from a build: the package's Python sources and the
extension module _tessel.so that Bazel built (//python/tessel:_tessel.so), written with the
standard library only (a wheel is a zip with METADATA, WHEEL and RECORD), so it builds and
installs offline:

    python3 python/build_wheel.py --module bazel-bin/python/tessel/_tessel.so \\
        --sources python/tessel --version_header partitioner/api/version.h --out dist

The module is built for the system CPython 3.11 (Debian's python3-dev) and loads MLIR and
LLVM 19 from /usr/lib/llvm-19/lib (libmlir-19-dev's runtime libraries) at import.
"""

import argparse
import base64
import hashlib
import os
import re
import sys
import zipfile

NAME = "tessel"
PYTHON_TAG = "cp311"  # the headers the module is compiled against
PLATFORM_TAG = "linux_x86_64"


def read_version(header):
    with open(header, encoding="utf-8") as file:
        text = file.read()
    parts = [re.search(rf"#define TESSEL_VERSION_{part} (\d+)", text).group(1)
             for part in ("MAJOR", "MINOR", "PATCH")]
    return ".".join(parts)


def record_line(path, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{path},sha256={digest},{len(data)}"


def build(module, sources, version, out_dir):
    """Writes the wheel into `out_dir` and returns its path."""
    tag = f"{PYTHON_TAG}-{PYTHON_TAG}-{PLATFORM_TAG}"
    dist_info = f"{NAME}-{version}.dist-info"
    files = []
    for name in sorted(os.listdir(sources)):
        if name.endswith(".py"):
            with open(os.path.join(sources, name), "rb") as file:
                files.append((f"{NAME}/{name}", file.read()))
    if not any(path == f"{NAME}/__init__.py" for path, _ in files):
        sys.exit(f"build_wheel: {sources} has no __init__.py")
    with open(module, "rb") as file:
        files.append((f"{NAME}/_tessel.so", file.read()))
    metadata = "\n".join([
        "Metadata-Version: 2.1",
        f"Name: {NAME}",
        f"Version: {version}",
        "Summary: SPMD partitioning of tensor programs over named device meshes",
        "Requires-Python: ==3.11.*",
        "Provides-Extra: run",
        "Requires-Dist: numpy; extra == \"run\"",
        "",
        "Partition, inspect and run tensor programs (MLIR or XLA HLO text) from Python.",
        "",
    ])
    wheel = "\n".join([
        "Wheel-Version: 1.0",
        "Generator: tessel build_wheel.py",
        "Root-Is-Purelib: false",
        f"Tag: {tag}",
        "",
    ])
    files.append((f"{dist_info}/METADATA", metadata.encode()))
    files.append((f"{dist_info}/WHEEL", wheel.encode()))
    record = [record_line(path, data) for path, data in files]
    record.append(f"{dist_info}/RECORD,,")
    files.append((f"{dist_info}/RECORD", ("\n".join(record) + "\n").encode()))

    os.makedirs(out_dir, exist_ok=True)
    path = os.path.join(out_dir, f"{NAME}-{version}-{tag}.whl")
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, data in files:
            info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
            info.external_attr = (0o755 if name.endswith(".so") else 0o644) << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, data)
    return path


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--module", required=True, help="the built _tessel.so")
    parser.add_argument("--sources", required=True, help="the package's .py files' directory")
    parser.add_argument("--version_header", required=True, help="partitioner/api/version.h")
    parser.add_argument("--out", required=True, help="the directory to write the wheel to")
    args = parser.parse_args()
    print(build(args.module, args.sources, read_version(args.version_header), args.out))


if __name__ == "__main__":
    main()
