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
#include "coin/CbcModel.hpp"
#include "coin/CoinPackedMatrix.hpp"
#include "coin/OsiClpSolverInterface.hpp"

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

TEST(SystemLibrariesTest, CbcSolvesASmallIntegerProgram) {
  // max 5a + 4b + 3c subject to 2a + 3b + c <= 5, a, b, c binary. Taking a and c gives 8
  // with weight 3; a and b weigh 5 and give 9, the optimum; all three weigh 6.
  OsiClpSolverInterface lp;
  CoinPackedMatrix rows(false, 0, 0);
  rows.setDimensions(0, 3);
  const int columns[] = {0, 1, 2};
  const double weights[] = {2, 3, 1};
  rows.appendRow(CoinPackedVector(3, columns, weights));
  const double lower[] = {0, 0, 0}, upper[] = {1, 1, 1}, objective[] = {-5, -4, -3};
  const double rowLower[] = {-COIN_DBL_MAX}, rowUpper[] = {5};
  lp.loadProblem(rows, lower, upper, objective, rowLower, rowUpper);
  for (int i = 0; i < 3; ++i) lp.setInteger(i);
  lp.messageHandler()->setLogLevel(0);
  CbcModel model(lp);
  model.setLogLevel(0);
  model.branchAndBound();
  ASSERT_TRUE(model.isProvenOptimal());
  EXPECT_DOUBLE_EQ(model.getObjValue(), -9);
  EXPECT_NEAR(model.bestSolution()[2], 0, 1e-6);
}

}  // namespace
