"""StableHLO from JAX through tessel.load (a program of tests/corpus, made by JAX 0.10.2),
tessel.P's unreduced, replicated and priority keywords, and out_shardings keyed by result
name. Partitioned runs are checked against the single-device run, on 8 and on 6 devices."""

import unittest

import numpy as np

import tessel
from programs import MLP

CORPUS = "tests/corpus/fsdp_mlp.stablehlo.mlir"


class StableHloTest(unittest.TestCase):

    def test_corpus_program_loads_partitions_and_runs(self):
        program = tessel.load(CORPUS)
        self.assertEqual(program.parameter_types,
                         [("f32", [64, 32]), ("f32", [32, 64]), ("f32", [64, 16])])
        self.assertEqual(program.meshes, [tessel.Mesh({"data": 4, "model": 2})])
        # JAX's annotations: every parameter's rows over "data".
        self.assertEqual(program.in_shardings, [tessel.P("data")] * 3)
        result = program.partition()
        self.assertEqual(result.num_partitions, 8)
        rng = np.random.default_rng(5)
        inputs = [rng.standard_normal(s, dtype=np.float32) for _, s in program.parameter_types]
        (expected,) = program.run(*inputs)
        np.testing.assert_allclose(expected, np.tanh(inputs[0] @ inputs[1]) @ inputs[2],
                                   rtol=1e-4, atol=1e-4)
        (got,) = result.run(*inputs, partitions=8)
        np.testing.assert_allclose(got, expected, rtol=1e-4, atol=1e-4)

    def test_stablehlo_text_on_six_devices(self):
        with open(CORPUS, encoding="utf-8") as file:
            text = file.read()
        # The same program on a 3x2 mesh: JAX's annotations keep their axes, and 64 rows
        # over 3 become uneven (pieces of 22, the last 20).
        text = text.replace('"data"=4', '"data"=3').replace(
            'name = "data", size = 4', 'name = "data", size = 3')
        program = tessel.load(text, format="stablehlo")
        self.assertEqual(program.meshes, [tessel.Mesh({"data": 3, "model": 2})])
        result = program.partition(in_shardings={2: tessel.P(None, "model")})
        self.assertEqual(result.num_partitions, 6)
        self.assertEqual(result.visualize("parameter 0").tiles[4].ranges[0], (44, 64))
        self.assertTrue(result.verify(seed=2).ok)


class SpecKeywordsTest(unittest.TestCase):

    def setUp(self):
        self.mesh = tessel.Mesh({"data": 4, "model": 2})

    def native(self, spec, rank):
        from tessel.spec import to_sharding
        return to_sharding(spec, self.mesh, rank, "value")

    def test_unreduced_and_replicated(self):
        spec = tessel.P("data", unreduced={"model"})
        self.assertEqual(str(self.native(spec, 1)),
                         '#tessel.sharding<@mesh, [{"data"}], unreduced={"model"}>')
        spec = tessel.P(None, replicated=("model",))
        self.assertEqual(str(self.native(spec, 1)),
                         '#tessel.sharding<@mesh, [{}], replicated={"model"}>')
        self.assertEqual(repr(tessel.P("data", unreduced=("model",))),
                         "P('data', unreduced=('model',))")
        self.assertNotEqual(tessel.P("data", unreduced=("model",)), tessel.P("data"))
        self.assertEqual(tessel.P("data"), ("data",))
        self.assertEqual(hash(tessel.P("data")), hash(("data",)))
        self.assertEqual(len({tessel.P("data"), tessel.P("data", unreduced=("model",))}), 2)

    def test_priorities(self):
        spec = tessel.P("data", "model", priorities=(0, 1))
        self.assertEqual(str(self.native(spec, 2)),
                         '#tessel.sharding<@mesh, [{"data"}p0, {"model"}p1]>')
        for bad in ((-1,), ("high",), (0, 1, 2)):
            with self.subTest(priorities=bad), self.assertRaises(tessel.Error):
                tessel.P("data", "model", priorities=bad)

    def test_specs_read_back_keep_keywords(self):
        program = tessel.load(MLP)
        annotated = program.partition(self.mesh, in_shardings=[
            tessel.P("data", priorities=(0,)), None, None])
        self.assertEqual(annotated.shardings["x"].spec, tessel.P("data", priorities=(0,)))

    def test_priority_decides_a_conflict(self):
        # h = x @ w1: x's rows over "data" want h's rows there, w1's columns over "data"
        # want h's columns there; one axis cannot split both, and the stronger wins.
        program = tessel.load(MLP)
        for x_priority, w1_priority, h_spec in ((0, 1, tessel.P("data")),
                                                (1, 0, tessel.P(None, "data"))):
            with self.subTest(x=x_priority, w1=w1_priority):
                result = program.partition(self.mesh, in_shardings=[
                    tessel.P("data", priorities=(x_priority,)),
                    tessel.P(None, "data", priorities=(None, w1_priority)), None])
                self.assertEqual(result.shardings["h"].spec, h_spec)
                self.assertTrue(result.verify(seed=6).ok)


class OutShardingsByNameTest(unittest.TestCase):

    def test_result_names(self):
        program = tessel.load(MLP)
        mesh = tessel.Mesh({"data": 3, "model": 2})
        for key in ("result 0", "result0", 0):
            with self.subTest(key=key):
                result = program.partition(mesh, in_shardings=[tessel.P("data"), None, None],
                                           out_shardings={key: tessel.P(None, "model")})
                self.assertEqual(result.shardings["result 0"].spec, tessel.P(None, "model"))
                self.assertTrue(result.verify(seed=4).ok)
        with self.assertRaisesRegex(tessel.Error, "no result 'result 1'"):
            program.partition(mesh, out_shardings={"result 1": tessel.P()})


if __name__ == "__main__":
    unittest.main()
