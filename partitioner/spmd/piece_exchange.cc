// Planning a piece exchange (see piece_exchange.h): pieces, holder assignment, rounds.
#include "partitioner/spmd/piece_exchange.h"

#include <algorithm>
#include <numeric>

namespace tessel::spmd {
namespace {

constexpr int64_t kMaxDevices = 512;
constexpr int64_t kMaxPiecesPerShard = 64;
constexpr int64_t kMaxRounds = 16;

// One piece some device must receive: the target, its slot, and the devices that hold it.
struct Demand {
  int64_t target;
  int64_t slot;
  const std::vector<int64_t>* holders;
};

// Assigns each demand a holder so that no holder serves more than `capacity` demands, by
// augmenting paths: a demand whose holders are all full takes the place of one of their
// demands that can move to another holder.
class HolderAssignment {
 public:
  HolderAssignment(const std::vector<Demand>& demands, int64_t devices, int64_t capacity)
      : demands_(demands), capacity_(capacity), served_(devices), sender_(demands.size(), -1) {}

  bool assignAll() {
    for (size_t e = 0; e < demands_.size(); ++e) {
      seen_.assign(served_.size(), false);
      if (!place(e)) return false;
    }
    return true;
  }
  int64_t senderOf(size_t demand) const { return sender_[demand]; }

 private:
  bool place(size_t e) {
    const std::vector<int64_t>& holders = *demands_[e].holders;
    // Starting at a demand-dependent holder spreads the first choices, so paths stay short.
    const size_t n = holders.size();
    const size_t first = static_cast<size_t>(demands_[e].target + demands_[e].slot) % n;
    for (size_t i = 0; i < n; ++i) {
      const int64_t s = holders[(first + i) % n];
      if (seen_[s]) continue;
      seen_[s] = true;
      if (static_cast<int64_t>(served_[s].size()) < capacity_) {
        give(e, s);
        return true;
      }
      for (size_t k = 0; k < served_[s].size(); ++k) {
        const size_t other = served_[s][k];
        if (place(other)) {  // `other` now has another holder
          served_[s][k] = e;
          sender_[e] = s;
          return true;
        }
      }
    }
    return false;
  }
  void give(size_t e, int64_t s) {
    served_[s].push_back(e);
    sender_[e] = s;
  }

  const std::vector<Demand>& demands_;
  int64_t capacity_;
  std::vector<std::vector<size_t>> served_;
  std::vector<int64_t> sender_;
  std::vector<bool> seen_;
};

// Colours the edges (sender[e], receiver[e]) of a bipartite multigraph whose degrees are at
// most `colors`, so that no two edges at a vertex share a colour: each edge takes a colour a
// free at its sender; if a is taken at its receiver, the path from the receiver alternating
// a and b (a colour free at the receiver) swaps its colours, which frees a there and cannot
// reach the sender.
std::vector<int64_t> colourEdges(const std::vector<int64_t>& sender,
                                 const std::vector<int64_t>& receiver, int64_t devices,
                                 int64_t colors) {
  const size_t edges = sender.size();
  std::vector<int64_t> colour(edges, -1);
  // atSender[s * colors + c]: the edge of colour c at sender s, or -1; atReceiver likewise.
  std::vector<int64_t> atSender(devices * colors, -1), atReceiver(devices * colors, -1);
  auto freeAt = [&](const std::vector<int64_t>& at, int64_t v) {
    for (int64_t c = 0; c < colors; ++c) {
      if (at[v * colors + c] < 0) return c;
    }
    return int64_t{-1};
  };
  for (size_t e = 0; e < edges; ++e) {
    const int64_t s = sender[e], t = receiver[e];
    const int64_t a = freeAt(atSender, s);
    if (atReceiver[t * colors + a] >= 0) {
      const int64_t b = freeAt(atReceiver, t);
      // The path t -a- s1 -b- t2 -a- ...: collect it, then swap a and b along it.
      std::vector<int64_t> path;
      int64_t vertex = t;
      bool onReceiver = true;
      int64_t want = a;
      while (true) {
        const int64_t next =
            onReceiver ? atReceiver[vertex * colors + want] : atSender[vertex * colors + want];
        if (next < 0) break;
        path.push_back(next);
        vertex = onReceiver ? sender[next] : receiver[next];
        onReceiver = !onReceiver;
        want = want == a ? b : a;
      }
      for (int64_t edge : path) {
        atSender[sender[edge] * colors + colour[edge]] = -1;
        atReceiver[receiver[edge] * colors + colour[edge]] = -1;
      }
      for (int64_t edge : path) {
        colour[edge] = colour[edge] == a ? b : a;
        atSender[sender[edge] * colors + colour[edge]] = edge;
        atReceiver[receiver[edge] * colors + colour[edge]] = edge;
      }
    }
    colour[e] = a;
    atSender[s * colors + a] = static_cast<int64_t>(e);
    atReceiver[t * colors + a] = static_cast<int64_t>(e);
  }
  return colour;
}

}  // namespace

int64_t PieceExchange::slotStart(int64_t slot, int64_t dim) const {
  for (int64_t d = static_cast<int64_t>(grid.size()) - 1; d > dim; --d) slot /= grid[d];
  return (slot % grid[dim]) * piece[dim];
}

int64_t PieceExchange::globalStart(const Layout& to, int64_t device, int64_t slot,
                                   int64_t dim) const {
  const int64_t linear = targetLinear.empty() ? device : targetLinear[device];
  return globalStartOf(to.shardIndex(dim, linear), slot, dim);
}

int64_t PieceExchange::globalStartOf(int64_t newShard, int64_t slot, int64_t dim) const {
  return newShard * grid[dim] * piece[dim] + slotStart(slot, dim);
}

std::optional<PieceExchange> planPieceExchange(const Layout& from, const Layout& to,
                                               llvm::ArrayRef<int64_t> globalShape) {
  if (!from.mesh || !to.mesh || !from.unreduced.empty() || !to.unreduced.empty()) {
    return std::nullopt;
  }
  const int64_t rank = from.rank();
  const int64_t devices = from.mesh.getTotalSize();
  if (devices > kMaxDevices || to.mesh.getTotalSize() != devices) return std::nullopt;
  PieceExchange plan;
  const bool sameMesh = from.meshName == to.meshName;
  if (!sameMesh) {
    for (int64_t t = 0; t < devices; ++t) {
      std::optional<int64_t> linear = to.mesh.findLinearIndex(from.mesh.getDeviceId(t));
      if (!linear) return std::nullopt;
      plan.targetLinear.push_back(*linear);
    }
  }
  llvm::SmallVector<int64_t> perOldShard(rank);  // pieces of an old shard along each dim
  llvm::SmallVector<int64_t> oldShardsAlong(rank);
  int64_t pieces = 1;
  for (int64_t d = 0; d < rank; ++d) {
    const int64_t nA = from.numShards(d), nB = to.numShards(d);
    oldShardsAlong[d] = nA;
    const int64_t finest = std::lcm(nA, nB);
    if (globalShape[d] % finest != 0) return std::nullopt;
    plan.piece.push_back(globalShape[d] / finest);
    plan.grid.push_back(finest / nB);
    perOldShard[d] = finest / nA;
    pieces *= plan.grid.back();
  }
  if (pieces > kMaxPiecesPerShard) return std::nullopt;

  // Old shards are numbered row-major over `from`'s shard counts (at most one per device),
  // so the holders of each are a vector. Each device's shard indices in `from` and in `to`
  // are worked out once: finding a device's place in the mesh costs more than the loops.
  std::vector<int64_t> oldShard(devices, 0);  // the old shard each device holds
  int64_t oldShards = 1;
  for (int64_t d = 0; d < rank; ++d) {
    oldShards *= oldShardsAlong[d];
    // Distinct axes tile at most the mesh; more shards would be a layout reusing an axis.
    if (oldShards > devices) return std::nullopt;
  }
  std::vector<std::vector<int64_t>> holders(oldShards);
  std::vector<int64_t> newShard(devices * rank);  // each device's new shard index, per dim
  for (int64_t s = 0; s < devices; ++s) {
    const int64_t linear = plan.targetLinear.empty() ? s : plan.targetLinear[s];
    for (int64_t d = 0; d < rank; ++d) {
      oldShard[s] = oldShard[s] * oldShardsAlong[d] + from.shardIndex(d, s);
      newShard[s * rank + d] = to.shardIndex(d, linear);
    }
    holders[oldShard[s]].push_back(s);
  }
  std::vector<Demand> demands;
  std::vector<std::vector<int64_t>> keep(devices);  // slots a device copies from itself
  std::vector<int64_t> missing(devices, 0);
  for (int64_t t = 0; t < devices; ++t) {
    for (int64_t slot = 0; slot < pieces; ++slot) {
      int64_t containing = 0;  // the old shard that holds the piece, numbered as above
      for (int64_t d = 0; d < rank; ++d) {
        const int64_t start = plan.globalStartOf(newShard[t * rank + d], slot, d);
        containing = containing * oldShardsAlong[d] + start / plan.piece[d] / perOldShard[d];
      }
      if (containing == oldShard[t]) {
        keep[t].push_back(slot);
      } else {
        if (holders[containing].empty()) return std::nullopt;
        demands.push_back({t, slot, &holders[containing]});
        ++missing[t];
      }
    }
  }
  const int64_t most = *std::max_element(missing.begin(), missing.end());
  // A local reshuffle within one mesh: the gather plan's slice does it. Across meshes the
  // plan's local rounds do.
  if (most == 0 && sameMesh) return std::nullopt;

  // The fewest rounds: every device receives `most` pieces at most, and a holder assignment
  // in which none sends more usually exists; where it does not, allow more.
  std::vector<int64_t> sender(demands.size()), receiver(demands.size());
  int64_t rounds = most;
  for (; !demands.empty(); ++rounds) {
    if (rounds > kMaxRounds) return std::nullopt;
    HolderAssignment assignment(demands, devices, rounds);
    if (!assignment.assignAll()) continue;
    for (size_t e = 0; e < demands.size(); ++e) {
      sender[e] = assignment.senderOf(e);
      receiver[e] = demands[e].target;
    }
    break;
  }
  std::vector<int64_t> colour = colourEdges(sender, receiver, devices, rounds);
  plan.remote.assign(rounds, std::vector<PieceExchange::Transfer>(devices));
  for (size_t e = 0; e < demands.size(); ++e) {
    plan.remote[colour[e]][receiver[e]] = {sender[e], demands[e].slot};
  }
  // Colours no edge took (only when more rounds than `most` were allowed) are dropped.
  plan.remote.erase(std::remove_if(plan.remote.begin(), plan.remote.end(),
                                   [](const std::vector<PieceExchange::Transfer>& round) {
                                     return std::all_of(round.begin(), round.end(),
                                                        [](const PieceExchange::Transfer& x) {
                                                          return x.source < 0;
                                                        });
                                   }),
                    plan.remote.end());
  size_t localRounds = 0;
  for (const auto& slots : keep) localRounds = std::max(localRounds, slots.size());
  plan.local.assign(localRounds, std::vector<int64_t>(devices, -1));
  for (int64_t t = 0; t < devices; ++t) {
    for (size_t r = 0; r < keep[t].size(); ++r) plan.local[r][t] = keep[t][r];
  }
  return plan;
}

}  // namespace tessel::spmd
