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
