// `tessel run` on a small MLIR program: seeded inputs, the same inputs read back from .npy
// files, results saved with --output_dir, and the printing options.
// RUN: rm -rf %t && mkdir -p %t

// Save the seeded inputs: @make_inputs has @main's arguments and returns them.
// RUN: tessel run %s --function=make_inputs --seed=7 --output_dir=%t/inputs | FileCheck %s --check-prefix=MAKE
// MAKE:      result 0: s32[2,3] {{[{][{]}}-1, 8, -6}, {0, -4, 1{{[}][}]}}
// MAKE-NEXT: result 1: s32[3,2] {{[{][{]}}-2, -1}, {-1, -5}, {-1, -1{{[}][}]}}
// MAKE-NEXT: wrote {{.*}}inputs{{/|\\}}result_0.npy
// MAKE-NEXT: wrote {{.*}}inputs{{/|\\}}result_1.npy

// Running @main from --seed=7 and from those .npy files gives the same output: x·w (by
// hand: [[2-8+6, 1-40+6], [0+4-1, 0+20-1]]) and -x.
// RUN: tessel run %s --seed=7 > %t/seeded.txt
// RUN: tessel run %s --inputs=%t/inputs/result_0.npy,%t/inputs/result_1.npy --output_dir=%t/out > %t/from_npy.txt
// RUN: FileCheck %s --check-prefix=GOLDEN < %t/from_npy.txt
// RUN: tessel run %s --inputs %t/inputs/result_0.npy,%t/inputs/result_1.npy > %t/again.txt
// RUN: diff %t/seeded.txt %t/again.txt
// GOLDEN:      result 0: s32[2,2] {{[{][{]}}0, -33}, {3, 19{{[}][}]}}
// GOLDEN-NEXT: result 1: s32[2,3] {{[{][{]}}1, -8, 6}, {0, 4, -1{{[}][}]}}
// GOLDEN-NEXT: wrote {{.*}}out{{/|\\}}result_0.npy
// GOLDEN-NEXT: wrote {{.*}}out{{/|\\}}result_1.npy
// GOLDEN-NOT:  result

// The saved results read back as inputs hold the same values.
// RUN: tessel run %s --function=show --inputs=%t/out/result_0.npy,%t/out/result_1.npy | FileCheck %s --check-prefix=SAVED
// SAVED:      result 0: s32[2,2] {{[{][{]}}0, -33}, {3, 19{{[}][}]}}
// SAVED-NEXT: result 1: s32[2,3] {{[{][{]}}1, -8, 6}, {0, 4, -1{{[}][}]}}

// --print_limit truncates each result; 0 prints only the shapes.
// RUN: tessel run %s --seed=7 --print_limit=3 | FileCheck %s --check-prefix=LIMIT
// LIMIT:      result 0: s32[2,2] {{[{][{]}}0, -33}, {3, ...{{$}}
// LIMIT-NEXT: result 1: s32[2,3] {{[{][{]}}1, -8, 6}, ...{{$}}
// RUN: tessel run %s --seed=7 --print_limit=0 | FileCheck %s --check-prefix=SHAPES
// SHAPES:      result 0: s32[2,2]{{$}}
// SHAPES-NEXT: result 1: s32[2,3]{{$}}

// A different seed gives different inputs.
// RUN: tessel run %s --seed=8 | FileCheck %s --check-prefix=SEED8
// SEED8-NOT: result 1: s32[2,3] {{[{][{]}}1, -8, 6}, {0, 4, -1{{[}][}]}}

// A function without arguments needs no inputs; scalars print without braces.
// RUN: tessel run %s --function=constant | FileCheck %s --check-prefix=CONSTANT
// CONSTANT: result 0: s32[] 42
// CONSTANT-NEXT: result 1: pred[2] {true, false}

// --timing prints the stages on standard error and the instruction set of f32 products,
// which TESSEL_ISA caps; an unknown TESSEL_ISA is ignored with a warning.
// RUN: tessel run %s --seed=7 --timing 2>&1 | FileCheck %s --check-prefix=TIMING
// TIMING: timing: load {{[0-9.]+}} s, inputs {{[0-9.]+}} s, run {{[0-9.]+}} s; f32 products on {{baseline|avx2|avx512}}
// RUN: env TESSEL_ISA=baseline tessel run %s --seed=7 --timing 2>&1 | FileCheck %s --check-prefix=BASELINE
// BASELINE: f32 products on baseline
// RUN: env TESSEL_ISA=sse9 tessel run %s --seed=7 --timing 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// UNKNOWN: warning: TESSEL_ISA is 'sse9'; expected baseline, avx2 or avx512; ignored
// UNKNOWN: f32 products on {{baseline|avx2|avx512}}

func.func @main(%x: tensor<2x3xi32>, %w: tensor<3x2xi32>) -> (tensor<2x2xi32>, tensor<2x3xi32>) {
  %d = hlo.dot_general %x, %w, lhs_contract = [1], rhs_contract = [0] : (tensor<2x3xi32>, tensor<3x2xi32>) -> tensor<2x2xi32>
  %n = hlo.neg %x : tensor<2x3xi32>
  return %d, %n : tensor<2x2xi32>, tensor<2x3xi32>
}

func.func @make_inputs(%x: tensor<2x3xi32>, %w: tensor<3x2xi32>) -> (tensor<2x3xi32>, tensor<3x2xi32>) {
  return %x, %w : tensor<2x3xi32>, tensor<3x2xi32>
}

func.func @show(%a: tensor<2x2xi32>, %b: tensor<2x3xi32>) -> (tensor<2x2xi32>, tensor<2x3xi32>) {
  return %a, %b : tensor<2x2xi32>, tensor<2x3xi32>
}

func.func @constant() -> (tensor<i32>, tensor<2xi1>) {
  %c = hlo.constant dense<42> : tensor<i32>
  %p = hlo.constant dense<[true, false]> : tensor<2xi1>
  return %c, %p : tensor<i32>, tensor<2xi1>
}
