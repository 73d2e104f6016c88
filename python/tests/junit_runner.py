"""Runs one unittest file and, when Bazel asks for a report (XML_OUTPUT_FILE), writes one
test case per test method, so that a test skipped because JAX is absent is counted as
skipped by the suite's summary (scripts/summarize_tests.py), never as passed.

    python3 junit_runner.py some_test.py
"""

import os
import runpy
import sys
import unittest
from xml.sax.saxutils import quoteattr


class RecordingResult(unittest.TextTestResult):
    """A text result that also keeps every test's outcome in order."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.outcomes = []

    def addSuccess(self, test):
        super().addSuccess(test)
        self.outcomes.append((test, "passed", ""))

    def addFailure(self, test, err):
        super().addFailure(test, err)
        self.outcomes.append((test, "failure", self.failures[-1][1]))

    def addError(self, test, err):
        super().addError(test, err)
        self.outcomes.append((test, "error", self.errors[-1][1]))

    def addSkip(self, test, reason):
        super().addSkip(test, reason)
        self.outcomes.append((test, "skipped", reason))

    def addExpectedFailure(self, test, err):
        super().addExpectedFailure(test, err)
        self.outcomes.append((test, "passed", ""))

    def addUnexpectedSuccess(self, test):
        super().addUnexpectedSuccess(test)
        self.outcomes.append((test, "failure", "unexpected success"))


def write_report(path, suite_name, outcomes):
    lines = ['<?xml version="1.0" encoding="UTF-8"?>', "<testsuites>",
             f"<testsuite name={quoteattr(suite_name)} tests=\"{len(outcomes)}\">"]
    for test, status, detail in outcomes:
        name = quoteattr(test.id())
        if status == "passed":
            lines.append(f"<testcase name={name}/>")
        elif status == "skipped":
            lines.append(f"<testcase name={name} status=\"notrun\">"
                         f"<skipped message={quoteattr(detail)}/></testcase>")
        else:
            lines.append(f"<testcase name={name}><{status} message={quoteattr(detail)}/>"
                         "</testcase>")
    lines += ["</testsuite>", "</testsuites>"]
    with open(path, "w", encoding="utf-8") as report:
        report.write("\n".join(lines) + "\n")


def main(path):
    sys.path.insert(0, os.path.dirname(os.path.abspath(path)))
    module = runpy.run_path(path, run_name="__tested__")
    loader = unittest.TestLoader()
    suite = unittest.TestSuite()
    for value in module.values():
        if isinstance(value, type) and issubclass(value, unittest.TestCase):
            suite.addTests(loader.loadTestsFromTestCase(value))
    runner = unittest.TextTestRunner(resultclass=RecordingResult, verbosity=2, stream=sys.stdout)
    result = runner.run(suite)
    for _, status, reason in result.outcomes:
        if status == "skipped":
            print(f"SKIPPED: {reason}")
    report = os.environ.get("XML_OUTPUT_FILE")
    if report:
        write_report(report, os.path.basename(path), result.outcomes)
    return 0 if result.wasSuccessful() and result.testsRun > 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
