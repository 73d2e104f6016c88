// Writes an example's program, built for a device count, as MLIR text, so that tools that
// take files (`tessel run --backend=mpi` under mpirun, in tests/mpi) can run the examples.
// Usage: emit_program NAME NUM_DEVICES [--locations] > program.mlir
//   NAME: conv_spatial, megatron_mlp, moe, training_step or transformer.
//   --locations: with each op's location, the line of the example's source that made it.
#include <cstdlib>
#include <functional>
#include <iostream>
#include <map>
#include <string>

#include "examples/conv_spatial/conv_spatial.h"
#include "examples/megatron_mlp/megatron_mlp.h"
#include "examples/moe/moe.h"
#include "examples/training_step/training_step.h"
#include "examples/transformer/transformer.h"

int main(int argc, char** argv) {
  using Build = std::function<absl::StatusOr<tessel::Program>(int64_t)>;
  const std::map<std::string, Build> examples = {
      {"conv_spatial", tessel::examples::BuildConvSpatial},
      {"megatron_mlp", tessel::examples::BuildMegatronMlp},
      {"moe", tessel::examples::BuildMoe},
      {"training_step", tessel::examples::BuildTrainingStep},
      {"transformer", tessel::examples::BuildTransformer},
  };
  const bool locations = argc == 4 && std::string(argv[3]) == "--locations";
  const bool usage = argc == 3 || locations;
  auto example = usage ? examples.find(argv[1]) : examples.end();
  const int64_t devices = usage ? std::atoll(argv[2]) : 0;
  if (example == examples.end() || devices < 1) {
    std::cerr << "usage: emit_program NAME NUM_DEVICES [--locations], NAME one of:";
    for (const auto& [name, build] : examples) std::cerr << " " << name;
    std::cerr << "\n";
    return 2;
  }
  absl::StatusOr<tessel::Program> program = example->second(devices);
  if (!program.ok()) {
    std::cerr << "emit_program: " << program.status() << "\n";
    return 1;
  }
  std::cout << (locations ? program->ToMlirTextWithLocations() : program->ToMlirText());
  return 0;
}
