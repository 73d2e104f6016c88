#!/usr/bin/env python3
"""Runs the bad-input catalogue (cases.txt) with a built `tessel` and checks every case.

Each case is bad input that `tessel` must refuse cleanly: the expected exit status (1 bad
input or unwritable output, 2 bad command line), a message that contains the expected
fragment (for input files, its location), and no crash, hang or sanitizer report. The test
fails listing every case that did not behave, with what it printed.

usage: bad_inputs_test.py TESSEL CATALOGUE_DIR
"""
import os
import shlex
import subprocess
import sys
import tempfile

# Signs of a crash rather than a diagnostic, whatever the exit status.
CRASH_MARKS = ("Stack dump", "PLEASE submit a bug report", "terminate called", "Aborted",
               "Segmentation fault", "AddressSanitizer", "runtime error:", "internal error")
TIMEOUT_S = 60


def parse_cases(path):
    """Lines `FILE | EXIT | FRAGMENT | COMMAND`; '#' starts a comment line."""
    cases = []
    with open(path) as f:
        for number, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            fields = [field.strip() for field in line.split(" | ", 3)]
            if len(fields) != 4 or not fields[1].isdigit():
                raise SystemExit(f"{path}:{number}: expected 'FILE | EXIT | FRAGMENT | COMMAND'")
            cases.append((number, fields[0], int(fields[1]), fields[2], fields[3]))
    return cases


def main():
    tessel, catalogue = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    cases = parse_cases(os.path.join(catalogue, "cases.txt"))
    # `tessel` in a command is the binary under test; so are the other tools named after
    # the catalogue (tessel-opt, tessel-translate), by their file names.
    bin_dir = tempfile.mkdtemp()
    os.symlink(tessel, os.path.join(bin_dir, "tessel"))
    for tool in sys.argv[3:]:
        os.symlink(os.path.abspath(tool), os.path.join(bin_dir, os.path.basename(tool)))
    env = dict(os.environ, PATH=bin_dir + os.pathsep + os.environ.get("PATH", ""))
    failures = []
    # AddressSanitizer reserves terabytes of address space for its shadow memory, so under
    # it (the sanitized stage sets TESSEL_SANITIZED) the cases that limit the address space
    # to make thread creation fail cannot start; the ordinary stage runs them.
    skipped = []
    if os.environ.get("TESSEL_SANITIZED"):
        skipped = [case for case in cases if "ulimit -v" in case[4]]
        cases = [case for case in cases if "ulimit -v" not in case[4]]
    for number, file, want_exit, fragment, command in cases:
        # Each case gets its own empty scratch directory for %t.
        scratch = tempfile.mkdtemp()
        if file != "-" and not os.path.exists(os.path.join(catalogue, file)):
            failures.append(f"cases.txt:{number}: no file {file}")
            continue
        line = command.replace("%s", shlex.quote(file)).replace("%t", shlex.quote(scratch))
        try:
            run = subprocess.run(["bash", "-c", line], cwd=catalogue, env=env,
                                 capture_output=True, text=True, timeout=TIMEOUT_S)
        except subprocess.TimeoutExpired:
            failures.append(f"cases.txt:{number}: {line}\n  hung (no exit after {TIMEOUT_S} s)")
            continue
        output = run.stdout + run.stderr
        fragment = fragment.replace("%t", scratch)
        problems = []
        if run.returncode != want_exit:
            problems.append(f"exit {run.returncode}, expected {want_exit}")
        if fragment not in output:
            problems.append(f"no '{fragment}' in the output")
        crash = [mark for mark in CRASH_MARKS if mark in output]
        if crash:
            problems.append(f"crash signs: {', '.join(crash)}")
        # A refused --output must leave nothing behind in the scratch directory.
        if not os.path.isdir(scratch):
            problems.append("removed the scratch directory")
        leftovers = os.listdir(scratch) if os.path.isdir(scratch) else []
        if want_exit != 0 and leftovers:
            problems.append(f"left files behind: {', '.join(sorted(leftovers))}")
        if problems:
            shown = "\n".join("    " + l for l in output.splitlines()[-8:])
            failures.append(f"cases.txt:{number}: {line}\n  {'; '.join(problems)}\n{shown}")
    print(f"{len(cases) - len(failures)} of {len(cases)} bad-input cases behaved")
    if skipped:
        print(f"skipped under the sanitizers: cases.txt lines "
              f"{', '.join(str(case[0]) for case in skipped)} (ulimit -v)")
    for failure in failures:
        print("FAILED " + failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
