// `tessel verify FILE`: parses a program (MLIR or HLO text), runs every verifier on it and
// prints it back as MLIR, so a user can check an annotated program before running it.
#include <string>

#include "llvm/Support/raw_os_ostream.h"
#include "mlir/IR/MLIRContext.h"
#include "tools/tessel/program.h"
#include "tools/tessel/subcommands.h"

namespace tessel::cli {

Subcommand VerifyCommand() {
  Subcommand command;
  command.name = "verify";
  command.synopsis = "verify FILE";
  command.summary = "Parse and verify a program and print it as MLIR.";
  command.details =
      "FILE is MLIR (.mlir; StableHLO + Shardy as JAX prints it too) or XLA HLO text\n"
      "(.hlo); other names are sniffed (HLO text starts with 'HloModule'), and '-' reads\n"
      "standard input. Every op and sharding is verified; the first problems are reported\n"
      "as file:line:col diagnostics.\n"
      "\n"
      "Exit status: 0 if the program is valid, 1 if it is not (or cannot be read), 2 for a\n"
      "bad command line.\n";
  command.run = [](const ParsedArgs& args, std::ostream& out, std::ostream& err) {
    if (args.positional.size() != 1) {
      err << "tessel verify: expected one FILE, got " << args.positional.size()
          << " arguments\nsee 'tessel verify --help' for usage\n";
      return static_cast<int>(kExitUsage);
    }
    mlir::MLIRContext context;
    absl::StatusOr<mlir::OwningOpRef<mlir::ModuleOp>> module =
        LoadProgram(args.positional[0], context);
    if (!module.ok()) {
      err << "tessel verify: " << module.status().message() << "\n";
      return static_cast<int>(kExitBadInput);
    }
    llvm::raw_os_ostream os(out);
    (*module)->print(os);
    return static_cast<int>(kExitOk);
  };
  return command;
}

}  // namespace tessel::cli
