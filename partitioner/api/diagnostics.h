// Collects the MLIR diagnostics emitted while it lives, so that library boundaries can turn
// them into an absl::Status instead of printing them. Internal to partitioner/api.
#ifndef TESSEL_PARTITIONER_API_DIAGNOSTICS_H_
#define TESSEL_PARTITIONER_API_DIAGNOSTICS_H_

#include <string>
#include <vector>

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/MLIRContext.h"

namespace tessel::api_internal {

// "program.mlir:4:8" for a location with a place in a file, 'h' for a value named in C++
// (GraphBuilder::Named) and nothing more, MLIR's own spelling otherwise.
std::string UserLocation(mlir::Location loc);

class DiagnosticCollector {
 public:
  explicit DiagnosticCollector(mlir::MLIRContext* context);

  // The error messages so far, each prefixed by its location unless that is unknown, one per
  // line; notes and warnings are left out.
  std::string Errors() const;
  // The first error message without its location, or "" if there is none.
  const std::string& FirstError() const;

  struct Message {
    // "file:line:col" (FormatLocation); empty when the location is unknown.
    std::string location;
    std::string text;
  };
  // The warnings and remarks so far, in order: the partitioner reports its fallbacks as
  // warnings (as remarks when nothing had to be gathered).
  const std::vector<Message>& Notices() const { return notices_; }

 private:
  std::vector<Message> errors_;
  std::vector<Message> notices_;
  mlir::ScopedDiagnosticHandler handler_;
};

}  // namespace tessel::api_internal

#endif  // TESSEL_PARTITIONER_API_DIAGNOSTICS_H_
