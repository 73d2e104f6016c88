"""The wheel: build_wheel.py assembles it from the built module, `pip install --no-index
--target DIR` installs it offline, and the installed package imports and partitions."""

import base64
import hashlib
import os
import subprocess
import sys
import tempfile
import unittest
import zipfile

ROOT = os.getcwd()  # the runfiles' workspace root


class WheelTest(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(dir=os.environ.get("TEST_TMPDIR"))
        output = subprocess.run(
            [sys.executable, os.path.join(ROOT, "python/build_wheel.py"),
             "--module", os.path.join(ROOT, "python/tessel/_tessel.so"),
             "--sources", os.path.join(ROOT, "python/tessel"),
             "--version_header", os.path.join(ROOT, "partitioner/api/version.h"),
             "--out", os.path.join(cls.tmp, "dist")],
            check=True, capture_output=True, text=True).stdout
        cls.wheel = output.strip()

    def test_name_and_contents(self):
        self.assertRegex(os.path.basename(self.wheel),
                         r"^tessel-\d+\.\d+\.\d+-cp311-cp311-linux_x86_64\.whl$")
        with zipfile.ZipFile(self.wheel) as archive:
            names = archive.namelist()
            self.assertIn("tessel/__init__.py", names)
            self.assertIn("tessel/_tessel.so", names)
            # The JAX bridge ships, but JAX is no requirement of the package.
            self.assertIn("tessel/jax.py", names)
            metadata = archive.read(next(n for n in names if n.endswith("/METADATA"))).decode()
            requirements = [line for line in metadata.splitlines()
                            if line.startswith("Requires-Dist:")]
            self.assertEqual([r for r in requirements if "jax" in r.lower()], [])
            record_name = next(n for n in names if n.endswith(".dist-info/RECORD"))
            record = archive.read(record_name).decode().splitlines()
            # Every file but RECORD is listed with its hash and size.
            self.assertEqual(len(record), len(names))
            for line in record:
                path, digest, size = line.rsplit(",", 2)
                if path == record_name:
                    continue
                data = archive.read(path)
                expected = base64.urlsafe_b64encode(
                    hashlib.sha256(data).digest()).rstrip(b"=").decode()
                self.assertEqual(digest, f"sha256={expected}", path)
                self.assertEqual(int(size), len(data), path)

    def test_pip_installs_it_offline_and_it_imports(self):
        target = os.path.join(self.tmp, "site")
        env = dict(os.environ, HOME=self.tmp, PIP_DISABLE_PIP_VERSION_CHECK="1")
        env.pop("PYTHONPATH", None)
        subprocess.run([sys.executable, "-m", "pip", "install", "--no-index", "--no-deps",
                        "--no-cache-dir", "--target", target, self.wheel],
                       check=True, capture_output=True, env=env)
        env["PYTHONPATH"] = target
        script = (
            "import tessel, sys\n"
            "assert tessel.__file__.startswith(sys.argv[1]), tessel.__file__\n"
            "p = tessel.load('func.func @main(%x: tensor<8xf32>) -> tensor<8xf32> {\\n'\n"
            "                '  %y = hlo.add %x, %x : tensor<8xf32>\\n'\n"
            "                '  return %y : tensor<8xf32>\\n}\\n')\n"
            "r = p.partition(tessel.Mesh({'x': 4}), in_shardings=[tessel.P('x')])\n"
            "print(tessel.__version__, r.num_partitions)\n")
        result = subprocess.run([sys.executable, "-c", script, target], cwd=self.tmp,
                                env=env, capture_output=True, text=True)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertRegex(result.stdout, r"^\d+\.\d+\.\d+ 4$")


if __name__ == "__main__":
    unittest.main()
