"""Runs mlir-tblgen from the system MLIR 19 over a project .td file."""

def mlir_tblgen(name, td_file, tbl_outs, td_srcs = [], deps = []):
    """Generates one output file per (flags, output) pair in `tbl_outs`.

    Args:
      name: name of the filegroup that collects every generated file.
      td_file: the root .td file.
      tbl_outs: list of (list of mlir-tblgen flags, output file name).
      td_srcs: other project .td files that `td_file` includes.
      deps: unused; reserved for symmetry with upstream rules.
    """
    # Project .td files include each other by their path in the repository, which is the
    # execution root for Tessel's own build and external/<name> when another workspace
    # builds it; generated ones sit under the output tree at the same place.
    root = Label("//:WORKSPACE").workspace_root or "."
    outs = []
    for flags, out in tbl_outs:
        native.genrule(
            name = "%s_%s_genrule" % (name, out.replace("/", "_").replace(".", "_")),
            srcs = [td_file] + [s for s in td_srcs if s != td_file] + ["@llvm//:mlir_td_files"],
            outs = [out],
            tools = ["@llvm//:mlir_tblgen"],
            # MLIR's own .td files sit in include/ beside the bin/ that holds mlir-tblgen.
            cmd = ("$(location @llvm//:mlir_tblgen) %s " +
                   "-I $$(dirname $(location @llvm//:mlir_tblgen))/../include " +
                   "-I $$(dirname $(location %s)) -I %s -I $(GENDIR)/%s " +
                   "$(location %s) -o $@") % (" ".join(flags), td_file, root, root, td_file),
        )
        outs.append(out)
    native.filegroup(name = name, srcs = outs)
