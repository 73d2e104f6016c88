// Helpers shared by the GraphBuilder tests: short type constructors and a way to print the
// one op a test built.
#ifndef TESSEL_PARTITIONER_API_GRAPH_BUILDER_TEST_UTIL_H_
#define TESSEL_PARTITIONER_API_GRAPH_BUILDER_TEST_UTIL_H_

#include <string>
#include <utility>
#include <vector>

#include "partitioner/api/graph_builder.h"

namespace tessel::testing {

inline TensorType F32(std::vector<int64_t> dims) {
  return TensorType(ElementType::kF32, std::move(dims));
}
inline TensorType S32(std::vector<int64_t> dims) {
  return TensorType(ElementType::kS32, std::move(dims));
}
inline TensorType Pred(std::vector<int64_t> dims) {
  return TensorType(ElementType::kPred, std::move(dims));
}

// The MLIR text of the program returning `results`, or the error message if Build fails.
inline std::string BuildText(GraphBuilder& builder, std::vector<Value> results) {
  absl::StatusOr<Program> program = builder.Build(results);
  if (!program.ok()) return std::string(program.status().message());
  return program->ToMlirText();
}

}  // namespace tessel::testing

#endif  // TESSEL_PARTITIONER_API_GRAPH_BUILDER_TEST_UTIL_H_
