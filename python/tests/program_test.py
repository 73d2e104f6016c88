"""tessel.load and partition(): MLIR and HLO text and files, the partitioned program's
text, per-value shardings with source names, collectives, the cost report, explanations
and fallback warnings."""

import os
import tempfile
import unittest

import numpy as np

import tessel
from programs import MLP, ROW_SPLIT_DOT_HLO


def mlp_result(**options):
    mesh = tessel.Mesh({"data": 2, "model": 2})
    return tessel.load(MLP).partition(
        mesh, in_shardings=[tessel.P("data", None), tessel.P(None, "model"),
                            tessel.P("model", None)], **options)


class LoadTest(unittest.TestCase):

    def test_mlir_text_and_file(self):
        program = tessel.load(MLP)
        self.assertEqual(program.parameter_names, ["x", "w1", "w2"])
        self.assertEqual(program.parameter_types,
                         [("f32", [12, 8]), ("f32", [8, 24]), ("f32", [24, 8])])
        self.assertEqual(program.result_types, [("f32", [12, 8])])
        with tempfile.TemporaryDirectory() as directory:
            path = os.path.join(directory, "mlp.mlir")
            with open(path, "w") as file:
                file.write(MLP)
            from_file = tessel.load(path)
            self.assertEqual(from_file.parameter_types, program.parameter_types)
            with open(os.path.join(directory, "bad.mlir"), "w") as file:
                file.write("func.func @main(%x: tensor<4xf32>) {\n  return %y\n}\n")
            with self.assertRaisesRegex(tessel.Error, r"bad\.mlir:2:\d+"):
                tessel.load(os.path.join(directory, "bad.mlir"))

    def test_hlo_text_brings_its_shardings(self):
        program = tessel.load(ROW_SPLIT_DOT_HLO)
        self.assertEqual(len(program.meshes), 1)
        self.assertEqual(program.meshes[0].size, 2)
        self.assertEqual(program.in_shardings[0], tessel.P("axis_0"))
        result = program.partition()
        self.assertEqual(result.num_partitions, 2)
        self.assertEqual(result.collectives, [])
        self.assertIn("ENTRY", result.text(format="hlo"))

    def test_names_from_the_text(self):
        program = tessel.load("""
func.func @main(%x: tensor<8xf32>, %arg1: tensor<8xf32>) -> tensor<8xf32> {
  %twice = hlo.add %x, %x : tensor<8xf32>
  %0 = hlo.mul %twice, %arg1 : tensor<8xf32>
  return %0 : tensor<8xf32>
}
""")
        self.assertEqual(program.parameter_names, ["x", ""])
        result = program.partition(tessel.Mesh({"d": 2}), in_shardings={"x": tessel.P("d")})
        self.assertEqual(set(result.shardings),
                         {"x", "parameter 1", "twice", "hlo.mul (op 1) at program.mlir:4:8",
                          "result 0"})
        hlo = tessel.load(ROW_SPLIT_DOT_HLO)
        self.assertEqual(hlo.parameter_names, ["x", "w"])
        self.assertIn("d", hlo.partition().shardings)

    def test_text_round_trips(self):
        program = tessel.load(MLP)
        again = tessel.load(program.text())
        self.assertEqual(again.text(), program.text())
        self.assertIn("dot(", program.text(format="hlo"))
        with self.assertRaisesRegex(tessel.Error, "formats: mlir, hlo"):
            program.text(format="json")


class PartitionTest(unittest.TestCase):

    def test_partitioned_text(self):
        result = mlp_result()
        self.assertEqual(result.num_partitions, 4)
        mlir = result.text()
        self.assertIn("tessel.all_reduce", mlir)
        self.assertIn("tensor<6x8xf32>", mlir)  # x's local piece
        self.assertIn("all-reduce(", result.text(format="hlo"))

    def test_shardings_have_source_names(self):
        shardings = mlp_result().shardings
        for name in ("x", "w1", "w2", "h", "relu", "y", "result 0"):
            self.assertIn(name, shardings)
        h = shardings["h"]
        self.assertEqual(h.kind, "op_result")
        self.assertEqual(h.op_name, "hlo.dot_general")
        self.assertEqual((h.dtype, h.shape), ("f32", (12, 24)))
        self.assertEqual(h.spec, tessel.P("data", "model"))
        self.assertEqual(shardings["x"].kind, "parameter")
        self.assertEqual(shardings["result 0"].spec, tessel.P("data"))

    def test_collectives(self):
        collectives = mlp_result().collectives
        self.assertEqual(len(collectives), 1)
        (all_reduce,) = collectives
        self.assertEqual(all_reduce.kind, "all_reduce")
        self.assertEqual(all_reduce.axes, ('"model"',))
        self.assertEqual(all_reduce.count, 1)
        self.assertEqual(all_reduce.bytes, 6 * 8 * 4)  # f32[6,8] per device

    def test_report_is_a_dict(self):
        report = mlp_result().report()
        self.assertEqual(report["num_partitions"], 4)
        self.assertGreater(report["flops"], 0)
        self.assertGreater(report["peak_bytes"], 0)
        self.assertGreaterEqual(report["step_seconds"], report["compute_seconds"])
        self.assertEqual(report["collectives"][0]["kind"], "all_reduce")
        self.assertIsInstance(report["table"], str)

    def test_explain(self):
        result = mlp_result()
        text = result.explain("h")
        self.assertIn("argument", text)
        self.assertIn("hlo.dot_general", text)
        self.assertIn("dimension 1 axis model", text)
        self.assertEqual(result.explain(result.shardings["h"]), text)
        with self.assertRaisesRegex(tessel.Error, "no value 'nothing'"):
            result.explain("nothing")

    def test_options_and_warnings(self):
        self.assertEqual(mlp_result(combine_collectives=True).warnings, [])
        with self.assertRaisesRegex(tessel.Error, "unknown partition option 'fast'"):
            mlp_result(fast=True)

    def test_auto_sharding_fills_what_is_left_open(self):
        # Only x is given; under 1.75 KiB the weights' 1.5 KiB whole and the activations
        # beside them do not fit, so the plan splits the weights, and the run still equals
        # the single-device one.
        mesh = tessel.Mesh({"data": 2, "model": 2})
        program = tessel.load(MLP)
        result = program.partition(
            mesh, in_shardings=[tessel.P("data", None)],
            auto_sharding={"memory_limit_bytes": 1792, "time_limit_seconds": 10})
        chosen = result.auto_sharding
        self.assertTrue(chosen["optimal"])
        self.assertEqual(chosen["memory_limit_bytes"], 1792)
        self.assertEqual(chosen["repeated_layers"], 1)  # one MLP: nothing repeats
        self.assertEqual(chosen["whole_ops"], [])  # every op has a rule
        self.assertIn('parameter 0: [{"data"}, {}] (annotated)', chosen["choices"])
        # The memory model's peak is under the limit and bounds the cost report's.
        self.assertLessEqual(chosen["estimated_peak_bytes"], 1792)
        self.assertLessEqual(result.report()["peak_bytes"], chosen["estimated_peak_bytes"])
        self.assertGreaterEqual(chosen["reshard_seconds"], 0)
        for weight in ("w1", "w2"):
            spec = result.shardings[weight].spec
            self.assertTrue(spec is not None and any(axis is not None for axis in spec), spec)
        self.assertIsNone(mlp_result().auto_sharding)
        inputs = [np.random.default_rng(1).standard_normal(t[1]).astype(np.float32)
                  for t in program.parameter_types]
        np.testing.assert_allclose(result.run(*inputs)[0], program.run(*inputs)[0],
                                   rtol=1e-4, atol=1e-5)
        with self.assertRaisesRegex(tessel.Error, "unknown auto_sharding option 'fast'"):
            program.partition(mesh, auto_sharding={"fast": True})

    def test_out_shardings(self):
        mesh = tessel.Mesh({"data": 2, "model": 2})
        result = tessel.load(MLP).partition(
            mesh, in_shardings=[tessel.P("data")], out_shardings=[tessel.P(None, "model")])
        self.assertEqual(result.shardings["result 0"].spec, tessel.P(None, "model"))

    def test_fallback_warning(self):
        # 16 elements split 4 ways reshaped to [2, 8] split 4 ways along the 2: no split of
        # the operand maps onto the result's, so the operand is gathered.
        program = tessel.load("""
func.func @main(%v: tensor<16xi32>) -> tensor<2x8xi32> {
  %r = hlo.reshape %v : (tensor<16xi32>) -> tensor<2x8xi32> loc("grid")
  return %r : tensor<2x8xi32>
}
""")
        mesh = tessel.Mesh({"x": 4})
        result = program.partition(mesh, in_shardings=[tessel.P("x")],
                                   out_shardings=[tessel.P("x", None)])
        self.assertEqual(len(result.warnings), 1, result.warnings)
        self.assertIn("partitioned by replication", result.warnings[0])
        self.assertTrue(result.verify(seed=2).ok)
        with self.assertRaisesRegex(tessel.Error, "hlo.reshape"):
            program.partition(mesh, in_shardings=[tessel.P("x")],
                              out_shardings=[tessel.P("x", None)], replication_is_error=True)


if __name__ == "__main__":
    unittest.main()
