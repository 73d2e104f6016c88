// A tool's main body run so that a C++ exception that escapes it (a bug, or a resource
// failure nobody turned into a status) ends in "<tool>: internal error: <what>" and exit 1
// instead of std::terminate's abort.
//
//   int main(int argc, char** argv) {
//     return tessel::RunGuarded("tessel-opt", [&] { return OptMain(argc, argv); });
//   }
#ifndef TESSEL_SUPPORT_GUARDED_MAIN_H_
#define TESSEL_SUPPORT_GUARDED_MAIN_H_

#include <exception>
#include <iostream>

namespace tessel {

template <typename Body>
int RunGuarded(const char* tool, Body&& body) {
  try {
    return body();
  } catch (const std::exception& error) {
    std::cerr << tool << ": internal error: " << error.what() << "\n";
  } catch (...) {
    std::cerr << tool << ": internal error: unknown exception\n";
  }
  return 1;
}

}  // namespace tessel

#endif  // TESSEL_SUPPORT_GUARDED_MAIN_H_
