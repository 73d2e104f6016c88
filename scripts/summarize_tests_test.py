#!/usr/bin/env python3
"""Tests of summarize_tests.py: cases counted from test.xml, skips kept apart from passes,
a binary that fails outside its cases, a build error, and a second (sanitized) stage whose
logs live in their own directory."""
import os
import subprocess
import sys
import tempfile
import unittest

SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "summarize_tests.py")


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def xml(passed, failed=0, skipped=0):
    cases = ['<testcase name="p%d"/>' % i for i in range(passed)]
    cases += ['<testcase name="f%d"><failure/></testcase>' % i for i in range(failed)]
    cases += ['<testcase name="s%d" result="skipped"/>' % i for i in range(skipped)]
    return "<testsuites><testsuite>%s</testsuite></testsuites>" % "".join(cases)


class SummarizeTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()

    def run_script(self, *args):
        done = subprocess.run([sys.executable, SCRIPT] + list(args), capture_output=True,
                              text=True)
        return done.returncode, done.stdout.strip().splitlines()

    def test_counts_cases_and_skips(self):
        logs = os.path.join(self.dir, "testlogs")
        write(os.path.join(logs, "a/b/test.xml"), xml(3, skipped=1))
        write(os.path.join(logs, "a/c/test.xml"), xml(2))
        log = os.path.join(self.dir, "log")
        write(log, "//a:b    PASSED in 1.0s\n//a:c  (cached) PASSED in 0.1s\n"
                   "//a:gpu    SKIPPED\n")
        status, out = self.run_script(log, "0", logs)
        self.assertEqual(status, 0)
        self.assertEqual(out[-1], "5 passed, 0 failed, 2 skipped")

    def test_a_crash_outside_the_cases_is_a_failure(self):
        logs = os.path.join(self.dir, "testlogs")
        write(os.path.join(logs, "a/b/test.xml"), xml(4))
        log = os.path.join(self.dir, "log")
        write(log, "//a:b    FAILED in 1.0s\n")
        status, out = self.run_script(log, "3", logs)
        self.assertEqual(status, 1)
        self.assertEqual(out, ["FAILED: //a:b (FAILED)", "4 passed, 1 failed"])

    def test_a_build_error_is_a_failure(self):
        log = os.path.join(self.dir, "log")
        write(log, "ERROR: something did not compile\n")
        status, out = self.run_script(log, "1", self.dir)
        self.assertEqual(status, 1)
        self.assertEqual(out[-1], "0 passed, 1 failed")

    def test_a_second_stage_adds_to_the_line_and_names_its_failures(self):
        logs = os.path.join(self.dir, "testlogs")
        sanitized = os.path.join(self.dir, "sanitized")
        write(os.path.join(logs, "a/b/test.xml"), xml(3))
        write(os.path.join(sanitized, "a/b/test.xml"), xml(2, failed=1))
        write(os.path.join(sanitized, "f/z/test.xml"), xml(1))
        log, second = os.path.join(self.dir, "log"), os.path.join(self.dir, "log2")
        write(log, "//a:b    PASSED in 1.0s\n")
        write(second, "//a:b    FAILED in 1.0s\n//f:z    PASSED in 20.0s\n")
        status, out = self.run_script(log, "0", logs, "sanitized", second, "3", sanitized)
        self.assertEqual(status, 1)
        self.assertEqual(out, ["FAILED: //a:b (FAILED) in the sanitized stage",
                               "6 passed, 1 failed"])
        # A second stage that never got to its tests still fails the line.
        write(second, "ERROR: clang-14 not found\n")
        status, out = self.run_script(log, "0", logs, "sanitized", second, "1", sanitized)
        self.assertEqual(status, 1)
        self.assertEqual(out[-1], "3 passed, 1 failed")

    def test_wrong_arguments_are_a_usage_error(self):
        status, _ = self.run_script("only_a_log")
        self.assertEqual(status, 2)


if __name__ == "__main__":
    unittest.main()
