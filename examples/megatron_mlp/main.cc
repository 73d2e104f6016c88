// Partitions the Megatron MLP, prints its shardings and collectives, and verifies it.
// Usage: megatron_mlp [NUM_DEVICES]   (default 8)
#include <cstdlib>
#include <iostream>

#include "examples/common/report.h"
#include "examples/megatron_mlp/megatron_mlp.h"

int main(int argc, char** argv) {
  int64_t devices = argc > 1 ? std::atoll(argv[1]) : 8;
  return tessel::examples::RunExample(tessel::examples::BuildMegatronMlp, devices, std::cout, std::cerr);
}
