# lit configuration for Tessel's FileCheck tests. Each .mlir file is one Bazel test that
# runs lit on just that file (see lit.bzl), with the project's tools first on PATH.
import os

import lit.formats

config.name = "Tessel"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir", ".hlo"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.environ.get("TEST_TMPDIR", config.test_source_root)
config.environment["PATH"] = os.environ["PATH"]
config.environment["FILECHECK_OPTS"] = "-enable-var-scope"

# LLVM's tools, and the mlir-opt plugins (tools/plugins) where a test has them among its tools.
config.substitutions.append(("%llvm_bin", "/usr/lib/llvm-19/bin"))
for directory in os.environ["PATH"].split(os.pathsep):
    if os.path.exists(os.path.join(directory, "tessel_pass_plugin.so")):
        config.substitutions.append(("%tessel_plugins", directory))
        break
