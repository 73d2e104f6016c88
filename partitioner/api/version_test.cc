// The version string is the three version numbers joined by dots.
#include "partitioner/api/version.h"

#include <gtest/gtest.h>

#include <string>

namespace tessel {
namespace {

TEST(VersionTest, StringJoinsTheNumbers) {
  EXPECT_EQ(std::string(kVersion), std::to_string(TESSEL_VERSION_MAJOR) + "." +
                                       std::to_string(TESSEL_VERSION_MINOR) + "." +
                                       std::to_string(TESSEL_VERSION_PATCH));
  EXPECT_EQ(std::string(kVersion), TESSEL_VERSION_STRING);
}

}  // namespace
}  // namespace tessel
