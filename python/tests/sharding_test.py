"""tessel.Mesh, tessel.P and Shardy sharding strings: construction, the shardings they
give a program, and the errors for bad ones."""

import unittest

import tessel
from programs import MLP


class MeshTest(unittest.TestCase):

    def test_axes_sizes_and_devices(self):
        mesh = tessel.Mesh({"data": 4, "model": 2})
        self.assertEqual(mesh.shape, {"data": 4, "model": 2})
        self.assertEqual(mesh.axis_names, ("data", "model"))
        self.assertEqual(mesh.size, 8)
        self.assertEqual(mesh.devices, list(range(8)))
        self.assertEqual(str(mesh), '@mesh = <["data"=4, "model"=2]>')
        self.assertEqual(mesh, tessel.Mesh([("data", 4), ("model", 2)]))

    def test_explicit_device_order(self):
        mesh = tessel.Mesh({"x": 4}, devices=[3, 2, 1, 0])
        self.assertEqual(mesh.devices, [3, 2, 1, 0])

    def test_bad_meshes_raise(self):
        for axes in ({"data": 0}, {"": 2}, [("x", 2), ("x", 2)], {"x": "2"}, 7):
            with self.subTest(axes=axes), self.assertRaises(tessel.Error):
                tessel.Mesh(axes)
        with self.assertRaisesRegex(tessel.Error, "appears twice"):
            tessel.Mesh({"x": 2}, devices=[0, 0])
        self.assertTrue(issubclass(tessel.Error, ValueError))


class PartitionSpecTest(unittest.TestCase):

    def setUp(self):
        self.mesh = tessel.Mesh({"data": 4, "model": 2})
        self.program = tessel.load(MLP)

    def partition(self, x_spec):
        return self.program.partition(self.mesh, in_shardings=[x_spec, None, None])

    def test_p_is_a_tuple_like_jax(self):
        spec = tessel.P(("data", "model"), None)
        self.assertEqual(spec, (("data", "model"), None))
        self.assertEqual(repr(spec), "P(('data', 'model'), None)")
        self.assertIs(tessel.PartitionSpec, tessel.P)

    def test_axis_none_and_tuples(self):
        result = self.partition(tessel.P("data", None))
        self.assertEqual(result.shardings["x"].spec, tessel.P("data"))
        self.assertEqual(result.shardings["x"].sharding,
                         '#tessel.sharding<@mesh, [{"data"}, {}]>')
        result = self.partition(tessel.P(("data", "model"), None))
        self.assertEqual(result.shardings["x"].spec, tessel.P(("data", "model")))

    def test_missing_trailing_dims_are_replicated(self):
        result = self.partition(tessel.P("model"))
        self.assertEqual(result.shardings["x"].sharding,
                         '#tessel.sharding<@mesh, [{"model"}, {}]>')

    def test_shardy_and_tessel_strings(self):
        shardy = self.partition('#sdy.sharding<@mesh, [{"data"}, {}]>')
        spec = self.partition(tessel.P("data", None))
        self.assertEqual(shardy.shardings["x"], spec.shardings["x"])
        text = self.partition('#tessel.sharding<@mesh, [{"data", "model"}, {}]>')
        self.assertEqual(text.shardings["x"].spec, tessel.P(("data", "model")))

    def test_unconstrained_dims_are_open(self):
        result = self.partition(tessel.P("data", tessel.P.UNCONSTRAINED))
        self.assertIn('?', result.shardings["x"].sharding)

    def test_bad_specs_raise_with_the_reason(self):
        cases = [
            (tessel.P("rows"), "rows"),
            (tessel.P("data", "data"), "data"),
            (tessel.P("data", None, None), "rank 2"),
            ('#sdy.sharding<@mesh, [{"data"}, {}>', "not a sharding"),
            ('#sdy.sharding<@other, [{"data"}, {}]>', "@other"),
            ("P('data')", "not a sharding"),
            (42, "expected a tessel.P"),
        ]
        for spec, message in cases:
            with self.subTest(spec=spec), self.assertRaisesRegex(tessel.Error, message):
                self.partition(spec)
        with self.assertRaises(tessel.Error):
            tessel.P(3)

    def test_dict_by_name_and_index(self):
        by_name = self.program.partition(self.mesh, in_shardings={"x": tessel.P("data"),
                                                                  2: tessel.P("model")})
        self.assertEqual(by_name.shardings["x"].spec, tessel.P("data"))
        self.assertEqual(by_name.shardings["w2"].spec, tessel.P("model"))
        with self.assertRaisesRegex(tessel.Error, "no parameter 'z'.*'x', 'w1', 'w2'"):
            self.program.partition(self.mesh, in_shardings={"z": tessel.P("data")})

    def test_a_sharding_needs_a_mesh(self):
        with self.assertRaisesRegex(tessel.Error, "needs a mesh"):
            self.program.partition(in_shardings=[tessel.P("data")])


if __name__ == "__main__":
    unittest.main()
