// `tessel partition --format=hlo` writes a partitioned module that runs as a file, as the
// MLIR form does (tessel_run_partitioned_file.mlir): the entry parameters and root keep
// their GSPMD shardings and the header's frontend attributes the global shapes, so `tessel
// run` cuts global inputs into each partition's piece and assembles global results.
// RUN: split-file %s %t
// RUN: tessel partition %t/mlp.mlir --format=hlo -o %t/part.hlo
// RUN: FileCheck %s --check-prefix=HEADER < %t/part.hlo
// The partitioned HLO and its source give the same global result on the same seed.
// RUN: tessel run %t/mlp.mlir --seed=5 --print_limit=6 > %t/single.txt
// RUN: tessel run %t/part.hlo --seed=5 --print_limit=6 | grep '^result' | diff - %t/single.txt
// RUN: tessel run %t/part.hlo --check --reference=%t/mlp.mlir --print_limit=0 | FileCheck %s --check-prefix=CHECKED
// Uneven: 3 x 2 devices for 16 rows (local rows padded to 6).
// RUN: tessel partition %t/mlp.mlir --mesh=data=3,model=2 -o %t/part6.hlo
// RUN: tessel run %t/part6.hlo --check --reference=%t/mlp.mlir --print_limit=0 | FileCheck %s --check-prefix=UNEVEN
// An XLA HLO source, partitioned to HLO and checked against itself.
// RUN: tessel partition %t/model.hlo -o %t/model_part.hlo
// RUN: tessel run %t/model_part.hlo --check --reference=%t/model.hlo --print_limit=0 | FileCheck %s --check-prefix=FROM-HLO
// The count is checked as for MLIR files.
// RUN: sh -c 'tessel run %t/part.hlo --partitions=2; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=COUNT
// Malformed global shapes are located errors.
// RUN: sh -c 'tessel run %t/too_few.hlo; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=TOO-FEW
// RUN: sh -c 'tessel run %t/not_tuple.hlo; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=NOT-TUPLE
// RUN: sh -c 'tessel run %t/only_parameters.hlo; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=ONLY-PARAMETERS
// RUN: sh -c 'tessel run %t/no_count.hlo; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=NO-COUNT
// RUN: sh -c 'tessel run %t/bad_shape.hlo; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=BAD-SHAPE
// RUN: sh -c 'tessel run %t/tuple_element.hlo; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=TUPLE-ELEMENT
// RUN: sh -c 'tessel run %t/token_element.hlo; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=TOKEN-ELEMENT

// HEADER: HloModule {{.*}}num_partitions=4, frontend_attributes={tessel.global_parameters="(f32[16,8]{1,0}, f32[8,4]{1,0})",tessel.global_results="(f32[16,4]{1,0})"}
// HEADER: f32[8,8]{1,0} parameter(0), sharding={devices=[2,1,2]<=[4] last_tile_dim_replicate}

// CHECKED:      ran the partitioned program on 4 partitions; results assembled from their pieces
// CHECKED:      check: ran {{.*}}mlp.mlir on one device
// CHECKED-NEXT: check: result 0 f32[16,4] matches

// UNEVEN:      ran the partitioned program on 6 partitions
// UNEVEN:      check: result 0 f32[16,4] matches

// FROM-HLO:      ran the partitioned program on 4 partitions
// FROM-HLO:      check: result 0 f32[10,6] matches

// COUNT: part.hlo was partitioned for 4 devices; --partitions=2 would run a different number of them
// COUNT: exit=1

// TOO-FEW: too_few.hlo:1:{{[0-9]+}}: error: tessel.global_parameters lists 1 shapes; the entry computation has 2 parameters
// TOO-FEW: exit=1
// NOT-TUPLE: not_tuple.hlo:1:{{[0-9]+}}: error: tessel.global_results must be a tuple of shapes
// NOT-TUPLE: exit=1
// ONLY-PARAMETERS: only_parameters.hlo:1:{{[0-9]+}}: error: a partitioned module's frontend attributes need both tessel.global_parameters and tessel.global_results
// ONLY-PARAMETERS: exit=1
// NO-COUNT: no_count.hlo:1:{{[0-9]+}}: error: tessel.global_parameters and tessel.global_results describe a partitioned module, which needs num_partitions
// NO-COUNT: exit=1
// BAD-SHAPE: bad_shape.hlo:1:{{[0-9]+}}: error:
// BAD-SHAPE: exit=1
// TUPLE-ELEMENT: tuple_element.hlo:1:{{[0-9]+}}: error: tessel.global_parameters lists arrays only, one per entry parameter
// TUPLE-ELEMENT: exit=1
// TOKEN-ELEMENT: token_element.hlo:1:{{[0-9]+}}: error: tessel.global_results lists arrays only, one per entry result
// TOKEN-ELEMENT: exit=1

//--- mlp.mlir
tessel.mesh @mesh = <["data"=2, "model"=2]>
func.func @main(%x: tensor<16x8xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"data"}, {}]>},
                %w: tensor<8x4xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"model"}, {}]>})
    -> (tensor<16x4xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"data"}, {}]>}) {
  %y = hlo.dot_general %x, %w, lhs_contract = [1], rhs_contract = [0]
      : (tensor<16x8xf32>, tensor<8x4xf32>) -> tensor<16x4xf32>
  %t = hlo.tanh %y : tensor<16x4xf32>
  return %t : tensor<16x4xf32>
}
//--- model.hlo
HloModule model, num_partitions=4

ENTRY main {
  x = f32[10,8] parameter(0), sharding={devices=[2,1,2]<=[4] last_tile_dim_replicate}
  w = f32[8,6] parameter(1), sharding={devices=[1,2,2]<=[2,2]T(1,0) last_tile_dim_replicate}
  d = f32[10,6] dot(x, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  ROOT t = f32[10,6] tanh(d), sharding={devices=[2,2]<=[4]}
}
//--- too_few.hlo
HloModule m, num_partitions=2, frontend_attributes={tessel.global_parameters="(f32[8])",tessel.global_results="(f32[8])"}

ENTRY main {
  a = f32[4] parameter(0), sharding={devices=[2]<=[2]}
  b = f32[4] parameter(1), sharding={devices=[2]<=[2]}
  ROOT c = f32[4] add(a, b), sharding={devices=[2]<=[2]}
}
//--- not_tuple.hlo
HloModule m, num_partitions=2, frontend_attributes={tessel.global_parameters="(f32[8])",tessel.global_results="f32[8]"}

ENTRY main {
  a = f32[4] parameter(0), sharding={devices=[2]<=[2]}
  ROOT c = f32[4] negate(a), sharding={devices=[2]<=[2]}
}
//--- only_parameters.hlo
HloModule m, num_partitions=2, frontend_attributes={tessel.global_parameters="(f32[8])"}

ENTRY main {
  a = f32[4] parameter(0), sharding={devices=[2]<=[2]}
  ROOT c = f32[4] negate(a), sharding={devices=[2]<=[2]}
}
//--- no_count.hlo
HloModule m, frontend_attributes={tessel.global_parameters="(f32[8])",tessel.global_results="(f32[8])"}

ENTRY main {
  a = f32[4] parameter(0)
  ROOT c = f32[4] negate(a)
}
//--- bad_shape.hlo
HloModule m, num_partitions=2, frontend_attributes={tessel.global_parameters="(f32[8",tessel.global_results="(f32[8])"}

ENTRY main {
  a = f32[4] parameter(0), sharding={devices=[2]<=[2]}
  ROOT c = f32[4] negate(a), sharding={devices=[2]<=[2]}
}
//--- tuple_element.hlo
HloModule m, num_partitions=2, frontend_attributes={tessel.global_parameters="((f32[8], f32[8]))",tessel.global_results="(f32[8])"}

ENTRY main {
  a = f32[4] parameter(0), sharding={devices=[2]<=[2]}
  ROOT c = f32[4] negate(a), sharding={devices=[2]<=[2]}
}
//--- token_element.hlo
HloModule m, num_partitions=2, frontend_attributes={tessel.global_parameters="(f32[8])",tessel.global_results="(token[])"}

ENTRY main {
  a = f32[4] parameter(0), sharding={devices=[2]<=[2]}
  ROOT c = f32[4] negate(a), sharding={devices=[2]<=[2]}
}
