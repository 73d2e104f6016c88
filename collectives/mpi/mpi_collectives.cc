// The MPI backend's collectives: argument checks, then one nonblocking MPI call (or a set of
// point-to-point messages for collective_permute) polled to completion by Finish; large
// floating-point reductions take two calls and a local fold (FoldInGroupOrder). Group
// position i is rank i of the group's communicator, so MPI's rank order is group order.
#include <climits>
#include <cstring>
#include <memory>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "collectives/mpi/mpi_communicator.h"
#include "collectives/reduction.h"
#include "support/status_macros.h"

namespace tessel::collectives {
namespace {

// Tags of the point-to-point messages of collective_permute and ExchangeBlocks on a group's
// communicator (MPI keeps collectives' own traffic apart from point-to-point, so any tags
// work; the members of a group make their calls in the same order).
constexpr int kPermuteTag = 7;
constexpr int kAllGatherTag = 8;

bool Overlaps(ConstBuffer a, Buffer b) {
  if (a.byte_size() == 0 || b.byte_size() == 0) return false;
  auto a_begin = reinterpret_cast<uintptr_t>(a.data);
  auto b_begin = reinterpret_cast<uintptr_t>(b.data);
  return a_begin < b_begin + static_cast<uintptr_t>(b.byte_size()) &&
         b_begin < a_begin + static_cast<uintptr_t>(a.byte_size());
}

// MPI counts are ints.
absl::Status FitsMpiCount(int64_t count) {
  if (count <= INT_MAX) return absl::OkStatus();
  return absl::InvalidArgumentError(
      absl::StrCat("count ", count, " exceeds MPI's limit of ", INT_MAX, " elements per call"));
}

// The send buffer of a call from `input` to `output`: `input` itself, or, when the two
// overlap, a private copy of it kept in `scratch` (MPI forbids aliasing except through
// MPI_IN_PLACE, which only some calls take).
const void* SendBufferFor(ConstBuffer input, Buffer output,
                          std::unique_ptr<std::vector<unsigned char>>& scratch) {
  if (!Overlaps(input, output)) return input.data;
  scratch = std::make_unique<std::vector<unsigned char>>(input.byte_size());
  if (!scratch->empty()) std::memcpy(scratch->data(), input.data, scratch->size());
  return scratch->data();
}

int64_t PositionOf(absl::Span<const int64_t> group, int64_t id) {
  for (size_t i = 0; i < group.size(); ++i) {
    if (group[i] == id) return static_cast<int64_t>(i);
  }
  return -1;
}

// Whether a reduction of `input` over `group_size` members takes FoldInGroupOrder.
// (Its block offsets are MPI ints, so the whole input must count as one.)
bool UsesFold(ConstBuffer input, size_t group_size, int64_t fold_min_bytes) {
  return group_size > 1 && mpi::MpiTypeTable::IsOrderSensitive(input.type) &&
         input.byte_size() >= fold_min_bytes && input.num_elements <= INT_MAX;
}

int64_t HashPairs(absl::Span<const SourceTarget> pairs) {
  uint64_t hash = 14695981039346656037ull;  // FNV-1a over (source, target) in order
  for (const SourceTarget& pair : pairs) {
    for (int64_t id : {pair.source, pair.target}) {
      hash ^= static_cast<uint64_t>(id);
      hash *= 1099511628211ull;
    }
  }
  return static_cast<int64_t>(hash);
}

}  // namespace

absl::Status MpiCommunicator::Finish(const Call& call, absl::string_view function, int code,
                                     std::vector<MPI_Request>& requests,
                                     std::unique_ptr<std::vector<unsigned char>>& scratch) {
  if (code != MPI_SUCCESS) {
    Orphan(std::move(scratch));
    return Fail(MpiError(call, function, code));
  }
  absl::Status done = Wait(call, requests, "waiting for the data");
  if (!done.ok()) {
    Orphan(std::move(scratch));
    return Fail(done);
  }
  return absl::OkStatus();
}

absl::Status MpiCommunicator::ExchangeBlocks(const Call& call, MPI_Comm comm, int64_t position,
                                             DataType type, const void* send, void* output,
                                             absl::Span<const int> counts,
                                             absl::Span<const int> offsets,
                                             std::unique_ptr<std::vector<unsigned char>>& scratch) {
  // Point to point: MPI moves these messages about as fast as its blocking all-gather, where
  // its nonblocking MPI_Iallgather, which advances only while polled, took up to 4x as long
  // from 256 KiB to 1 MiB (docs/benchmarks.md). The others are served in ring order from
  // this member on.
  const int64_t size = static_cast<int64_t>(counts.size());
  const MPI_Datatype mpi_type = types_.MoveType(type);
  const int64_t element = DataTypeSize(type);
  auto* blocks = static_cast<unsigned char*>(output);
  std::vector<MPI_Request> requests;
  absl::string_view function = "MPI_Irecv";
  int code = MPI_SUCCESS;
  for (int64_t step = 1; step < size && code == MPI_SUCCESS; ++step) {
    const int64_t from = (position + size - step) % size;
    requests.emplace_back();
    code = MPI_Irecv(blocks + offsets[from] * element, counts[from], mpi_type,
                     static_cast<int>(from), kAllGatherTag, comm, &requests.back());
  }
  for (int64_t step = 1; step < size && code == MPI_SUCCESS; ++step) {
    function = "MPI_Isend";
    requests.emplace_back();
    code = MPI_Isend(send, counts[position], mpi_type, static_cast<int>((position + step) % size),
                     kAllGatherTag, comm, &requests.back());
  }
  return Finish(call, function, code, requests, scratch);
}

absl::Status MpiCommunicator::FoldInGroupOrder(const Call& call, MPI_Comm comm,
                                               int64_t position, ReductionKind kind,
                                               ConstBuffer input, Buffer output, bool gather) {
  const int64_t size = static_cast<int64_t>(call.group.size());
  const int64_t element = DataTypeSize(input.type);
  // Member i folds block i: all_reduce splits its buffer as evenly as it can (the first
  // count % size blocks one element longer); reduce_scatter's blocks are its output.
  const int64_t count = gather ? input.num_elements : output.num_elements;
  std::vector<int> block_counts(size), block_offsets(size);
  for (int64_t i = 0, offset = 0; i < size; ++i) {
    const int64_t block = gather ? count / size + (i < count % size ? 1 : 0) : count;
    block_counts[i] = static_cast<int>(block);
    block_offsets[i] = static_cast<int>(offset);
    offset += block;
  }
  const int64_t mine = block_counts[position];
  // The group's pieces of this member's block, in group order.
  std::vector<int> piece_counts(size, static_cast<int>(mine)), piece_offsets(size);
  for (int64_t j = 0; j < size; ++j) piece_offsets[j] = static_cast<int>(j * mine);
  std::unique_ptr<std::vector<unsigned char>> pieces = TakeFoldBuffer(call.self);
  // Grown only, so a buffer reused at the same size is neither zeroed nor faulted in again.
  if (pieces->size() < static_cast<size_t>(size * mine * element)) {
    pieces->resize(size * mine * element);
  }
  std::unique_ptr<std::vector<unsigned char>> send_copy;
  // In place the input is only read until the all-to-all completes, before any write.
  const void* send =
      input.data == output.data ? input.data : SendBufferFor(input, output, send_copy);
  const MPI_Datatype type = types_.MoveType(input.type);
  std::vector<MPI_Request> requests(1);
  int code = MPI_Ialltoallv(send, block_counts.data(), block_offsets.data(), type,
                            pieces->data(), piece_counts.data(), piece_offsets.data(), type, comm,
                            &requests[0]);
  absl::Status moved = code == MPI_SUCCESS ? Wait(call, requests, "waiting for the data")
                                            : MpiError(call, "MPI_Ialltoallv", code);
  if (!moved.ok()) {
    // MPI may still read the one and write the other.
    Orphan(std::move(send_copy));
    Orphan(std::move(pieces));
    return Fail(moved);
  }

  // The left fold of the interface: ((piece 0 op piece 1) op piece 2) ...
  auto* folded = static_cast<unsigned char*>(output.data) +
                 (gather ? block_offsets[position] * element : 0);
  if (mine > 0) {
    std::memcpy(folded, pieces->data(), mine * element);
    for (int64_t j = 1; j < size; ++j) {
      Accumulate(input.type, kind, folded, pieces->data() + j * mine * element, mine);
    }
  }
  ReturnFoldBuffer(call.self, std::move(pieces));
  if (!gather) return absl::OkStatus();
  std::unique_ptr<std::vector<unsigned char>> none;
  return ExchangeBlocks(call, comm, position, input.type, folded, output.data, block_counts,
                        block_offsets, none);
}

absl::Status MpiCommunicator::AllReduce(int64_t self, absl::Span<const int64_t> group,
                                        ReductionKind kind, ConstBuffer input, Buffer output) {
  Call call = MakeCall("all_reduce", self, group);
  absl::Status own = ValidateReduction(input.type, kind);
  if (own.ok()) own = ValidateOutput(input, output, input.num_elements);
  if (own.ok()) own = FitsMpiCount(input.num_elements);
  Signature signature{kAllReduceCode, static_cast<int64_t>(input.type), input.num_elements,
                      output.num_elements, static_cast<int64_t>(kind)};
  TESSEL_ASSIGN_OR_RETURN(MPI_Comm comm, Begin(call, self, signature, own));
  if (input.num_elements == 0) return absl::OkStatus();
  if (UsesFold(input, group.size(), options_.fold_min_bytes)) {
    return FoldInGroupOrder(call, comm, PositionOf(group, self), kind, input, output,
                            /*gather=*/true);
  }
  std::unique_ptr<std::vector<unsigned char>> scratch;
  const void* send =
      input.data == output.data ? MPI_IN_PLACE : SendBufferFor(input, output, scratch);
  const mpi::MpiTypeTable::Reduction reduction = types_.ReductionFor(input.type, kind);
  std::vector<MPI_Request> requests(1);
  int code = MPI_Iallreduce(send, output.data, static_cast<int>(input.num_elements),
                            reduction.type, reduction.op, comm, &requests[0]);
  return Finish(call, "MPI_Iallreduce", code, requests, scratch);
}

absl::Status MpiCommunicator::AllGather(int64_t self, absl::Span<const int64_t> group,
                                        ConstBuffer input, Buffer output) {
  Call call = MakeCall("all_gather", self, group);
  const int64_t size = static_cast<int64_t>(group.size());
  absl::Status own = ValidateOutput(input, output, size * input.num_elements);
  if (own.ok()) own = FitsMpiCount(input.num_elements);
  Signature signature{kAllGatherCode, static_cast<int64_t>(input.type), input.num_elements,
                      output.num_elements};
  TESSEL_ASSIGN_OR_RETURN(MPI_Comm comm, Begin(call, self, signature, own));
  if (input.num_elements == 0) return absl::OkStatus();
  std::unique_ptr<std::vector<unsigned char>> scratch;
  const void* send = SendBufferFor(input, output, scratch);
  const int count = static_cast<int>(input.num_elements);
  std::vector<int> counts(size, count), offsets(size);
  for (int64_t j = 0; j < size; ++j) offsets[j] = static_cast<int>(j * count);
  const int64_t position = PositionOf(group, self);
  TESSEL_RETURN_IF_ERROR(
      ExchangeBlocks(call, comm, position, input.type, send, output.data, counts, offsets, scratch));
  // This member's own block last: its input may be any part of the output.
  std::memmove(static_cast<unsigned char*>(output.data) + position * input.byte_size(), send,
               input.byte_size());
  return absl::OkStatus();
}

absl::Status MpiCommunicator::ReduceScatter(int64_t self, absl::Span<const int64_t> group,
                                            ReductionKind kind, ConstBuffer input,
                                            Buffer output) {
  Call call = MakeCall("reduce_scatter", self, group);
  const int64_t size = static_cast<int64_t>(group.size());
  absl::Status own = ValidateReduction(input.type, kind);
  if (own.ok()) own = ValidateDivisible("input", input.num_elements, size);
  if (own.ok()) own = ValidateOutput(input, output, input.num_elements / size);
  if (own.ok()) own = FitsMpiCount(output.num_elements);
  Signature signature{kReduceScatterCode, static_cast<int64_t>(input.type), input.num_elements,
                      output.num_elements, static_cast<int64_t>(kind)};
  TESSEL_ASSIGN_OR_RETURN(MPI_Comm comm, Begin(call, self, signature, own));
  if (output.num_elements == 0) return absl::OkStatus();
  if (UsesFold(input, group.size(), options_.fold_min_bytes)) {
    return FoldInGroupOrder(call, comm, PositionOf(group, self), kind, input, output,
                            /*gather=*/false);
  }
  std::unique_ptr<std::vector<unsigned char>> scratch;
  const void* send = SendBufferFor(input, output, scratch);
  const mpi::MpiTypeTable::Reduction reduction = types_.ReductionFor(input.type, kind);
  std::vector<MPI_Request> requests(1);
  int code = MPI_Ireduce_scatter_block(send, output.data, static_cast<int>(output.num_elements),
                                       reduction.type, reduction.op, comm, &requests[0]);
  return Finish(call, "MPI_Ireduce_scatter_block", code, requests, scratch);
}

absl::Status MpiCommunicator::AllToAll(int64_t self, absl::Span<const int64_t> group,
                                       ConstBuffer input, Buffer output) {
  Call call = MakeCall("all_to_all", self, group);
  const int64_t size = static_cast<int64_t>(group.size());
  absl::Status own = ValidateOutput(input, output, input.num_elements);
  if (own.ok()) own = ValidateDivisible("input", input.num_elements, size);
  if (own.ok()) own = FitsMpiCount(input.num_elements / size);
  Signature signature{kAllToAllCode, static_cast<int64_t>(input.type), input.num_elements,
                      output.num_elements};
  TESSEL_ASSIGN_OR_RETURN(MPI_Comm comm, Begin(call, self, signature, own));
  if (input.num_elements == 0) return absl::OkStatus();
  std::unique_ptr<std::vector<unsigned char>> scratch;
  const void* send = SendBufferFor(input, output, scratch);
  const MPI_Datatype type = types_.MoveType(input.type);
  const int block = static_cast<int>(input.num_elements / size);
  std::vector<MPI_Request> requests(1);
  int code = MPI_Ialltoall(send, block, type, output.data, block, type, comm, &requests[0]);
  return Finish(call, "MPI_Ialltoall", code, requests, scratch);
}

absl::Status MpiCommunicator::CollectivePermute(int64_t self, absl::Span<const int64_t> group,
                                                absl::Span<const SourceTarget> pairs,
                                                ConstBuffer input, Buffer output) {
  Call call = MakeCall("collective_permute", self, group);
  absl::Status own = ValidateOutput(input, output, input.num_elements);
  if (own.ok()) own = ValidatePairs(group, pairs);
  if (own.ok()) own = FitsMpiCount(input.num_elements);
  Signature signature{kCollectivePermuteCode, static_cast<int64_t>(input.type),
                      input.num_elements,     output.num_elements,
                      /*kind=*/0,             /*root=*/0,
                      HashPairs(pairs)};
  TESSEL_ASSIGN_OR_RETURN(MPI_Comm comm, Begin(call, self, signature, own));
  const MPI_Datatype type = types_.MoveType(input.type);
  const int count = static_cast<int>(input.num_elements);
  // Received data waits in scratch when the output overlaps the input, because this member
  // may still be sending its input from there.
  std::unique_ptr<std::vector<unsigned char>> scratch;
  void* receive_into = output.data;
  if (Overlaps(input, output)) {
    scratch = std::make_unique<std::vector<unsigned char>>(output.byte_size());
    receive_into = scratch->data();
  }
  bool is_target = false;
  std::vector<MPI_Request> requests;
  absl::string_view function = "MPI_Irecv";
  int code = MPI_SUCCESS;
  for (const SourceTarget& pair : pairs) {
    if (pair.target == self) {
      is_target = true;
      requests.emplace_back();
      code = MPI_Irecv(receive_into, count, type, static_cast<int>(PositionOf(group, pair.source)),
                       kPermuteTag, comm, &requests.back());
    }
  }
  for (const SourceTarget& pair : pairs) {
    if (pair.source == self && code == MPI_SUCCESS) {
      function = "MPI_Isend";
      requests.emplace_back();
      code = MPI_Isend(input.data, count, type, static_cast<int>(PositionOf(group, pair.target)),
                       kPermuteTag, comm, &requests.back());
    }
  }
  TESSEL_RETURN_IF_ERROR(Finish(call, function, code, requests, scratch));
  // Only now, with this member's send complete, may its output (possibly its input) change.
  if (!is_target) {
    if (output.byte_size() > 0) std::memset(output.data, 0, output.byte_size());
  } else if (scratch != nullptr && !scratch->empty()) {
    std::memcpy(output.data, scratch->data(), scratch->size());
  }
  return absl::OkStatus();
}

absl::Status MpiCommunicator::Broadcast(int64_t self, absl::Span<const int64_t> group,
                                        int64_t root, Buffer buffer) {
  Call call = MakeCall("broadcast", self, group);
  absl::Status own = absl::OkStatus();
  const int64_t root_position = PositionOf(group, root);
  if (root_position < 0) {
    own = absl::InvalidArgumentError(
        absl::StrCat("root ", root, " is not in the group ", GroupString(group)));
  }
  if (own.ok()) own = FitsMpiCount(buffer.num_elements);
  Signature signature{kBroadcastCode, static_cast<int64_t>(buffer.type), buffer.num_elements,
                      buffer.num_elements, /*kind=*/0, root};
  TESSEL_ASSIGN_OR_RETURN(MPI_Comm comm, Begin(call, self, signature, own));
  if (buffer.num_elements == 0) return absl::OkStatus();
  std::vector<MPI_Request> requests(1);
  int code = MPI_Ibcast(buffer.data, static_cast<int>(buffer.num_elements),
                        types_.MoveType(buffer.type), static_cast<int>(root_position), comm,
                        &requests[0]);
  std::unique_ptr<std::vector<unsigned char>> no_scratch;
  return Finish(call, "MPI_Ibcast", code, requests, no_scratch);
}

absl::Status MpiCommunicator::Barrier(int64_t self, absl::Span<const int64_t> group) {
  Call call = MakeCall("barrier", self, group);
  Signature signature{kBarrierCode};
  TESSEL_ASSIGN_OR_RETURN(MPI_Comm comm, Begin(call, self, signature, absl::OkStatus()));
  // With verify_calls the signature exchange already synchronized the group; the barrier
  // itself is still made so that it also holds without it.
  std::vector<MPI_Request> requests(1);
  int code = MPI_Ibarrier(comm, &requests[0]);
  std::unique_ptr<std::vector<unsigned char>> no_scratch;
  return Finish(call, "MPI_Ibarrier", code, requests, no_scratch);
}

absl::Status MpiCommunicator::Reject(int64_t self, absl::Span<const int64_t> group,
                                     absl::string_view collective, const absl::Status& reason) {
  Call call = MakeCall(collective, self, group);
  absl::Status own = reason.ok() ? absl::InternalError("a call was rejected without a reason")
                                 : reason;
  // The collective code does not matter: the other members look at own_code first.
  Signature signature{kBarrierCode};
  // Begin fails on a call whose own status failed, once the others know.
  absl::StatusOr<MPI_Comm> joined = Begin(call, self, signature, own);
  return joined.ok() ? own : joined.status();
}

}  // namespace tessel::collectives
