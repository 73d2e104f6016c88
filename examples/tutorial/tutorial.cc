// The tutorial of docs/api.md: a Megatron MLP on 4 devices, built, partitioned, run and
// verified with the public API only.
#include <iostream>

#include "partitioner/api/graph_builder.h"
#include "partitioner/api/host_tensor.h"
#include "partitioner/api/mesh.h"
#include "partitioner/api/partition.h"
#include "partitioner/api/run.h"
#include "partitioner/api/sharding.h"
#include "partitioner/api/verify.h"
#include "support/status_macros.h"

namespace {

using namespace tessel;  // NOLINT(build/namespaces): a short example

absl::Status Tutorial() {
  // 1. Four devices in a row, along one axis named "model".
  TESSEL_ASSIGN_OR_RETURN(Mesh mesh, Mesh::Create({{"model", 4}}));
  TESSEL_ASSIGN_OR_RETURN(Sharding columns, Sharding::Create(mesh, {Replicated(), "model"}));
  TESSEL_ASSIGN_OR_RETURN(Sharding rows, Sharding::Create(mesh, {"model", Replicated()}));

  // 2. The program, written for one device: y = relu(x @ w1) @ w2.
  GraphBuilder b;
  Value x = b.Parameter(TensorType(ElementType::kF32, {8, 32}));
  Value w1 = b.Parameter(TensorType(ElementType::kF32, {32, 64}), columns);
  Value w2 = b.Parameter(TensorType(ElementType::kF32, {64, 32}), rows);
  Value zeros = b.BroadcastInDim(b.ScalarConstant(ElementType::kF32, 0), {8, 64}, {});
  Value y = b.MatMul(b.Max(b.MatMul(x, w1), zeros), w2);
  TESSEL_ASSIGN_OR_RETURN(Program program, b.Build({y}));

  // 3. Partition it: every value gets a sharding, collectives go where they must.
  TESSEL_ASSIGN_OR_RETURN(PartitionResult partitioned, Partition(program));
  for (const ShardedValue& value : partitioned.op_results) std::cout << value << "\n";
  std::cout << "collectives: " << partitioned.collectives << "\n";
  std::cout << "fallback warnings: " << partitioned.fallback_warnings.size() << "\n";

  // 4. Run it on the 4 devices with whole (global) tensors in and out.
  std::vector<HostTensor> inputs = {HostTensor::Random(ElementType::kF32, {8, 32}, 1),
                                    HostTensor::Random(ElementType::kF32, {32, 64}, 2),
                                    HostTensor::Random(ElementType::kF32, {64, 32}, 3)};
  TESSEL_ASSIGN_OR_RETURN(std::vector<HostTensor> outputs, Run(partitioned.program, inputs));
  std::cout << "y = " << outputs[0].ToString(/*max_elements=*/4) << "\n";

  // 5. Check it against the single-device program.
  TESSEL_ASSIGN_OR_RETURN(VerifyReport report, Verify(program, partitioned, inputs));
  std::cout << report << "\n";
  return report.ok() ? absl::OkStatus() : absl::InternalError("results differ");
}

}  // namespace

int main() {
  absl::Status status = Tutorial();
  if (!status.ok()) {
    std::cerr << status << "\n";
    return 1;
  }
  return 0;
}
