// Links CUDA's runtime and NCCL and asks each for its version. Neither call touches a GPU,
// so this checks the third_party BUILD files on any machine; GPU paths are tested elsewhere,
// on a GPU.
#include <cuda_runtime_api.h>
#include <nccl.h>

#include "gtest/gtest.h"

namespace {

TEST(CudaLibrariesTest, RuntimeAndNcclReportVersions) {
  int runtime_version = 0;
  ASSERT_EQ(cudaRuntimeGetVersion(&runtime_version), cudaSuccess);
  EXPECT_GE(runtime_version, 12000);
  int nccl_version = 0;
  ASSERT_EQ(ncclGetVersion(&nccl_version), ncclSuccess);
  EXPECT_GE(nccl_version, 22000);
}

}  // namespace
