// Definitions of the flags shared by `tessel` subcommands (see common_flags.h).
#include "tools/tessel/common_flags.h"

#include "absl/flags/flag.h"

ABSL_FLAG(std::string, function, "main", "The function of the program to work on.");
