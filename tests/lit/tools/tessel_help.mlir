// `tessel --help` and `tessel <command> --help` list the commands and each command's flags
// and exit 0; a bad command line exits 2 with a message.
// RUN: tessel --help | FileCheck %s --check-prefix=TOP
// RUN: tessel run --help | FileCheck %s --check-prefix=RUNHELP
// RUN: tessel help run | FileCheck %s --check-prefix=RUNHELP
// RUN: tessel verify --help | FileCheck %s --check-prefix=VERIFY
// RUN: sh -c 'tessel --help >/dev/null; echo exit=$?; tessel run -h >/dev/null; echo exit=$?' | FileCheck %s --check-prefix=HELP-EXIT
// RUN: sh -c 'tessel --version; echo exit=$?; tessel version; echo exit=$?' | FileCheck %s --check-prefix=VERSION

// VERSION:      tessel {{[0-9]+\.[0-9]+\.[0-9]+$}}
// VERSION-NEXT: exit=0
// VERSION-NEXT: tessel {{[0-9]+\.[0-9]+\.[0-9]+$}}
// VERSION-NEXT: exit=0

// TOP:      usage: tessel <command> [flags] FILE
// TOP-EMPTY:
// TOP-NEXT: commands:
// TOP-NEXT:   run       Run a function of a program on the reference executor.
// TOP-NEXT:   partition Propagate shardings and partition a program into its SPMD form.
// TOP-NEXT:   explain   Show each value's propagated sharding and where each axis came from.
// TOP-NEXT:   verify    Parse and verify a program and print it as MLIR.
// TOP:      Exit status: 0 success, 1 bad input (with a message), 2 bad command line.

// RUNHELP:      usage: tessel run FILE [--function=main] [--inputs=a.npy,b.npy | --seed=N] [--partitions=N] [--output_dir=DIR] [--print_limit=K] [--check]
// RUNHELP:      flags:
// RUNHELP-NEXT:   --function (default: main)
// RUNHELP-NEXT:       The function of the program to work on.
// RUNHELP-NEXT:   --inputs
// RUNHELP:        --seed (default: 0)
// RUNHELP:        --partitions (default: 1)
// RUNHELP:        --output_dir
// RUNHELP:        --print_limit (default: 16)
// RUNHELP:        --help

// VERIFY:      usage: tessel verify FILE
// VERIFY:      flags:
// VERIFY-NEXT:   --help
// VERIFY-NOT:    --

// HELP-EXIT: exit=0
// HELP-EXIT: exit=0

// Usage errors: exit 2, a message, and where to find help.
// RUN: sh -c 'tessel; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=NO-COMMAND
// NO-COMMAND: tessel: no command given
// NO-COMMAND: usage: tessel <command> [flags] FILE
// NO-COMMAND: exit=2

// RUN: sh -c 'tessel frobnicate x.mlir; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=UNKNOWN-COMMAND
// UNKNOWN-COMMAND: tessel: unknown command 'frobnicate'
// UNKNOWN-COMMAND: exit=2

// RUN: sh -c 'tessel help frobnicate; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=UNKNOWN-COMMAND

// RUN: sh -c 'tessel run %s --bogus=1; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=UNKNOWN-FLAG
// UNKNOWN-FLAG: tessel run: unknown flag --bogus for 'tessel run'
// UNKNOWN-FLAG-NEXT: see 'tessel run --help' for usage
// UNKNOWN-FLAG-NEXT: exit=2

// A misspelt command or flag gets the nearest known name; dashes may stand for underscores.
// RUN: sh -c 'tessel partiton x.mlir; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=TYPO-COMMAND
// TYPO-COMMAND: tessel: unknown command 'partiton'; did you mean 'partition'?
// TYPO-COMMAND: exit=2
// RUN: sh -c 'tessel run %s --chek; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=TYPO-FLAG
// TYPO-FLAG: tessel run: unknown flag --chek for 'tessel run'; did you mean --check?
// TYPO-FLAG: exit=2
// RUN: sh -c 'tessel run %s --no-check --print-limit=-2; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=PRINT-LIMIT

// A flag of another command is unknown here.
// RUN: sh -c 'tessel verify %s --seed=1; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=OTHER-FLAG
// OTHER-FLAG: tessel verify: unknown flag --seed for 'tessel verify'
// OTHER-FLAG: exit=2

// RUN: sh -c 'tessel run %s --seed=abc; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=BAD-VALUE
// BAD-VALUE: tessel run: invalid value 'abc' for --seed
// BAD-VALUE: exit=2

// RUN: sh -c 'tessel run %s --seed; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=NO-VALUE
// NO-VALUE: tessel run: flag --seed needs a value
// NO-VALUE: exit=2

// RUN: sh -c 'tessel run; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=NO-FILE
// NO-FILE: tessel run: expected one FILE, got 0 arguments
// NO-FILE: exit=2

// RUN: sh -c 'tessel verify a.mlir b.mlir; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=TWO-FILES
// TWO-FILES: tessel verify: expected one FILE, got 2 arguments
// TWO-FILES: exit=2

// RUN: sh -c 'tessel run %s --inputs=a.npy --seed=3; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=CONFLICT
// CONFLICT: tessel run: --inputs and --seed cannot be used together
// CONFLICT: exit=2

// RUN: sh -c 'tessel run %s --partitions=0; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=PARTITIONS
// PARTITIONS: tessel run: --partitions must be in [1, 1024], got 0
// PARTITIONS: exit=2
// RUN: sh -c 'tessel run %s --partitions=1000000; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=TOO-MANY
// TOO-MANY: tessel run: --partitions must be in [1, 1024], got 1000000
// TOO-MANY: exit=2

// RUN: sh -c 'tessel run %s --print_limit=-2; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=PRINT-LIMIT
// PRINT-LIMIT: tessel run: --print_limit must not be negative, got -2
// PRINT-LIMIT: exit=2
