// Partitions the data-parallel training step, prints its collectives, and verifies it.
// Usage: training_step [NUM_DEVICES]   (default 8)
#include <cstdlib>
#include <iostream>

#include "examples/common/report.h"
#include "examples/training_step/training_step.h"

int main(int argc, char** argv) {
  int64_t devices = argc > 1 ? std::atoll(argv[1]) : 8;
  return tessel::examples::RunExample(tessel::examples::BuildTrainingStep, devices, std::cout, std::cerr);
}
