#!/usr/bin/env python3
"""Compares `tessel run` of two binaries on one program, side by side on a noisy machine.

Each pair runs both binaries right after each other, in random order, and the ratios are
taken within the pair (after / before), as in compare_partition_runs.py. Per run it reads:

  - run: the `run` stage that `--timing` prints (the executor on inputs in memory);
  - CPU: the process's user and system time, start-up and reading inputs included;
  - peak: the process's peak resident memory.

    python3 benchmarks/make_transformer_hlo.py --layers 32 > t32.hlo
    python3 benchmarks/compare_executor_runs.py t32.hlo 10 old/tessel new/tessel

Arguments after `--` go to `tessel run` (by default it makes random inputs and prints no
values: `--print_limit=0`).
"""
import argparse
import os
import random
import re
import statistics
import subprocess
import sys

from compare_partition_runs import quartiles


def measure(binary, program, extra):
    """Runs `tessel run` once; returns (run stage s, CPU s, peak MiB)."""
    command = [binary, 'run', program, '--print_limit=0', '--timing'] + extra
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                               text=True)
    stderr = process.stderr.read()
    _, status, usage = os.wait4(process.pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f'{" ".join(command)} failed:\n{stderr}')
    match = re.search(r'\brun ([0-9.]+) s', stderr)
    if not match:
        sys.exit(f'no run stage in the output of {" ".join(command)}:\n{stderr}')
    return float(match.group(1)), usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('program')
    parser.add_argument('pairs', type=int)
    parser.add_argument('before')
    parser.add_argument('after')
    parser.add_argument('extra', nargs='*', help='arguments for tessel run, after --')
    args = parser.parse_args()
    if args.pairs < 2:
        sys.exit('at least 2 pairs')
    runs = {args.before: [], args.after: []}
    for _ in range(args.pairs):
        order = [args.before, args.after]
        random.shuffle(order)
        for binary in order:
            runs[binary].append(measure(binary, args.program, args.extra))
    print(f'tessel run {args.program}, {args.pairs} pairs')
    for field, (name, unit) in enumerate((('run', 's'), ('CPU', 's'), ('peak', 'MiB'))):
        before = [run[field] for run in runs[args.before]]
        after = [run[field] for run in runs[args.after]]
        ratios = [a / b for a, b in zip(after, before)]
        print(f'  {name}: median {statistics.median(before):.4g} -> '
              f'{statistics.median(after):.4g} {unit}; after / before: {quartiles(ratios)}')


if __name__ == '__main__':
    main()
