#!/usr/bin/env python3
"""Regenerates the HLO corpus in this directory from JAX programs.

JAX is not a dependency of Tessel and CI never runs this script; the generated .hlo files
are committed. To regenerate (any machine with Python 3.10+):

    python3 -m venv /tmp/jax-venv && /tmp/jax-venv/bin/pip install jax jaxlib optax
    /tmp/jax-venv/bin/python tests/corpus/make_corpus.py [--stablehlo-only] [NAME...]

Five programs (an MLP, a transformer block, a conv net, an MoE layer and a training step
with Adam), and sixteen that exercise partitioning choices (contracting splits that
reduce-scatter, sequence parallelism, FSDP and ZeRO gradients, loops and conditionals
with invariant weights, scatter, gather, sort and argmax on split dims, expert
parallelism, GShard's grouped dispatch), a data-parallel momentum step for
weight-update sharding, a parallel
transformer block, training steps of the transformer block, the conv net, the
expert-parallel MoE and the sequence-parallel MLP, and twelve optimizer steps written with
optax (opt_*: sgd, momentum, adamw, lamb, lars, adafactor, clipping, biases, accumulation,
a training loop, a 2-D mesh, uneven weights), programs with random numbers, top-k, erf,
remat, bf16 and integer bits, and five more (shard_map with psum, with all_gather, ppermute,
pmax and psum, partly manual; a scan; dropout from the rbg key) are jitted with NamedSharding
annotations on a mesh of 8 CPU devices ("data"=4 x "model"=2). For each program NAME it
writes:

  NAME.hlo              jax.jit(f).lower(...).as_text(dialect="hlo") with Shardy on (the
                        default): GSPMD `sharding=` plus `xla.sdy.*` frontend attributes.
  NAME.gspmd.hlo        the same with jax_use_shardy_partitioner=False: `sharding=` only.
  NAME.partitioned.hlo  XLA's own SPMD-partitioned module (dumped right after the
                        spmd-partitioning pass, before CPU fusion), with collectives, for
                        comparing collective counts with Tessel's partitioner.
  NAME.stablehlo.mlir   jax.jit(f).lower(...).as_text(), what JAX prints by default:
                        StableHLO with Shardy's `sdy` dialect (meshes, shardings,
                        constraints, manual computations).

--stablehlo-only writes only the last kind (nothing is compiled).
"""

import glob
import os
import re
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

# --- programs for partition quality (the patterns of docs/partitioning.md) -----------------

def contracting_rowsplit(x, w):
    # The contracting dim is split; the consumer wants rows split: a reduce-scatter.
    return constrain(x @ w, P("model", None))


CONTRACTING_ROWSPLIT_ARGS = (spec((64, 128), P(None, "model")), spec((128, 64), P("model", None)))


def seq_parallel_mlp(x, scale, w1, w2):
    # Megatron sequence parallelism: the sequence is split over "model" outside the matmuls.
    h = layer_norm(x, scale)
    h = jax.nn.gelu(h @ w1)
    return constrain(h @ w2, P("model", None)) + x


SEQ_PARALLEL_ARGS = (spec((64, 32), P("model", None)), spec((32,), P()),
                     spec((32, 128), P(None, "model")), spec((128, 32), P("model", None)))


def transpose_back(x):
    # A split moved from one dim to the other: one all_to_all.
    return constrain(x.T * 2.0, P("data", None))


TRANSPOSE_BACK_ARGS = (spec((64, 32), P("data", None)),)


def while_invariant(h, w):
    # A data-dependent loop whose weight never changes: reshard it once, before the loop.
    def cond(state):
        h, i = state
        return jnp.logical_and(jnp.max(jnp.abs(h)) < 1e3, i < 4)

    def body(state):
        h, i = state
        return jnp.tanh(h @ w) * 2.0, i + 1

    h, _ = jax.lax.while_loop(cond, body, (h, 0))
    return h


WHILE_INVARIANT_ARGS = (spec((64, 32), P("data", None)), spec((32, 32), P("model", None)))


def fori_invariant(h, w, b):
    def body(i, h):
        return jax.nn.relu(h @ w + b)

    return jax.lax.fori_loop(0, 3, body, h)


FORI_INVARIANT_ARGS = (spec((64, 32), P("data", None)), spec((32, 32), P("data", None)),
                       spec((32,), P("model")))


def fsdp_mlp(x, w1, w2):
    # FSDP: weights stored split over "data" on their first dim, all-gathered for use.
    return jnp.tanh(x @ w1) @ w2


FSDP_ARGS = (spec((64, 32), P("data", None)), spec((32, 64), P("data", None)),
             spec((64, 16), P("data", None)))


def fsdp_grad(w1, w2, x, y):
    def loss(w1, w2):
        return jnp.mean((jnp.tanh(x @ w1) @ w2 - y) ** 2)

    g1, g2 = jax.grad(loss, argnums=(0, 1))(w1, w2)
    return constrain(g1, P("data", None)), constrain(g2, P("data", None))


FSDP_GRAD_ARGS = (spec((32, 64), P("data", None)), spec((64, 16), P("data", None)),
                  spec((64, 32), P("data", None)), spec((64, 16), P("data", None)))


def zero_grad(w, x, y):
    # ZeRO-2: replicated weights, gradients kept split over "data".
    g = jax.grad(lambda w: jnp.mean((x @ w - y) ** 2))(w)
    return constrain(g, P("data", None))


ZERO_GRAD_ARGS = (spec((32, 16), P()), spec((64, 32), P("data", None)),
                  spec((64, 16), P("data", None)))


def conv_kernel_grad(images, kernel, out_grad):
    # The kernel gradient of a convolution split along H: a local partial and an all-reduce.
    dn = ("NHWC", "HWIO", "NHWC")

    def f(k):
        return jax.lax.conv_general_dilated(images, k, (1, 1), "SAME", dimension_numbers=dn)

    _, vjp = jax.vjp(f, kernel)
    return vjp(out_grad)[0]


CONV_GRAD_ARGS = (spec((8, 16, 16, 4), P("data", "model", None, None)),
                  spec((3, 3, 4, 8), P()), spec((8, 16, 16, 8), P("data", "model", None, None)))


def segment_sum(data, ids):
    # Scatter-add with the rows and the indices split over "data".
    return jax.ops.segment_sum(data, ids, num_segments=16)


SEGMENT_SUM_ARGS = (spec((64, 32), P("data", None)), spec((64,), P("data"), jnp.int32))


def embedding_lookup(table, ids):
    # The vocabulary split over "model": a masked local gather and an all-reduce.
    return jnp.take(table, ids, axis=0)


EMBEDDING_ARGS = (spec((128, 32), P("model", None)), spec((64,), P("data"), jnp.int32))


def moe_expert_parallel(x, router, w_in, w_out):
    # Top-1 routing with a capacity; the experts live on "model" and stay there.
    experts, capacity = router.shape[1], 8
    gates = jax.nn.softmax(x @ router, axis=-1)
    expert = jnp.argmax(gates, axis=-1)
    onehot = jax.nn.one_hot(expert, experts, dtype=jnp.int32)
    position = jnp.cumsum(onehot, axis=0) * onehot - 1
    keep = (position < capacity) & (onehot > 0)
    dispatch = jax.nn.one_hot(position, capacity, dtype=x.dtype) * keep[..., None]
    combine = dispatch * jnp.max(gates, axis=-1)[:, None, None]
    expert_in = jnp.einsum("tec,td->ecd", dispatch, x)
    expert_in = constrain(expert_in, P("model", None, None))
    h = jax.nn.relu(jnp.einsum("ecd,edh->ech", expert_in, w_in))
    expert_out = jnp.einsum("ech,ehd->ecd", h, w_out)
    return jnp.einsum("tec,ecd->td", combine, expert_out)


MOE_EP_ARGS = (spec((64, 16), P("data", None)), spec((16, 4), P()),
               spec((4, 16, 32), P("model", None, None)), spec((4, 32, 16), P("model", None, None)))


def moe_gshard(x, router, w_in, w_out):
    # GShard's grouped dispatch: tokens in groups (one per device along "data"), top-1
    # routing with a per-group capacity, and experts split over "data" too. Dispatch is local
    # to each group; moving the expert inputs from group-split to expert-split (and back
    # after the experts) is an all-to-all, and the expert weights never move.
    experts, capacity = router.shape[1], 4
    gates = jax.nn.softmax(jnp.einsum("gsd,de->gse", x, router), axis=-1)
    expert = jnp.argmax(gates, axis=-1)
    onehot = jax.nn.one_hot(expert, experts, dtype=jnp.int32)
    position = jnp.cumsum(onehot, axis=1) * onehot - 1
    keep = (position < capacity) & (onehot > 0)
    dispatch = jax.nn.one_hot(position, capacity, dtype=x.dtype) * keep[..., None]
    combine = dispatch * jnp.max(gates, axis=-1)[..., None, None]
    expert_in = jnp.einsum("gsec,gsd->egcd", dispatch, x)
    expert_in = constrain(expert_in, P("data", None, None, None))
    h = jax.nn.relu(jnp.einsum("egcd,edh->egch", expert_in, w_in))
    expert_out = jnp.einsum("egch,ehd->egcd", h, w_out)
    expert_out = constrain(expert_out, P(None, "data", None, None))
    return jnp.einsum("gsec,egcd->gsd", combine, expert_out)


MOE_GSHARD_ARGS = (spec((4, 16, 16), P("data", None, None)), spec((16, 4), P()),
                   spec((4, 16, 32), P("data", None, None)),
                   spec((4, 32, 16), P("data", None, None)))


def argmax_split(x):
    # An argmax and a max along the split dim.
    return jnp.argmax(x, axis=1), jnp.max(x, axis=1)


ARGMAX_ARGS = (spec((64, 32), P("data", "model")),)


def sort_split(x):
    return jnp.sort(x, axis=0)


SORT_ARGS = (spec((64, 32), P("data", None)),)


def cond_branches(p, x, w):
    # Both branches read the weight the same way: the reshard goes before the conditional.
    return jax.lax.cond(p > 0, lambda: jnp.tanh(x @ w), lambda: jnp.sin(x @ w) * 2.0)


COND_ARGS = (spec((), P(), jnp.int32), spec((64, 32), P("data", None)),
             spec((32, 16), P("data", None)))


def dp_momentum(w1, b1, w2, b2, m1, mb1, m2, mb2, x, y):
    # Data-parallel SGD with momentum as JAX differentiates it: each weight gradient is a dot
    # yielding [out, in] and a transpose, each bias gradient a sum over the batch, a reshape
    # and a sum over a size-1 dimension (weight-update sharding folds both forms).
    def loss(w1, b1, w2, b2):
        return jnp.mean((jnp.tanh(x @ w1 + b1) @ w2 + b2 - y) ** 2)

    grads = jax.grad(loss, argnums=(0, 1, 2, 3))(w1, b1, w2, b2)
    params, moms = (w1, b1, w2, b2), (m1, mb1, m2, mb2)
    moms = tuple(0.9 * m + g for m, g in zip(moms, grads))
    return tuple(p - 0.1 * m for p, m in zip(params, moms)) + moms


DP_MOMENTUM_ARGS = tuple(spec(shape, P()) for shape in [(32, 64), (64,), (64, 16), (16,)] * 2) + (
    spec((64, 32), P("data", None)), spec((64, 16), P("data", None)))


def parallel_block(x, ln, wq, wo, w1, w2):
    # A parallel transformer block (GPT-J, PaLM): attention-like and MLP branches read the
    # same normalized input and are added to the residual together; both end row-parallel.
    h = layer_norm(x, ln)
    attn = jnp.tanh(h @ wq) @ wo
    mlp = jax.nn.gelu(h @ w1) @ w2
    return x + attn + mlp


PARALLEL_ARGS = (spec((8, 16, 32), P("data", None, None)), spec((32,), P()),
                 spec((32, 32), P(None, "model")), spec((32, 32), P("model", None)),
                 spec((32, 128), P(None, "model")), spec((128, 32), P("model", None)))


def _sgd_step(name, loss, momentum=False):
    # A training step of `loss(params, x)` named `name` (the jitted module's name): SGD, with
    # momentum when asked.
    if momentum:
        def step(params, m, x):
            g = jax.grad(loss)(params, x)
            m = jax.tree.map(lambda m, g: 0.9 * m + g, m, g)
            return jax.tree.map(lambda p, m: p - 0.01 * m, params, m), m
    else:
        def step(params, x):
            g = jax.grad(loss)(params, x)
            return jax.tree.map(lambda p, g: p - 0.01 * g, params, g)
    step.__name__ = step.__qualname__ = name
    return step


# Training steps of four of the programs above (the backward pass as JAX derives it).
transformer_train = _sgd_step(
    "transformer_train", lambda params, x: jnp.mean(transformer_block(x, *params) ** 2),
    momentum=True)
TRANSFORMER_TRAIN_ARGS = (TRANSFORMER_ARGS[1:], TRANSFORMER_ARGS[1:], TRANSFORMER_ARGS[0])
conv_train = _sgd_step(
    "conv_train", lambda params, images: jnp.mean(conv_net(images, *params) ** 2))
CONV_TRAIN_ARGS = (CONV_ARGS[1:], CONV_ARGS[0])
moe_train = _sgd_step(
    "moe_train", lambda params, x: jnp.mean(moe_expert_parallel(x, *params) ** 2))
MOE_TRAIN_ARGS = (MOE_EP_ARGS[1:], MOE_EP_ARGS[0])
seq_parallel_train = _sgd_step(
    "seq_parallel_train", lambda params, x: jnp.mean(seq_parallel_mlp(x, *params) ** 2))
SEQ_PARALLEL_TRAIN_ARGS = (SEQ_PARALLEL_ARGS[1:], SEQ_PARALLEL_ARGS[0])


# --- optimizer steps for weight-update sharding (optax) ------------------------------------
# Each is one data-parallel training step as a user writes it with optax: the batch is split
# over "data", weights and optimizer state are replicated there (on the 2-D mesh the weights
# keep a Megatron split over "model"), and the step returns new weights and new state.

def _optax():
    import optax  # only these programs need it
    return optax


def _mlp_loss(params, x, y):
    pred = jnp.tanh(x @ params["w1"]) @ params["w2"]
    return jnp.mean((pred - y) ** 2)


def _mlp_bias_loss(params, x, y):
    h = jnp.tanh(layer_norm(x, params["ln"]) @ params["w1"] + params["b1"])
    return jnp.mean((h @ params["w2"] + params["b2"] - y) ** 2)


def _optax_step(name, make_optimizer, loss=_mlp_loss, microbatches=1, steps=1):
    # A step `(params, state, x, y) -> (params, state)` named `name`. With microbatches > 1
    # the gradients of that many slices of the batch are summed in a loop before the update
    # (gradient accumulation); with steps > 1 the whole step runs that many times in a loop
    # on the same batch (a training loop).
    optimizer = make_optimizer()

    def grads_of(params, x, y):
        if microbatches == 1:
            return jax.grad(loss)(params, x, y)
        # Microbatch k takes every microbatches-th row from k on, so that each device's rows
        # of the batch are spread over all microbatches and every step stays data-parallel.
        def split(a):
            a = a.reshape(-1, microbatches, *a.shape[1:]).swapaxes(0, 1)
            return constrain(a, P(None, "data", *([None] * (a.ndim - 2))))

        xs, ys = split(x), split(y)

        def body(acc, batch):
            g = jax.grad(loss)(params, *batch)
            return jax.tree.map(jnp.add, acc, g), None

        zeros = jax.tree.map(jnp.zeros_like, params)
        acc, _ = jax.lax.scan(body, zeros, (xs, ys))
        return jax.tree.map(lambda g: g / microbatches, acc)

    def one(params, state, x, y):
        updates, state = optimizer.update(grads_of(params, x, y), state, params)
        return _optax().apply_updates(params, updates), state

    def step(params, state, x, y):
        if steps == 1:
            return one(params, state, x, y)
        return jax.lax.fori_loop(0, steps, lambda i, c: one(*c, x, y), (params, state))

    step.__name__ = step.__qualname__ = name
    return step, optimizer


def _optax_args(optimizer, weights, batch=(64, 32), target=(64, 8), batch_spec=P("data", None)):
    # weights: name -> (shape, partition). Optimizer state takes each weight's sharding; its
    # scalars (step counts) are replicated.
    params = {k: spec(shape, part) for k, (shape, part) in weights.items()}
    state_shapes = jax.eval_shape(optimizer.init, params)
    parts = {k: part for k, (shape, part) in weights.items()}

    def state_spec(path, leaf):
        key = next((k.key for k in reversed(path) if isinstance(getattr(k, "key", None), str)
                    and k.key in parts), None)
        part = parts[key] if key is not None and leaf.shape else P()
        return spec(leaf.shape, part, leaf.dtype)

    state = jax.tree_util.tree_map_with_path(state_spec, state_shapes)
    return params, state, spec(batch, batch_spec), spec(target, batch_spec)


MLP_WEIGHTS = {"w1": ((32, 64), P()), "w2": ((64, 8), P())}
BIAS_WEIGHTS = {"ln": ((32,), P()), "w1": ((32, 64), P()), "b1": ((64,), P()),
                "w2": ((64, 8), P()), "b2": ((8,), P())}
MEGATRON_WEIGHTS = {"w1": ((32, 64), P(None, "model")), "w2": ((64, 8), P("model", None))}
UNEVEN_WEIGHTS = {"w1": ((32, 50), P()), "w2": ((50, 6), P())}


def _optimizer_program(name, make_optimizer, weights=MLP_WEIGHTS, target=(64, 8), **kwargs):
    loss = kwargs.pop("loss", _mlp_loss)
    step, optimizer = _optax_step(name, make_optimizer, loss=loss, **kwargs)
    return step, _optax_args(optimizer, weights, target=target)


OPTIMIZER_PROGRAMS = {
    "opt_sgd": _optimizer_program("opt_sgd", lambda: _optax().sgd(0.1)),
    "opt_momentum": _optimizer_program(
        "opt_momentum", lambda: _optax().sgd(0.1, momentum=0.9, nesterov=True)),
    "opt_adamw": _optimizer_program(
        "opt_adamw", lambda: _optax().adamw(1e-3, weight_decay=0.01)),
    "opt_lamb": _optimizer_program("opt_lamb", lambda: _optax().lamb(1e-3)),
    "opt_lars": _optimizer_program("opt_lars", lambda: _optax().lars(0.1)),
    "opt_adafactor": _optimizer_program(
        "opt_adafactor", lambda: _optax().adafactor(1e-3, min_dim_size_to_factor=16)),
    "opt_clip_adam": _optimizer_program(
        "opt_clip_adam",
        lambda: _optax().chain(_optax().clip_by_global_norm(1.0), _optax().adam(1e-3))),
    "opt_biases": _optimizer_program(
        "opt_biases", lambda: _optax().adam(1e-3), weights=BIAS_WEIGHTS, loss=_mlp_bias_loss),
    "opt_accumulate": _optimizer_program(
        "opt_accumulate", lambda: _optax().adam(1e-3), microbatches=4),
    "opt_train_loop": _optimizer_program(
        "opt_train_loop", lambda: _optax().sgd(0.1, momentum=0.9), steps=3),
    "opt_2d_mesh": _optimizer_program(
        "opt_2d_mesh", lambda: _optax().adam(1e-3), weights=MEGATRON_WEIGHTS),
    "opt_uneven": _optimizer_program(
        "opt_uneven", lambda: _optax().adam(1e-3), weights=UNEVEN_WEIGHTS, target=(64, 6)),
}


# --- programs with the ops of random numbers, top-k, erf, remat, bf16 and integer bits ----

def dropout_mlp(key, x, w1, w2):
    h = jax.nn.relu(x @ w1)
    keep = jax.random.bernoulli(key, 0.9, h.shape)
    return jnp.where(keep, h / 0.9, 0.0) @ w2


DROPOUT_ARGS = (jax.ShapeDtypeStruct((2,), jnp.uint32, sharding=NamedSharding(MESH, P())),
                spec((32, 64), P("data", None)), spec((64, 128), P(None, "model")),
                spec((128, 64), P("model", None)))


def topk_logits(x, w):
    logits = constrain(x @ w, P("data", "model"))
    return jax.lax.top_k(logits, 4)


TOPK_ARGS = (spec((32, 64), P("data", None)), spec((64, 512), P(None, "model")))


def gelu_erf_mlp(x, w1, w2):
    return jax.nn.gelu(x @ w1, approximate=False) @ w2


GELU_ERF_ARGS = (spec((32, 64), P("data", None)), spec((64, 128), P(None, "model")),
                 spec((128, 64), P("model", None)))


def remat_train(w1, w2, x, y):
    def layer(h, w):
        return jnp.tanh(h @ w)

    def loss(w1, w2):
        h = jax.checkpoint(layer)(x, w1)
        h = jax.checkpoint(layer)(h, w2)
        return jnp.mean((h - y) ** 2)

    g1, g2 = jax.grad(loss, argnums=(0, 1))(w1, w2)
    return w1 - 0.1 * g1, w2 - 0.1 * g2


REMAT_ARGS = (spec((64, 128), P(None, "model")), spec((128, 64), P("model", None)),
              spec((32, 64), P("data", None)), spec((32, 64), P("data", None)))


def bf16_mlp(x, w1, w2):
    h = jnp.dot(x, w1, preferred_element_type=jnp.float32)
    h = jax.nn.relu(h).astype(jnp.bfloat16)
    return jnp.dot(h, w2, preferred_element_type=jnp.float32)


BF16_ARGS = (spec((32, 64), P("data", None), jnp.bfloat16),
             spec((64, 128), P(None, "model"), jnp.bfloat16),
             spec((128, 64), P("model", None), jnp.bfloat16))


def int_hash(ids, table):
    h = ids.astype(jnp.uint32) * jnp.uint32(2654435761)
    h = h ^ (h >> 15)
    bits = jax.lax.population_count(h) + jax.lax.clz(h)
    bucket = (h % table.shape[0]).astype(jnp.int32)
    return table[bucket] * bits[..., None].astype(jnp.float32)


INT_HASH_ARGS = (spec((32, 16), P("data", None), jnp.int32), spec((64, 32), P(None, "model")))


# --- shard_map, scan and rbg keys ---------------------------------------------------------

def shard_map_psum(x, w):
    # Megatron's row-parallel matmul written by hand: the partial products summed over "model".
    def body(x, w):
        return jax.lax.psum(x @ w, "model")

    return jax.shard_map(body, mesh=MESH, in_specs=(P("data", "model"), P("model", None)),
                         out_specs=P("data", None))(x, w)


SHARD_MAP_PSUM_ARGS = (spec((32, 64), P("data", "model")), spec((64, 16), P("model", None)))


def shard_map_collectives(x):
    # all_gather, ppermute (a ring shift) and pmax in one body.
    def body(x):
        gathered = jax.lax.all_gather(x, "model", axis=1, tiled=True)
        shifted = jax.lax.ppermute(x, "data", perm=[(i, (i + 1) % 4) for i in range(4)])
        peak = jax.lax.pmax(jnp.max(x, axis=1, keepdims=True), ("data", "model"))
        shifted = jax.lax.psum(shifted.sum(axis=1, keepdims=True), "model")
        return gathered.sum(axis=1, keepdims=True) + shifted + peak

    # Each device's column is its own: the result is split over "model" as well.
    return jax.shard_map(body, mesh=MESH, in_specs=P("data", "model"),
                         out_specs=P("data", "model"))(x)


SHARD_MAP_COLLECTIVES_ARGS = (spec((32, 16), P("data", "model")),)


def shard_map_partial(x, w):
    # Manual over "model" only; "data" stays automatic inside the body.
    def body(x, w):
        return jax.lax.psum(jnp.tanh(x @ w), "model")

    y = jax.shard_map(body, mesh=MESH, in_specs=(P(None, "model"), P("model", None)),
                      out_specs=P(), axis_names={"model"})(x, w)
    return constrain(y, P("data", None))


SHARD_MAP_PARTIAL_ARGS = (spec((32, 64), P("data", "model")), spec((64, 16), P("model", None)))


def scan_rnn(h0, xs, w_h, w_x):
    def step(h, x):
        h = jnp.tanh(h @ w_h + x @ w_x)
        return h, h.sum(axis=-1)

    h, sums = jax.lax.scan(step, h0, xs)
    return h, sums


SCAN_RNN_ARGS = (spec((32, 64), P("data", None)), spec((6, 32, 16), P(None, "data", None)),
                 spec((64, 64), P(None, "model")), spec((16, 64), P(None, "model")))


def rbg_dropout(key, x, w):
    # Dropout from XLA's RngBitGenerator (the rbg key), its mask sharded like the activations.
    h = constrain(jax.nn.relu(x @ w), P("data", "model"))
    keep = jax.random.bernoulli(jax.random.wrap_key_data(key, impl="rbg"), 0.8, h.shape)
    return jnp.where(keep, h / 0.8, 0.0)


RBG_DROPOUT_ARGS = (jax.ShapeDtypeStruct((4,), jnp.uint32, sharding=NamedSharding(MESH, P())),
                    spec((32, 64), P("data", None)), spec((64, 128), P(None, "model")))


PROGRAMS = {
    "mlp": (mlp, MLP_ARGS),
    "transformer_block": (transformer_block, TRANSFORMER_ARGS),
    "conv_net": (conv_net, CONV_ARGS),
    "moe_layer": (moe_layer, MOE_ARGS),
    "train_step": (train_step, TRAIN_ARGS),
    "contracting_rowsplit": (contracting_rowsplit, CONTRACTING_ROWSPLIT_ARGS),
    "seq_parallel_mlp": (seq_parallel_mlp, SEQ_PARALLEL_ARGS),
    "transpose_back": (transpose_back, TRANSPOSE_BACK_ARGS),
    "while_invariant": (while_invariant, WHILE_INVARIANT_ARGS),
    "fori_invariant": (fori_invariant, FORI_INVARIANT_ARGS),
    "fsdp_mlp": (fsdp_mlp, FSDP_ARGS),
    "fsdp_grad": (fsdp_grad, FSDP_GRAD_ARGS),
    "zero_grad": (zero_grad, ZERO_GRAD_ARGS),
    "conv_kernel_grad": (conv_kernel_grad, CONV_GRAD_ARGS),
    "segment_sum": (segment_sum, SEGMENT_SUM_ARGS),
    "embedding_lookup": (embedding_lookup, EMBEDDING_ARGS),
    "moe_expert_parallel": (moe_expert_parallel, MOE_EP_ARGS),
    "moe_gshard": (moe_gshard, MOE_GSHARD_ARGS),
    "argmax_split": (argmax_split, ARGMAX_ARGS),
    "sort_split": (sort_split, SORT_ARGS),
    "cond_branches": (cond_branches, COND_ARGS),
    "dp_momentum": (dp_momentum, DP_MOMENTUM_ARGS),
    "parallel_block": (parallel_block, PARALLEL_ARGS),
    "transformer_train": (transformer_train, TRANSFORMER_TRAIN_ARGS),
    "conv_train": (conv_train, CONV_TRAIN_ARGS),
    "moe_train": (moe_train, MOE_TRAIN_ARGS),
    "seq_parallel_train": (seq_parallel_train, SEQ_PARALLEL_TRAIN_ARGS),
    "dropout_mlp": (dropout_mlp, DROPOUT_ARGS),
    "topk_logits": (topk_logits, TOPK_ARGS),
    "gelu_erf_mlp": (gelu_erf_mlp, GELU_ERF_ARGS),
    "remat_train": (remat_train, REMAT_ARGS),
    "bf16_mlp": (bf16_mlp, BF16_ARGS),
    "int_hash": (int_hash, INT_HASH_ARGS),
    "shard_map_psum": (shard_map_psum, SHARD_MAP_PSUM_ARGS),
    "shard_map_collectives": (shard_map_collectives, SHARD_MAP_COLLECTIVES_ARGS),
    "shard_map_partial": (shard_map_partial, SHARD_MAP_PARTIAL_ARGS),
    "scan_rnn": (scan_rnn, SCAN_RNN_ARGS),
    "rbg_dropout": (rbg_dropout, RBG_DROPOUT_ARGS),
    **OPTIMIZER_PROGRAMS,
}


def header(text, name, mode):
    return (f"// Generated by tests/corpus/make_corpus.py from JAX {jax.__version__} "
            f"({mode}); do not edit.\n// Program: {name}.\n") + text


def write(path, text):
    # XLA's dump names source files by their absolute paths; keep the repository-relative
    # one, and installed packages from site-packages/ on.
    text = text.replace(os.path.abspath(__file__), "tests/corpus/make_corpus.py")
    text = re.sub(r'"[^"\n]*/site-packages/', '"site-packages/', text)
    with open(path, "w") as f:
        f.write(text if text.endswith("\n") else text + "\n")
    print("wrote", os.path.relpath(path))


def main():
    # Names given on the command line regenerate only those programs.
    args = sys.argv[1:]
    stablehlo_only = "--stablehlo-only" in args
    only = set(a for a in args if a != "--stablehlo-only")
    unknown = only - set(PROGRAMS)
    if unknown:
        sys.exit(f"unknown programs: {sorted(unknown)}")
    for name, (fn, args) in PROGRAMS.items():
        if only and name not in only:
            continue
        jitted = jax.jit(fn)
        jax.config.update("jax_use_shardy_partitioner", True)
        write(os.path.join(OUT_DIR, f"{name}.stablehlo.mlir"),
              header(jitted.lower(*args).as_text(), name, "lowered, StableHLO with Shardy"))
        if stablehlo_only:
            continue
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
