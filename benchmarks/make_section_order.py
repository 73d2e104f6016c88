#!/usr/bin/env python3
"""Writes tools/tessel/section_order.txt: the code a command runs, hottest first, for the
linker to lay out side by side (gold's --section-ordering-file, see
third_party/build_defs.bzl).

The commands link all of LLVM and MLIR that they name, about 19 MB of code, and a run
touches a few hundred scattered functions of it. Each 64 KiB window of code that a run
enters costs a page fault (the kernel maps code around the faulting page in 64 KiB), so a
one-op program took about 90 faults on code alone; laid out in the order written here,
they fit in a few windows. docs/benchmarks.md, "Hot code side by side", has the figures.

How the list is made:
  1. the tessel command is linked with a link map (-Wl,-Map), which names the input
     section (`.text.<symbol>` with -ffunction-sections) at each address;
  2. the command runs under valgrind's cachegrind on the training runs below, which count
     the instructions executed in each function;
  3. each function's address, from `nm`, is found in the map, and the sections are written
     by instructions executed, most first.

A function that is renamed or new after the list was made is laid out where the linker
would put it anyway, so a stale list costs only speed. Run this after large changes:

    python3 benchmarks/make_section_order.py

It needs valgrind, and builds //tools/tessel with bazel.
"""
import argparse
import bisect
import collections
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUTPUT = os.path.join(ROOT, 'tools', 'tessel', 'section_order.txt')

HEADER = """\
# Input sections of the tessel commands' code, most executed first: the linker lays them
# out in this order (gold's --section-ordering-file; third_party/build_defs.bzl). Made by
# benchmarks/make_section_order.py from runs of `tessel partition` and `tessel run`; do not
# edit by hand. A name that no longer exists is ignored.
"""


def training_runs(workdir):
    """The command lines to profile: what users run most, on the input formats they use."""
    corpus = os.path.join(ROOT, 'tests', 'corpus')
    generator = os.path.join(ROOT, 'benchmarks', 'make_transformer_hlo.py')
    programs = {}
    for name, flags in [('transformer.hlo', []), ('transformer_per_stem.hlo', ['--per-stem'])]:
        path = os.path.join(workdir, name)
        with open(path, 'w') as out:
            subprocess.run([sys.executable, generator, '--instructions', '1000'] + flags,
                           stdout=out, check=True)
        programs[name] = path
    runs = [
        ['partition', programs['transformer.hlo']],
        ['partition', programs['transformer_per_stem.hlo'], '--format=hlo'],
        ['partition', os.path.join(corpus, 'opt_adamw.hlo')],
        ['partition', os.path.join(corpus, 'moe_layer.hlo')],
        ['partition', os.path.join(corpus, 'bf16_mlp.stablehlo.mlir')],
        ['partition', os.path.join(corpus, 'bf16_mlp.stablehlo.mlir'), '--format=stablehlo'],
        ['partition', os.path.join(ROOT, 'examples', 'mlp', 'mlp.mlir')],
        ['run', os.path.join(ROOT, 'examples', 'mlp', 'mlp.mlir'), '--check'],
    ]
    return runs


def build_with_map(workdir):
    map_path = os.path.join(workdir, 'tessel.map')
    # tessel-mpi, which :tessel carries as data, links with the same flags and would write
    # the same map: it goes first, so that building :tessel then links only :tessel.
    for target in ['//tools/tessel:tessel-mpi', '//tools/tessel:tessel']:
        subprocess.run(['bazel', 'build', target, f'--linkopt=-Wl,-Map,{map_path}'], cwd=ROOT,
                       check=True)
    binary = os.path.join(workdir, 'tessel')
    subprocess.run(['cp', os.path.join(ROOT, 'bazel-bin', 'tools', 'tessel', 'tessel'), binary],
                   check=True)
    return binary, map_path


def text_sections(map_path):
    """(address, size, name) of every input section in the .text output section."""
    sections = []
    with open(map_path) as f:
        lines = iter(f.read().split('\n'))
    for line in lines:
        if line.startswith('.text '):
            break
    name = None
    for line in lines:
        if line and not line.startswith(' '):
            break
        alone = re.match(r'^ (\S+)\s*$', line)
        if alone:
            name = alone.group(1)  # a long name: address and size follow on the next line
            continue
        placed = re.match(r'^ (\S+)?\s+0x([0-9a-f]+)\s+0x([0-9a-f]+)\s+\S', line)
        if placed:
            name = placed.group(1) or name
            address, size = int(placed.group(2), 16), int(placed.group(3), 16)
            if name and size:
                sections.append((address, size, name))
            name = None
    sections.sort()
    return sections


def function_addresses(binary):
    addresses = {}
    out = subprocess.run(['nm', binary], capture_output=True, text=True, check=True).stdout
    for line in out.split('\n'):
        fields = line.split()
        if len(fields) == 3 and fields[1] in 'tTwW':
            addresses.setdefault(fields[2], int(fields[0], 16))
    return addresses


def instructions_by_function(binary, runs, workdir):
    counts = collections.Counter()
    for i, args in enumerate(runs):
        out = os.path.join(workdir, f'cachegrind.{i}')
        result = subprocess.run(
            ['valgrind', '--tool=cachegrind', '--cache-sim=no', '--demangle=no',
             f'--cachegrind-out-file={out}', binary] + args,
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if result.returncode != 0:
            sys.exit(f'tessel {" ".join(args)} failed under valgrind:\n{result.stderr}')
        function = None
        with open(out) as f:
            for line in f:
                if line.startswith('fn='):
                    function = line[3:].strip()
                elif function and line[:1].isdigit():
                    fields = line.split()
                    if len(fields) >= 2:
                        counts[function] += int(fields[1])
    return counts


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--output', default=OUTPUT)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as workdir:
        binary, map_path = build_with_map(workdir)
        sections = text_sections(map_path)
        starts = [s[0] for s in sections]
        addresses = function_addresses(binary)
        main_section = [s for s in sections if s[2] in ('.text.main', '.text.startup.main')]
        if not main_section or main_section[0][0] != addresses.get('main'):
            sys.exit('the link map does not describe the binary that was built')
        executed = collections.Counter()
        for function, count in instructions_by_function(binary, training_runs(workdir),
                                                        workdir).items():
            address = addresses.get(function)
            if address is None:
                continue  # in a shared library (libc, the allocator) or the loader
            k = bisect.bisect_right(starts, address) - 1
            if k >= 0 and address < sections[k][0] + sections[k][1]:
                executed[sections[k][2]] += count
    # Code from objects built without per-function sections sits in plain `.text`, which the
    # linker cannot move piece by piece.
    names = sorted((n for n in executed if n != '.text'), key=lambda n: (-executed[n], n))
    with open(args.output, 'w') as out:
        out.write(HEADER)
        out.writelines(n + '\n' for n in names)
    print(f'{len(names)} sections written to {args.output}', file=sys.stderr)


if __name__ == '__main__':
    main()
