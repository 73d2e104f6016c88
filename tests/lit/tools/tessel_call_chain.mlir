// A chain of 1000 calls (each function calls the next; the last negates) is inlined and
// partitioned, and runs, without deep native recursion: inlining and the recursion check
// walk the call graph with explicit stacks.
// RUN: awk 'BEGIN { n = 1000; \
// RUN:   print "tessel.mesh @mesh = <[\"x\"=2]>"; \
// RUN:   print "func.func @main(%a: tensor<4xf32> {tessel.sharding = #tessel.sharding<@mesh, [{\"x\"}]>}) -> tensor<4xf32> {"; \
// RUN:   print "  %r = func.call @f0(%a) : (tensor<4xf32>) -> tensor<4xf32>"; \
// RUN:   print "  return %r : tensor<4xf32>"; print "}"; \
// RUN:   for (i = 0; i < n; i++) { \
// RUN:     print "func.func private @f" i "(%a: tensor<4xf32>) -> tensor<4xf32> {"; \
// RUN:     if (i + 1 < n) print "  %r = func.call @f" (i + 1) "(%a) : (tensor<4xf32>) -> tensor<4xf32>"; \
// RUN:     else print "  %r = hlo.neg %a : tensor<4xf32>"; \
// RUN:     print "  return %r : tensor<4xf32>"; print "}" } }' > %t.mlir
// RUN: tessel partition %t.mlir | FileCheck %s --check-prefix=PARTITION
// RUN: tessel run %t.mlir --check --print_limit=0 | FileCheck %s --check-prefix=EXEC

// PARTITION: func.func @main(%arg0: tensor<2xf32>
// PARTITION-NEXT: hlo.neg %arg0 : tensor<2xf32>
// PARTITION-NOT: func.call
// PARTITION-NOT: func.func private

// EXEC: check: result 0 f32[4] matches
