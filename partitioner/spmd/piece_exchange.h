// The plan of a reshard that moves no more bytes than it must: the tensor is cut into
// pieces fine enough that each lies inside one old shard and one new shard; each device
// receives, one piece per round, the pieces of its new shard it does not hold, and copies
// the ones it holds. Rounds are collective_permutes, so each device sends at most one
// piece a round too. The plan chooses which holder serves each piece (a capacity-bounded
// assignment solved with augmenting paths, so no device sends more than the most any
// device must receive) and splits the transfers into rounds by colouring the edges of the
// sender-receiver multigraph (Kőnig: a bipartite multigraph of largest degree D has a
// D-edge-colouring). The rounds are then exactly the bound of docs/partitioning.md, "How
// many bytes a reshard must move", counted in pieces.
//
//   std::optional<PieceExchange> plan = planPieceExchange(from, to, globalShape);
//   if (plan) ... plan->remote.size() collective_permutes of one piece each ...
#ifndef TESSEL_PARTITIONER_SPMD_PIECE_EXCHANGE_H_
#define TESSEL_PARTITIONER_SPMD_PIECE_EXCHANGE_H_

#include <cstdint>
#include <optional>
#include <vector>

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "partitioner/spmd/layout.h"

namespace tessel::spmd {

struct PieceExchange {
  // The shape of one piece, and how many pieces a new shard holds along each dimension.
  // Slot j of a new shard is piece j in row-major order over `grid`.
  llvm::SmallVector<int64_t> piece;
  llvm::SmallVector<int64_t> grid;
  struct Transfer {
    int64_t source = -1;  // the device that sends; -1: nothing arrives this round
    int64_t slot = -1;
  };
  // remote[r][t]: what device t receives in round r.
  std::vector<std::vector<Transfer>> remote;
  // local[r][t]: the slot device t copies from its own old shard in local round r, or -1.
  std::vector<std::vector<int64_t>> local;
  // Devices are numbered by `from`'s mesh; where `to` lives on another mesh over the same
  // devices, targetLinear[t] is device t's linear index there (empty: the same mesh).
  std::vector<int64_t> targetLinear;

  // Where slot `slot` starts in a new shard, along `dim`.
  int64_t slotStart(int64_t slot, int64_t dim) const;
  // The global index along `dim` of slot `slot` of device `device`'s new shard (`to`).
  int64_t globalStart(const Layout& to, int64_t device, int64_t slot, int64_t dim) const;
  // The same, for the new shard with index `newShard` along `dim` (for callers that have
  // the index at hand: finding it in the mesh costs more).
  int64_t globalStartOf(int64_t newShard, int64_t slot, int64_t dim) const;
};

// The plan for an even reshard from `from` to `to` (no unreduced axes; the same mesh, or
// two meshes over the same devices), or none where a dimension does not split into the
// pieces evenly, where nothing needs to move between devices of one mesh, or where the plan would exceed its limits (mesh size, pieces per shard,
// rounds) that keep planning cheap next to the rest of partitioning.
std::optional<PieceExchange> planPieceExchange(const Layout& from, const Layout& to,
                                               llvm::ArrayRef<int64_t> globalShape);

}  // namespace tessel::spmd

#endif  // TESSEL_PARTITIONER_SPMD_PIECE_EXCHANGE_H_
