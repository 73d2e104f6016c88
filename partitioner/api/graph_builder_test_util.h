// Helpers shared by the GraphBuilder tests: short type constructors, a way to print the one
// op a test built, and call-site text without the columns only some compilers record.
#ifndef TESSEL_PARTITIONER_API_GRAPH_BUILDER_TEST_UTIL_H_
#define TESSEL_PARTITIONER_API_GRAPH_BUILDER_TEST_UTIL_H_

#include <cctype>
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

// `text` with the column dropped from each place in `file` ("f.cc:12:7" becomes "f.cc:12").
// GraphBuilder records a column where the compiler gives one (clang) and none where it does
// not (gcc 12), so tests that expect lines hold for both.
inline std::string WithoutColumns(const std::string& text, const std::string& file) {
  const std::string prefix = file + ":";
  std::string out;
  size_t pos = 0;
  for (size_t found; (found = text.find(prefix, pos)) != std::string::npos;) {
    size_t end = found + prefix.size();
    while (end < text.size() && std::isdigit(static_cast<unsigned char>(text[end]))) ++end;
    out.append(text, pos, end - pos);
    pos = end;
    size_t column_end = pos + 1;
    while (column_end < text.size() && std::isdigit(static_cast<unsigned char>(text[column_end]))) {
      ++column_end;
    }
    if (pos < text.size() && text[pos] == ':' && column_end > pos + 1) pos = column_end;
  }
  out.append(text, pos, std::string::npos);
  return out;
}

}  // namespace tessel::testing

#endif  // TESSEL_PARTITIONER_API_GRAPH_BUILDER_TEST_UTIL_H_
