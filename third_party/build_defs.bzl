"""Build helpers shared by Tessel's BUILD files."""

# Warnings for Tessel's own code. Headers of system libraries come in with -isystem, so they
# do not trigger these.
TESSEL_COPTS = [
    "-Wall",
    "-Wextra",
    "-Wno-unused-parameter",
    "-Werror",
]

# For targets that build only under --config=fuzz (clang with libFuzzer, which supplies
# main()): in any other build they are skipped rather than failed.
FUZZ_BUILD_ONLY = select({
    "//partitioner/hlo_text/fuzz:fuzz_build": [],
    "//conditions:default": ["//third_party:incompatible"],
})

# The static archives tessel_executable links in, then the archives of what they need that
# nothing else names (COIN-OR's LAPACK, BLAS and the Fortran runtime under them, bzip2 and
# zlib), and the C++ standard library's. Each shared library a command loads costs start-up
# time binding symbols: as shared libraries these took about 1 ms of every run
# (docs/benchmarks.md). The C++ library's shared copy, which the toolchain still names,
# then goes unused and --as-needed drops it; a command loads no plugin that would want it.
_EXECUTABLE_ARCHIVES = [
    "@llvm//:static_libraries",
    "@system_archives//:absl",
    "@system_archives//:protobuf",
    "@system_archives//:cbc",
]
_ARCHIVE_RUNTIME_LIBRARIES = [
    "-l:liblapack.a",
    "-l:libblas.a",
    "-l:libgfortran.a",
    "-l:libquadmath.a",
    "-l:libbz2.a",
    "-l:libz.a",
    "-l:libstdc++.a",
    # The GCC runtime (and its unwinder) too: as a shared library it is one more to map and
    # bind, and its constructor repeats the CPU feature probe the archive's copy makes.
    "-static-libgcc",
]

# The code the commands run most, hottest first, for gold to lay out side by side: a run
# then enters a few 64 KiB windows of code instead of scattered ones across 19 MB, and
# takes that many fewer page faults (benchmarks/make_section_order.py writes the list).
_SECTION_ORDER = "//tools/tessel:section_order.txt"

def tessel_executable(name, linkopts = [], **kwargs):
    """A cc_binary that users run, with LLVM, MLIR, Abseil, protobuf and COIN-OR linked in.

    Linked against the shared libraries, a command spends about 30 ms before main() in the
    dynamic loader, binding symbols across ~100 of them: three times the whole partitioning
    of a 1,000-instruction program (docs/benchmarks.md). The archives come first on the
    command line, in one group since LLVM's and MLIR's depend on each other, and --as-needed
    then drops the shared libraries that the libraries' own flags name but that nothing
    still refers to. --exclude-libs keeps the archives' symbols out of the dynamic symbol
    table, where the linker would otherwise export the 31,000 that those dropped shared
    libraries mention.

    The code is laid out in the order of tools/tessel/section_order.txt, hottest first,
    so that a run's code shares pages (docs/benchmarks.md, "Hot code side by side").

    Only executables: a shared object with its own MLIR would have its own registries and
    type ids beside the embedder's (tools/plugins, the Python module).

    Sanitized builds keep the shared libraries: with the archives inside the executable,
    the order of static destructors and the leak checker's exit hook changes, and blocks
    that LLVM's global tables hold at exit are then reported as leaks.
    """
    static = ["-Wl,--start-group"] + \
             ["$(locations %s)" % archives for archives in _EXECUTABLE_ARCHIVES] + \
             ["-Wl,--end-group", "-Wl,--as-needed", "-Wl,--exclude-libs,ALL"] + \
             _ARCHIVE_RUNTIME_LIBRARIES + \
             ["-Wl,--section-ordering-file=$(location %s)" % _SECTION_ORDER]
    native.cc_binary(
        name = name,
        additional_linker_inputs = select({
            "//third_party:sanitized": [],
            "//conditions:default": _EXECUTABLE_ARCHIVES + [_SECTION_ORDER],
        }),
        linkopts = select({
            "//third_party:sanitized": [],
            "//conditions:default": static,
        }) + linkopts,
        **kwargs
    )
