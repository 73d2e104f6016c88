"""One Bazel test per lit test file, so a forgotten file cannot go unrun."""

# Tools every lit test may call.
LIT_TOOLS = [
    "//tools/tessel",
    "//tools/tessel-opt",
    "//tools/tessel-translate",
]

def lit_tests(name, srcs, tools = LIT_TOOLS, data = [], medium = []):
    """Declares an sh_test per file in `srcs` and a test_suite `name` over all of them.

    Files in `medium` run many programs each and get Bazel's medium timeout."""
    tests = []
    for src in srcs:
        test_name = src.rsplit(".", 1)[0] + "_test"
        native.sh_test(
            name = test_name,
            srcs = ["//tests/lit:run_lit.sh"],
            args = ["$(location %s)" % t for t in tools] + ["--", "$(location %s)" % src],
            data = [src, "//tests/lit:lit.cfg.py"] + tools + data,
            size = "medium" if src in medium else "small",
        )
        tests.append(test_name)
    native.test_suite(name = name, tests = tests)
