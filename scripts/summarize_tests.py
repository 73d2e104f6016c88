#!/usr/bin/env python3
"""Turns a `bazel test` log into one closing line: `N passed, N failed[, N skipped]`.

Counts individual test cases, not targets: a gtest binary contributes one count per TEST,
a lit file one per file. Cases come from each target's test.xml; a target that failed to
build or produced no XML counts as one failure, so nothing broken goes unnoticed.

Skipped: a case that gtest skipped (GTEST_SKIP, e.g. a GPU test on a machine without a GPU,
written as result="skipped" in test.xml) and a target that Bazel skipped because it is
incompatible with the build's configuration (the CUDA-only targets outside --config=cuda,
reported as SKIPPED) count as skipped, never as passed.

Usage: summarize_tests.py BAZEL_LOG BAZEL_EXIT_CODE TESTLOGS_DIR [STAGE LOG EXIT TESTLOGS]...
A further stage (the sanitized build, whose test logs live in their own directory) adds its
counts to the same line; its failures are named with the stage.
"""
import glob
import os
import re
import sys
import xml.etree.ElementTree as ET

STATUS_RE = re.compile(
    r"^(//\S+)\s+(?:\(cached\)\s+)?"
    r"(PASSED|FAILED TO BUILD|FAILED|NO STATUS|TIMEOUT|FLAKY|SKIPPED|INCOMPLETE)\b")


def count_cases(xml_path):
    """Returns (passed, failed, skipped) for the test cases in one test.xml."""
    root = ET.parse(xml_path).getroot()
    passed = failed = skipped = 0
    for case in root.iter("testcase"):
        if case.find("failure") is not None or case.find("error") is not None:
            failed += 1
        elif case.get("status") == "notrun" or case.find("skipped") is not None or \
                case.get("result") == "skipped":
            skipped += 1
        else:
            passed += 1
    return passed, failed, skipped


def case_xmls(testlogs, package, name):
    """The test.xml files of one target: one, or one per shard of a sharded test."""
    target_dir = os.path.join(testlogs, package, name)
    whole = os.path.join(target_dir, "test.xml")
    if os.path.exists(whole):
        return [whole]
    shards = sorted(glob.glob(os.path.join(target_dir, "shard_*_of_*", "test.xml")))
    return shards


class Counts:
    def __init__(self):
        self.passed = self.failed = self.skipped = self.seen = 0
        self.failures = []


def add_stage(counts, log_path, exit_code, testlogs, stage):
    """Adds the test cases of one `bazel test` run to `counts`."""
    suffix = " in the %s stage" % stage if stage else ""
    failures_before = len(counts.failures)
    with open(log_path, errors="replace") as log:
        for line in log:
            match = STATUS_RE.match(line.strip())
            if not match:
                continue
            counts.seen += 1
            target, status = match.groups()
            package, name = target[2:].split(":")
            xmls = case_xmls(testlogs, package, name)
            if status in ("PASSED", "FAILED", "FLAKY", "TIMEOUT") and xmls:
                p = f = s = 0
                for xml_path in xmls:
                    p, f, s = [a + b for a, b in zip((p, f, s), count_cases(xml_path))]
                if status != "PASSED" and f == 0:
                    # The binary failed outside any case (crash, timeout, leak report).
                    f = 1
                if status == "PASSED" and f:
                    p, f = p + f, 0
                counts.passed += p
                counts.failed += f
                counts.skipped += s
                if f:
                    counts.failures.append("%s (%s)%s" % (target, status, suffix))
            elif status == "SKIPPED":
                counts.skipped += 1
            else:
                counts.failed += 1
                counts.failures.append("%s (%s)%s" % (target, status, suffix))
    if exit_code != 0 and len(counts.failures) == failures_before:
        # Bazel stopped before running tests (a build or analysis error).
        counts.failed += 1
        counts.failures.append(
            "bazel exited with %d before reporting test results%s" % (exit_code, suffix))


def main():
    args = sys.argv[1:]
    if len(args) < 3 or (len(args) - 3) % 4:
        print(__doc__, file=sys.stderr)
        return 2
    counts = Counts()
    add_stage(counts, args[0], int(args[1]), args[2], "")
    for i in range(3, len(args), 4):
        add_stage(counts, args[i + 1], int(args[i + 2]), args[i + 3], args[i])
    for failure in counts.failures:
        print("FAILED: " + failure)
    summary = "%d passed, %d failed" % (counts.passed, counts.failed)
    if counts.skipped:
        summary += ", %d skipped" % counts.skipped
    print(summary)
    return 0 if counts.failed == 0 and counts.seen > 0 else 1


if __name__ == "__main__":
    sys.exit(main())
