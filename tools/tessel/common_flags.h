// Abseil flags that several `tessel` subcommands accept, defined once here because an
// Abseil flag name may be defined only once per binary. A subcommand lists the names it
// accepts in its Subcommand::flags.
#ifndef TESSEL_TOOLS_TESSEL_COMMON_FLAGS_H_
#define TESSEL_TOOLS_TESSEL_COMMON_FLAGS_H_

#include <string>

#include "absl/flags/declare.h"

// The function of the program a subcommand works on.
ABSL_DECLARE_FLAG(std::string, function);

#endif  // TESSEL_TOOLS_TESSEL_COMMON_FLAGS_H_
