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

// How the API names the place of an op for users:
//   loc("program.mlir":4:8)             program.mlir:4:8
//   loc("h")                            'h'            (a name without a place)
//   loc("h"("my_model.cc":42:7))        'h' at my_model.cc:42:7
// The last is what GraphBuilder::Named makes of a value built at a call site. MLIR's own
// spelling for anything else.
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
