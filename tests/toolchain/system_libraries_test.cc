// Links and exercises each system library the build declares, so that a broken BUILD file in
// third_party/ fails here rather than in the first module that needs it.
#include <mpi.h>

#include <string>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_format.h"
#include "gtest/gtest.h"
#include "tests/toolchain/smoke.pb.h"
#include "unsupported/Eigen/CXX11/Tensor"

namespace {

TEST(SystemLibrariesTest, AbseilStatusAndFormattingWork) {
  absl::StatusOr<int> value = absl::InvalidArgumentError("bad axis");
  EXPECT_FALSE(value.ok());
  EXPECT_EQ(value.status().message(), "bad axis");
  absl::flat_hash_map<std::string, int> sizes = {{"data", 4}};
  EXPECT_EQ(absl::StrFormat("%s=%d", "data", sizes["data"]), "data=4");
}

TEST(SystemLibrariesTest, ProtobufMessagesRoundTrip) {
  tessel::toolchain::Smoke smoke;
  smoke.set_name("mesh");
  smoke.add_sizes(4);
  smoke.add_sizes(2);
  std::string bytes;
  ASSERT_TRUE(smoke.SerializeToString(&bytes));
  tessel::toolchain::Smoke parsed;
  ASSERT_TRUE(parsed.ParseFromString(bytes));
  EXPECT_EQ(parsed.name(), "mesh");
  EXPECT_EQ(parsed.sizes_size(), 2);
}

TEST(SystemLibrariesTest, EigenContractsTensors) {
  Eigen::Tensor<float, 2> a(2, 3), b(3, 2);
  a.setConstant(1.0f);
  b.setConstant(2.0f);
  Eigen::array<Eigen::IndexPair<int>, 1> dims = {Eigen::IndexPair<int>(1, 0)};
  Eigen::Tensor<float, 2> c = a.contract(b, dims);
  EXPECT_EQ(c(1, 1), 6.0f);  // three products of 1 * 2
}

TEST(SystemLibrariesTest, MpiLibraryLinks) {
  // MPI_Get_version may be called before MPI_Init; running ranks is tested under mpirun.
  int version = 0, subversion = 0;
  ASSERT_EQ(MPI_Get_version(&version, &subversion), MPI_SUCCESS);
  EXPECT_GE(version, 3);
}

}  // namespace
