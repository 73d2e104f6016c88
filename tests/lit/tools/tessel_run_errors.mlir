// Bad input to `tessel run` and `tessel verify`: exit status 1 and a message naming the
// file (with line:col where the parser or the op gives one), never a crash.
// RUN: rm -rf %t && split-file %s %t
// RUN: tessel run %t/prog.mlir --function=npys --output_dir=%t/npy > /dev/null


// A program that does not parse or verify: the parser's located diagnostic.
// RUN: sh -c 'tessel run %t/syntax.mlir; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=SYNTAX
// SYNTAX: tessel run: {{.*}}syntax.mlir:2:19: error: expected SSA operand
// SYNTAX: exit=1
// RUN: sh -c 'tessel run %t/verifier.mlir; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=VERIFIER
// VERIFIER: tessel run: {{.*}}verifier.mlir:2:8: error: 'hlo.transpose' op permutation: dimension 1 appears twice
// VERIFIER: exit=1
// RUN: sh -c 'tessel run %t/malformed.hlo; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=MALFORMED
// MALFORMED: tessel run: {{.*}}malformed.hlo:4:18: error: expected ',' or ']' in shape dimensions
// MALFORMED: exit=1
// Sniffed as HLO (no known extension), so the HLO importer reports the opcode.
// RUN: sh -c 'tessel run %t/opcode.txt; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=OPCODE
// RUN: sh -c 'tessel verify %t/opcode.txt; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=OPCODE
// OPCODE: {{.*}}opcode.txt:4:19: error: opcode 'fft' is not supported
// OPCODE: exit=1

// A file that does not exist.
// RUN: sh -c 'tessel run %t/missing.mlir; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: tessel run: cannot read '{{.*}}missing.mlir': No such file or directory
// MISSING: exit=1

// A function that is not there, or has no body.
// RUN: sh -c 'tessel run %t/prog.mlir --function=nope; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=NO-FUNCTION
// NO-FUNCTION: tessel run: {{.*}}prog.mlir: no function @nope (functions: @main, @npys, @dynamic, @opaque, @collective)
// NO-FUNCTION: exit=1
// RUN: sh -c 'tessel run %t/prog.mlir --function=declared; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=DECLARED
// DECLARED: tessel run: {{.*}}prog.mlir: function @declared is a declaration without a body
// DECLARED: exit=1

// Inputs that do not fit the signature: count, shape, dtype; unreadable and malformed files.
// RUN: sh -c 'tessel run %t/prog.mlir --inputs=%t/npy/result_0.npy; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=COUNT
// COUNT: tessel run: {{.*}}prog.mlir:3:1: @main takes 2 arguments, but --inputs names 1 file
// COUNT: exit=1
// RUN: sh -c 'tessel run %t/prog.mlir --inputs=%t/npy/result_2.npy,%t/npy/result_1.npy; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=SHAPE
// SHAPE: tessel run: {{.*}}result_2.npy: argument 0 of @main: expected tensor<2x3xf32>, got f32[3,2]
// SHAPE: exit=1
// RUN: sh -c 'tessel run %t/prog.mlir --inputs=%t/npy/result_0.npy,%t/npy/result_3.npy; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=DTYPE
// DTYPE: tessel run: {{.*}}result_3.npy: argument 1 of @main: expected tensor<3xi32>, got s64[3]
// DTYPE: exit=1
// RUN: sh -c 'tessel run %t/prog.mlir --inputs=%t/npy/result_0.npy,%t/npy/missing.npy; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=NO-NPY
// NO-NPY: tessel run: {{.*}}missing.npy: cannot open: No such file or directory
// NO-NPY: exit=1
// RUN: sh -c 'tessel run %t/prog.mlir --inputs=%t/garbage.npy,%t/npy/result_1.npy; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=GARBAGE
// GARBAGE: tessel run: {{.*}}garbage.npy: not a .npy file (bad magic string)
// GARBAGE: exit=1

// No random input for a dynamic shape.
// RUN: sh -c 'tessel run %t/prog.mlir --function=dynamic; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=DYNAMIC
// DYNAMIC: tessel run: {{.*}}prog.mlir:18:1: @dynamic: argument 0 (tensor<?xf32>): random inputs need a tensor type with a static shape
// DYNAMIC: exit=1

// An op the executor cannot run: named, with its location.
// RUN: sh -c 'tessel run %t/prog.mlir --function=opaque; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=NO-KERNEL
// NO-KERNEL: tessel run: hlo.custom_call at {{.*}}prog.mlir:23:8: custom_call target "my_kernel" has no executor implementation
// NO-KERNEL: exit=1

// Collectives on one device, and on fewer partitions than the mesh has devices.
// RUN: sh -c 'tessel run %t/prog.mlir --function=collective; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=ONE-DEVICE
// ONE-DEVICE: tessel run: tessel.all_reduce at {{.*}}prog.mlir:28:8: collectives need a communicator
// ONE-DEVICE-NEXT: hint: the function has collectives; run it on several partitions with --partitions=N
// ONE-DEVICE-NEXT: exit=1
// RUN: sh -c 'tessel run %t/prog.mlir --function=collective --partitions=2; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=TOO-FEW
// TOO-FEW: tessel run: {{.*}}prog.mlir: its mesh has 4 devices, and the per-device program runs on exactly that many; --partitions=2 does not match
// TOO-FEW: exit=1

// An output directory that cannot be created.
// RUN: sh -c 'tessel run %t/prog.mlir --output_dir=%t/garbage.npy/sub; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=OUTPUT-DIR
// OUTPUT-DIR: tessel run: cannot create output directory '{{.*}}garbage.npy/sub': Not a directory
// OUTPUT-DIR: exit=1

//--- prog.mlir
tessel.mesh @mesh = <["x"=4]>

func.func @main(%x: tensor<2x3xf32>, %n: tensor<3xi32>) -> tensor<2x3xf32> {
  %0 = hlo.neg %x : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// Writes .npy files: result_0 and result_1 fit @main, result_2 has the wrong shape and
// result_3 the wrong dtype.
func.func @npys() -> (tensor<2x3xf32>, tensor<3xi32>, tensor<3x2xf32>, tensor<3xi64>) {
  %a = hlo.constant dense<1.0> : tensor<2x3xf32>
  %b = hlo.constant dense<2> : tensor<3xi32>
  %c = hlo.constant dense<3.0> : tensor<3x2xf32>
  %d = hlo.constant dense<4> : tensor<3xi64>
  return %a, %b, %c, %d : tensor<2x3xf32>, tensor<3xi32>, tensor<3x2xf32>, tensor<3xi64>
}

func.func @dynamic(%x: tensor<?xf32>) -> tensor<?xf32> {
  return %x : tensor<?xf32>
}

func.func @opaque(%x: tensor<8xf32>) -> tensor<8xf32> {
  %0 = hlo.custom_call @my_kernel(%x) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

func.func @collective(%x: tensor<8xf32>) -> tensor<8xf32> {
  %0 = tessel.all_reduce %x over @mesh ["x"] kind = sum : tensor<8xf32>
  return %0 : tensor<8xf32>
}

func.func private @declared(%x: tensor<8xf32>) -> tensor<8xf32>

//--- syntax.mlir
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = hlo.add %x, : tensor<4xf32>
  return %0 : tensor<4xf32>
}

//--- verifier.mlir
func.func @main(%x: tensor<4x3xf32>) -> tensor<3x5xf32> {
  %0 = hlo.transpose %x, permutation = [1, 1] : (tensor<4x3xf32>) -> tensor<3x5xf32>
  return %0 : tensor<3x5xf32>
}

//--- malformed.hlo
HloModule m
ENTRY main {
  x = f32[4] parameter(0)
  ROOT y = f32[4 negate(x)
}

//--- opcode.txt
HloModule m
ENTRY main {
  x = f32[4] parameter(0)
  ROOT y = f32[4] fft(x)
}

//--- garbage.npy
this is not a .npy file
