// `tessel`: the command line of the Tessel partitioner. `tessel <command> [flags] FILE`
// dispatches to one subcommand per file (see subcommands.h); exit status 0 on success,
// 1 for bad input (or output that could not be written), 2 for a bad command line.
#include <unistd.h>

#include <exception>
#include <iostream>
#include <new>
#include <string>
#include <system_error>
#include <vector>

#include "partitioner/api/version.h"
#include "runtime/tensor.h"
#include "support/exit_teardown.h"
#include "support/guarded_main.h"
#include "support/output_file.h"
#include "tools/tessel/did_you_mean.h"
#include "tools/tessel/subcommand.h"
#include "tools/tessel/subcommands.h"

namespace tessel::cli {
namespace {

// Every subcommand, in the order `tessel --help` lists them. One line per subcommand.
std::vector<Subcommand> AllSubcommands() {
  return {
      RunCommand(),
      PartitionCommand(),
      ExplainCommand(),
      VerifyCommand(),
      ReportCommand(),
      VizCommand(),
  };
}

std::vector<std::string> CommandNames(const std::vector<Subcommand>& subcommands) {
  std::vector<std::string> names;
  for (const Subcommand& subcommand : subcommands) names.push_back(subcommand.name);
  return names;
}

void PrintUsage(const std::vector<Subcommand>& subcommands, std::ostream& out) {
  out << "usage: tessel <command> [flags] FILE\n\ncommands:\n";
  for (const Subcommand& subcommand : subcommands) {
    // Names up to 9 characters line the summaries up in one column.
    size_t padding = subcommand.name.size() < 10 ? 10 - subcommand.name.size() : 1;
    out << "  " << subcommand.name << std::string(padding, ' ') << subcommand.summary << "\n";
  }
  out << "\n'tessel <command> --help' lists a command's flags; 'tessel --version' prints the "
         "version.\n"
         "Exit status: 0 success, 1 bad input (with a message), 2 bad command line.\n";
}

int Main(const std::vector<std::string>& args, std::ostream& out) {
  std::vector<Subcommand> subcommands = AllSubcommands();
  if (args.empty()) {
    std::cerr << "tessel: no command given\n";
    PrintUsage(subcommands, std::cerr);
    return kExitUsage;
  }
  const std::string& name = args[0];
  if ((name == "--version" || name == "version") && args.size() == 1) {
    out << "tessel " << kVersion << "\n";
    return kExitOk;
  }
  if (name == "--help" || name == "-h" || name == "help") {
    // `tessel help run` is `tessel run --help`.
    if (name == "help" && args.size() == 2) {
      for (const Subcommand& subcommand : subcommands) {
        if (subcommand.name == args[1]) {
          PrintSubcommandHelp(subcommand, out);
          return kExitOk;
        }
      }
      std::cerr << "tessel: unknown command '" << args[1] << "'"
                << DidYouMean(args[1], CommandNames(subcommands)) << "\n";
      PrintUsage(subcommands, std::cerr);
      return kExitUsage;
    }
    PrintUsage(subcommands, out);
    return kExitOk;
  }
  for (const Subcommand& subcommand : subcommands) {
    if (subcommand.name == name) {
      std::vector<std::string> rest(args.begin() + 1, args.end());
      int status;
      try {
        status = RunSubcommand(subcommand, rest, out, std::cerr);
      } catch (const runtime::TensorAllocationError& error) {
        // A tensor allocated outside any op (an input, a partition's copy of it, an
        // assembled result) that does not fit: its shape and bytes, as for an op.
        std::cerr << "tessel " << name << ": " << error.what() << "\n";
        return kExitBadInput;
      } catch (const std::bad_alloc&) {
        // A program whose tensors (or partitions) do not fit in this machine's memory.
        std::cerr << "tessel " << name << ": out of memory\n";
        return kExitBadInput;
      } catch (const std::ios_base::failure&) {
        // A stream that failed where the code did not expect it to: a bug, for the guard in
        // GuardedMain to report (ios_base::failure is also a system_error).
        throw;
      } catch (const std::system_error& error) {
        // More partitions (threads) than the system lets one process start.
        std::cerr << "tessel " << name << ": " << error.what() << "\n";
        return kExitBadInput;
      }
      return status;
    }
  }
  std::cerr << "tessel: unknown command '" << name << "'"
            << DidYouMean(name, CommandNames(subcommands)) << "\n";
  PrintUsage(subcommands, std::cerr);
  return kExitUsage;
}

// The name messages start with: "tessel run" once the command is known, else "tessel".
std::string Prefix(const std::vector<std::string>& args) {
  if (!args.empty()) {
    for (const Subcommand& subcommand : AllSubcommands()) {
      if (subcommand.name == args[0]) return "tessel " + subcommand.name;
    }
  }
  return "tessel";
}

// Runs Main with standard output checked: what a command printed must have reached its
// reader, so a closed pipe or a full disk makes the run fail (exit 1) rather than end with a
// truncated result and status 0. An exception that escapes is a bug, but it still ends in a
// message and exit 1 rather than an abort.
int GuardedMain(const std::vector<std::string>& args) {
  return RunGuarded("tessel", [&] {
    CheckedStream out(STDOUT_FILENO);
    // At a terminal, each result line shows up as it is printed, as it did through stdio.
    if (::isatty(STDOUT_FILENO)) out.stream() << std::unitbuf;
    int status = Main(args, out.stream());
    absl::Status written = out.Finish("standard output");
    if (!written.ok()) {
      std::cerr << Prefix(args) << ": " << written.message() << "\n";
      return status == kExitOk ? static_cast<int>(kExitBadInput) : status;
    }
    return status;
  });
}

}  // namespace
}  // namespace tessel::cli

int main(int argc, char** argv) {
  tessel::SkipTeardownAtExit();
  return tessel::cli::GuardedMain(std::vector<std::string>(argv + 1, argv + argc));
}
