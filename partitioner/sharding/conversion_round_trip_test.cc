// Round trips between the mesh and GSPMD forms over generated inputs, compared by device →
// tile maps (the ground truth): every sharding built from whole axes and halves of axes on
// meshes of up to three axes of sizes 1-4 (with and without explicit device ids), every iota
// tiling of up to 12 devices, and random explicit device lists.
#include <algorithm>
#include <numeric>
#include <random>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "partitioner/sharding/conversion.h"
#include "partitioner/sharding/device_tile_map.h"

namespace tessel::sharding {
namespace {

// Maps of one case; the first failing step, or "" when every step agrees. Messages are built
// only on failure: the generated sets are large.
template <typename T>
std::string StatusText(const absl::StatusOr<T>& value) {
  return std::string(value.status().message());
}

// mesh → HLO → mesh → HLO, checking the device → tile map after every step.
std::string CheckMeshRoundTrip(const Mesh& mesh, const TensorSharding& sharding,
                               const std::vector<std::string>& manual_axes) {
  const int64_t rank = sharding.Rank();
  // A maximal mesh holds one device whose id may exceed the mesh size.
  const int64_t devices = mesh.IsMaximal() ? mesh.device_ids[0] + 1 : mesh.NumDevices();
  absl::StatusOr<DeviceTileMap> truth = DeviceTileMapOf(mesh, sharding, manual_axes);
  if (!truth.ok()) return "mesh map: " + StatusText(truth);
  absl::StatusOr<HloSharding> hlo = MeshShardingToHlo(mesh, sharding, manual_axes);
  if (!hlo.ok()) return "to hlo: " + StatusText(hlo);
  absl::StatusOr<HloSharding> reparsed = HloSharding::Parse(hlo->ToString());
  if (!reparsed.ok() || *reparsed != *hlo) return "text round trip of " + hlo->ToString();
  absl::StatusOr<DeviceTileMap> from_hlo = DeviceTileMapOf(*hlo, rank, devices);
  if (!from_hlo.ok() || *from_hlo != *truth) {
    return "hlo " + hlo->ToString() + " places " +
           (from_hlo.ok() ? DeviceTileMapToString(*from_hlo) : StatusText(from_hlo)) +
           " instead of " + DeviceTileMapToString(*truth);
  }
  absl::StatusOr<MeshShardingImport> imported = HloShardingToMesh(*hlo, rank, devices);
  if (!imported.ok()) return "import of " + hlo->ToString() + ": " + StatusText(imported);
  const ImportedSharding& back = imported->shardings.front();
  const Mesh& back_mesh = *imported->FindMesh(back.sharding.mesh_name);
  absl::StatusOr<DeviceTileMap> from_back =
      DeviceTileMapOf(back_mesh, back.sharding, back.manual_axes);
  if (!from_back.ok() || *from_back != *truth) {
    return "import of " + hlo->ToString() + " as " + back_mesh.ToString() + " " +
           back.sharding.ToString() + " places data differently";
  }
  absl::StatusOr<HloSharding> again = MeshShardingToHlo(back_mesh, back.sharding, back.manual_axes);
  if (!again.ok()) return "export of the import: " + StatusText(again);
  absl::StatusOr<DeviceTileMap> from_again = DeviceTileMapOf(*again, rank, devices);
  if (!from_again.ok() || *from_again != *truth) {
    return "re-export " + again->ToString() + " of " + hlo->ToString() + " places data differently";
  }
  return "";
}

// HLO → mesh → HLO, checking the device → tile map after every step; a factorable iota on
// several devices must come back spelled exactly as it went in.
std::string CheckHloRoundTrip(const HloSharding& hlo, int64_t rank, int64_t devices) {
  absl::StatusOr<DeviceTileMap> truth = DeviceTileMapOf(hlo, rank, devices);
  if (!truth.ok()) return "hlo map: " + StatusText(truth);
  absl::StatusOr<MeshShardingImport> imported = HloShardingToMesh(hlo, rank, devices);
  if (!imported.ok()) return "import: " + StatusText(imported);
  const ImportedSharding& back = imported->shardings.front();
  const Mesh& mesh = *imported->FindMesh(back.sharding.mesh_name);
  absl::StatusOr<DeviceTileMap> from_mesh = DeviceTileMapOf(mesh, back.sharding, back.manual_axes);
  if (!from_mesh.ok() || *from_mesh != *truth) {
    return "import as " + mesh.ToString() + " " + back.sharding.ToString() +
           " places data differently";
  }
  absl::StatusOr<HloSharding> again = MeshShardingToHlo(mesh, back.sharding, back.manual_axes);
  if (!again.ok()) return "export: " + StatusText(again);
  absl::StatusOr<DeviceTileMap> from_again = DeviceTileMapOf(*again, rank, devices);
  if (!from_again.ok() || *from_again != *truth) {
    return "re-export " + again->ToString() + " places data differently";
  }
  // Manual and unreduced axes are exported in mesh order, which may renumber (not regroup) the
  // manual and unreduced groups; every other factorable iota keeps its spelling.
  const bool iota = hlo.kind() != HloSharding::Kind::kTiled ||
                    (hlo.tile_assignment().IsIota() &&
                     (hlo.subgroup_types().empty() || hlo.ReplicateOnLastTileDim()));
  if (back.sharding.mesh_name == "mesh" && iota && devices > 1 && *again != hlo) {
    return "re-export is spelled " + again->ToString();
  }
  return "";
}

// Where a unit of a mesh axis goes in a generated sharding; values >= 0 are tensor dims.
enum Destination { kNowhere = -4, kUnreduced = -3, kManual = -2, kReplicated = -1 };

struct Unit {
  AxisRef ref;
  bool whole;
};

// Calls `check(sharding, manual_axes)` for every sharding of rank `rank` on `mesh` built by
// cutting each axis into units (the whole axis, or with `split_axes` also the two halves of an
// axis of size 4), sending each unit nowhere, to a dim, to the unreduced or replicated set or
// (whole axes only) to the manual set. Each dim lists its units in mesh order and, in a
// second variant when some dim has several, reversed.
template <typename Check>
void ForEachSharding(const Mesh& mesh, int64_t rank, bool split_axes, Check check) {
  std::vector<std::vector<std::vector<Unit>>> cuts;
  for (const MeshAxis& axis : mesh.axes) {
    std::vector<std::vector<Unit>> options = {{Unit{AxisRef(axis.name), true}}};
    if (split_axes && axis.size == 4) {
      options.push_back(
          {Unit{AxisRef(axis.name, 1, 2), false}, Unit{AxisRef(axis.name, 2, 2), false}});
    }
    cuts.push_back(options);
  }
  std::vector<int> cut_choice(mesh.axes.size(), 0);
  while (true) {
    std::vector<Unit> units;
    for (size_t a = 0; a < cuts.size(); ++a) {
      units.insert(units.end(), cuts[a][cut_choice[a]].begin(), cuts[a][cut_choice[a]].end());
    }
    std::vector<int> destination(units.size(), kNowhere);
    while (true) {
      bool valid = true;
      for (size_t u = 0; u < units.size(); ++u)
        valid &= units[u].whole || destination[u] != kManual;
      for (bool reversed : {false, true}) {
        if (!valid) break;
        TensorSharding sharding("mesh", std::vector<DimSharding>(rank));
        std::vector<std::string> manual;
        for (size_t u = 0; u < units.size(); ++u) {
          const AxisRef& ref = units[u].ref;
          switch (destination[u]) {
            case kNowhere:
              break;
            case kUnreduced:
              sharding.unreduced_axes.push_back(ref);
              break;
            case kManual:
              manual.push_back(ref.name);
              break;
            case kReplicated:
              sharding.replicated_axes.push_back(ref);
              break;
            default:
              sharding.dims[destination[u]].axes.push_back(ref);
              break;
          }
        }
        bool several = false;
        for (DimSharding& dim : sharding.dims) {
          several |= dim.axes.size() > 1;
          if (reversed) std::reverse(dim.axes.begin(), dim.axes.end());
        }
        if (reversed && !several) break;
        check(sharding, manual);
      }
      size_t u = 0;  // odometer over kNowhere .. rank-1
      while (u < units.size() && ++destination[u] == rank) destination[u++] = kNowhere;
      if (u == units.size()) break;
    }
    size_t a = 0;
    while (a < cuts.size() && ++cut_choice[a] == static_cast<int>(cuts[a].size())) {
      cut_choice[a++] = 0;
    }
    if (a == cuts.size()) break;
  }
}

// Every mesh with `num_axes` axes of sizes 1-4, and with `with_ids` each again with reversed
// device ids.
std::vector<Mesh> GenerateMeshes(int num_axes, bool with_ids) {
  std::vector<Mesh> meshes;
  std::vector<int64_t> sizes(num_axes, 1);
  while (true) {
    Mesh mesh;
    for (int a = 0; a < num_axes; ++a) mesh.axes.push_back({std::string(1, 'a' + a), sizes[a]});
    meshes.push_back(mesh);
    if (with_ids && mesh.NumDevices() > 1) {
      for (int64_t i = 0; i < mesh.NumDevices(); ++i)
        mesh.device_ids.push_back(mesh.NumDevices() - 1 - i);
      meshes.push_back(mesh);
    }
    int a = 0;
    while (a < num_axes && ++sizes[a] == 5) sizes[a++] = 1;
    if (a == num_axes) break;
  }
  return meshes;
}

// Runs the mesh round trip over ForEachSharding; stops at the first failure.
int64_t RunMeshRoundTrips(int num_axes, bool with_ids, int64_t max_rank, int64_t max_split_rank) {
  int64_t cases = 0;
  for (const Mesh& mesh : GenerateMeshes(num_axes, with_ids)) {
    for (int64_t rank = 0; rank <= max_rank; ++rank) {
      std::string failure;
      ForEachSharding(mesh, rank, rank <= max_split_rank,
                      [&](const TensorSharding& sharding, const std::vector<std::string>& manual) {
                        if (!failure.empty()) return;
                        ++cases;
                        failure = CheckMeshRoundTrip(mesh, sharding, manual);
                        if (!failure.empty()) {
                          failure = mesh.ToString() + " " + sharding.ToString() +
                                    " manual=" + std::to_string(manual.size()) + ": " + failure;
                        }
                      });
      if (!failure.empty()) {
        ADD_FAILURE() << failure;
        return cases;
      }
    }
  }
  return cases;
}

TEST(RoundTripTest, EveryShardingOnOneAndTwoAxisMeshesSurvivesMeshToHloAndBack) {
  EXPECT_GT(
      RunMeshRoundTrips(1, /*with_ids=*/true, 3, 3) + RunMeshRoundTrips(2, /*with_ids=*/true, 3, 2),
      10000);
}

TEST(RoundTripTest, EveryShardingOnThreeAxisMeshesSurvivesMeshToHloAndBack) {
  // Halves of axes and explicit ids are covered above; the third axis adds orderings across
  // more axes.
  EXPECT_GT(RunMeshRoundTrips(3, /*with_ids=*/false, 1, 0), 10000);
}

TEST(RoundTripTest, MaximalMeshSurvivesMeshToHloAndBack) {
  EXPECT_EQ(CheckMeshRoundTrip(*Mesh::Create({}, {5}),
                               TensorSharding("mesh", {DimSharding(), DimSharding()}), {}),
            "");
}

// Ordered ways to write n as a product of `count` factors, all > 1 if `proper`.
std::vector<std::vector<int64_t>> Factorizations(int64_t n, int count, bool proper) {
  if (count == 0)
    return n == 1 ? std::vector<std::vector<int64_t>>{{}} : std::vector<std::vector<int64_t>>{};
  std::vector<std::vector<int64_t>> out;
  for (int64_t f = proper ? 2 : 1; f <= n; ++f) {
    if (n % f != 0) continue;
    for (std::vector<int64_t> rest : Factorizations(n / f, count - 1, proper)) {
      rest.insert(rest.begin(), f);
      out.push_back(std::move(rest));
    }
  }
  return out;
}

TEST(RoundTripTest, EveryIotaTilingSurvivesHloToMeshAndBack) {
  const std::vector<SubgroupType> kTypes = {SubgroupType::kManual, SubgroupType::kUnreduced,
                                            SubgroupType::kReplicated};
  int64_t cases = 0;
  for (int64_t devices : {1, 2, 4, 6, 8, 12}) {
    for (int reshape_rank = 1; reshape_rank <= 3; ++reshape_rank) {
      // Reshape dims of size 1 vanish in canonicalization (TileAssignmentTest covers that).
      for (const std::vector<int64_t>& reshape :
           Factorizations(devices, reshape_rank, /*proper=*/devices > 1)) {
        std::vector<int> perm(reshape_rank);
        std::iota(perm.begin(), perm.end(), 0);
        do {
          for (int rank = 0; rank <= 3; ++rank) {
            for (int trailing = 0; trailing <= 2; ++trailing) {
              if (rank + trailing == 0 || rank + trailing > 4) continue;
              for (const std::vector<int64_t>& dims :
                   Factorizations(devices, rank + trailing, /*proper=*/false)) {
                // Every list of `trailing` types, as a number in base 3.
                for (int code = 0; code < (trailing == 0 ? 1 : trailing == 1 ? 3 : 9); ++code) {
                  std::vector<SubgroupType> types;
                  for (int t = 0, rest = code; t < trailing; ++t, rest /= 3) {
                    types.push_back(kTypes[rest % 3]);
                  }
                  absl::StatusOr<HloSharding> hlo =
                      HloSharding::Tiled(*TileAssignment::CreateIota(dims, reshape, perm), types);
                  ASSERT_TRUE(hlo.ok()) << hlo.status();
                  ++cases;
                  std::string failure = CheckHloRoundTrip(*hlo, rank, devices);
                  ASSERT_EQ(failure, "") << hlo->ToString();
                }
              }
            }
          }
        } while (std::next_permutation(perm.begin(), perm.end()));
      }
    }
  }
  EXPECT_GT(cases, 10000);
}

TEST(RoundTripTest, RandomDeviceListsSurviveHloToMeshAndBack) {
  std::mt19937 random(42);  // fixed seed: the same cases every run
  const std::vector<std::vector<int64_t>> shapes = Factorizations(12, 3, /*proper=*/false);
  for (int trial = 0; trial < 300; ++trial) {
    const std::vector<int64_t>& dims = shapes[random() % shapes.size()];
    std::vector<int64_t> devices(12);
    std::iota(devices.begin(), devices.end(), 0);
    std::shuffle(devices.begin(), devices.end(), random);
    const bool replicate_last = random() % 2 == 0;
    absl::StatusOr<HloSharding> hlo =
        HloSharding::Tiled(*TileAssignment::CreateExplicit(dims, devices),
                           replicate_last ? std::vector<SubgroupType>{SubgroupType::kReplicated}
                                          : std::vector<SubgroupType>{});
    ASSERT_TRUE(hlo.ok()) << hlo.status();
    ASSERT_EQ(CheckHloRoundTrip(*hlo, replicate_last ? 2 : 3, 12), "") << hlo->ToString();
  }
}

}  // namespace
}  // namespace tessel::sharding
