#!/usr/bin/env python3
"""Compares `tessel partition` runs on a noisy machine: two binaries side by side, or one
binary's time per instruction at two program sizes.

On a shared 2-core virtual machine a run can take a third longer than the one before it,
for reasons outside the process. Medians of separate batches then compare the machine's
moods as much as the binaries. Here each measurement is paired with its counterpart run
right before or after it (in random order), and the ratio is taken within the pair.

    # Two binaries on one program: median and quartiles of after/before over the pairs.
    python3 benchmarks/compare_partition_runs.py binaries t10k.hlo 40 old/tessel new/tessel

    # One binary at two sizes: each round runs the small program 5 times and the large one
    # once; the ratio of µs per instruction (large over small) per round, by the median of
    # the small runs and by the fastest of each.
    python3 benchmarks/compare_partition_runs.py sizes t10k.hlo t1m.hlo 5 tessel

Programs come from benchmarks/make_transformer_hlo.py. Times are the task clock of the
whole process (`perf stat -e task-clock`), start-up included; the output goes to
/dev/null. Instruction counts are read from the programs (lines with ' = ').
"""
import argparse
import random
import statistics
import subprocess
import sys


def task_clock_ms(binary, program):
    result = subprocess.run(
        ['perf', 'stat', '-x,', '-e', 'task-clock', binary, 'partition', program,
         '-o', '/dev/null'],
        capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f'{binary} partition {program} failed:\n{result.stderr}')
    return float(result.stderr.strip().splitlines()[-1].split(',')[0])


def instructions(program):
    with open(program) as f:
        return sum(1 for line in f if ' = ' in line)


def quartiles(values):
    q = statistics.quantiles(values, n=4)
    return f'median {q[1]:.3f} (quartiles {q[0]:.3f} to {q[2]:.3f})'


def compare_binaries(args):
    before, after, ratios = [], [], []
    for _ in range(args.pairs):
        if random.random() < 0.5:
            b = task_clock_ms(args.before, args.program)
            a = task_clock_ms(args.after, args.program)
        else:
            a = task_clock_ms(args.after, args.program)
            b = task_clock_ms(args.before, args.program)
        before.append(b)
        after.append(a)
        ratios.append(a / b)
    n = instructions(args.program)
    print(f'{args.program} ({n} instructions), {args.pairs} pairs')
    for name, times in ((args.before, before), (args.after, after)):
        median = statistics.median(times)
        print(f'  {name}: median {median:.1f} ms, {1000 * median / n:.2f} us per instruction')
    print(f'  after / before: {quartiles(ratios)}')


def compare_sizes(args):
    small_n, large_n = instructions(args.small), instructions(args.large)
    by_median, small_all, large_all = [], [], []
    for _ in range(args.rounds):
        small = [task_clock_ms(args.binary, args.small) for _ in range(5)]
        large = task_clock_ms(args.binary, args.large)
        small_all += small
        large_all.append(large)
        by_median.append((large / large_n) / (statistics.median(small) / small_n))
    us = lambda ms, n: 1000 * ms / n
    print(f'{args.binary}: {args.small} ({small_n} instructions) against {args.large} '
          f'({large_n}), {args.rounds} rounds')
    print(f'  small: median {us(statistics.median(small_all), small_n):.2f} us per '
          f'instruction, fastest {us(min(small_all), small_n):.2f}')
    print(f'  large: median {us(statistics.median(large_all), large_n):.2f} us per '
          f'instruction, fastest {us(min(large_all), large_n):.2f}')
    print(f'  large / small per round: {quartiles(by_median)}')
    print(f'  fastest / fastest: '
          f'{us(min(large_all), large_n) / us(min(small_all), small_n):.3f}')


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    sub = parser.add_subparsers(dest='mode', required=True)
    binaries = sub.add_parser('binaries')
    binaries.add_argument('program')
    binaries.add_argument('pairs', type=int)
    binaries.add_argument('before')
    binaries.add_argument('after')
    sizes = sub.add_parser('sizes')
    sizes.add_argument('small')
    sizes.add_argument('large')
    sizes.add_argument('rounds', type=int)
    sizes.add_argument('binary')
    args = parser.parse_args()
    if args.mode == 'binaries':
        if args.pairs < 2:
            sys.exit('at least 2 pairs')
        compare_binaries(args)
    else:
        if args.rounds < 2:
            sys.exit('at least 2 rounds')
        compare_sizes(args)


if __name__ == '__main__':
    main()
