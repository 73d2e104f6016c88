// The SPMD dot program templates shared by the local and the MPI differential tests.
#include "tests/differential/spmd_dot_programs.h"

#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"

namespace tessel::testing {

const char kSingleDevice[] = R"(
func.func @main(%a: tensor<RxKxT>, %b: tensor<KxCxT>) -> tensor<RxCxT> {
  %0 = hlo.dot_general %a, %b, lhs_contract = [1], rhs_contract = [0]
      : (tensor<RxKxT>, tensor<KxCxT>) -> tensor<RxCxT>
  return %0 : tensor<RxCxT>
}
)";

// Contracting dimension split: partition p takes columns [p*S, (p+1)*S) of %a and the same
// rows of %b, with S = K / N.
const char kContractingSplit[] = R"(
tessel.mesh @mesh = <["x"=N]>
func.func @main(%a: tensor<RxKxT>, %b: tensor<KxCxT>) -> tensor<RxCxT> {
  %id = tessel.partition_id : tensor<ui32>
  %id32 = hlo.convert %id : (tensor<ui32>) -> tensor<i32>
  %table = hlo.constant dense<[OFFSETS]> : tensor<Nxi32>
  %entry = hlo.dynamic_slice %table, %id32, sizes = [1] : (tensor<Nxi32>, tensor<i32>) -> tensor<1xi32>
  %offset = hlo.reshape %entry : (tensor<1xi32>) -> tensor<i32>
  %zero = hlo.constant dense<0> : tensor<i32>
  %la = hlo.dynamic_slice %a, %zero, %offset, sizes = [R, S] : (tensor<RxKxT>, tensor<i32>, tensor<i32>) -> tensor<RxSxT>
  %lb = hlo.dynamic_slice %b, %offset, %zero, sizes = [S, C] : (tensor<KxCxT>, tensor<i32>, tensor<i32>) -> tensor<SxCxT>
  %partial = hlo.dot_general %la, %lb, lhs_contract = [1], rhs_contract = [0]
      : (tensor<RxSxT>, tensor<SxCxT>) -> tensor<RxCxT>
  %sum = tessel.all_reduce %partial over @mesh ["x"] kind = sum : tensor<RxCxT>
  return %sum : tensor<RxCxT>
}
)";

// Row split: partition p computes rows [p*S, (p+1)*S) and an all_gather assembles them.
const char kRowSplit[] = R"(
tessel.mesh @mesh = <["x"=N]>
func.func @main(%a: tensor<RxKxT>, %b: tensor<KxCxT>) -> tensor<RxCxT> {
  %id = tessel.partition_id : tensor<ui32>
  %id32 = hlo.convert %id : (tensor<ui32>) -> tensor<i32>
  %table = hlo.constant dense<[OFFSETS]> : tensor<Nxi32>
  %entry = hlo.dynamic_slice %table, %id32, sizes = [1] : (tensor<Nxi32>, tensor<i32>) -> tensor<1xi32>
  %offset = hlo.reshape %entry : (tensor<1xi32>) -> tensor<i32>
  %zero = hlo.constant dense<0> : tensor<i32>
  %la = hlo.dynamic_slice %a, %offset, %zero, sizes = [S, K] : (tensor<RxKxT>, tensor<i32>, tensor<i32>) -> tensor<SxKxT>
  %local = hlo.dot_general %la, %b, lhs_contract = [1], rhs_contract = [0]
      : (tensor<SxKxT>, tensor<KxCxT>) -> tensor<SxCxT>
  %all = tessel.all_gather %local over @mesh ["x"] dim = 0 : (tensor<SxCxT>) -> tensor<RxCxT>
  return %all : tensor<RxCxT>
}
)";

std::string InstantiateSpmdDot(const char* text, int rows, int k, int cols, int partitions,
                               int shard, const std::string& type) {
  std::vector<int> offsets;
  for (int p = 0; p < partitions; ++p) offsets.push_back(p * shard);
  return absl::StrReplaceAll(text, {{"OFFSETS", absl::StrJoin(offsets, ", ")},
                                    {"RxKxT", absl::StrCat(rows, "x", k, "x", type)},
                                    {"KxCxT", absl::StrCat(k, "x", cols, "x", type)},
                                    {"RxCxT", absl::StrCat(rows, "x", cols, "x", type)},
                                    {"RxSxT", absl::StrCat(rows, "x", shard, "x", type)},
                                    {"SxCxT", absl::StrCat(shard, "x", cols, "x", type)},
                                    {"SxKxT", absl::StrCat(shard, "x", k, "x", type)},
                                    {"Nxi32", absl::StrCat(partitions, "xi32")},
                                    {"\"x\"=N", absl::StrCat("\"x\"=", partitions)},
                                    {"[R, S]", absl::StrCat("[", rows, ", ", shard, "]")},
                                    {"[S, C]", absl::StrCat("[", shard, ", ", cols, "]")},
                                    {"[S, K]", absl::StrCat("[", shard, ", ", k, "]")}});
}

}  // namespace tessel::testing
