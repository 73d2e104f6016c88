// Argument parsing and help for `tessel` subcommands, over Abseil's flag reflection API.
#include "tools/tessel/subcommand.h"

#include <algorithm>
#include <map>

#include "absl/flags/commandlineflag.h"
#include "absl/flags/reflection.h"
#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "tools/tessel/did_you_mean.h"

namespace tessel::cli {
namespace {

bool Accepts(const Subcommand& subcommand, absl::string_view name) {
  return std::find(subcommand.flags.begin(), subcommand.flags.end(), name) !=
         subcommand.flags.end();
}

// The default of flag `flag` in `subcommand`: its own unless the subcommand replaces it.
std::string DefaultOf(const Subcommand& subcommand, const absl::CommandLineFlag& flag) {
  auto it = subcommand.flag_defaults.find(std::string(flag.Name()));
  return it == subcommand.flag_defaults.end() ? flag.DefaultValue() : it->second;
}

// The Abseil flag `name` if `subcommand` accepts it.
absl::CommandLineFlag* FindAcceptedFlag(const Subcommand& subcommand, absl::string_view name) {
  if (!Accepts(subcommand, name)) return nullptr;
  return absl::FindCommandLineFlag(name);
}

// Writes `text` as lines of at most `width` characters, each starting with `indent`.
void PrintWrapped(absl::string_view text, absl::string_view indent, size_t width,
                  std::ostream& out) {
  size_t column = 0;
  for (absl::string_view word : absl::StrSplit(text, ' ', absl::SkipEmpty())) {
    if (column > 0 && column + 1 + word.size() > width) {
      out << "\n";
      column = 0;
    }
    if (column == 0) {
      out << indent << word;
      column = indent.size() + word.size();
    } else {
      out << " " << word;
      column += 1 + word.size();
    }
  }
  out << "\n";
}

}  // namespace

absl::StatusOr<ParsedArgs> ParseArgs(const Subcommand& subcommand,
                                     absl::Span<const std::string> args) {
  // Start from the defaults, so that a parse does not see values left by an earlier one in
  // the same process (tests run several commands).
  for (const std::string& name : subcommand.flags) {
    absl::CommandLineFlag* flag = absl::FindCommandLineFlag(name);
    std::string ignored_error;
    if (flag != nullptr) flag->ParseFrom(DefaultOf(subcommand, *flag), &ignored_error);
  }
  ParsedArgs parsed;
  // The values given so far of repeatable flags.
  std::map<std::string, std::string> repeated;
  bool flags_ended = false;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    // A lone "-" names standard input, so it is a positional argument.
    if (flags_ended || arg.size() < 2 || arg[0] != '-') {
      parsed.positional.push_back(arg);
      continue;
    }
    if (arg == "--") {
      flags_ended = true;
      continue;
    }
    absl::string_view body = arg;
    body.remove_prefix(absl::StartsWith(body, "--") ? 2 : 1);
    size_t equals = body.find('=');
    const absl::string_view typed = body.substr(0, equals);
    // One flag style: --print-limit is --print_limit, and -o names the command's output.
    std::string name = absl::StrReplaceAll(typed, {{"-", "_"}});
    if (name == "o") {
      if (Accepts(subcommand, "output")) {
        name = "output";
      } else if (Accepts(subcommand, "output_dir")) {
        name = "output_dir";
      }
    }
    bool has_value = equals != absl::string_view::npos;
    absl::string_view value = has_value ? body.substr(equals + 1) : absl::string_view();

    if (name == "help" || name == "h") {
      if (has_value) return absl::InvalidArgumentError("--help takes no value");
      parsed.help = true;
      continue;
    }
    absl::CommandLineFlag* flag = FindAcceptedFlag(subcommand, name);
    bool negated = false;
    if (flag == nullptr && absl::StartsWith(name, "no")) {
      // --nocheck, --no_check and --no-check.
      const size_t prefix = absl::StartsWith(name, "no_") ? 3 : 2;
      absl::CommandLineFlag* positive = FindAcceptedFlag(subcommand, name.substr(prefix));
      if (positive != nullptr && positive->IsOfType<bool>()) {
        flag = positive;
        negated = true;
      }
    }
    if (flag == nullptr) {
      std::vector<std::string> known = subcommand.flags;
      known.push_back("help");
      return absl::InvalidArgumentError(
          absl::StrCat("unknown flag -", arg[1] == '-' ? "-" : "", typed, " for 'tessel ",
                       subcommand.name, "'", DidYouMean(name, known, "--", "")));
    }
    std::string flag_value;
    if (negated) {
      if (has_value) {
        return absl::InvalidArgumentError(absl::StrCat("--", typed, " takes no value"));
      }
      flag_value = "false";
    } else if (has_value) {
      flag_value = std::string(value);
    } else if (flag->IsOfType<bool>()) {
      flag_value = "true";
    } else if (auto implicit = subcommand.implicit_values.find(std::string(flag->Name()));
               implicit != subcommand.implicit_values.end()) {
      flag_value = implicit->second;
    } else if (i + 1 < args.size()) {
      flag_value = args[++i];
    } else {
      return absl::InvalidArgumentError(absl::StrCat("flag --", typed, " needs a value"));
    }
    const std::string flag_name(flag->Name());
    if (subcommand.repeatable_flags.count(flag_name) != 0) {
      auto [it, first] = repeated.emplace(flag_name, flag_value);
      if (!first) flag_value = it->second = absl::StrCat(it->second, ",", flag_value);
    }
    // Abseil's own message only repeats the value and the flag's name.
    std::string ignored_error;
    if (!flag->ParseFrom(flag_value, &ignored_error)) {
      return absl::InvalidArgumentError(
          absl::StrCat("invalid value '", flag_value, "' for --", flag->Name()));
    }
    parsed.explicitly_set.insert(std::string(flag->Name()));
  }
  return parsed;
}

void PrintSubcommandHelp(const Subcommand& subcommand, std::ostream& out) {
  out << "usage: tessel " << subcommand.synopsis << "\n\n" << subcommand.summary << "\n";
  if (!subcommand.details.empty()) out << "\n" << subcommand.details;
  if (!subcommand.details.empty() && subcommand.details.back() != '\n') out << "\n";
  out << "\nflags:\n";
  for (const std::string& name : subcommand.flags) {
    const absl::CommandLineFlag* flag = absl::FindCommandLineFlag(name);
    if (flag == nullptr) continue;
    // An empty default (no file, no mesh) goes unsaid.
    const std::string value = DefaultOf(subcommand, *flag);
    out << "  --" << name << (value.empty() ? "" : absl::StrCat(" (default: ", value, ")"))
        << "\n";
    PrintWrapped(flag->Help(), "      ", 80, out);
  }
  out << "  --help\n      Print this help and exit.\n";
}

int RunSubcommand(const Subcommand& subcommand, absl::Span<const std::string> args,
                  std::ostream& out, std::ostream& err) {
  absl::StatusOr<ParsedArgs> parsed = ParseArgs(subcommand, args);
  if (!parsed.ok()) {
    err << "tessel " << subcommand.name << ": " << parsed.status().message() << "\n"
        << "see 'tessel " << subcommand.name << " --help' for usage\n";
    return kExitUsage;
  }
  if (parsed->help) {
    PrintSubcommandHelp(subcommand, out);
    return kExitOk;
  }
  return subcommand.run(*parsed, out, err);
}

}  // namespace tessel::cli
