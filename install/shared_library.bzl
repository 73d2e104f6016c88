"""One shared library from a set of cc_library targets, every object of them kept.

A plain cc_binary(linkshared = True) links its dependencies lazily: only objects that
something already linked refers to come in, and a library that is all API has nothing
referring to it. This rule relinks every static library of the dependencies as if it were
`alwayslink`, so the shared object holds the whole API, dialects and passes; system
libraries (MLIR, LLVM, Abseil) keep coming in through their own link flags, as shared ones.
"""

def _whole_shared_library_impl(ctx):
    cc_toolchain = ctx.attr._cc_toolchain[cc_common.CcToolchainInfo]
    features = cc_common.configure_features(
        ctx = ctx,
        cc_toolchain = cc_toolchain,
        requested_features = ctx.features,
        unsupported_features = ctx.disabled_features + ["supports_start_end_lib"],
    )
    linker_inputs = []
    for dep in ctx.attr.deps:
        for linker_input in dep[CcInfo].linking_context.linker_inputs.to_list():
            libraries = []
            for library in linker_input.libraries:
                if library.pic_static_library:
                    libraries.append(cc_common.create_library_to_link(
                        actions = ctx.actions,
                        feature_configuration = features,
                        cc_toolchain = cc_toolchain,
                        pic_static_library = library.pic_static_library,
                        alwayslink = True,
                    ))
                else:
                    libraries.append(library)
            linker_inputs.append(cc_common.create_linker_input(
                owner = linker_input.owner,
                libraries = depset(libraries),
                user_link_flags = depset(linker_input.user_link_flags),
            ))
    linking_context = cc_common.create_linking_context(
        linker_inputs = depset(linker_inputs),
    )
    output = cc_common.link(
        actions = ctx.actions,
        feature_configuration = features,
        cc_toolchain = cc_toolchain,
        linking_contexts = [linking_context],
        user_link_flags = ["-Wl,-soname," + ctx.attr.soname],
        name = ctx.attr.library_name,
        output_type = "dynamic_library",
    )
    library = output.library_to_link.resolved_symlink_dynamic_library or \
              output.library_to_link.dynamic_library
    return [DefaultInfo(files = depset([library]))]

whole_shared_library = rule(
    implementation = _whole_shared_library_impl,
    attrs = {
        "deps": attr.label_list(providers = [CcInfo]),
        "library_name": attr.string(mandatory = True),
        "soname": attr.string(mandatory = True),
        "_cc_toolchain": attr.label(default = "@bazel_tools//tools/cpp:current_cc_toolchain"),
    },
    fragments = ["cpp"],
    toolchains = ["@bazel_tools//tools/cpp:toolchain_type"],
)
