"""program.run and result.run on numpy arrays: a partitioned run on N local partitions
(1 to 8, 3 and 6 included) equals the single-device run; verify(); element types; and
inputs that do not fit raise tessel.Error."""

import unittest

import numpy as np

import tessel
from programs import INTEGERS, MLP


def mlp_inputs(seed=0):
    rng = np.random.default_rng(seed)
    return [rng.uniform(-1, 1, shape).astype(np.float32)
            for shape in ((12, 8), (8, 24), (24, 8))]


class RunTest(unittest.TestCase):

    def test_single_device_run_computes_the_mlp(self):
        x, w1, w2 = mlp_inputs()
        (y,) = tessel.load(MLP).run(x, w1, w2)
        self.assertEqual(y.dtype, np.float32)
        self.assertEqual(y.shape, (12, 8))
        np.testing.assert_allclose(y, np.maximum(x @ w1, 0) @ w2, rtol=1e-5, atol=1e-5)

    def test_partitioned_runs_equal_the_single_device_run(self):
        program = tessel.load(MLP)
        inputs = mlp_inputs(1)
        (expected,) = program.run(*inputs)
        # 12 rows, 24 hidden units: every split below divides them, 6 and 3 included;
        # 8 devices split the rows unevenly (padded last shards).
        cases = [
            ({"data": 2}, [tessel.P("data"), None, None]),
            ({"data": 3}, [tessel.P("data"), None, None]),
            ({"model": 3}, [None, tessel.P(None, "model"), tessel.P("model")]),
            ({"data": 2, "model": 2},
             [tessel.P("data"), tessel.P(None, "model"), tessel.P("model")]),
            ({"data": 3, "model": 2},
             [tessel.P("data"), tessel.P(None, "model"), tessel.P("model")]),
            ({"data": 6}, [tessel.P("data"), None, None]),
            ({"data": 2, "model": 3},
             [tessel.P(("data", "model")), None, None]),
            ({"data": 8}, [tessel.P("data"), None, None]),
        ]
        for axes, in_shardings in cases:
            mesh = tessel.Mesh(axes)
            with self.subTest(mesh=axes, in_shardings=in_shardings):
                result = program.partition(mesh, in_shardings=in_shardings)
                self.assertEqual(result.num_partitions, mesh.size)
                (got,) = result.run(*inputs, partitions=mesh.size)
                np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-5)
                report = result.verify(*inputs)
                self.assertTrue(report.ok, str(report))

    def test_integer_and_boolean_arrays(self):
        program = tessel.load(INTEGERS)
        rng = np.random.default_rng(2)
        p = rng.random((6, 4)) < 0.5
        a = rng.integers(-5, 5, (6, 4), dtype=np.int32)
        b = rng.integers(-5, 5, (6, 4), dtype=np.int32)
        picked, total = program.run(p, a, b)
        np.testing.assert_array_equal(picked, np.where(p, a + b, a * b))
        np.testing.assert_array_equal(total, picked.sum(axis=0))
        result = program.partition(tessel.Mesh({"rows": 3, "cols": 2}),
                                   in_shardings=tessel.P("rows", "cols"))
        got_picked, got_total = result.run(p, a, b, partitions=6)
        np.testing.assert_array_equal(got_picked, picked)
        np.testing.assert_array_equal(got_total, total)

    def test_lists_take_the_parameter_type(self):
        program = tessel.load(MLP)
        x, w1, w2 = mlp_inputs()
        (from_lists,) = program.run(x.tolist(), w1.tolist(), w2)
        (from_arrays,) = program.run(x, w1, w2)
        np.testing.assert_array_equal(from_lists, from_arrays)

    def test_seeded_verify(self):
        result = tessel.load(MLP).partition(tessel.Mesh({"data": 4}),
                                            in_shardings=[tessel.P("data")])
        report = result.verify(seed=7)
        self.assertTrue(report.ok, str(report))
        self.assertEqual(report.num_partitions, 4)
        self.assertIn("verified on 4 devices", str(report))

    def test_inputs_that_do_not_fit_raise(self):
        program = tessel.load(MLP)
        x, w1, w2 = mlp_inputs()
        with self.assertRaisesRegex(tessel.Error, "takes 3 inputs, got 2"):
            program.run(x, w1)
        with self.assertRaisesRegex(tessel.Error, "input 0"):
            program.run(x[:5], w1, w2)
        with self.assertRaisesRegex(tessel.Error, "input 1"):
            program.run(x, w1.astype(np.float64), w2)
        with self.assertRaisesRegex(tessel.Error, "no Tessel element type"):
            program.run(x, np.array([["a"]]), w2)
        result = program.partition(tessel.Mesh({"data": 2}), in_shardings=[tessel.P("data")])
        with self.assertRaisesRegex(tessel.Error, "partitioned for 2 devices, not 3"):
            result.run(x, w1, w2, partitions=3)
        with self.assertRaisesRegex(tessel.Error, "input 2"):
            result.run(x, w1, w2[:, :3])

    def test_non_contiguous_arrays(self):
        program = tessel.load(MLP)
        x, w1, w2 = mlp_inputs()
        (expected,) = program.run(x, w1, w2)
        (got,) = program.run(np.asfortranarray(x), w1.T.copy().T, w2)
        np.testing.assert_array_equal(got, expected)


if __name__ == "__main__":
    unittest.main()
