// Partitions the mixture-of-experts layer, prints what was emitted, and verifies it.
// Usage: moe [NUM_DEVICES]   (default 8)
#include <cstdlib>
#include <iostream>

#include "examples/common/report.h"
#include "examples/moe/moe.h"

int main(int argc, char** argv) {
  int64_t devices = argc > 1 ? std::atoll(argv[1]) : 8;
  return tessel::examples::RunExample(tessel::examples::BuildMoe, devices, std::cout, std::cerr);
}
