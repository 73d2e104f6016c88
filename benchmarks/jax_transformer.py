"""The pre-LayerNorm transformer block the JAX benchmark scripts build their models from.

Layer norm, attention with a causal softmax, a GELU MLP in tanh form, each with a residual:
the shape of benchmarks/make_transformer_hlo.py's programs. Needs JAX (imported on use).

    from jax_transformer import block
    x = block(x, (ln1, wq, wk, wv, wo, ln2, w1, w2), heads=16)   # x: [batch, seq, d]
"""


def block(x, params, heads):
    """One block on x [batch, seq, d]; params: ln1[d], wq wk wv wo[d, d], ln2[d],
    w1[d, ff], w2[ff, d]."""
    import jax
    import jax.numpy as jnp

    batch, seq, d = x.shape
    ln1, wq, wk, wv, wo, ln2, w1, w2 = params

    def layer_norm(y, scale):
        mean = jnp.mean(y, axis=-1, keepdims=True)
        var = jnp.mean(jnp.square(y - mean), axis=-1, keepdims=True)
        return (y - mean) * jax.lax.rsqrt(var + 1e-5) * scale

    def attention(y):
        q = (y @ wq).reshape(batch, seq, heads, d // heads)
        k = (y @ wk).reshape(batch, seq, heads, d // heads)
        v = (y @ wv).reshape(batch, seq, heads, d // heads)
        scores = jnp.einsum("bqhd,bkhd->bhqk", q, k) / jnp.sqrt(d // heads).astype(jnp.float32)
        causal = jnp.tril(jnp.ones((seq, seq), dtype=bool))
        probs = jax.nn.softmax(jnp.where(causal, scores, -1e9), axis=-1)
        return jnp.einsum("bhqk,bkhd->bqhd", probs, v).reshape(batch, seq, d) @ wo

    x = x + attention(layer_norm(x, ln1))
    return x + jax.nn.gelu(layer_norm(x, ln2) @ w1, approximate=True) @ w2
