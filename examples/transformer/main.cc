// Partitions the transformer block, prints its shardings and collectives, and verifies it.
// Usage: transformer [NUM_DEVICES]   (default 8)
#include <cstdlib>
#include <iostream>

#include "examples/common/report.h"
#include "examples/transformer/transformer.h"

int main(int argc, char** argv) {
  int64_t devices = argc > 1 ? std::atoll(argv[1]) : 8;
  return tessel::examples::RunExample(tessel::examples::BuildTransformer, devices, std::cout, std::cerr);
}
