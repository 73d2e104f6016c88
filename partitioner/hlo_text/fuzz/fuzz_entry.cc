// One fuzz iteration over the HLO text importer and exporter (see fuzz_entry.h).
#include "partitioner/hlo_text/fuzz/fuzz_entry.h"

#include <string>

#include "absl/strings/string_view.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "partitioner/hlo_text/hlo_export.h"
#include "partitioner/hlo_text/hlo_import.h"

namespace tessel::hlo_text {

int FuzzHloText(const uint8_t* data, size_t size) {
  // A fresh context per input: nothing leaks from one input into the next, so every crash
  // reproduces from its input alone. Threading off keeps the stack traces in one thread.
  mlir::MLIRContext context(mlir::MLIRContext::Threading::DISABLED);
  absl::string_view text(reinterpret_cast<const char*>(data), size);
  auto module = ImportHloTextToModule(text, "fuzz.hlo", context);
  if (!module.ok()) return 0;
  // The importer promises a verified module; check that promise independently.
  if (mlir::failed(mlir::verify(**module))) __builtin_trap();
  ExportHloTextToString(**module).status().IgnoreError();  // export may refuse; not a finding
  return 0;
}

}  // namespace tessel::hlo_text
