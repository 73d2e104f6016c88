"""docs/python.md's walkthrough runs: its ```python blocks are executed in order, as one
script, and every assertion in them holds."""

import contextlib
import io
import os
import re
import unittest

DOC = "docs/python.md"


def python_blocks(text):
    return re.findall(r"^```python\n(.*?)^```", text, flags=re.MULTILINE | re.DOTALL)


class DocsTest(unittest.TestCase):

    def test_walkthrough_runs(self):
        with open(DOC, encoding="utf-8") as file:
            blocks = python_blocks(file.read())
        self.assertGreaterEqual(len(blocks), 5)
        namespace = {"__name__": "__walkthrough__"}
        for number, block in enumerate(blocks, 1):
            output = io.StringIO()
            with self.subTest(block=number), contextlib.redirect_stdout(output):
                exec(compile(block, f"{DOC} block {number}", "exec"), namespace)
            print(output.getvalue(), end="")


if __name__ == "__main__":
    unittest.main()
