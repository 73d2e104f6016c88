#!/usr/bin/env python3
"""Regenerates the HLO corpus in this directory from JAX programs.

JAX is not a dependency of Tessel and CI never runs this script; the generated .hlo files
are committed. To regenerate (any machine with Python 3.10+):

    python3 -m venv /tmp/jax-venv && /tmp/jax-venv/bin/pip install jax jaxlib
    /tmp/jax-venv/bin/python tests/corpus/make_corpus.py

Five programs (an MLP, a transformer block, a conv net, an MoE layer and a training step
with Adam) are jitted with NamedSharding annotations on a mesh of 8 CPU devices
("data"=4 x "model"=2). For each program NAME it writes:

  NAME.hlo              jax.jit(f).lower(...).as_text(dialect="hlo") with Shardy on (the
                        default): GSPMD `sharding=` plus `xla.sdy.*` frontend attributes.
  NAME.gspmd.hlo        the same with jax_use_shardy_partitioner=False: `sharding=` only.
  NAME.partitioned.hlo  XLA's own SPMD-partitioned module (dumped right after the
                        spmd-partitioning pass, before CPU fusion), with collectives, for
                        comparing collective counts with Tessel's partitioner.
"""

import glob
import os
import shutil
import sys
import tempfile

DUMP_DIR = tempfile.mkdtemp(prefix="tessel-corpus-dump-")
os.environ["XLA_FLAGS"] = " ".join([
    "--xla_force_host_platform_device_count=8",
    f"--xla_dump_to={DUMP_DIR}",
    "--xla_dump_hlo_pass_re=spmd-partitioning",
])

import jax  # noqa: E402  (XLA_FLAGS must be set first)
import jax.numpy as jnp  # noqa: E402
from jax.sharding import AxisType, NamedSharding, PartitionSpec as P  # noqa: E402

OUT_DIR = os.path.dirname(os.path.abspath(__file__))
MESH = jax.make_mesh((4, 2), ("data", "model"), axis_types=(AxisType.Auto, AxisType.Auto))


def spec(shape, partition, dtype=jnp.float32):
    return jax.ShapeDtypeStruct(shape, dtype, sharding=NamedSharding(MESH, partition))


def constrain(x, partition):
    return jax.lax.with_sharding_constraint(x, NamedSharding(MESH, partition))


# --- the programs -------------------------------------------------------------------------

def mlp(x, w1, b1, w2, b2):
    h = jax.nn.gelu(x @ w1 + b1)
    h = constrain(h, P("data", "model"))
    return h @ w2 + b2


MLP_ARGS = (spec((32, 64), P("data", None)), spec((64, 128), P(None, "model")),
            spec((128,), P("model")), spec((128, 64), P("model", None)), spec((64,), P()))


def layer_norm(x, scale):
    mean = x.mean(-1, keepdims=True)
    var = ((x - mean) ** 2).mean(-1, keepdims=True)
    return (x - mean) * jax.lax.rsqrt(var + 1e-5) * scale


def transformer_block(x, ln1, wq, wk, wv, wo, ln2, w1, w2):
    heads = 4
    b, s, d = x.shape
    h = layer_norm(x, ln1)
    q = (h @ wq).reshape(b, s, heads, d // heads)
    k = (h @ wk).reshape(b, s, heads, d // heads)
    v = (h @ wv).reshape(b, s, heads, d // heads)
    logits = jnp.einsum("bqhd,bkhd->bhqk", q, k) / jnp.sqrt(d // heads)
    mask = jnp.tril(jnp.ones((s, s), bool))
    logits = jnp.where(mask, logits, -1e9)
    attn = jax.nn.softmax(logits, axis=-1)
    o = jnp.einsum("bhqk,bkhd->bqhd", attn, v).reshape(b, s, d)
    x = x + o @ wo
    h = layer_norm(x, ln2)
    return x + jax.nn.gelu(h @ w1) @ w2


D = 32
TRANSFORMER_ARGS = (
    spec((8, 16, D), P("data", None, None)), spec((D,), P()),
    spec((D, D), P(None, "model")), spec((D, D), P(None, "model")),
    spec((D, D), P(None, "model")), spec((D, D), P("model", None)), spec((D,), P()),
    spec((D, 4 * D), P(None, "model")), spec((4 * D, D), P("model", None)))


def conv_net(images, k1, k2, w):
    dn = ("NHWC", "HWIO", "NHWC")
    h = jax.lax.conv_general_dilated(images, k1, (1, 1), "SAME", dimension_numbers=dn)
    h = jax.nn.relu(h)
    h = jax.lax.reduce_window(h, 0.0, jax.lax.add, (1, 2, 2, 1), (1, 2, 2, 1), "VALID") / 4
    h = jax.lax.conv_general_dilated(h, k2, (2, 2), ((1, 1), (1, 1)), dimension_numbers=dn)
    h = jax.nn.relu(h).mean(axis=(1, 2))
    return h @ w


CONV_ARGS = (spec((8, 16, 16, 3), P("data", None, None, None)),
             spec((3, 3, 3, 16), P(None, None, None, "model")),
             spec((3, 3, 16, 32), P(None, None, "model", None)),
             spec((32, 10), P()))


def moe_layer(x, router, w_in, w_out):
    # Top-1 routing with dense dispatch and combine tensors (GShard style).
    experts = router.shape[1]
    gates = jax.nn.softmax(x @ router, axis=-1)
    expert = jnp.argmax(gates, axis=-1)
    dispatch = jax.nn.one_hot(expert, experts, dtype=x.dtype)
    combine = dispatch * gates
    expert_in = jnp.einsum("te,td->etd", dispatch, x)
    expert_in = constrain(expert_in, P("model", "data", None))
    h = jax.nn.relu(jnp.einsum("etd,edh->eth", expert_in, w_in))
    expert_out = jnp.einsum("eth,ehd->etd", h, w_out)
    return jnp.einsum("te,etd->td", combine, expert_out)


MOE_ARGS = (spec((64, 16), P("data", None)), spec((16, 4), P()),
            spec((4, 16, 32), P("model", None, None)), spec((4, 32, 16), P("model", None, None)))


def loss_fn(params, x, y):
    w1, w2 = params
    pred = jnp.tanh(x @ w1) @ w2
    return jnp.mean((pred - y) ** 2)


def train_step(params, m, v, step, x, y):
    # One Adam step.
    lr, b1, b2, eps = 1e-3, 0.9, 0.999, 1e-8
    loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
    step = step + 1
    m = jax.tree.map(lambda m, g: b1 * m + (1 - b1) * g, m, grads)
    v = jax.tree.map(lambda v, g: b2 * v + (1 - b2) * g * g, v, grads)
    t = step.astype(jnp.float32)
    def update(p, m, v):
        m_hat = m / (1 - b1 ** t)
        v_hat = v / (1 - b2 ** t)
        return p - lr * m_hat / (jnp.sqrt(v_hat) + eps)
    params = jax.tree.map(update, params, m, v)
    return params, m, v, step, loss


W_SPECS = (spec((32, 64), P(None, "model")), spec((64, 8), P("model", None)))
TRAIN_ARGS = (W_SPECS, W_SPECS, W_SPECS, spec((), P(), jnp.int32),
              spec((64, 32), P("data", None)), spec((64, 8), P("data", None)))

PROGRAMS = {
    "mlp": (mlp, MLP_ARGS),
    "transformer_block": (transformer_block, TRANSFORMER_ARGS),
    "conv_net": (conv_net, CONV_ARGS),
    "moe_layer": (moe_layer, MOE_ARGS),
    "train_step": (train_step, TRAIN_ARGS),
}


def header(text, name, mode):
    return (f"// Generated by tests/corpus/make_corpus.py from JAX {jax.__version__} "
            f"({mode}); do not edit.\n// Program: {name}.\n") + text


def write(path, text):
    with open(path, "w") as f:
        f.write(text if text.endswith("\n") else text + "\n")
    print("wrote", os.path.relpath(path))


def main():
    for name, (fn, args) in PROGRAMS.items():
        jitted = jax.jit(fn)
        jax.config.update("jax_use_shardy_partitioner", False)
        write(os.path.join(OUT_DIR, f"{name}.gspmd.hlo"),
              header(jitted.lower(*args).as_text(dialect="hlo"), name, "lowered, Shardy off"))
        jax.config.update("jax_use_shardy_partitioner", True)
        lowered = jitted.lower(*args)
        write(os.path.join(OUT_DIR, f"{name}.hlo"),
              header(lowered.as_text(dialect="hlo"), name, "lowered, Shardy on"))
        lowered.compile()
        dumps = glob.glob(os.path.join(DUMP_DIR, f"*.jit_{name}.*after_spmd-partitioning*"))
        if len(dumps) != 1:
            sys.exit(f"expected one partitioned dump of {name}, found {dumps}")
        with open(dumps[0]) as f:
            write(os.path.join(OUT_DIR, f"{name}.partitioned.hlo"),
                  header(f.read(), name, "XLA SPMD-partitioned, Shardy on"))
    shutil.rmtree(DUMP_DIR)


if __name__ == "__main__":
    main()
