// Printing and element counts of TensorType.
#include "partitioner/api/tensor_type.h"

#include <ostream>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace tessel {

int64_t TensorType::num_elements() const {
  int64_t count = 1;
  for (int64_t d : dimensions_) count *= d;
  return count;
}

std::string TensorType::ToString() const {
  return absl::StrCat(ElementTypeName(element_type_), "[", absl::StrJoin(dimensions_, ","),
                      "]");
}

std::ostream& operator<<(std::ostream& os, const TensorType& type) { return os << type.ToString(); }

}  // namespace tessel
