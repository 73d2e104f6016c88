#!/usr/bin/env python3
"""Writes a transformer-like XLA HLO module of any size, for the scaling benchmarks.

The module has the shape of what JAX emits for an unrolled pre-LayerNorm transformer with
Megatron and data shardings on a 4x2 mesh (GSPMD `sharding=` on the parameters): per layer
two layer norms written out (mean, variance, rsqrt, scale), four attention projections
(q, k, v split over "model" by columns, the output projection by rows), a causal softmax
(iota mask, max, exp, sum, divide), an MLP with a GELU in tanh form (w1 by columns, w2 by
rows) and two residual adds. Each layer has its own weights, as an unrolled model does.
About 120 instructions per layer, so --instructions picks the layer count.

    python3 benchmarks/make_transformer_hlo.py --instructions 100000 > /tmp/t100k.hlo
    tessel partition /tmp/t100k.hlo --timing --output=/dev/null

With --unannotated the parameters carry no shardings, for auto-sharding to choose them
(--distinct makes every layer's MLP another width, so that no layer repeats):

    python3 benchmarks/make_transformer_hlo.py --layers 96 --unannotated > /tmp/t96.hlo
    tessel partition /tmp/t96.hlo --mesh=data=4,model=2 --auto --output=/dev/null

Names are numbered over the whole module (`sum.5`, `mean.6`) unless --per-stem numbers
each stem on its own (`sum.1`, `mean.1`, `sum.2`), as JAX's HLO names its instructions.
"""
import argparse
import sys

B, S, D, H, F = 8, 32, 64, 4, 256
DH = D // H

# Tile assignments on the 4x2 mesh ("data" major, "model" minor), as JAX writes them.
DATA = "{devices=[4,1,1,2]<=[8] last_tile_dim_replicate}"
MODEL_COLS = "{devices=[1,2,4]<=[4,2]T(1,0) last_tile_dim_replicate}"
MODEL_ROWS = "{devices=[2,1,4]<=[4,2]T(1,0) last_tile_dim_replicate}"
REPLICATED = "{replicated}"

REGIONS = """region_add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}

region_max {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT m = f32[] maximum(a, b)
}
"""


class Writer:
    def __init__(self, annotated=True, per_stem=False):
        self.lines = []
        self.count = 0
        self.params = 0
        self.annotated = annotated
        self.per_stem = per_stem
        self.stem_counts = {}

    def op(self, name, text):
        self.count += 1
        number = self.count
        if self.per_stem:
            number = self.stem_counts[name] = self.stem_counts.get(name, 0) + 1
        full = f"{name}.{number}"
        self.lines.append(f"  {full} = {text}")
        return full

    def param(self, name, shape, sharding):
        index = self.params
        self.params += 1
        if not self.annotated:
            return self.op(name, f"{shape} parameter({index})")
        return self.op(name, f"{shape} parameter({index}), sharding={sharding}")


def t(*dims):
    return "f32[" + ",".join(str(d) for d in dims) + "]"


def layer_norm(w, x, scale_name):
    zero = w.op("zero", "f32[] constant(0)")
    n = w.op("n", f"f32[] constant({D})")
    nb = w.op("nb", f"{t(B, S)} broadcast({n}), dimensions={{}}")
    total = w.op("sum", f"{t(B, S)} reduce({x}, {zero}), dimensions={{2}}, to_apply=region_add")
    mean = w.op("mean", f"{t(B, S)} divide({total}, {nb})")
    meanb = w.op("meanb", f"{t(B, S, D)} broadcast({mean}), dimensions={{0,1}}")
    centred = w.op("centred", f"{t(B, S, D)} subtract({x}, {meanb})")
    square = w.op("square", f"{t(B, S, D)} multiply({centred}, {centred})")
    var_sum = w.op("varsum", f"{t(B, S)} reduce({square}, {zero}), dimensions={{2}}, to_apply=region_add")
    var = w.op("var", f"{t(B, S)} divide({var_sum}, {nb})")
    eps = w.op("eps", "f32[] constant(1e-05)")
    epsb = w.op("epsb", f"{t(B, S)} broadcast({eps}), dimensions={{}}")
    shifted = w.op("shifted", f"{t(B, S)} add({var}, {epsb})")
    rstd = w.op("rstd", f"{t(B, S)} rsqrt({shifted})")
    rstdb = w.op("rstdb", f"{t(B, S, D)} broadcast({rstd}), dimensions={{0,1}}")
    normed = w.op("normed", f"{t(B, S, D)} multiply({centred}, {rstdb})")
    scale = w.param(scale_name, t(D), REPLICATED)
    scaleb = w.op("scaleb", f"{t(B, S, D)} broadcast({scale}), dimensions={{2}}")
    return w.op("ln", f"{t(B, S, D)} multiply({normed}, {scaleb})")


def attention(w, x):
    heads = []
    for name in ("wq", "wk", "wv"):
        weight = w.param(name, t(D, D), MODEL_COLS)
        proj = w.op("proj", f"{t(B, S, D)} dot({x}, {weight}), lhs_contracting_dims={{2}}, rhs_contracting_dims={{0}}")
        heads.append(w.op("heads", f"{t(B, S, H, DH)} reshape({proj})"))
    q, k, v = heads
    scores = w.op("scores", f"{t(B, H, S, S)} dot({q}, {k}), lhs_batch_dims={{0,2}}, lhs_contracting_dims={{3}}, rhs_batch_dims={{0,2}}, rhs_contracting_dims={{3}}")
    root = w.op("root", "f32[] constant(4)")
    rootb = w.op("rootb", f"{t(B, H, S, S)} broadcast({root}), dimensions={{}}")
    scaled = w.op("scaled", f"{t(B, H, S, S)} divide({scores}, {rootb})")
    rows = w.op("rows", f"s32[{S},{S}] iota(), iota_dimension=0")
    cols = w.op("cols", f"s32[{S},{S}] iota(), iota_dimension=1")
    causal = w.op("causal", f"pred[{S},{S}] compare({rows}, {cols}), direction=GE")
    causalb = w.op("causalb", f"pred[{B},{H},{S},{S}] broadcast({causal}), dimensions={{2,3}}")
    low = w.op("low", "f32[] constant(-1e+09)")
    lowb = w.op("lowb", f"{t(B, H, S, S)} broadcast({low}), dimensions={{}}")
    masked = w.op("masked", f"{t(B, H, S, S)} select({causalb}, {scaled}, {lowb})")
    ninf = w.op("ninf", "f32[] constant(-inf)")
    top = w.op("top", f"{t(B, H, S)} reduce({masked}, {ninf}), dimensions={{3}}, to_apply=region_max")
    topb = w.op("topb", f"{t(B, H, S, S)} broadcast({top}), dimensions={{0,1,2}}")
    shifted = w.op("shifted", f"{t(B, H, S, S)} subtract({masked}, {topb})")
    e = w.op("exp", f"{t(B, H, S, S)} exponential({shifted})")
    zero = w.op("zero", "f32[] constant(0)")
    denom = w.op("denom", f"{t(B, H, S)} reduce({e}, {zero}), dimensions={{3}}, to_apply=region_add")
    denomb = w.op("denomb", f"{t(B, H, S, S)} broadcast({denom}), dimensions={{0,1,2}}")
    probs = w.op("probs", f"{t(B, H, S, S)} divide({e}, {denomb})")
    mixed = w.op("mixed", f"{t(B, H, S, DH)} dot({probs}, {v}), lhs_batch_dims={{0,1}}, lhs_contracting_dims={{3}}, rhs_batch_dims={{0,2}}, rhs_contracting_dims={{1}}")
    moved = w.op("moved", f"{t(B, S, H, DH)} transpose({mixed}), dimensions={{0,2,1,3}}")
    flat = w.op("flat", f"{t(B, S, D)} reshape({moved})")
    wo = w.param("wo", t(D, D), MODEL_ROWS)
    return w.op("attn", f"{t(B, S, D)} dot({flat}, {wo}), lhs_contracting_dims={{2}}, rhs_contracting_dims={{0}}")


def mlp(w, x, F=F):
    w1 = w.param("w1", t(D, F), MODEL_COLS)
    h = w.op("h", f"{t(B, S, F)} dot({x}, {w1}), lhs_contracting_dims={{2}}, rhs_contracting_dims={{0}}")
    # GELU, tanh form: 0.5 h (1 + tanh(c (h + 0.044715 h^3)))
    cube = w.op("cube", f"{t(B, S, F)} multiply({h}, {h})")
    cube = w.op("cube", f"{t(B, S, F)} multiply({cube}, {h})")
    k = w.op("k", "f32[] constant(0.044715)")
    kb = w.op("kb", f"{t(B, S, F)} broadcast({k}), dimensions={{}}")
    term = w.op("term", f"{t(B, S, F)} multiply({cube}, {kb})")
    inner = w.op("inner", f"{t(B, S, F)} add({h}, {term})")
    c = w.op("c", "f32[] constant(0.797884583)")
    cb = w.op("cb", f"{t(B, S, F)} broadcast({c}), dimensions={{}}")
    arg = w.op("arg", f"{t(B, S, F)} multiply({inner}, {cb})")
    th = w.op("tanh", f"{t(B, S, F)} tanh({arg})")
    one = w.op("one", "f32[] constant(1)")
    oneb = w.op("oneb", f"{t(B, S, F)} broadcast({one}), dimensions={{}}")
    plus = w.op("plus", f"{t(B, S, F)} add({th}, {oneb})")
    half = w.op("half", "f32[] constant(0.5)")
    halfb = w.op("halfb", f"{t(B, S, F)} broadcast({half}), dimensions={{}}")
    hh = w.op("hh", f"{t(B, S, F)} multiply({h}, {halfb})")
    g = w.op("gelu", f"{t(B, S, F)} multiply({hh}, {plus})")
    w2 = w.param("w2", t(F, D), MODEL_ROWS)
    return w.op("mlp", f"{t(B, S, D)} dot({g}, {w2}), lhs_contracting_dims={{2}}, rhs_contracting_dims={{0}}")


def module(layers, annotated=True, distinct=False, per_stem=False):
    w = Writer(annotated, per_stem)
    x = w.param("x", t(B, S, D), DATA)
    for layer in range(layers):
        a = attention(w, layer_norm(w, x, "ln1"))
        x = w.op("resid", f"{t(B, S, D)} add({x}, {a})")
        # Distinct layers: each MLP 8 units wider than the one before, so no two repeat.
        m = mlp(w, layer_norm(w, x, "ln2"), F + 8 * layer if distinct else F)
        x = w.op("resid", f"{t(B, S, D)} add({x}, {m})")
    w.lines[-1] = w.lines[-1].replace("  resid", "  ROOT resid", 1)
    head = f"HloModule transformer_{layers}_layers, num_partitions=8\n\n{REGIONS}\nENTRY main {{\n"
    return head + "\n".join(w.lines) + "\n}\n", w.count


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--layers", type=int)
    group.add_argument("--instructions", type=int, help="about this many instructions")
    parser.add_argument("--unannotated", action="store_true",
                        help="parameters without shardings (for tessel --auto)")
    parser.add_argument("--distinct", action="store_true",
                        help="every layer's MLP of another width, so that no layer repeats")
    parser.add_argument("--per-stem", action="store_true",
                        help="number each name's stem on its own, as JAX does")
    args = parser.parse_args()
    layers = args.layers
    if layers is None:
        per_layer = module(1)[1]
        layers = max(1, round(args.instructions / per_layer))
    text, _ = module(layers, annotated=not args.unannotated, distinct=args.distinct,
                     per_stem=args.per_stem)
    sys.stdout.write(text)


if __name__ == "__main__":
    main()
