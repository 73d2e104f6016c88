#!/usr/bin/env python3
"""Turns a `bazel test` log into one closing line: `N passed, N failed[, N skipped]`.

Counts individual test cases, not targets: a gtest binary contributes one count per TEST,
a lit file one per file. Cases come from each target's test.xml; a target that failed to
build or produced no XML counts as one failure, so nothing broken goes unnoticed.

Skipped: a case that gtest skipped (GTEST_SKIP, e.g. a GPU test on a machine without a GPU,
written as result="skipped" in test.xml) and a target that Bazel skipped because it is
incompatible with the build's configuration (the CUDA-only targets outside --config=cuda,
reported as SKIPPED) count as skipped, never as passed.

Usage: summarize_tests.py BAZEL_LOG BAZEL_EXIT_CODE TESTLOGS_DIR
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


def main():
    log_path, exit_code, testlogs = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    passed = failed = skipped = 0
    failures = []
    seen = 0
    with open(log_path, errors="replace") as log:
        for line in log:
            match = STATUS_RE.match(line.strip())
            if not match:
                continue
            seen += 1
            target, status = match.groups()
            package, name = target[2:].split(":")
            xmls = case_xmls(testlogs, package, name)
            if status in ("PASSED", "FAILED", "FLAKY", "TIMEOUT") and xmls:
                p = f = s = 0
                for xml_path in xmls:
                    counts = count_cases(xml_path)
                    p, f, s = p + counts[0], f + counts[1], s + counts[2]
                if status != "PASSED" and f == 0:
                    # The binary failed outside any case (crash, timeout, leak report).
                    f = 1
                if status == "PASSED" and f:
                    p, f = p + f, 0
                passed, failed, skipped = passed + p, failed + f, skipped + s
                if f:
                    failures.append("%s (%s)" % (target, status))
            elif status == "SKIPPED":
                skipped += 1
            else:
                failed += 1
                failures.append("%s (%s)" % (target, status))
    if exit_code != 0 and not failures:
        # Bazel stopped before running tests (a build or analysis error).
        failed += 1
        failures.append("bazel exited with %d before reporting test results" % exit_code)
    for failure in failures:
        print("FAILED: " + failure)
    summary = "%d passed, %d failed" % (passed, failed)
    if skipped:
        summary += ", %d skipped" % skipped
    print(summary)
    return 0 if failed == 0 and seen > 0 else 1


if __name__ == "__main__":
    sys.exit(main())
