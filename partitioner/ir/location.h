// How Tessel names a place in a program for users: "file:line:col" where the location has
// a file position (also inside name, call-site or fused locations), MLIR's own spelling
// otherwise. Errors of the executor, propagation's provenance and the CLI all use it.
#ifndef TESSEL_PARTITIONER_IR_LOCATION_H_
#define TESSEL_PARTITIONER_IR_LOCATION_H_

#include <functional>
#include <string>

#include "mlir/IR/Location.h"

namespace tessel {

std::string FormatLocation(mlir::Location loc);

// Names the value defined at a place, for messages and reports that speak of values by the
// names their source gave them ("" where it has none); the CLI's SourceNamer and the API's
// source names provide one.
using PlaceNamer = std::function<std::string(mlir::Location)>;

}  // namespace tessel

#endif  // TESSEL_PARTITIONER_IR_LOCATION_H_
