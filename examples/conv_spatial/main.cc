// Partitions the spatially split conv net, prints what was emitted, and verifies it.
// Usage: conv_spatial [NUM_DEVICES]   (default 8)
#include <cstdlib>
#include <iostream>

#include "examples/common/report.h"
#include "examples/conv_spatial/conv_spatial.h"

int main(int argc, char** argv) {
  int64_t devices = argc > 1 ? std::atoll(argv[1]) : 8;
  return tessel::examples::RunExample(tessel::examples::BuildConvSpatial, devices, std::cout, std::cerr);
}
