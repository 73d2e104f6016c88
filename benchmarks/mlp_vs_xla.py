#!/usr/bin/env python3
"""Single-device `tessel run` of an f32 MLP next to the same MLP under jax.jit on XLA's CPU.

The program is y = max(x @ w1, 0) @ w2 with x f32[512,1024], w1 f32[1024,4096] and
w2 f32[4096,1024] (2 x 2^31 multiply-adds, 8.6 GFLOP), written as MLIR with its inputs as
.npy files in a temporary directory. Both sides run on the same inputs in this one run,
each timed --repeats times (default 5), and the medians are printed with their ratio:

  - tessel, in all: wall time of `tessel run mlp.mlir --inputs=x.npy,w1.npy,w2.npy
    --print_limit=0 --timing --output_dir=DIR`: process start-up, parsing, reading 34 MB of
    inputs, the run, writing the 2 MB result (read back to compare with XLA's);
  - tessel, run: the `run` stage that `--timing` prints for the same command: the
    executor's work on the inputs in memory (what XLA's figure measures);
  - XLA: one call of the jitted function on arrays already on the device, after a warm-up
    call that compiles it (compilation excluded), to block_until_ready.

The two sides alternate, so that both see the same load on a shared machine, and each is
also timed in CPU seconds (of the tessel process; of every thread of this process for XLA),
which other load changes much less than wall time.

The ratios are XLA's time over Tessel's, so 0.5 means half XLA's speed. The results are
checked against each other (relative difference of the largest magnitude below 1e-4).
TESSEL_ISA (baseline, avx2, avx512) is passed through to tessel to compare instruction sets.

Needs JAX (a virtual environment; not a dependency of Tessel, and CI never runs this):

    bazel build //tools/tessel
    /path/to/venv/bin/python benchmarks/mlp_vs_xla.py [--tessel bazel-bin/tools/tessel/tessel]
"""
import argparse
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

M, K, H = 512, 1024, 4096

PROGRAM = f"""func.func @main(%x: tensor<{M}x{K}xf32>, %w1: tensor<{K}x{H}xf32>,
                 %w2: tensor<{H}x{K}xf32>) -> tensor<{M}x{K}xf32> {{
  %h = hlo.dot_general %x, %w1, lhs_contract = [1], rhs_contract = [0]
      : (tensor<{M}x{K}xf32>, tensor<{K}x{H}xf32>) -> tensor<{M}x{H}xf32>
  %zero = hlo.constant dense<0.0> : tensor<f32>
  %zeros = hlo.broadcast_in_dim %zero, dims = [] : (tensor<f32>) -> tensor<{M}x{H}xf32>
  %relu = hlo.max %h, %zeros : tensor<{M}x{H}xf32>
  %y = hlo.dot_general %relu, %w2, lhs_contract = [1], rhs_contract = [0]
      : (tensor<{M}x{H}xf32>, tensor<{H}x{K}xf32>) -> tensor<{M}x{K}xf32>
  return %y : tensor<{M}x{K}xf32>
}}
"""

FLOPS = 2.0 * 2 * M * K * H


class Tessel:
    """`tessel run` of the MLP, one process per call."""

    def __init__(self, tessel, workdir):
        files = ",".join(os.path.join(workdir, f"{n}.npy") for n in ("x", "w1", "w2"))
        self.command = [tessel, "run", os.path.join(workdir, "mlp.mlir"), f"--inputs={files}",
                        "--print_limit=0", "--timing", f"--output_dir={workdir}/out"]
        self.isa = None

    def __call__(self):
        """Returns (wall seconds in all, CPU seconds in all, wall seconds of the run stage)."""
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        done = subprocess.run(self.command, capture_output=True, text=True)
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if done.returncode != 0:
            sys.exit(f"tessel run failed:\n{done.stderr}")
        timing = re.search(r"run ([0-9.]+) s", done.stderr)
        found = re.search(r"f32 products on (\w+)", done.stderr)
        if not timing or not found:
            sys.exit(f"no timing line from tessel run --timing:\n{done.stderr}")
        self.isa = found.group(1)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        return wall, cpu, float(timing.group(1))


class Xla:
    """The jitted MLP on XLA's CPU, compiled by a first call."""

    def __init__(self, x, w1, w2):
        import jax
        import jax.numpy as jnp

        @jax.jit
        def mlp(x, w1, w2):
            return jnp.maximum(x @ w1, 0.0) @ w2

        self.mlp = mlp
        self.args = [jax.device_put(a) for a in (x, w1, w2)]
        self.result = np.asarray(mlp(*self.args).block_until_ready())
        self.version = jax.__version__

    def __call__(self):
        """Returns (wall seconds, CPU seconds of every thread of this process)."""
        cpu = time.process_time()
        start = time.perf_counter()
        self.mlp(*self.args).block_until_ready()
        return time.perf_counter() - start, time.process_time() - cpu


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tessel", default="bazel-bin/tools/tessel/tessel")
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()

    rng = np.random.default_rng(0)
    x = rng.uniform(-1, 1, (M, K)).astype(np.float32)
    w1 = (rng.uniform(-1, 1, (K, H)) / np.sqrt(K)).astype(np.float32)
    w2 = (rng.uniform(-1, 1, (H, K)) / np.sqrt(H)).astype(np.float32)
    xla = Xla(x, w1, w2)
    with tempfile.TemporaryDirectory() as workdir:
        with open(os.path.join(workdir, "mlp.mlir"), "w") as f:
            f.write(PROGRAM)
        for name, value in (("x", x), ("w1", w1), ("w2", w2)):
            np.save(os.path.join(workdir, f"{name}.npy"), value)
        tessel = Tessel(args.tessel, workdir)
        # Alternated, so that both sides see the same load on a shared machine.
        ours_times, xla_times = [], []
        for _ in range(args.repeats):
            ours_times.append(tessel())
            xla_times.append(xla())
        ours = np.load(os.path.join(workdir, "out", "result_0.npy"))
    theirs = xla.result
    tessel_all, tessel_cpu, tessel_run = (statistics.median(t) for t in zip(*ours_times))
    xla_wall, xla_cpu = (statistics.median(t) for t in zip(*xla_times))

    scale = float(np.max(np.abs(theirs)))
    difference = float(np.max(np.abs(ours - theirs))) / scale
    print(f"MLP {M}x{K} @ {K}x{H} @ {H}x{K} f32, medians of {args.repeats}, "
          f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}")
    print(f"tessel run, in all:    {tessel_all:.3f} s wall, {tessel_cpu:.3f} s CPU")
    print(f"tessel run, run stage: {tessel_run:.3f} s wall "
          f"({FLOPS / tessel_run / 1e9:.0f} GFLOP/s, f32 products on {tessel.isa})")
    print(f"XLA (jax {xla.version}):     {xla_wall:.3f} s wall, {xla_cpu:.3f} s CPU "
          f"({FLOPS / xla_wall / 1e9:.0f} GFLOP/s)")
    print(f"speed vs XLA (XLA's time / Tessel's): run stage {xla_wall / tessel_run:.2f}x, "
          f"in all {xla_wall / tessel_all:.2f}x wall, {xla_cpu / tessel_cpu:.2f}x CPU")
    print(f"largest difference: {difference:.1e} of the largest magnitude")
    if difference > 1e-4:
        sys.exit("the results differ")


if __name__ == "__main__":
    main()
