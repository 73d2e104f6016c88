// The hierarchical backend's machinery: routing a call by where its group's members run,
// the three steps of a mixed call, and the leaders' all-gather of every member's input. The
// collectives themselves are in hierarchical_collectives.cc.
#include "collectives/hierarchical/hierarchical_communicator.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <utility>

#include "absl/strings/str_cat.h"
#include "support/status_macros.h"

namespace tessel::collectives {
namespace {

uint64_t Fingerprint(absl::string_view text) {
  uint64_t hash = 14695981039346656037ull;  // FNV-1a
  for (char c : text) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 1099511628211ull;
  }
  return hash;
}

// A copy of `status` that shares nothing with it: each member thread gets its own (see
// local/rendezvous.cc on why shared statuses confuse ThreadSanitizer).
absl::Status Detach(const absl::Status& status) {
  return absl::Status(status.code(), std::string(status.message()));
}

}  // namespace

HierarchicalCommunicator::HierarchicalCommunicator(MpiCommunicator* mpi)
    : HierarchicalCommunicator(mpi, Options()) {}

HierarchicalCommunicator::HierarchicalCommunicator(MpiCommunicator* mpi, Options options)
    : mpi_(mpi),
      rank_(mpi->rank()),
      local_(mpi->num_partitions(), LocalCommunicator::Options{options.timeout}),
      table_(mpi->num_partitions(), options.timeout) {}

void HierarchicalCommunicator::Abort(const absl::Status& reason) {
  table_.Abort(reason);
  local_.Abort(reason);
  mpi_->Abort(reason);
}

std::vector<int64_t> HierarchicalCommunicator::Layout::LocalMembers() const {
  std::vector<int64_t> members;
  for (int64_t position : positions[mine]) members.push_back(group[position]);
  return members;
}

absl::StatusOr<HierarchicalCommunicator::Route> HierarchicalCommunicator::RouteOf(
    absl::string_view name, int64_t self, absl::Span<const int64_t> group) const {
  absl::Status group_status = ValidateGroup(self, group, num_partitions());
  if (!group_status.ok()) {
    return absl::InvalidArgumentError(absl::StrCat(name, ": ", group_status.message()));
  }
  const DeviceAssignment& assignment = mpi_->assignment();
  if (assignment.RankOf(self) != rank_) {
    return absl::InvalidArgumentError(absl::StrCat(name, ": partition ", self, " runs on rank ",
                                                   assignment.RankOf(self), ", not on rank ",
                                                   rank_));
  }
  std::map<int64_t, int64_t> members_on_rank;
  for (int64_t id : group) ++members_on_rank[assignment.RankOf(id)];
  if (members_on_rank.size() == 1) return Route::kLocal;
  if (members_on_rank.size() == group.size()) return Route::kMpi;
  return Route::kMixed;
}

HierarchicalCommunicator::Layout HierarchicalCommunicator::LayoutOf(
    absl::Span<const int64_t> group) const {
  Layout layout;
  layout.group.assign(group.begin(), group.end());
  std::map<int64_t, int64_t> index_of_rank;
  for (int64_t position = 0; position < layout.size(); ++position) {
    const int64_t rank = mpi_->assignment().RankOf(group[position]);
    auto [it, inserted] = index_of_rank.emplace(rank, static_cast<int64_t>(layout.ranks.size()));
    if (inserted) {
      layout.ranks.push_back(rank);
      layout.positions.emplace_back();
      layout.leaders.push_back(group[position]);
    }
    layout.positions[it->second].push_back(position);
  }
  layout.mine = index_of_rank.at(rank_);
  for (const std::vector<int64_t>& positions : layout.positions) {
    const int64_t count = static_cast<int64_t>(positions.size());
    if (positions.back() - positions.front() + 1 != count) layout.contiguous = false;
    if (count != static_cast<int64_t>(layout.positions[0].size())) layout.equal = false;
    layout.max_members = std::max(layout.max_members, count);
  }
  return layout;
}

absl::Status HierarchicalCommunicator::RunMixed(int64_t self, const Layout& layout,
                                                absl::string_view name,
                                                const std::string& description,
                                                absl::Status own_status, ConstBuffer input,
                                                Buffer output, const LeaderBody& body) {
  const int64_t position =
      std::find(layout.group.begin(), layout.group.end(), self) - layout.group.begin();
  Member me{self, position, input, output, absl::OkStatus()};
  const std::vector<int64_t> local_members = layout.LocalMembers();
  absl::StatusOr<local::Ticket> ticket = table_.Join(local::JoinRequest{
      self, local_members, name, description, std::move(own_status), &me, /*shared_bytes=*/0});
  const bool leader = self == layout.leader();
  if (!ticket.ok()) {
    // Tell the other ranks' leaders, or their members would wait for this rank's until
    // they time out. The rejection's own result is this same failure.
    if (leader) mpi_->Reject(self, layout.leaders, name, ticket.status()).IgnoreError();
    return ticket.status();
  }
  if (leader) {
    std::vector<Member*> members;
    for (int64_t i = 0; i < ticket->group_size(); ++i) {
      // Each member's Member lives on its own stack until it has left, after this.
      members.push_back(static_cast<Member*>(const_cast<void*>(ticket->input(i))));
    }
    absl::Status status = body(layout, members);
    if (!status.ok()) {
      status =
          absl::Status(status.code(), absl::StrCat(status.message(), " (in ", description, ")"));
    }
    for (Member* member : members) member->result = Detach(status);
  }
  table_.Leave(*std::move(ticket));
  return me.result;
}

absl::StatusOr<std::vector<std::byte>> HierarchicalCommunicator::GatherInputs(
    const Layout& layout, const std::vector<Member*>& members, int64_t bytes,
    const std::string& description) {
  // Each leader's block: its members' inputs in group order, zeros for the members it has
  // fewer than the fullest rank, then the fingerprint of its call.
  const int64_t block = layout.max_members * bytes + static_cast<int64_t>(sizeof(uint64_t));
  const int64_t num_ranks = static_cast<int64_t>(layout.ranks.size());
  std::vector<std::byte> mine(block, std::byte{0});
  for (size_t t = 0; t < members.size(); ++t) {
    if (bytes > 0) std::memcpy(mine.data() + t * bytes, members[t]->input.data, bytes);
  }
  const uint64_t fingerprint = Fingerprint(description);
  std::memcpy(mine.data() + block - sizeof(uint64_t), &fingerprint, sizeof(uint64_t));
  std::vector<std::byte> gathered(num_ranks * block);
  TESSEL_RETURN_IF_ERROR(mpi_->AllGather(
      layout.leader(), layout.leaders, ConstBuffer{DataType::kU8, mine.data(), block},
      Buffer{DataType::kU8, gathered.data(), num_ranks * block}));
  std::vector<std::byte> inputs(layout.size() * bytes);
  for (int64_t j = 0; j < num_ranks; ++j) {
    const std::byte* theirs = gathered.data() + j * block;
    uint64_t their_fingerprint = 0;
    std::memcpy(&their_fingerprint, theirs + block - sizeof(uint64_t), sizeof(uint64_t));
    if (their_fingerprint != fingerprint) {
      return absl::InvalidArgumentError(absl::StrCat(
          "the members on rank ", layout.ranks[j], " (led by partition ", layout.leaders[j],
          ") made a different call than the members on rank ", rank_));
    }
    for (size_t t = 0; t < layout.positions[j].size(); ++t) {
      if (bytes > 0) {
        std::memcpy(inputs.data() + layout.positions[j][t] * bytes, theirs + t * bytes, bytes);
      }
    }
  }
  return inputs;
}

}  // namespace tessel::collectives
