#!/usr/bin/env python3
"""Auto-sharding of a transformer written as a scan over layers, against hand plans.

JAX users write deep models as `jax.lax.scan` over stacked layer weights: the program is
one while loop whose body is one layer, and every weight is a [layers, ...] stack the body
slices. This builds such a model in JAX (pre-LayerNorm blocks: attention with a causal
softmax and a GELU MLP, each with a residual), lowers it to HLO three times:
  - without shardings, for `tessel report --auto` to choose them with only the mesh;
  - data parallel: the batch over both mesh axes, the stacks whole;
  - Megatron: the batch over "data", q/k/v and w1 by columns over "model", the output
    projection and w2 by rows,
and prints one Markdown row: the step time by the cost model (`tessel report
--format=json`) of the program kept whole (every value on every device, what a plan that
cannot look inside the loop leaves), of each hand plan and of the chosen plan, and the
solve time. Needs JAX (a
virtual environment; not a dependency of Tessel).

    bazel build //tools/tessel
    /path/to/venv/bin/python benchmarks/scan_auto_vs_hand.py --tessel bazel-bin/tools/tessel/tessel
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

from jax_transformer import block


def lower(layers, batch, seq, d, heads, ff, plan):
    """The HLO text of the scanned model; `plan` is None, "data parallel" or "Megatron"."""
    import jax
    import jax.numpy as jnp
    from jax.sharding import NamedSharding, PartitionSpec as P

    def model(x, stacks):
        return jax.lax.scan(lambda x, p: (block(x, p, heads), None), x, stacks)[0]

    f32 = jnp.float32
    rep, cols, rows = P(None, None), P(None, None, "model"), P(None, "model", None)
    shapes = [((layers, d), rep), ((layers, d, d), cols), ((layers, d, d), cols),
              ((layers, d, d), cols), ((layers, d, d), rows), ((layers, d), rep),
              ((layers, d, ff), cols), ((layers, ff, d), rows)]
    stacks = tuple(jax.ShapeDtypeStruct(shape, f32) for shape, _ in shapes)
    x = jax.ShapeDtypeStruct((batch, seq, d), f32)
    if plan is None:
        return jax.jit(model).lower(x, stacks).as_text(dialect="hlo")
    mesh = jax.make_mesh((4, 2), ("data", "model"))
    if plan == "data parallel":
        x_spec, specs = P(("data", "model")), [P() for _ in shapes]
    else:
        x_spec, specs = P("data"), [spec for _, spec in shapes]
    shardings = (NamedSharding(mesh, x_spec), tuple(NamedSharding(mesh, s) for s in specs))
    return jax.jit(model, in_shardings=shardings).lower(x, stacks).as_text(dialect="hlo")


def report(tessel, path, extra):
    """The cost model's step time and peak bytes of `path` and, with --auto, the solve
    time."""
    out = subprocess.run([tessel, "report", path, "--format=json"] + extra,
                         capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"tessel report {path} {' '.join(extra)} failed:\n{out.stderr}")
    parsed = json.loads(out.stdout)
    solved = re.search(r"plan in ([0-9.e+-]+) s", out.stderr)
    return (parsed["step_seconds"], parsed["memory"]["peak_bytes"],
            float(solved.group(1)) if solved else None)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tessel", required=True)
    parser.add_argument("--layers", type=int, default=24)
    parser.add_argument("--batch", type=int, default=8)
    parser.add_argument("--seq", type=int, default=512)
    parser.add_argument("--d", type=int, default=1024)
    parser.add_argument("--heads", type=int, default=16)
    parser.add_argument("--ff", type=int, default=4096)
    parser.add_argument("--memory_limit", default="",
                        help="a second row under this limit per device (e.g. 6GB): hand "
                             "plans whose peak exceeds it are marked, --auto gets it")
    args = parser.parse_args()
    # Eight host devices, so that JAX accepts the 4x2 mesh of the hand plans.
    os.environ.setdefault("XLA_FLAGS", "--xla_force_host_platform_device_count=8")
    sizes = (args.layers, args.batch, args.seq, args.d, args.heads, args.ff)
    mesh = "--mesh=data=4,model=2"
    with tempfile.TemporaryDirectory() as tmp:
        paths = {}
        for plan in (None, "data parallel", "Megatron"):
            paths[plan] = os.path.join(tmp, f"{plan or 'open'}.hlo".replace(" ", "_"))
            with open(paths[plan], "w") as f:
                f.write(lower(*sizes, plan))
        print("| layers | memory limit | whole | data parallel | Megatron | chosen | "
              "chosen vs best that fits | solve |")
        print("|---|---|---|---|---|---|---|---|")
        runs = {"whole": report(args.tessel, paths[None], [mesh])}
        for plan in ("data parallel", "Megatron"):
            runs[plan] = report(args.tessel, paths[plan], [])
        for limit in [""] + ([args.memory_limit] if args.memory_limit else []):
            option = f"--auto=memory_limit={limit}" if limit else "--auto"
            chosen, chosen_peak, solve = report(args.tessel, paths[None], [mesh, option])
            limit_bytes = chosen_limit(limit)

            def cell(name):
                step, peak, _ = runs[name]
                fits = limit_bytes is None or peak <= limit_bytes
                return (f"{step * 1e3:.3f} ms, peak {peak / 2**30:.2f} GiB"
                        + ("" if fits else " (does not fit)")), fits, step

            cells = {name: cell(name) for name in runs}
            best = min((step for _, fits, step in cells.values() if fits), default=None)
            ratio = f"{chosen / best:.3f}" if best else "nothing else fits"
            print(f"| {args.layers} | {limit or 'none'} | {cells['whole'][0]} | "
                  f"{cells['data parallel'][0]} | {cells['Megatron'][0]} | "
                  f"{chosen * 1e3:.3f} ms, peak {chosen_peak / 2**30:.2f} GiB | {ratio} | "
                  f"{solve} s |")


def chosen_limit(text):
    """Bytes of a limit as --auto reads it (`6GB` and `6GiB` alike: powers of 1024), or
    None for no limit."""
    if not text:
        return None
    match = re.fullmatch(r"([0-9.]+)\s*([KMGT]?)(i?)B?", text)
    if not match:
        sys.exit(f"cannot read the memory limit {text}")
    power = " KMGT".index(match.group(2) or " ")
    return float(match.group(1)) * 1024 ** power


if __name__ == "__main__":
    main()
