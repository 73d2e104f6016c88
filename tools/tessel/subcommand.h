// The frame every `tessel` subcommand plugs into: a description (name, synopsis, the
// Abseil flags it accepts) and an entry point, plus the argument parser and help printer
// they share. A subcommand is one .cc file that defines its flags with ABSL_FLAG and
// returns its Subcommand from a function listed in main.cc.
//
// Flags are ordinary Abseil flags, but they are parsed here through Abseil's public
// reflection API (FindCommandLineFlag / CommandLineFlag::ParseFrom) rather than with
// absl::ParseCommandLine, for two reasons: each subcommand must accept only its own flags,
// and absl::ParseCommandLine exits with status 1 on a usage error or --help, where the
// CLI promises 2 and 0.
#ifndef TESSEL_TOOLS_TESSEL_SUBCOMMAND_H_
#define TESSEL_TOOLS_TESSEL_SUBCOMMAND_H_

#include <functional>
#include <map>
#include <ostream>
#include <set>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"

namespace tessel::cli {

// The process exit codes of every subcommand.
enum ExitCode : int {
  kExitOk = 0,
  kExitBadInput = 1,  // the input (program, .npy files, ...) is wrong; a message says why
  kExitUsage = 2,     // the command line itself is wrong
};

// What a subcommand receives once its flags have been parsed into the Abseil flags.
struct ParsedArgs {
  // Arguments that are not flags, in order (after `--`, everything is positional).
  std::vector<std::string> positional;
  // Names of the flags given on the command line, so that a subcommand can tell an
  // explicit value from a default (e.g. --seed together with --inputs is an error).
  std::set<std::string> explicitly_set;
  // --help or -h was given; the caller prints help and exits 0.
  bool help = false;
};

struct Subcommand {
  std::string name;      // "run"
  std::string synopsis;  // "run FILE [flags]"
  std::string summary;   // one line for `tessel --help`
  std::string details;   // paragraphs for `tessel <name> --help`
  // Abseil flag names (without dashes) this subcommand accepts, in the order help lists them.
  std::vector<std::string> flags;
  // Defaults that replace a shared flag's own for this subcommand, by flag name: a flag that
  // several commands accept (an Abseil flag exists once per binary) may need another default
  // here, like --format, "table" for report and "text" for viz.
  std::map<std::string, std::string> flag_defaults;
  // Flags that may be given several times; their values are joined with commas, so
  // `--value=a --value=b` means `--value=a,b` (for list-valued flags).
  std::set<std::string> repeatable_flags;
  // Values of non-boolean flags written without one: {"auto", "on"} makes `--auto` mean
  // `--auto=on` (rather than taking the next word as its value).
  std::map<std::string, std::string> implicit_values;
  // Runs the subcommand after a successful parse; returns an ExitCode. Messages go to
  // `out` (results) and `err` (errors, prefixed with "tessel <name>: ").
  std::function<int(const ParsedArgs& args, std::ostream& out, std::ostream& err)> run;
};

// Parses `args` (the words after the subcommand's name) into `subcommand`'s Abseil flags,
// which are first reset to their defaults.
// Accepts --name=value, --name value (non-boolean flags), --name, --noname and --no_name
// (boolean flags), single-dash spellings of each, dashes for underscores in names
// (--print-limit), -o for --output (or --output_dir where that is the command's output),
// --help/-h, and `--` to end the flags. Fails with InvalidArgument, a usage error, for an
// unknown flag (suggesting the nearest known one), a missing or malformed value.
absl::StatusOr<ParsedArgs> ParseArgs(const Subcommand& subcommand,
                                     absl::Span<const std::string> args);

// Writes `tessel <name> --help`: synopsis, details, and each flag with its help text and
// default value (unquoted; none shown when it is empty).
void PrintSubcommandHelp(const Subcommand& subcommand, std::ostream& out);

// Parses `args` and runs `subcommand`, turning usage errors into a message and kExitUsage.
int RunSubcommand(const Subcommand& subcommand, absl::Span<const std::string> args,
                  std::ostream& out, std::ostream& err);

}  // namespace tessel::cli

#endif  // TESSEL_TOOLS_TESSEL_SUBCOMMAND_H_
