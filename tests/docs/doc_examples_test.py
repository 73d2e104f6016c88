#!/usr/bin/env python3
"""Runs the `tessel` examples of the documentation and checks their printed output.

In every fenced block of docs/*.md and README.md, a line `$ tessel ...` is a command and the
lines after it, up to the next `$ ` line or the end of the block, are what it prints
(standard output and standard error together). Every file a command names (an argument
ending in .mlir, .hlo, .npy or .textproto, or a flag value of that kind) must be shipped
or written by an earlier command (the value of `-o` or `--output` is what it writes); a
missing one fails the test. The documented lines are an
excerpt: each must match an actual line, in order (lines between them may be left out);
`...` inside a line matches any text. A `$ echo $?` line checks the exit status of the
command before it. Commands run from a scratch directory that links examples/, tests/ and
docs/, so files they write stay there.

A line `$ mpirun ... tessel ...` runs too, as the docs tell users to run it: with the
directory of the tessel binary first on PATH (mpirun starts programs by name, so an alias
would not do). OpenMPI is allowed to run as root and kept to the loopback interface, which
changes nothing the examples print. Where mpirun is not installed these lines are listed
as not run.

Where the text names a file by a short name (`tessel run add.mlir`), an HTML comment before
the block says which repository file it is, invisible in the rendered page:
`<!-- doc-files: add.mlir=tests/lit/tools/tessel_run.mlir grid.mlir=tests/lit/tools/tessel_viz.mlir#grid.mlir -->`;
`FILE#NAME` takes the `//--- NAME` section of a split-file test. The files are written
into the scratch directory under their short names before the block runs.

    python3 tests/docs/doc_examples_test.py TESSEL_BINARY REPO_ROOT
"""
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

FILE_SUFFIXES = (".mlir", ".hlo", ".npy", ".textproto")


DOC_FILES = re.compile(r"<!--\s*doc-files:(.*?)-->")


def blocks(text):
    """The fenced code blocks of a Markdown text: (lines, {short name: repository file})."""
    inside, current, files = False, [], {}
    for line in text.splitlines():
        if line.startswith("```"):
            if inside:
                yield current, files
                files = {}
            inside, current = not inside, []
        elif inside:
            current.append(line)
        else:
            match = DOC_FILES.search(line)
            if match:
                files = dict(item.split("=", 1) for item in match.group(1).split())


def examples(path):
    """(command, expected lines, expected exit status or None, files) in a Markdown file."""
    with open(path) as f:
        text = f.read()
    for block, files in blocks(text):
        i = 0
        while i < len(block):
            if not block[i].startswith("$ "):
                i += 1
                continue
            command = block[i][2:]
            while command.endswith("\\") and i + 1 < len(block):
                i += 1
                command = command[:-1] + " " + block[i].strip()
            j = i + 1
            while j < len(block) and not block[j].startswith("$ "):
                j += 1
            expected = [line for line in block[i + 1:j]]
            while expected and not expected[-1].strip():
                expected.pop()
            status = None
            if j < len(block) and block[j].strip() == "$ echo $?" and j + 1 < len(block):
                status = int(block[j + 1].strip())
                j += 2
            yield command, expected, status, files
            i = j


def materialize(files, root, scratch):
    """Writes each short-named file of a block into the scratch directory."""
    for short, source in files.items():
        path, _, section = source.partition("#")
        with open(os.path.join(root, path)) as f:
            text = f.read()
        if section:
            parts = re.split(r"^//--- (\S+)\n", text, flags=re.M)
            sections = dict(zip(parts[1::2], parts[2::2]))
            text = sections[section]
        with open(os.path.join(scratch, short), "w") as f:
            f.write(text)


OUTPUT_FLAGS = ("-o", "--output")


def named_files(words):
    """The files a command reads: what it names, less what it writes (-o, --output)."""
    files = []
    writes_next = False
    for word in words:
        if writes_next:
            writes_next = False
            continue
        if word in OUTPUT_FLAGS:
            writes_next = True
            continue
        if word.split("=", 1)[0] in OUTPUT_FLAGS:
            continue
        for part in re.split(r"[=,]", word):
            if part.endswith(FILE_SUFFIXES) and not part.startswith("-"):
                files.append(part)
    return files


def line_matches(pattern, line):
    parts = pattern.split("...")
    if len(parts) == 1:
        return pattern.rstrip() == line.rstrip()
    regex = ".*".join(re.escape(p) for p in parts)
    return re.fullmatch(regex, line.rstrip()) is not None or (
        parts[-1] == "" and re.match(regex, line.rstrip()) is not None)


def output_matches(expected, actual):
    """Whether the expected lines appear in `actual` in order (an excerpt: lines between
    them may be left out, as may a `...` line's)."""
    a = 0
    for pattern in expected:
        if pattern.strip() == "...":
            continue
        while a < len(actual) and not line_matches(pattern, actual[a]):
            a += 1
        if a == len(actual):
            return False
        a += 1
    return True


def mpirun_environment(tessel):
    """The environment of a documented `mpirun ... tessel ...` line."""
    env = dict(os.environ)
    env["PATH"] = os.path.dirname(tessel) + os.pathsep + env.get("PATH", "")
    env.update({
        "OMPI_ALLOW_RUN_AS_ROOT": "1",
        "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1",
        "OMPI_MCA_btl": "self,vader,tcp",
        "OMPI_MCA_btl_tcp_if_include": "lo",
        "OMPI_MCA_oob_tcp_if_include": "lo",
    })
    return env


def main():
    tessel, root = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    docs = [os.path.join(root, "README.md")] + sorted(
        os.path.join(root, "docs", name) for name in os.listdir(os.path.join(root, "docs"))
        if name.endswith(".md"))
    scratch = tempfile.mkdtemp()
    for name in ("examples", "tests", "docs"):
        os.symlink(os.path.join(root, name), os.path.join(scratch, name))
    ran, skipped, failures = 0, [], []
    for doc in docs:
        for command, expected, status, files in examples(doc):
            where = os.path.relpath(doc, root)
            materialize(files, root, scratch)
            words = shlex.split(command)
            if words and words[0] == "tessel":
                argv, env = [tessel] + words[1:], None
            elif words and words[0] == "mpirun" and "tessel" in words:
                if shutil.which("mpirun") is None:
                    skipped.append("%s: %s (mpirun is not installed)" % (where, command))
                    continue
                argv, env = words, mpirun_environment(tessel)
            else:
                continue
            missing = [f for f in named_files(words[1:])
                       if not os.path.exists(os.path.join(scratch, f))]
            if missing:
                failures.append("%s: $ %s\nnames %s, which the repository does not ship" % (
                    where, command, ", ".join(missing)))
                continue
            run = subprocess.run(argv, cwd=scratch, capture_output=True, text=True,
                                 timeout=600, env=env)
            ran += 1
            actual = (run.stdout + run.stderr).splitlines()
            while actual and not actual[-1].strip():
                actual.pop()
            problems = []
            if status is not None and run.returncode != status:
                problems.append("exit status %d, documented %d" % (run.returncode, status))
            if status is None and run.returncode != 0 and not expected:
                problems.append("exit status %d" % run.returncode)
            if expected and not output_matches(expected, actual):
                problems.append("output differs:\n--- documented\n%s\n--- actual\n%s" % (
                    "\n".join(expected), "\n".join(actual)))
            if problems:
                failures.append("%s: $ %s\n%s" % (where, command, "\n".join(problems)))
    print("ran %d documented commands" % ran)
    for line in skipped:
        print("not run: " + line)
    for failure in failures:
        print("FAILED " + failure + "\n")
    if ran == 0:
        print("no documented command ran")
        return 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
