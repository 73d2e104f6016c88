"""tessel_example: an example's program library, its binary and its test."""

load("//third_party:build_defs.bzl", "TESSEL_COPTS")

def tessel_example(name):
    """NAME.h/.cc build the program, main.cc prints and verifies it, NAME_test.cc tests it.

    Args:
      name: the example's name, also the binary's.
    """
    native.cc_library(
        name = name + "_lib",
        srcs = [name + ".cc"],
        hdrs = [name + ".h"],
        copts = TESSEL_COPTS,
        visibility = ["//examples:__subpackages__"],
        deps = [
            "//partitioner/api",
            "//support:status_macros",
            "@system_libs//:absl",
        ],
    )
    native.cc_binary(
        name = name,
        srcs = ["main.cc"],
        copts = TESSEL_COPTS,
        deps = [
            ":" + name + "_lib",
            "//examples/common:report",
        ],
    )
    native.cc_test(
        name = name + "_test",
        size = "small",
        srcs = [name + "_test.cc"],
        copts = TESSEL_COPTS,
        deps = [
            ":" + name + "_lib",
            "//partitioner/api",
            "//support:status_matchers",
            "@system_libs//:gtest_main",
        ],
    )
