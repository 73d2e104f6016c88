// A program another workspace builds against @tessel//partitioner/api: it partitions a
// matmul over 3 devices (a batch that does not divide evenly) and checks the partitioned
// run against the single-device run.
#include <cstdlib>
#include <iostream>

#include "partitioner/api/partition.h"
#include "partitioner/api/program.h"
#include "partitioner/api/verify.h"

namespace {

constexpr char kProgram[] = R"mlir(
tessel.mesh @mesh = <["batch"=3]>
func.func @main(%x: tensor<8x4xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"batch"}, {}]>},
                %w: tensor<4x5xf32>) -> tensor<8x5xf32> {
  %y = hlo.dot_general %x, %w, lhs_contract = [1], rhs_contract = [0]
      : (tensor<8x4xf32>, tensor<4x5xf32>) -> tensor<8x5xf32>
  %r = hlo.tanh %y : tensor<8x5xf32>
  return %r : tensor<8x5xf32>
}
)mlir";

int Fail(const char* stage, const absl::Status& status) {
  std::cerr << stage << ": " << status << "\n";
  return EXIT_FAILURE;
}

}  // namespace

int main() {
  absl::StatusOr<tessel::Program> program = tessel::Program::FromMlirText(kProgram);
  if (!program.ok()) return Fail("parse", program.status());
  absl::StatusOr<tessel::PartitionResult> partitioned = tessel::Partition(*program);
  if (!partitioned.ok()) return Fail("partition", partitioned.status());
  absl::StatusOr<tessel::VerifyReport> report = tessel::Verify(*program, *partitioned, 7);
  if (!report.ok()) return Fail("verify", report.status());
  std::cout << *report << "\n";
  return report->ok() ? EXIT_SUCCESS : EXIT_FAILURE;
}
