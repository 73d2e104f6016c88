// The hierarchical backend's collectives: each routes a call whose group lies on this rank
// to the local backend, one with a member per rank to MPI, and runs a mixed one as local
// steps around one MPI call among the leaders (see hierarchical_communicator.h).
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "collectives/hierarchical/hierarchical_communicator.h"
#include "collectives/reduction.h"
#include "support/status_macros.h"

namespace tessel::collectives {
namespace {

std::string Elements(ConstBuffer buffer) {
  return absl::StrCat(buffer.num_elements, " x ", DataTypeName(buffer.type));
}

// The local rendezvous compares descriptions, so they name everything the members must
// agree on, the group included.
std::string Over(absl::Span<const int64_t> group) {
  return absl::StrCat(" over ", GroupString(group));
}

void Copy(void* destination, const void* source, int64_t bytes) {
  if (bytes > 0) std::memcpy(destination, source, bytes);
}

// Reduces `count` elements from element `offset` of each of `inputs`, in their order, into
// `destination`.
void Fold(DataType type, ReductionKind kind, const std::vector<const void*>& inputs, int64_t offset,
          int64_t count, std::byte* destination) {
  const int64_t size = DataTypeSize(type);
  Copy(destination, static_cast<const std::byte*>(inputs[0]) + offset * size, count * size);
  for (size_t i = 1; i < inputs.size(); ++i) {
    if (count > 0) {
      Accumulate(type, kind, destination, static_cast<const std::byte*>(inputs[i]) + offset * size,
                 count);
    }
  }
}

// The members' inputs as pointers, in group order.
std::vector<const void*> InputsOf(const std::vector<std::byte>& gathered, int64_t n,
                                  int64_t bytes) {
  std::vector<const void*> inputs;
  for (int64_t i = 0; i < n; ++i) inputs.push_back(gathered.data() + i * bytes);
  return inputs;
}

}  // namespace

absl::Status HierarchicalCommunicator::AllReduce(int64_t self, absl::Span<const int64_t> group,
                                                 ReductionKind kind, ConstBuffer input,
                                                 Buffer output) {
  TESSEL_ASSIGN_OR_RETURN(Route route, RouteOf("all_reduce", self, group));
  if (route == Route::kLocal) return local_.AllReduce(self, group, kind, input, output);
  if (route == Route::kMpi) return mpi_->AllReduce(self, group, kind, input, output);
  const int64_t count = input.num_elements, bytes = input.byte_size();
  const std::string description =
      absl::StrCat("all_reduce(", ReductionKindName(kind), ") of ", Elements(input), Over(group));
  absl::Status own = ValidateReduction(input.type, kind);
  if (own.ok()) own = ValidateOutput(input, output, count);
  return RunMixed(
      self, LayoutOf(group), "all_reduce", description, std::move(own), input, output,
      [&](const Layout& layout, const std::vector<Member*>& members) {
        std::vector<std::byte> result(bytes);
        if (layout.contiguous) {
          // Group order within the rank, then group order across the leaders.
          std::vector<const void*> inputs;
          for (Member* member : members) inputs.push_back(member->input.data);
          Fold(input.type, kind, inputs, 0, count, result.data());
          TESSEL_RETURN_IF_ERROR(mpi_->AllReduceInPlace(layout.leader(), layout.leaders, kind,
                                                        Buffer{input.type, result.data(), count}));
        } else {
          TESSEL_ASSIGN_OR_RETURN(std::vector<std::byte> gathered,
                                  GatherInputs(layout, members, bytes, description));
          Fold(input.type, kind, InputsOf(gathered, layout.size(), bytes), 0, count, result.data());
        }
        for (Member* member : members) Copy(member->output.data, result.data(), bytes);
        return absl::OkStatus();
      });
}

absl::Status HierarchicalCommunicator::AllGather(int64_t self, absl::Span<const int64_t> group,
                                                 ConstBuffer input, Buffer output) {
  TESSEL_ASSIGN_OR_RETURN(Route route, RouteOf("all_gather", self, group));
  if (route == Route::kLocal) return local_.AllGather(self, group, input, output);
  if (route == Route::kMpi) return mpi_->AllGather(self, group, input, output);
  const std::string description = absl::StrCat("all_gather of ", Elements(input), Over(group));
  return RunMixed(
      self, LayoutOf(group), "all_gather", description,
      ValidateOutput(input, output, input.num_elements * static_cast<int64_t>(group.size())), input,
      output, [&](const Layout& layout, const std::vector<Member*>& members) {
        TESSEL_ASSIGN_OR_RETURN(std::vector<std::byte> gathered,
                                GatherInputs(layout, members, input.byte_size(), description));
        for (Member* member : members) {
          Copy(member->output.data, gathered.data(), static_cast<int64_t>(gathered.size()));
        }
        return absl::OkStatus();
      });
}

absl::Status HierarchicalCommunicator::ReduceScatter(int64_t self, absl::Span<const int64_t> group,
                                                     ReductionKind kind, ConstBuffer input,
                                                     Buffer output) {
  TESSEL_ASSIGN_OR_RETURN(Route route, RouteOf("reduce_scatter", self, group));
  if (route == Route::kLocal) return local_.ReduceScatter(self, group, kind, input, output);
  if (route == Route::kMpi) return mpi_->ReduceScatter(self, group, kind, input, output);
  const int64_t n = static_cast<int64_t>(group.size());
  absl::Status own = ValidateReduction(input.type, kind);
  if (own.ok()) own = ValidateDivisible("input", input.num_elements, n);
  if (own.ok()) own = ValidateOutput(input, output, input.num_elements / n);
  const std::string description = absl::StrCat("reduce_scatter(", ReductionKindName(kind), ") of ",
                                               Elements(input), Over(group));
  return RunMixed(
      self, LayoutOf(group), "reduce_scatter", description, std::move(own), input, output,
      [&](const Layout& layout, const std::vector<Member*>& members) {
        const int64_t count = input.num_elements, block = count / n;
        const int64_t size = DataTypeSize(input.type);
        std::vector<std::byte> reduced(count * size);
        if (layout.contiguous) {
          std::vector<const void*> inputs;
          for (Member* member : members) inputs.push_back(member->input.data);
          Fold(input.type, kind, inputs, 0, count, reduced.data());
          if (layout.equal) {
            // Leader j's block of the leaders' reduce-scatter is its run's blocks, in order.
            const int64_t run = static_cast<int64_t>(members.size());
            std::vector<std::byte> blocks(run * block * size);
            TESSEL_RETURN_IF_ERROR(
                mpi_->ReduceScatter(layout.leader(), layout.leaders, kind,
                                    ConstBuffer{input.type, reduced.data(), count},
                                    Buffer{input.type, blocks.data(), run * block}));
            for (int64_t t = 0; t < run; ++t) {
              Copy(members[t]->output.data, blocks.data() + t * block * size, block * size);
            }
            return absl::OkStatus();
          }
          TESSEL_RETURN_IF_ERROR(mpi_->AllReduceInPlace(layout.leader(), layout.leaders, kind,
                                                        Buffer{input.type, reduced.data(), count}));
        } else {
          TESSEL_ASSIGN_OR_RETURN(std::vector<std::byte> gathered,
                                  GatherInputs(layout, members, input.byte_size(), description));
          Fold(input.type, kind, InputsOf(gathered, n, input.byte_size()), 0, count,
               reduced.data());
        }
        for (Member* member : members) {
          Copy(member->output.data, reduced.data() + member->position * block * size, block * size);
        }
        return absl::OkStatus();
      });
}

absl::Status HierarchicalCommunicator::AllToAll(int64_t self, absl::Span<const int64_t> group,
                                                ConstBuffer input, Buffer output) {
  TESSEL_ASSIGN_OR_RETURN(Route route, RouteOf("all_to_all", self, group));
  if (route == Route::kLocal) return local_.AllToAll(self, group, input, output);
  if (route == Route::kMpi) return mpi_->AllToAll(self, group, input, output);
  const int64_t n = static_cast<int64_t>(group.size());
  absl::Status own = ValidateDivisible("input", input.num_elements, n);
  if (own.ok()) own = ValidateOutput(input, output, input.num_elements);
  const std::string description = absl::StrCat("all_to_all of ", Elements(input), Over(group));
  return RunMixed(self, LayoutOf(group), "all_to_all", description, std::move(own), input, output,
                  [&](const Layout& layout, const std::vector<Member*>& members) {
                    const int64_t bytes = input.byte_size(), block = bytes / n;
                    TESSEL_ASSIGN_OR_RETURN(std::vector<std::byte> gathered,
                                            GatherInputs(layout, members, bytes, description));
                    // Block i of member q's output is block q of member i's input.
                    for (Member* member : members) {
                      auto* out = static_cast<std::byte*>(member->output.data);
                      for (int64_t i = 0; i < n; ++i) {
                        Copy(out + i * block,
                             gathered.data() + i * bytes + member->position * block, block);
                      }
                    }
                    return absl::OkStatus();
                  });
}

absl::Status HierarchicalCommunicator::CollectivePermute(int64_t self,
                                                         absl::Span<const int64_t> group,
                                                         absl::Span<const SourceTarget> pairs,
                                                         ConstBuffer input, Buffer output) {
  TESSEL_ASSIGN_OR_RETURN(Route route, RouteOf("collective_permute", self, group));
  if (route == Route::kLocal) return local_.CollectivePermute(self, group, pairs, input, output);
  if (route == Route::kMpi) return mpi_->CollectivePermute(self, group, pairs, input, output);
  absl::Status own = ValidatePairs(group, pairs);
  if (own.ok()) own = ValidateOutput(input, output, input.num_elements);
  std::vector<std::string> edges;
  for (const SourceTarget& pair : pairs) {
    edges.push_back(absl::StrCat(pair.source, "->", pair.target));
  }
  const std::string description =
      absl::StrCat("collective_permute of ", Elements(input), " with pairs [",
                   absl::StrJoin(edges, ", "), "]", Over(group));
  return RunMixed(self, LayoutOf(group), "collective_permute", description, std::move(own), input,
                  output, [&](const Layout& layout, const std::vector<Member*>& members) {
                    const int64_t bytes = input.byte_size();
                    TESSEL_ASSIGN_OR_RETURN(std::vector<std::byte> gathered,
                                            GatherInputs(layout, members, bytes, description));
                    for (Member* member : members) {
                      int64_t source = -1;
                      for (const SourceTarget& pair : pairs) {
                        if (pair.target == member->self) source = pair.source;
                      }
                      if (source < 0) {
                        if (bytes > 0) std::memset(member->output.data, 0, bytes);
                        continue;
                      }
                      const int64_t position =
                          std::find(layout.group.begin(), layout.group.end(), source) -
                          layout.group.begin();
                      Copy(member->output.data, gathered.data() + position * bytes, bytes);
                    }
                    return absl::OkStatus();
                  });
}

absl::Status HierarchicalCommunicator::Broadcast(int64_t self, absl::Span<const int64_t> group,
                                                 int64_t root, Buffer buffer) {
  TESSEL_ASSIGN_OR_RETURN(Route route, RouteOf("broadcast", self, group));
  if (route == Route::kLocal) return local_.Broadcast(self, group, root, buffer);
  if (route == Route::kMpi) return mpi_->Broadcast(self, group, root, buffer);
  absl::Status own;
  if (std::find(group.begin(), group.end(), root) == group.end()) {
    own = absl::InvalidArgumentError(
        absl::StrCat("root ", root, " is not in the group ", GroupString(group)));
  }
  const std::string description =
      absl::StrCat("broadcast from partition ", root, " of ", Elements(buffer), Over(group));
  return RunMixed(
      self, LayoutOf(group), "broadcast", description, std::move(own), buffer, buffer,
      [&](const Layout& layout, const std::vector<Member*>& members) {
        const int64_t bytes = buffer.byte_size();
        const int64_t root_rank = mpi_->assignment().RankOf(root);
        const int64_t root_leader =
            layout.leaders[std::find(layout.ranks.begin(), layout.ranks.end(), root_rank) -
                           layout.ranks.begin()];
        std::vector<std::byte> data(bytes);
        for (Member* member : members) {
          if (member->self == root) Copy(data.data(), member->input.data, bytes);
        }
        TESSEL_RETURN_IF_ERROR(
            mpi_->Broadcast(layout.leader(), layout.leaders, root_leader,
                            Buffer{buffer.type, data.data(), buffer.num_elements}));
        for (Member* member : members) {
          if (member->self != root) Copy(member->output.data, data.data(), bytes);
        }
        return absl::OkStatus();
      });
}

absl::Status HierarchicalCommunicator::Barrier(int64_t self, absl::Span<const int64_t> group) {
  TESSEL_ASSIGN_OR_RETURN(Route route, RouteOf("barrier", self, group));
  if (route == Route::kLocal) return local_.Barrier(self, group);
  if (route == Route::kMpi) return mpi_->Barrier(self, group);
  return RunMixed(self, LayoutOf(group), "barrier", absl::StrCat("barrier", Over(group)),
                  absl::OkStatus(), ConstBuffer{DataType::kU8, nullptr, 0},
                  Buffer{DataType::kU8, nullptr, 0},
                  [&](const Layout& layout, const std::vector<Member*>&) {
                    return mpi_->Barrier(layout.leader(), layout.leaders);
                  });
}

}  // namespace tessel::collectives
