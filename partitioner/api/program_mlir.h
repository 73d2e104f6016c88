// The MLIR behind a Program, for compilers that embed Tessel: they register the dialects
// (parse_module.h), run their own passes on the module, and wrap a module they built as a
// Program.
//
//   mlir::ModuleOp module = GetMlirModule(program);
//   mlir::PassManager pm(module.getContext());
//   ...
//   auto context = std::make_unique<mlir::MLIRContext>();
//   ...  // build or parse `module` in *context
//   TESSEL_ASSIGN_OR_RETURN(Program wrapped,
//                           ProgramFromMlir(std::move(context), std::move(module)));
#ifndef TESSEL_PARTITIONER_API_PROGRAM_MLIR_H_
#define TESSEL_PARTITIONER_API_PROGRAM_MLIR_H_

#include <memory>

#include "absl/status/statusor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "partitioner/api/program.h"

namespace tessel {

// The program's module; valid as long as `program` lives. Changes made to it are seen by
// the program, but the signature accessors keep what they read when the program was made.
mlir::ModuleOp GetMlirModule(const Program& program);

// Takes ownership of `module` and the `context` it lives in. Verifies the module and reads
// its entry function as Program::FromMlirText does; fails with InvalidArgument carrying the
// verifier's diagnostics. REQUIRES: `module` was created in `*context`.
absl::StatusOr<Program> ProgramFromMlir(std::unique_ptr<mlir::MLIRContext> context,
                                        mlir::OwningOpRef<mlir::ModuleOp> module);

}  // namespace tessel

#endif  // TESSEL_PARTITIONER_API_PROGRAM_MLIR_H_
