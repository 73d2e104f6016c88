// The local backend's collectives: argument checks, then data movement between the threads
// that meet at a rendezvous (see local_communicator.h).
#include "collectives/local/local_communicator.h"

#include <algorithm>
#include <cstring>
#include <functional>
#include <memory>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "collectives/reduction.h"

namespace tessel::collectives {
namespace {

std::string Elements(ConstBuffer buffer) {
  return absl::StrCat(buffer.num_elements, " x ", DataTypeName(buffer.type));
}

bool Overlaps(ConstBuffer a, Buffer b) {
  if (a.byte_size() == 0 || b.byte_size() == 0) return false;
  auto a_begin = reinterpret_cast<uintptr_t>(a.data);
  auto b_begin = reinterpret_cast<uintptr_t>(b.data);
  return a_begin < b_begin + static_cast<uintptr_t>(b.byte_size()) &&
         b_begin < a_begin + static_cast<uintptr_t>(a.byte_size());
}

// memcpy without the undefined behaviour of null pointers for empty buffers.
void Copy(void* destination, const void* source, int64_t bytes) {
  if (bytes > 0) std::memcpy(destination, source, bytes);
}

const std::byte* Bytes(const void* pointer) { return static_cast<const std::byte*>(pointer); }
std::byte* Bytes(void* pointer) { return static_cast<std::byte*>(pointer); }

// Reduces `count` elements at byte `offset` of every member's input into `destination`, in
// group order so every member that reduces the same elements gets the same bits.
void ReduceAt(const local::Ticket& ticket, DataType type, ReductionKind kind, int64_t offset,
              int64_t count, void* destination) {
  if (count == 0) return;
  Copy(destination, Bytes(ticket.input(0)) + offset, count * DataTypeSize(type));
  for (int64_t j = 1; j < ticket.group_size(); ++j) {
    Accumulate(type, kind, destination, Bytes(ticket.input(j)) + offset, count);
  }
}

}  // namespace

LocalCommunicator::LocalCommunicator(int64_t num_partitions)
    : LocalCommunicator(num_partitions, Options()) {}

LocalCommunicator::LocalCommunicator(int64_t num_partitions, Options options)
    : num_partitions_(num_partitions), table_(num_partitions, options.timeout) {}

absl::Status LocalCommunicator::Run(int64_t self, absl::Span<const int64_t> group, Call call,
                                    const Body& body) {
  absl::Status group_status = ValidateGroup(self, group, num_partitions_);
  if (!group_status.ok()) {
    return absl::InvalidArgumentError(absl::StrCat(call.name, ": ", group_status.message()));
  }
  absl::StatusOr<local::Ticket> ticket = table_.Join(
      local::JoinRequest{self, group, call.name, std::move(call.description),
                         std::move(call.own_status), call.input.data, call.shared_bytes});
  if (!ticket.ok()) return ticket.status();
  // Other members read our input until everyone leaves, so a result that would overwrite it
  // waits in private scratch until then.
  std::unique_ptr<std::byte[]> staging;
  void* destination = call.output.data;
  if (call.stage_overlapping_output && Overlaps(call.input, call.output)) {
    staging.reset(new std::byte[call.output.byte_size()]);
    destination = staging.get();
  }
  body(*ticket, destination);
  table_.Leave(*std::move(ticket));
  if (staging) Copy(call.output.data, staging.get(), call.output.byte_size());
  return absl::OkStatus();
}

absl::Status LocalCommunicator::AllReduce(int64_t self, absl::Span<const int64_t> group,
                                          ReductionKind kind, ConstBuffer input, Buffer output) {
  const int64_t count = input.num_elements, size = DataTypeSize(input.type);
  absl::Status own_status = ValidateReduction(input.type, kind);
  if (own_status.ok()) own_status = ValidateOutput(input, output, count);
  Call call{"all_reduce",
            absl::StrCat("all_reduce(", ReductionKindName(kind), ") of ", Elements(input)),
            std::move(own_status), input, output, count * size,
            // Members write their outputs only after every input has been read.
            /*stage_overlapping_output=*/false};
  return Run(self, group, std::move(call), [&](const local::Ticket& ticket, void* destination) {
    // Member i reduces slice i (near-equal slices, so uneven counts work) into the shared
    // result; once all slices are done, every member copies the whole result out.
    const int64_t n = ticket.group_size(), i = ticket.position;
    const int64_t begin = count * i / n, end = count * (i + 1) / n;
    ReduceAt(ticket, input.type, kind, begin * size, end - begin, ticket.shared() + begin * size);
    table_.Sync(ticket);
    Copy(destination, ticket.shared(), count * size);
  });
}

absl::Status LocalCommunicator::AllGather(int64_t self, absl::Span<const int64_t> group,
                                          ConstBuffer input, Buffer output) {
  const int64_t bytes = input.byte_size();
  Call call{"all_gather", absl::StrCat("all_gather of ", Elements(input)),
            ValidateOutput(input, output, input.num_elements * group.size()), input, output};
  return Run(self, group, std::move(call), [&](const local::Ticket& ticket, void* destination) {
    for (int64_t j = 0; j < ticket.group_size(); ++j) {
      Copy(Bytes(destination) + j * bytes, ticket.input(j), bytes);
    }
  });
}

absl::Status LocalCommunicator::ReduceScatter(int64_t self, absl::Span<const int64_t> group,
                                              ReductionKind kind, ConstBuffer input,
                                              Buffer output) {
  const int64_t n = static_cast<int64_t>(group.size());
  absl::Status own_status = ValidateReduction(input.type, kind);
  if (own_status.ok()) {
    own_status = ValidateDivisible("input", input.num_elements, std::max<int64_t>(n, 1));
  }
  if (own_status.ok() && n > 0) own_status = ValidateOutput(input, output, input.num_elements / n);
  Call call{"reduce_scatter",
            absl::StrCat("reduce_scatter(", ReductionKindName(kind), ") of ", Elements(input)),
            std::move(own_status), input, output};
  return Run(self, group, std::move(call), [&](const local::Ticket& ticket, void* destination) {
    const int64_t block = output.num_elements;
    ReduceAt(ticket, input.type, kind, ticket.position * block * DataTypeSize(input.type), block,
             destination);
  });
}

absl::Status LocalCommunicator::AllToAll(int64_t self, absl::Span<const int64_t> group,
                                         ConstBuffer input, Buffer output) {
  const int64_t n = static_cast<int64_t>(group.size());
  absl::Status own_status = ValidateDivisible("input", input.num_elements, std::max<int64_t>(n, 1));
  if (own_status.ok()) own_status = ValidateOutput(input, output, input.num_elements);
  Call call{"all_to_all", absl::StrCat("all_to_all of ", Elements(input)), std::move(own_status),
            input, output};
  return Run(self, group, std::move(call), [&](const local::Ticket& ticket, void* destination) {
    const int64_t block_bytes = input.byte_size() / ticket.group_size();
    for (int64_t j = 0; j < ticket.group_size(); ++j) {
      Copy(Bytes(destination) + j * block_bytes,
           Bytes(ticket.input(j)) + ticket.position * block_bytes, block_bytes);
    }
  });
}

absl::Status LocalCommunicator::CollectivePermute(int64_t self, absl::Span<const int64_t> group,
                                                  absl::Span<const SourceTarget> pairs,
                                                  ConstBuffer input, Buffer output) {
  absl::Status own_status = ValidatePairs(group, pairs);
  if (own_status.ok()) own_status = ValidateOutput(input, output, input.num_elements);
  std::vector<std::string> edges;
  int64_t source = -1;
  for (const SourceTarget& pair : pairs) {
    edges.push_back(absl::StrCat(pair.source, "->", pair.target));
    if (pair.target == self) source = pair.source;
  }
  Call call{"collective_permute",
            absl::StrCat("collective_permute of ", Elements(input), " with pairs [",
                         absl::StrJoin(edges, ", "), "]"),
            std::move(own_status), input, output};
  return Run(self, group, std::move(call), [&](const local::Ticket& ticket, void* destination) {
    if (source < 0) {
      if (output.byte_size() > 0) std::memset(destination, 0, output.byte_size());
      return;
    }
    const auto& members = ticket.rendezvous->group;
    int64_t position = std::find(members.begin(), members.end(), source) - members.begin();
    Copy(destination, ticket.input(position), output.byte_size());
  });
}

absl::Status LocalCommunicator::Broadcast(int64_t self, absl::Span<const int64_t> group,
                                          int64_t root, Buffer buffer) {
  absl::Status own_status;
  if (std::find(group.begin(), group.end(), root) == group.end()) {
    own_status = absl::InvalidArgumentError(
        absl::StrCat("root ", root, " is not in the group ", GroupString(group)));
  }
  Call call{"broadcast", absl::StrCat("broadcast from partition ", root, " of ", Elements(buffer)),
            std::move(own_status), buffer, buffer, /*shared_bytes=*/0,
            // Only the root's buffer is read and the root writes nothing.
            /*stage_overlapping_output=*/false};
  return Run(self, group, std::move(call), [&](const local::Ticket& ticket, void* destination) {
    if (self == root) return;
    const auto& members = ticket.rendezvous->group;
    int64_t position = std::find(members.begin(), members.end(), root) - members.begin();
    Copy(destination, ticket.input(position), buffer.byte_size());
  });
}

absl::Status LocalCommunicator::Barrier(int64_t self, absl::Span<const int64_t> group) {
  Call call{"barrier", "barrier", absl::OkStatus(), ConstBuffer{DataType::kU8, nullptr, 0},
            Buffer{DataType::kU8, nullptr, 0}};
  return Run(self, group, std::move(call), [](const local::Ticket&, void*) {});
}

void LocalCommunicator::Abort(const absl::Status& reason) { table_.Abort(reason); }

}  // namespace tessel::collectives
