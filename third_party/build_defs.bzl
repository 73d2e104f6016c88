"""Build helpers shared by Tessel's BUILD files."""

# Warnings for Tessel's own code. Headers of system libraries come in with -isystem, so they
# do not trigger these.
TESSEL_COPTS = [
    "-Wall",
    "-Wextra",
    "-Wno-unused-parameter",
    "-Werror",
]
