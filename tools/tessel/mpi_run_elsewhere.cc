// RunOnMpi for the tessel command, which does not link Open MPI: loading its eight shared
// libraries cost every run of every subcommand 0.7 ms of start-up (docs/benchmarks.md),
// and only `tessel run --backend=mpi` needs them. That run replaces this process with
// tessel-mpi, the same command linked with MPI (mpi_run.cc), which is installed beside
// tessel, on the same command line: under mpirun the rank keeps its process id and its
// environment, so the MPI job sees nothing of the exchange.
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "tools/tessel/mpi_run.h"

namespace tessel::cli {
namespace {

// This process's arguments, argv[0] included, as the kernel keeps them.
std::vector<std::string> OwnArguments() {
  std::ifstream file("/proc/self/cmdline", std::ios::binary);
  std::string text((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  std::vector<std::string> arguments;
  size_t start = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '\0') continue;
    arguments.push_back(text.substr(start, i - start));
    start = i + 1;
  }
  return arguments;
}

}  // namespace

int RunOnMpi(const MpiRunOptions& options, std::ostream& out, std::ostream& err) {
  std::vector<std::string> arguments = OwnArguments();
  // The file this process runs, links resolved; "" when it cannot be found.
  const std::string self =
      arguments.empty() ? ""
                        : llvm::sys::fs::getMainExecutable(arguments[0].c_str(),
                                                           reinterpret_cast<void*>(&RunOnMpi));
  llvm::SmallString<256> siblingPath(llvm::sys::path::parent_path(self));
  llvm::sys::path::append(siblingPath, "tessel-mpi");
  const std::string sibling = siblingPath.str().str();
  if (self.empty()) {
    err << "tessel run: --backend=mpi runs through tessel-mpi, but this process cannot read "
           "its own path and arguments from /proc\n";
    return 1;
  }
  arguments[0] = sibling;
  std::vector<char*> argv;
  for (std::string& argument : arguments) argv.push_back(argument.data());
  argv.push_back(nullptr);
  out.flush();
  err.flush();
  ::execv(sibling.c_str(), argv.data());
  // execv returns only when it failed.
  const int error = errno;
  err << "tessel run: --backend=mpi runs through tessel-mpi, which is installed beside "
         "tessel, but " << sibling << " cannot be started: " << std::strerror(error) << "\n";
  return 1;
}

}  // namespace tessel::cli
