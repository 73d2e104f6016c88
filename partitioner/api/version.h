// Tessel's version: the numbers a program built against these headers was built with, and
// the one `tessel --version` prints. CHANGELOG.md says what each version brought.
//
//   #if TESSEL_VERSION_MAJOR == 0 && TESSEL_VERSION_MINOR < 2 ...
//   std::cout << tessel::kVersion;   // "0.1.0"
#ifndef TESSEL_PARTITIONER_API_VERSION_H_
#define TESSEL_PARTITIONER_API_VERSION_H_

#define TESSEL_VERSION_MAJOR 0
#define TESSEL_VERSION_MINOR 1
#define TESSEL_VERSION_PATCH 0

// "MAJOR.MINOR.PATCH".
#define TESSEL_VERSION_STRINGIFY_(x) #x
#define TESSEL_VERSION_STRINGIFY(x) TESSEL_VERSION_STRINGIFY_(x)
#define TESSEL_VERSION_STRING                                                             \
  TESSEL_VERSION_STRINGIFY(TESSEL_VERSION_MAJOR)                                          \
  "." TESSEL_VERSION_STRINGIFY(TESSEL_VERSION_MINOR) "." TESSEL_VERSION_STRINGIFY( \
      TESSEL_VERSION_PATCH)

namespace tessel {

inline constexpr const char kVersion[] = TESSEL_VERSION_STRING;

}  // namespace tessel

#endif  // TESSEL_PARTITIONER_API_VERSION_H_
