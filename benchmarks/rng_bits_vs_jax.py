#!/usr/bin/env python3
"""hlo.rng_bit_generator against XLA: the same bits and the same next state, bit for bit.

For every algorithm (three_fry, philox, default), output shape (rank 0 to 3, odd and even
sizes) and element type (u8, u16, u32, u64), this lowers `jax.lax.rng_bit_generator` with
JAX, runs it on XLA's CPU backend and with `tessel run` on the HLO JAX wrote, and compares
both results exactly. Needs JAX (not a dependency of Tessel); not part of CI.

    bazel build //tools/tessel
    python3 benchmarks/rng_bits_vs_jax.py [--tessel bazel-bin/tools/tessel/tessel]
"""
import argparse
import glob
import itertools
import os
import subprocess
import sys
import tempfile

import jax

jax.config.update("jax_enable_x64", True)
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402
from jax import lax  # noqa: E402

ALGORITHMS = {
    "three_fry": lax.RandomAlgorithm.RNG_THREE_FRY,
    "philox": lax.RandomAlgorithm.RNG_PHILOX,
    "default": lax.RandomAlgorithm.RNG_DEFAULT,
}
SHAPES = [(), (1,), (5,), (4, 6), (3, 5), (3, 1, 7), (2, 3, 4), (7, 9), (1, 1), (5, 2, 3)]
DTYPES = [jnp.uint8, jnp.uint16, jnp.uint32, jnp.uint64]
KEYS = [np.array([1, 2, 3, 4], dtype=np.uint32),
        np.array([0xDEADBEEF, 7, 0xFFFFFFFF, 0xFFFFFFF0], dtype=np.uint32)]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tessel", default="bazel-bin/tools/tessel/tessel")
    args = parser.parse_args()
    cases = mismatches = 0
    with tempfile.TemporaryDirectory() as tmp:
        for (name, algorithm), shape, dtype, key in itertools.product(
                ALGORITHMS.items(), SHAPES, DTYPES, KEYS):
            fn = jax.jit(lambda k: lax.rng_bit_generator(k, shape, dtype=dtype,
                                                         algorithm=algorithm))
            hlo = os.path.join(tmp, "program.hlo")
            with open(hlo, "w") as f:
                f.write(fn.lower(jnp.zeros(4, jnp.uint32)).as_text(dialect="hlo"))
            np.save(os.path.join(tmp, "key.npy"), key)
            out = os.path.join(tmp, "out")
            for old in glob.glob(os.path.join(out, "*.npy")):
                os.remove(old)
            subprocess.run([args.tessel, "run", hlo, "--inputs=" + os.path.join(tmp, "key.npy"),
                            "--output_dir=" + out, "--print_limit=0"], check=True,
                           stdout=subprocess.DEVNULL)
            got = [np.load(path) for path in sorted(glob.glob(os.path.join(out, "*.npy")))]
            want = [np.asarray(x) for x in fn(key)]
            cases += 1
            if len(got) != 2 or not all(np.array_equal(g, w) for g, w in zip(got, want)):
                mismatches += 1
                print(f"differs: {name} {shape} {np.dtype(dtype).name} key={key.tolist()}")
    print(f"{cases} cases, {mismatches} differ (jax {jax.__version__})")
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
