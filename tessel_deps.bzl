"""The repositories Tessel's BUILD files refer to, declared by one macro.

Tessel's own WORKSPACE calls `tessel_dependencies()`, and so does any workspace that builds
against Tessel:

    local_repository(name = "tessel", path = "third_party/tessel")
    load("@tessel//:tessel_deps.bzl", "tessel_dependencies")
    tessel_dependencies()

Everything comes from the machine: Bazel's rule repositories are the offline stand-ins under
Tessel's third_party/, libraries are the system's, each at a location the caller may change
(`tessel_dependencies(llvm_prefix = "/opt/llvm-19")`). A repository the workspace declared
before the call is left as it is, so a workspace that already has its own `rules_cc`, say,
keeps it.
"""

def _tessel_root(rctx):
    # The directory of Tessel's checkout, found from a file in it: a relative path would be
    # read from the root of whichever workspace is building, not from Tessel's.
    return rctx.path(Label("//:WORKSPACE")).dirname

def _symlink_children(rctx, directory):
    for child in directory.readdir():
        rctx.symlink(child, child.basename)

def _vendored_repository_impl(rctx):
    _symlink_children(rctx, rctx.path("%s/%s" % (_tessel_root(rctx), rctx.attr.directory)))

# A directory of Tessel's checkout as a repository of its own (the rule stand-ins).
_vendored_repository = repository_rule(
    implementation = _vendored_repository_impl,
    attrs = {"directory": attr.string(mandatory = True)},
    local = True,
)

def _system_repository_impl(rctx):
    if rctx.attr.path:
        location = rctx.path(rctx.attr.path)
        if not location.exists:
            fail("%s: %s does not exist; pass its location to tessel_dependencies()" %
                 (rctx.attr.name, rctx.attr.path))
        _symlink_children(rctx, location)
    rctx.template("BUILD.bazel", rctx.attr.build_file, {"%{prefix}": rctx.attr.path})

# A library installed on the machine: its directory linked in, with a BUILD file whose
# `%{prefix}` is that directory (for -L and rpath flags).
_system_repository = repository_rule(
    implementation = _system_repository_impl,
    attrs = {
        "path": attr.string(),
        "build_file": attr.label(allow_single_file = True, mandatory = True),
    },
    local = True,
)

def _declare(rule, name, **kwargs):
    if name not in native.existing_rules():
        rule(name = name, **kwargs)

def tessel_dependencies(
        llvm_prefix = "/usr/lib/llvm-19",
        openmpi_prefix = "/usr/lib/x86_64-linux-gnu/openmpi",
        cuda_prefix = "/usr/local/cuda",
        eigen_include = "/usr/include/eigen3",
        python_include = "/usr/include/python3.11",
        pybind11_include = "/usr/include/pybind11",
        system_library_dir = "/usr/lib/x86_64-linux-gnu"):
    """Declares every repository Tessel needs that the workspace has not declared yet.

    Args:
      llvm_prefix: the LLVM/MLIR 19 installation (include/, lib/libMLIR.so and the static
        archives the commands link, bin/mlir-tblgen).
      openmpi_prefix: OpenMPI's directory with include/mpi.h and lib/libmpi.so.
      cuda_prefix: CUDA with NCCL; read only by targets built with --config=cuda.
      eigen_include: the directory holding Eigen/ and unsupported/Eigen/.
      python_include: the Python headers (Python.h), for the Python module only.
      pybind11_include: pybind11's headers (pybind11.h), for the Python module only.
      system_library_dir: where Abseil's, protobuf's and COIN-OR's static archives are, for
        the executables (build_defs.bzl's tessel_executable).
    """

    # Bazel 4 would download these even for plain C++ targets.
    for name in ["rules_cc", "rules_java", "rules_proto", "remote_coverage_tools"]:
        _declare(_vendored_repository, name, directory = "third_party/" + name)
    libraries = {
        "llvm": (llvm_prefix, "llvm.BUILD"),
        # Abseil, protobuf, GoogleTest, Benchmark: headers in the default search path.
        "system_libs": ("", "system_libs.BUILD"),
        "openmpi": (openmpi_prefix, "openmpi.BUILD"),
        "cuda": (cuda_prefix, "cuda.BUILD"),
        "eigen": (eigen_include, "eigen.BUILD"),
        # One directory each, never all of /usr/include: a repository's root is searched
        # for quoted includes, and /usr/include there would shadow the system's own headers.
        "python": (python_include, "python.BUILD"),
        "pybind11": (pybind11_include, "pybind11.BUILD"),
        "system_archives": (system_library_dir, "system_archives.BUILD"),
    }
    for name, (path, build_file) in libraries.items():
        _declare(
            _system_repository,
            name,
            path = path,
            build_file = Label("//third_party:" + build_file),
        )
