// Verify(): both runs and the shared tensor comparison.
#include "partitioner/api/verify.h"

#include <ostream>

#include "absl/strings/str_cat.h"
#include "partitioner/api/host_tensor_access.h"
#include "partitioner/api/tensor_compare.h"
#include "support/status_macros.h"

namespace tessel {

bool VerifyReport::ok() const {
  for (const ResultCheck& check : results) {
    if (!check.matches) return false;
  }
  return true;
}

std::string VerifyReport::ToString() const {
  int64_t matching = 0;
  for (const ResultCheck& check : results) matching += check.matches ? 1 : 0;
  std::string text = absl::StrCat("verified on ", num_partitions,
                                  num_partitions == 1 ? " device: " : " devices: ", matching,
                                  " of ", results.size(), " results match");
  for (const ResultCheck& check : results) {
    absl::StrAppend(&text, "\n  result ", check.index, " ", check.type, ": ");
    if (!check.matches) {
      absl::StrAppend(&text, "DIFFERS: ", check.mismatch);
    } else if (check.exact) {
      absl::StrAppend(&text, "matches exactly");
    } else {
      absl::StrAppend(&text, "matches (max abs difference ", check.max_abs_difference, ")");
    }
  }
  return text;
}

std::ostream& operator<<(std::ostream& os, const VerifyReport& report) {
  return os << report.ToString();
}

absl::StatusOr<VerifyReport> Verify(const Program& original, const PartitionResult& partitioned,
                                    const std::vector<HostTensor>& inputs,
                                    const VerifyOptions& options) {
  if (original.global_parameter_types() != partitioned.program.global_parameter_types() ||
      original.global_result_types() != partitioned.program.global_result_types()) {
    return absl::InvalidArgumentError(
        "the partitioned program's signature is not the original program's; was it "
        "partitioned from another program?");
  }
  TESSEL_ASSIGN_OR_RETURN(std::vector<HostTensor> want, Run(original, inputs, options.run));
  TESSEL_ASSIGN_OR_RETURN(std::vector<HostTensor> got,
                          Run(partitioned.program, inputs, options.run));
  VerifyReport report;
  report.num_partitions = partitioned.program.num_partitions();
  for (size_t i = 0; i < want.size(); ++i) {
    TensorComparison comparison =
        CompareTensors(HostTensorAccess::Runtime(got[i]), HostTensorAccess::Runtime(want[i]),
                       options.relative_tolerance, options.absolute_tolerance);
    ResultCheck check;
    check.index = static_cast<int64_t>(i);
    check.type = want[i].ShapeString();
    check.matches = comparison.matches;
    check.exact = comparison.exact;
    check.max_abs_difference = comparison.max_abs_difference;
    check.mismatch = comparison.mismatch;
    report.results.push_back(std::move(check));
  }
  return report;
}

std::vector<HostTensor> RandomInputs(const Program& program, uint64_t seed) {
  std::vector<HostTensor> inputs;
  const std::vector<TensorType>& types = program.global_parameter_types();
  for (size_t i = 0; i < types.size(); ++i) {
    inputs.push_back(
        HostTensor::Random(types[i].element_type(), types[i].dimensions(), seed + i));
  }
  return inputs;
}

absl::StatusOr<VerifyReport> Verify(const Program& original, const PartitionResult& partitioned,
                                    uint64_t seed, const VerifyOptions& options) {
  return Verify(original, partitioned, RandomInputs(original, seed), options);
}

}  // namespace tessel
