// A program that uses Tessel through its public C++ API only, built against an installed
// Tessel with no MLIR, LLVM or Eigen on its include path. It builds an MLP with GraphBuilder
// and reads a program from MLIR text, partitions each on meshes of 3 and 6 devices (sizes
// that do not divide evenly), runs the partitioned program on that many local devices and
// checks every result against the single-device run, with its own comparison.
#include <cmath>
#include <cstdint>
#include <iostream>
#include <string>
#include <vector>

#include "partitioner/api/graph_builder.h"
#include "partitioner/api/host_tensor.h"
#include "partitioner/api/mesh.h"
#include "partitioner/api/partition.h"
#include "partitioner/api/program.h"
#include "partitioner/api/run.h"
#include "partitioner/api/sharding.h"
#include "partitioner/api/version.h"

namespace {

using tessel::ElementType;
using tessel::HostTensor;
using tessel::TensorType;

int failures = 0;

void Fail(const std::string& what) {
  std::cerr << "FAIL: " << what << "\n";
  ++failures;
}

// Element by element, within a tolerance for sums that the devices add in another order.
bool SameValues(const HostTensor& got, const HostTensor& want, const std::string& what) {
  if (got.element_type() != want.element_type() || got.shape() != want.shape()) {
    Fail(what + ": got " + got.ShapeString() + ", expected " + want.ShapeString());
    return false;
  }
  std::vector<float> a = got.ToVector<float>();
  std::vector<float> b = want.ToVector<float>();
  if (a.size() != static_cast<size_t>(want.num_elements())) {
    Fail(what + ": not an f32 result");
    return false;
  }
  for (size_t i = 0; i < a.size(); ++i) {
    if (std::fabs(a[i] - b[i]) > 1e-4f + 1e-4f * std::fabs(b[i])) {
      Fail(what + ": element " + std::to_string(i) + " is " + std::to_string(a[i]) +
           ", expected " + std::to_string(b[i]));
      return false;
    }
  }
  return true;
}

// Partitions `program`, runs it on its devices and on one device, and compares.
void Check(const tessel::Program& program, const std::vector<HostTensor>& inputs,
           int64_t devices, const std::string& what) {
  absl::StatusOr<std::vector<HostTensor>> reference = tessel::Run(program, inputs);
  if (!reference.ok()) return Fail(what + ": single-device run: " + reference.status().ToString());
  absl::StatusOr<tessel::PartitionResult> partitioned = tessel::Partition(program);
  if (!partitioned.ok()) return Fail(what + ": partition: " + partitioned.status().ToString());
  if (partitioned->program.num_partitions() != devices) {
    return Fail(what + ": partitioned for " +
                std::to_string(partitioned->program.num_partitions()) + " devices, expected " +
                std::to_string(devices));
  }
  absl::StatusOr<std::vector<HostTensor>> outputs = tessel::Run(partitioned->program, inputs);
  if (!outputs.ok()) return Fail(what + ": partitioned run: " + outputs.status().ToString());
  if (outputs->size() != reference->size()) return Fail(what + ": result count differs");
  bool same = true;
  for (size_t i = 0; i < outputs->size(); ++i) {
    same = SameValues((*outputs)[i], (*reference)[i], what + " result " + std::to_string(i)) &&
           same;
  }
  if (same) {
    std::cout << what << ": " << devices << " devices match the single-device run ("
              << partitioned->collectives.entries.size() << " kinds of collective)\n";
  }
}

// y = relu(x @ w1) @ w2, batch over "data" and the hidden dimension over "model".
void BuilderProgram(int64_t data, int64_t model) {
  const std::string what = "GraphBuilder MLP on " + std::to_string(data) + "x" +
                           std::to_string(model);
  absl::StatusOr<tessel::Mesh> mesh = tessel::Mesh::Create({{"data", data}, {"model", model}});
  if (!mesh.ok()) return Fail(what + ": " + mesh.status().ToString());
  absl::StatusOr<tessel::Sharding> batch =
      tessel::Sharding::Create(*mesh, {"data", tessel::Replicated()});
  absl::StatusOr<tessel::Sharding> columns =
      tessel::Sharding::Create(*mesh, {tessel::Replicated(), "model"});
  absl::StatusOr<tessel::Sharding> rows =
      tessel::Sharding::Create(*mesh, {"model", tessel::Replicated()});
  if (!batch.ok() || !columns.ok() || !rows.ok()) return Fail(what + ": shardings");
  // 10 rows and 20 hidden columns split 3 or 6 ways leave uneven last shards.
  tessel::GraphBuilder b;
  tessel::Value x = b.Parameter(TensorType(ElementType::kF32, {10, 12}), *batch);
  tessel::Value w1 = b.Parameter(TensorType(ElementType::kF32, {12, 20}), *columns);
  tessel::Value w2 = b.Parameter(TensorType(ElementType::kF32, {20, 8}), *rows);
  tessel::Value zeros =
      b.BroadcastInDim(b.ScalarConstant(ElementType::kF32, 0), {10, 20}, {});
  tessel::Value y = b.MatMul(b.Max(b.MatMul(x, w1), zeros), w2);
  absl::StatusOr<tessel::Program> program = b.Build({y});
  if (!program.ok()) return Fail(what + ": build: " + program.status().ToString());
  std::vector<HostTensor> inputs = {HostTensor::Random(ElementType::kF32, {10, 12}, 1),
                                    HostTensor::Random(ElementType::kF32, {12, 20}, 2),
                                    HostTensor::Random(ElementType::kF32, {20, 8}, 3)};
  Check(*program, inputs, data * model, what);
}

// A program read from text: a reduction over a dimension split 3 ways.
void TextProgram() {
  const char* text = R"mlir(
tessel.mesh @mesh = <["x"=3]>
func.func @main(%a: tensor<7x5xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>},
                %b: tensor<7x5xf32>) -> tensor<5xf32> {
  %sum = hlo.add %a, %b : tensor<7x5xf32>
  %zero = hlo.constant dense<0.0> : tensor<f32>
  %r = hlo.reduce(%sum) init(%zero) dimensions = [0]
      : (tensor<7x5xf32>, tensor<f32>) -> tensor<5xf32> reducer {
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %s = hlo.add %p, %q : tensor<f32>
    hlo.return %s : tensor<f32>
  }
  return %r : tensor<5xf32>
}
)mlir";
  absl::StatusOr<tessel::Program> program = tessel::Program::FromMlirText(text);
  if (!program.ok()) return Fail("MLIR text: parse: " + program.status().ToString());
  std::vector<HostTensor> inputs = {HostTensor::Random(ElementType::kF32, {7, 5}, 4),
                                    HostTensor::Random(ElementType::kF32, {7, 5}, 5)};
  Check(*program, inputs, 3, "MLIR text reduction");
}

}  // namespace

int main() {
  std::cout << "Tessel " << tessel::kVersion << "\n";
  BuilderProgram(1, 3);
  BuilderProgram(2, 3);
  TextProgram();
  if (failures) {
    std::cerr << failures << " checks failed\n";
    return 1;
  }
  std::cout << "api_consumer: ok\n";
  return 0;
}
