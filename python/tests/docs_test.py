"""docs/python.md's walkthrough runs: its ```python blocks are executed in order, as one
script, and every assertion in them holds. Blocks fenced ```python jax need JAX: they run,
as a second script, where JAX is installed, and are reported skipped elsewhere."""

import contextlib
import io
import os
import re
import unittest

# Before anything imports JAX: the JAX blocks partition over 8 CPU devices.
os.environ["XLA_FLAGS"] = (os.environ.get("XLA_FLAGS", "") +
                           " --xla_force_host_platform_device_count=8").strip()
os.environ["JAX_PLATFORMS"] = "cpu"

try:
    import jax  # noqa: F401
    HAVE_JAX = True
except ImportError:
    HAVE_JAX = False

DOC = "docs/python.md"


def python_blocks(text, info):
    """The bodies of the blocks fenced ```<info> (exactly), in order."""
    return re.findall(r"^```" + re.escape(info) + r"\n(.*?)^```", text,
                      flags=re.MULTILINE | re.DOTALL)


def read_doc():
    with open(DOC, encoding="utf-8") as file:
        return file.read()


class DocsTest(unittest.TestCase):

    def run_blocks(self, blocks, label):
        namespace = {"__name__": "__walkthrough__"}
        for number, block in enumerate(blocks, 1):
            output = io.StringIO()
            with self.subTest(block=number), contextlib.redirect_stdout(output):
                exec(compile(block, f"{DOC} {label} block {number}", "exec"), namespace)
            print(output.getvalue(), end="")

    def test_walkthrough_runs(self):
        blocks = python_blocks(read_doc(), "python")
        self.assertGreaterEqual(len(blocks), 7)
        self.run_blocks(blocks, "python")

    @unittest.skipUnless(HAVE_JAX, "JAX is not installed: the ```python jax blocks of "
                                   "docs/python.md did not run")
    def test_jax_blocks_run(self):
        blocks = python_blocks(read_doc(), "python jax")
        self.assertGreaterEqual(len(blocks), 2)
        self.run_blocks(blocks, "python jax")

    def test_jax_blocks_exist(self):
        # Whether or not they can run here, the JAX section must not vanish unnoticed.
        self.assertGreaterEqual(len(python_blocks(read_doc(), "python jax")), 2)


if __name__ == "__main__":
    unittest.main()
