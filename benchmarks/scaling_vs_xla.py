#!/usr/bin/env python3
"""Partitioning time against program size: Tessel beside XLA on the same JAX programs.

For each layer count this builds, in JAX, an unrolled pre-LayerNorm transformer (the
structure of benchmarks/make_transformer_hlo.py: layer norms, attention with a causal
softmax, a GELU MLP, residuals; each layer its own weights; Megatron and data shardings on
a 4x2 mesh), and then:
  - XLA: compiles it for 8 CPU devices and reads the pass timers XLA logs
    (TF_CPP_VMODULE=hlo_pass_pipeline=2): Shardy propagation (`shardy-xla`) plus SPMD
    partitioning (`spmd-partitioning`), passes only;
  - Tessel: writes the HLO JAX lowers (`as_text(dialect="hlo")`) and runs
    `tessel partition FILE --timing` and reads its wall-clock total: the command's whole
    work (reading, parsing, importing, propagating, partitioning, printing) from the
    command's start, after the process has loaded its shared libraries; median of --repeat
    runs; it also reports the peak memory.
Prints a Markdown table: instructions, both times, the ratio, and Tessel's microseconds
and KiB per instruction. Needs JAX (a virtual environment; not a dependency of Tessel).

    bazel build //tools/tessel
    /path/to/venv/bin/python benchmarks/scaling_vs_xla.py --tessel bazel-bin/tools/tessel/tessel
"""
import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile

from jax_transformer import block

B, S, D, H, F = 8, 32, 64, 4, 256


def build_hlo(layers):
    """The HLO text JAX lowers for a `layers`-layer model, and its lowering object."""
    import jax
    import jax.numpy as jnp
    from jax.sharding import NamedSharding, PartitionSpec as P

    mesh = jax.make_mesh((4, 2), ("data", "model"))

    def model(x, params):
        for layer in params:
            x = block(x, layer, H)
        return x

    f32 = jnp.float32
    rep, cols, rows = P(None), P(None, "model"), P("model", None)
    layer_shapes = [((D,), rep), ((D, D), cols), ((D, D), cols), ((D, D), cols),
                    ((D, D), rows), ((D,), rep), ((D, F), cols), ((F, D), rows)]
    params = [tuple(jax.ShapeDtypeStruct(shape, f32) for shape, _ in layer_shapes)
              for _ in range(layers)]
    param_shardings = [tuple(NamedSharding(mesh, spec) for _, spec in layer_shapes)
                       for _ in range(layers)]
    x = jax.ShapeDtypeStruct((B, S, D), f32)
    # No out_shardings: JAX would wrap the result in an `xla.sdy.FuncResultSharding` custom
    # call, which Tessel does not read yet (it would be partitioned by replication).
    lowered = jax.jit(model, in_shardings=(NamedSharding(mesh, P("data")), param_shardings)
                      ).lower(x, params)
    return lowered


def xla_child(layers):
    """Runs in a child process with XLA's pass timers on; prints the two passes' times."""
    lowered = build_hlo(layers)
    lowered.compile()


def xla_seconds(layers):
    """Shardy propagation plus SPMD partitioning, from XLA's pass timers. The child is
    stopped once SPMD partitioning has reported: the CPU code generation after it takes
    minutes on large programs and is not measured."""
    env = dict(os.environ)
    env["TF_CPP_MIN_LOG_LEVEL"] = "0"
    env["TF_CPP_VMODULE"] = "hlo_pass_pipeline=2"
    child = subprocess.Popen([sys.executable, __file__, "--xla-child", str(layers)], env=env,
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    seconds = {}
    try:
        for line in child.stderr:
            match = re.search(r"HLO pass: (shardy-xla|spmd-partitioning) time: .*?\((\d+) us\)",
                              line)
            if match:
                seconds[match.group(1)] = seconds.get(match.group(1), 0) + int(match.group(2)) / 1e6
                if match.group(1) == "spmd-partitioning":
                    break
    finally:
        child.kill()
        child.wait()
    if set(seconds) != {"shardy-xla", "spmd-partitioning"}:
        raise RuntimeError("XLA's log lacks a pass timer: %s" % sorted(seconds))
    return sum(seconds.values())


def tessel_run(tessel, path):
    run = subprocess.run([tessel, "partition", path, "--timing", "--output=/dev/null"],
                         capture_output=True, text=True, check=True)
    match = re.search(r"total ([0-9.]+) s; peak memory ([0-9.]+) MiB", run.stderr)
    return float(match.group(1)), float(match.group(2))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tessel", default="bazel-bin/tools/tessel/tessel")
    parser.add_argument("--layers", default="8,32,128,256,512",
                        help="comma-separated layer counts")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--xla-child", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    # The 4x2 mesh needs 8 devices before JAX starts, also for lowering.
    os.environ["XLA_FLAGS"] = (os.environ.get("XLA_FLAGS", "") +
                               " --xla_force_host_platform_device_count=8")
    if args.xla_child is not None:
        xla_child(args.xla_child)
        return
    print("| layers | instructions | XLA Shardy + SPMD (s) | Tessel partition (s) | "
          "Tessel / XLA | Tessel us / instr | Tessel peak MiB | KiB / instr |")
    print("|---|---|---|---|---|---|---|---|")
    for layers in [int(n) for n in args.layers.split(",")]:
        text = build_hlo(layers).as_text(dialect="hlo")
        instructions = sum(1 for line in text.splitlines() if " = " in line)
        with tempfile.NamedTemporaryFile("w", suffix=".hlo", delete=False) as f:
            f.write(text)
            path = f.name
        try:
            xla = statistics.median(xla_seconds(layers) for _ in range(args.repeat))
            runs = [tessel_run(args.tessel, path) for _ in range(args.repeat)]
        finally:
            os.unlink(path)
        seconds = statistics.median(r[0] for r in runs)
        memory = max(r[1] for r in runs)
        print("| %d | %d | %.3f | %.3f | %.2f | %.1f | %.0f | %.2f |" % (
            layers, instructions, xla, seconds, seconds / xla, seconds / instructions * 1e6,
            memory, memory * 1024 / instructions))
        sys.stdout.flush()


if __name__ == "__main__":
    main()
