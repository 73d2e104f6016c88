// `tessel verify` parses and verifies a program and prints it back as MLIR (exit 0), or
// reports the first problems with their locations (exit 1).
// RUN: rm -rf %t && split-file %s %t
// RUN: tessel verify %t/good.mlir | FileCheck %s --check-prefix=GOOD
// Printing is a fixed point: the printed module verifies and prints the same way.
// RUN: tessel verify %t/good.mlir > %t/printed.mlir
// RUN: tessel verify %t/printed.mlir > %t/printed_again.mlir
// RUN: diff %t/printed.mlir %t/printed_again.mlir
// RUN: tessel verify - < %t/good.mlir | FileCheck %s --check-prefix=GOOD
// RUN: sh -c 'tessel verify %t/good.mlir > /dev/null; echo exit=$?' | FileCheck %s --check-prefix=EXIT0
// RUN: sh -c 'tessel verify %t/bad_sharding.mlir; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=BAD

// GOOD:      tessel.mesh @mesh = <["data"=4, "model"=2]>
// GOOD:      func.func @main(%arg0: tensor<8x16xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"data"}, {}]>}) -> tensor<8x16xf32> {
// GOOD-NEXT:   %0 = hlo.neg %arg0 : tensor<8x16xf32>
// GOOD-NEXT:   return %0 : tensor<8x16xf32>

// EXIT0: exit=0

// BAD: tessel verify: {{.*}}bad_sharding.mlir:2:17: error: 'func.func' op argument 0: axis "modle" is not in the mesh
// BAD: exit=1

//--- good.mlir
tessel.mesh @mesh = <["data"=4, "model"=2]>
func.func @main(%x: tensor<8x16xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"data"}, {}]>}) -> tensor<8x16xf32> {
  %0 = hlo.neg %x : tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

//--- bad_sharding.mlir
tessel.mesh @mesh = <["data"=4, "model"=2]>
func.func @main(%x: tensor<8x16xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"modle"}, {}]>}) -> tensor<8x16xf32> {
  return %x : tensor<8x16xf32>
}
