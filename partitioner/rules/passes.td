// Passes of partitioner/rules: a test pass that shows every op's sharding rule.
#ifndef TESSEL_PARTITIONER_RULES_PASSES_TD
#define TESSEL_PARTITIONER_RULES_PASSES_TD

include "mlir/Pass/PassBase.td"

def TestPrintShardingRulesPass : Pass<"tessel-test-print-sharding-rules"> {
  let summary = "Reports the sharding rule of every op as a remark";
  let description = [{
    For every op that implements `ShardingRuleOpInterface`, emits a remark with the rule's
    textual form, or, for an op without a factor rule, with how propagation treats it and
    why. The rule is checked against the op's types first; a rule that does not fit them is
    an error. Ops without the interface get no remark.

    Before:

    ```mlir
    %r = hlo.dot_general %a, %b, lhs_contract = [1], rhs_contract = [0]
        : (tensor<8x8xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    ```

    Remark on the op:

    ```
    remark: sharding rule: ([i, k], [k, j])->([i, j]) {i=8, j=16, k=8} reduction={k}
    ```
  }];
  let options = [
    Option<"conservative", "conservative", "bool", /*default=*/"false",
           "Build rules for conservative propagation (block padded and sliced dims)">,
  ];
}

#endif  // TESSEL_PARTITIONER_RULES_PASSES_TD
