// DiagnosticCollector: MLIR diagnostics → strings for absl::Status messages.
#include "partitioner/api/diagnostics.h"

#include "absl/strings/str_cat.h"
#include "llvm/Support/raw_ostream.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Location.h"
#include "partitioner/ir/location.h"

namespace tessel::api_internal {

std::string UserLocation(mlir::Location loc) {
  auto name = loc->findInstanceOf<mlir::NameLoc>();
  if (!name) return FormatLocation(loc);
  std::string quoted = absl::StrCat("'", name.getName().getValue().str(), "'");
  if (!loc->findInstanceOf<mlir::FileLineColLoc>()) return quoted;
  return absl::StrCat(quoted, " at ", FormatLocation(loc));
}

DiagnosticCollector::DiagnosticCollector(mlir::MLIRContext* context)
    : handler_(context, [this](mlir::Diagnostic& diagnostic) {
        if (diagnostic.getSeverity() == mlir::DiagnosticSeverity::Error) {
          Message message;
          if (!mlir::isa<mlir::UnknownLoc>(diagnostic.getLocation())) {
            message.location = UserLocation(diagnostic.getLocation());
          }
          message.text = diagnostic.str();
          errors_.push_back(std::move(message));
        } else if (diagnostic.getSeverity() == mlir::DiagnosticSeverity::Warning ||
                   diagnostic.getSeverity() == mlir::DiagnosticSeverity::Remark) {
          Message message;
          if (!mlir::isa<mlir::UnknownLoc>(diagnostic.getLocation())) {
            message.location = UserLocation(diagnostic.getLocation());
          }
          message.text = diagnostic.str();
          notices_.push_back(std::move(message));
        }
        return mlir::success();
      }) {}

std::string DiagnosticCollector::Errors() const {
  std::string text;
  for (const Message& message : errors_) {
    if (!text.empty()) text += "\n";
    if (!message.location.empty()) absl::StrAppend(&text, message.location, ": ");
    text += message.text;
  }
  return text;
}

const std::string& DiagnosticCollector::FirstError() const {
  static const std::string* const kEmpty = new std::string();
  return errors_.empty() ? *kEmpty : errors_.front().text;
}

}  // namespace tessel::api_internal
