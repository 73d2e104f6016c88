"""tessel.jax on JAX's CPU devices: functions lowered by JAX and partitioned by Tessel run
on Tessel's executor like JAX runs them on one device (8, 6 and 3 devices), and compare()
puts Tessel's collectives beside the ones XLA compiles. Skipped where JAX is not installed
(scripts/setup.sh makes .venv-jax; run_test.sh uses it through TESSEL_JAX_PYTHON)."""

import os
import unittest

# Before JAX loads: 8 CPU devices for meshes of 8, 6 and 3.
os.environ["XLA_FLAGS"] = (os.environ.get("XLA_FLAGS", "") +
                           " --xla_force_host_platform_device_count=8").strip()
os.environ["JAX_PLATFORMS"] = "cpu"

try:
    import jax
    import jax.numpy as jnp
    import numpy as np
    from jax.sharding import Mesh, NamedSharding, PartitionSpec
    HAVE_JAX = True
except ImportError:
    HAVE_JAX = False

import tessel

NO_JAX = "JAX is not installed (scripts/setup.sh makes .venv-jax; see docs/python.md)"


def mlp(x, w1, w2):
    return jnp.maximum(x @ w1, 0) @ w2


def spec(mesh, *dims):
    return NamedSharding(mesh, PartitionSpec(*dims))


def mesh_of(shape, names):
    count = int(np.prod(shape))
    return Mesh(np.array(jax.devices()[:count]).reshape(shape), names)


def mlp_args(mesh, batch, data="data", model="model"):
    return [jax.ShapeDtypeStruct((batch, 64), jnp.float32, sharding=spec(mesh, data, None)),
            jax.ShapeDtypeStruct((64, 48), jnp.float32, sharding=spec(mesh, None, model)),
            jax.ShapeDtypeStruct((48, 64), jnp.float32, sharding=spec(mesh, model, None))]


def inputs(args, seed):
    rng = np.random.default_rng(seed)
    return [rng.standard_normal(a.shape, dtype=np.float32) for a in args]


@unittest.skipUnless(HAVE_JAX, NO_JAX)
class JaxBridgeTest(unittest.TestCase):

    def check_runs_like_jax(self, f, args, devices, seed=0):
        result = tessel.jax.partition(f, *args)
        self.assertEqual(result.num_partitions, devices)
        values = inputs(args, seed)
        expected = np.asarray(jax.jit(f)(*values))  # one device: plain numpy inputs
        (got,) = result.run(*values, partitions=devices)
        np.testing.assert_allclose(got, expected, rtol=1e-4, atol=1e-4)
        return result

    def test_megatron_mlp_on_eight(self):
        mesh = mesh_of((4, 2), ("data", "model"))
        result = self.check_runs_like_jax(mlp, mlp_args(mesh, 16), 8)
        self.assertEqual(result.shardings["parameter 0"].spec, tessel.P("data"))
        self.assertEqual([(c.kind, c.axes) for c in result.collectives],
                         [("all_reduce", ('"model"',))])

    def test_arrays_placed_by_device_put(self):
        # Arrays (not only abstract shapes) carry their NamedSharding into the lowering.
        mesh = mesh_of((4, 2), ("data", "model"))
        shapes = mlp_args(mesh, 16)
        values = inputs(shapes, 7)
        placed = [jax.device_put(v, s.sharding) for v, s in zip(values, shapes)]
        result = tessel.jax.partition(mlp, *placed)
        self.assertEqual(result.shardings["parameter 1"].spec, tessel.P(None, "model"))
        (got,) = result.run(*values, partitions=8)
        np.testing.assert_allclose(got, np.asarray(mlp(*placed)), rtol=1e-4, atol=1e-4)

    def test_six_and_three_devices(self):
        # 48 hidden units over 3 and batch 12 over 2 or 3: JAX wants even input splits.
        six = mesh_of((2, 3), ("data", "model"))
        self.check_runs_like_jax(mlp, mlp_args(six, 12), 6, seed=1)
        three = mesh_of((3,), ("data",))
        args = [jax.ShapeDtypeStruct((12, 64), jnp.float32, sharding=spec(three, "data")),
                jax.ShapeDtypeStruct((64, 48), jnp.float32, sharding=spec(three)),
                jax.ShapeDtypeStruct((48, 64), jnp.float32, sharding=spec(three))]
        self.check_runs_like_jax(mlp, args, 3, seed=2)

    def test_uneven_split_given_to_tessel(self):
        # JAX refuses 10 rows over 3 devices; Tessel takes the sharding and pads.
        three = mesh_of((3,), ("data",))
        args = [jax.ShapeDtypeStruct((10, 64), jnp.float32),
                jax.ShapeDtypeStruct((64, 48), jnp.float32),
                jax.ShapeDtypeStruct((48, 64), jnp.float32)]
        result = tessel.jax.partition(mlp, *args, mesh=three,
                                      in_shardings=[tessel.P("data"), None, None])
        self.assertEqual(result.num_partitions, 3)
        values = inputs(args, 3)
        (got,) = result.run(*values, partitions=3)
        np.testing.assert_allclose(got, np.asarray(jax.jit(mlp)(*values)), rtol=1e-4, atol=1e-4)

    def test_hlo_lowering_partitions_too(self):
        mesh = mesh_of((4, 2), ("data", "model"))
        result = tessel.jax.partition(mlp, *mlp_args(mesh, 16), format="hlo")
        self.assertEqual(result.num_partitions, 8)
        self.assertEqual([c.kind for c in result.collectives], ["all_reduce"])

    def test_mesh_of_jax_mesh(self):
        mesh = mesh_of((4, 2), ("data", "model"))
        self.assertEqual(tessel.jax.tessel_mesh(mesh), tessel.Mesh({"data": 4, "model": 2}))

    def test_compare_with_xla(self):
        mesh = mesh_of((4, 2), ("data", "model"))
        table = tessel.jax.compare(mlp, *mlp_args(mesh, 16))
        # Each device adds its [4, 64] f32 partial product over "model": 1024 bytes.
        row = table.row("all_reduce")
        self.assertEqual((row.tessel_count, row.tessel_bytes), (1, 4 * 64 * 4))
        self.assertGreaterEqual(row.xla_count, 1)
        self.assertIn("all-reduce", table.xla_hlo)
        text = str(table)
        self.assertIn("all_reduce", text.splitlines()[2])
        self.assertIn("<td>all_reduce</td>", table._repr_html_())

    def test_replicated_function_has_no_collectives(self):
        args = [jax.ShapeDtypeStruct((4, 4), jnp.float32)]
        table = tessel.jax.compare(lambda x: x * 2, *args)
        self.assertEqual(table.rows, [])
        self.assertIn("(no collectives)", str(table))


@unittest.skipIf(HAVE_JAX, "JAX is installed")
class WithoutJaxTest(unittest.TestCase):

    def test_import_says_what_is_missing(self):
        with self.assertRaisesRegex(ImportError, "tessel.jax needs JAX"):
            import tessel.jax  # noqa: F401


if HAVE_JAX:
    import tessel.jax

if __name__ == "__main__":
    unittest.main()
