"""Bad input raises tessel.Error with Tessel's located message and never takes the
interpreter down: malformed MLIR and HLO text, missing files, bad shardings and inputs."""

import unittest

import numpy as np

import tessel
from programs import MLP


class ErrorsTest(unittest.TestCase):

    def test_malformed_mlir_names_the_line(self):
        with self.assertRaisesRegex(tessel.Error, r"program\.mlir:3:\d+: error"):
            tessel.load("func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {\n"
                        "  %y = hlo.add %x, %x : tensor<4xf32>\n"
                        "  return %z : tensor<4xf32>\n}\n")

    def test_malformed_hlo_names_the_line(self):
        with self.assertRaisesRegex(tessel.Error, r"program\.hlo:\d+:\d+: error"):
            tessel.load("HloModule m\n\nENTRY main {\n  x = f32[4] parameter(0)\n"
                        "  ROOT y = f32[4] add(x, z)\n}\n")

    def test_text_that_is_no_program(self):
        for text in ("", "garbage", "func.func @main(", "HloModule", "{" * 10000,
                     "\x00\xff"):
            with self.subTest(text=text[:20]), self.assertRaises(tessel.Error):
                tessel.load(text)

    def test_missing_file_and_wrong_types(self):
        with self.assertRaisesRegex(tessel.Error, "no_such.mlir"):
            tessel.load("no_such.mlir")
        with self.assertRaises(TypeError):
            tessel.load(None)
        with self.assertRaisesRegex(tessel.Error, "unknown program format"):
            tessel.load(MLP, format="onnx")

    def test_unknown_axis_names_it(self):
        program = tessel.load(MLP)
        with self.assertRaisesRegex(tessel.Error, "parameter 0 \\(x\\).*'rows'"):
            program.partition(tessel.Mesh({"data": 2}), in_shardings=[tessel.P("rows")])

    def test_too_many_shardings(self):
        program = tessel.load(MLP)
        with self.assertRaisesRegex(tessel.Error, "4 parameter shardings for 3"):
            program.partition(tessel.Mesh({"data": 2}), in_shardings=[None] * 4)

    def test_conflicting_mesh(self):
        hlo = tessel.load("""HloModule m, entry_computation_layout={(f32[8]{0})->f32[8]{0}}

ENTRY main {
  x = f32[8]{0} parameter(0), sharding={devices=[2]<=[2]}
  ROOT y = f32[8]{0} add(x, x)
}
""")
        with self.assertRaisesRegex(tessel.Error, "another name"):
            hlo.partition(tessel.Mesh({"data": 4}), in_shardings=[tessel.P("data")])
        # Under another name: meshes of different sizes do not partition together.
        with self.assertRaisesRegex(tessel.Error, "devices"):
            hlo.partition(tessel.Mesh({"data": 4}, name="big"), in_shardings=[tessel.P("data")])

    def test_shape_mismatch_in_a_partitioned_run(self):
        program = tessel.load(MLP)
        result = program.partition(tessel.Mesh({"data": 2}), in_shardings=[tessel.P("data")])
        x = np.zeros((12, 9), np.float32)
        with self.assertRaisesRegex(tessel.Error, "input 0.*f32\\[12,8\\]"):
            result.run(x, np.zeros((8, 24), np.float32), np.zeros((24, 8), np.float32))

    def test_the_interpreter_survives(self):
        # After all of the above, the module still works.
        (y,) = tessel.load(MLP).run(*[np.ones(s, np.float32)
                                      for s in ((12, 8), (8, 24), (24, 8))])
        self.assertEqual(float(y[0, 0]), 8.0 * 24.0)


if __name__ == "__main__":
    unittest.main()
