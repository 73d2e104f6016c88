"""C++ code from .proto files with the system protoc (Bazel's native proto rules would need
the protobuf source repository, which an offline build does not have)."""

load("//third_party:build_defs.bzl", "TESSEL_COPTS")

def tessel_cc_proto_library(name, srcs, deps = [], visibility = None):
    """Generates <file>.pb.h/.pb.cc for each .proto in `srcs` and wraps them in a cc_library.

    Imports between project protos resolve from the workspace root, so a proto imports
    another as "partitioner/sharding/mesh.proto".
    """
    # Imports are read from the repository's root (external/<name> when another workspace
    # builds Tessel), and the generated files land at the same place under the output tree.
    root = Label("//:WORKSPACE").workspace_root or "."
    hdrs = [s[:-len(".proto")] + ".pb.h" for s in srcs]
    ccs = [s[:-len(".proto")] + ".pb.cc" for s in srcs]
    native.genrule(
        name = name + "_protoc",
        srcs = srcs + [d + "_srcs" for d in deps],
        outs = hdrs + ccs,
        cmd = ("protoc --proto_path=%s --cpp_out=$(GENDIR)/%s " % (root, root)) +
              " ".join(["$(location %s)" % s for s in srcs]),
    )
    native.filegroup(name = name + "_srcs", srcs = srcs, visibility = visibility)
    native.cc_library(
        name = name,
        srcs = ccs,
        hdrs = hdrs,
        deps = deps + ["@system_libs//:protobuf"],
        visibility = visibility,
    )
