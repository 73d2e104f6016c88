// The `tessel` subcommands, one .cc file each. To add one: write its file (flags with
// ABSL_FLAG, a function returning its Subcommand), declare that function here and list it
// in main.cc's table.
#ifndef TESSEL_TOOLS_TESSEL_SUBCOMMANDS_H_
#define TESSEL_TOOLS_TESSEL_SUBCOMMANDS_H_

#include "tools/tessel/subcommand.h"

namespace tessel::cli {

Subcommand RunCommand();        // run_command.cc
Subcommand VerifyCommand();     // verify_command.cc
Subcommand PartitionCommand();  // partition_command.cc
Subcommand ExplainCommand();    // explain_command.cc
Subcommand ReportCommand();     // report_command.cc
Subcommand VizCommand();        // viz_command.cc

}  // namespace tessel::cli

#endif  // TESSEL_TOOLS_TESSEL_SUBCOMMANDS_H_
