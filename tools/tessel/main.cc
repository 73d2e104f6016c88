// `tessel`: the command line of the Tessel partitioner. `tessel <command> [flags] FILE`
// dispatches to one subcommand per file (see subcommands.h); exit status 0 on success,
// 1 for bad input, 2 for a bad command line.
#include <iostream>
#include <new>
#include <string>
#include <system_error>
#include <vector>

#include "partitioner/api/version.h"
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

int Main(const std::vector<std::string>& args) {
  std::vector<Subcommand> subcommands = AllSubcommands();
  if (args.empty()) {
    std::cerr << "tessel: no command given\n";
    PrintUsage(subcommands, std::cerr);
    return kExitUsage;
  }
  const std::string& name = args[0];
  if ((name == "--version" || name == "version") && args.size() == 1) {
    std::cout << "tessel " << kVersion << "\n";
    return kExitOk;
  }
  if (name == "--help" || name == "-h" || name == "help") {
    // `tessel help run` is `tessel run --help`.
    if (name == "help" && args.size() == 2) {
      for (const Subcommand& subcommand : subcommands) {
        if (subcommand.name == args[1]) {
          PrintSubcommandHelp(subcommand, std::cout);
          return kExitOk;
        }
      }
      std::cerr << "tessel: unknown command '" << args[1] << "'\n";
      PrintUsage(subcommands, std::cerr);
      return kExitUsage;
    }
    PrintUsage(subcommands, std::cout);
    return kExitOk;
  }
  for (const Subcommand& subcommand : subcommands) {
    if (subcommand.name == name) {
      std::vector<std::string> rest(args.begin() + 1, args.end());
      int status;
      try {
        status = RunSubcommand(subcommand, rest, std::cout, std::cerr);
      } catch (const std::bad_alloc&) {
        // A program whose tensors (or partitions) do not fit in this machine's memory.
        std::cerr << "tessel " << name << ": out of memory\n";
        return kExitBadInput;
      } catch (const std::system_error& error) {
        // More partitions (threads) than the system lets one process start.
        std::cerr << "tessel " << name << ": " << error.what() << "\n";
        return kExitBadInput;
      }
      // What a command printed must have reached its reader: a closed pipe or a full disk
      // makes the run fail rather than end with a truncated result and status 0.
      std::cout.flush();
      if (status == kExitOk && !std::cout) {
        std::cerr << "tessel " << name << ": cannot write to standard output\n";
        return kExitBadInput;
      }
      return status;
    }
  }
  std::cerr << "tessel: unknown command '" << name << "'\n";
  PrintUsage(subcommands, std::cerr);
  return kExitUsage;
}

}  // namespace
}  // namespace tessel::cli

int main(int argc, char** argv) {
  return tessel::cli::Main(std::vector<std::string>(argv + 1, argv + argc));
}
