// The sharding propagation holds for one value while it runs: per dimension the axes that
// split it, whether it may still grow, and its user priority; the tensor's replicated and
// unreduced axes; and where its sharding came from. Converts to and from ShardingAttr.
#ifndef TESSEL_PARTITIONER_PROPAGATION_TENSOR_STATE_H_
#define TESSEL_PARTITIONER_PROPAGATION_TENSOR_STATE_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "llvm/ADT/SmallVector.h"
#include "partitioner/ir/tessel/tessel_ops.h"
#include "partitioner/propagation/axis_list.h"
#include "support/keyed_table.h"

namespace tessel::propagation {

struct DimState {
  static constexpr int64_t kNoPriority = -1;

  AxisList axes;
  // The user priority of an annotated dimension (0 strongest), or kNoPriority; a dimension
  // whose priority is above the level being propagated is masked: it acts closed and
  // empty, and its axes stay reserved (see TensorState::isMasked). A plain integer, not a
  // std::optional, whose flag would pad every dimension of every value by 8 bytes.
  int64_t priority = kNoPriority;
  bool closed = false;

  bool hasPriority() const { return priority != kNoPriority; }
  std::optional<int64_t> optionalPriority() const {
    return hasPriority() ? std::optional<int64_t>(priority) : std::nullopt;
  }
};

// Where a value's sharding came from: the annotation it started at and the ops it travelled
// through, in order. `tessel explain` prints it.
struct Provenance {
  // "argument 0 of @main", "tessel.sharding_constraint at f.mlir:4:8", ...; empty while the
  // value has no sharding.
  std::string origin;
  llvm::SmallVector<mlir::Operation*, 4> path;
};

// What a value keeps while propagation runs, in constant space: the origin (shared by every
// value it reached) and the one step back, the value it took its axes from and the op between.
// The whole path is rebuilt from these only when asked for (PropagationReport::provenanceOf),
// so deep programs do not copy ever longer paths.
struct ProvenanceLink {
  std::shared_ptr<const std::string> origin;  // null while the value has no sharding
  mlir::Value from;                           // null at an annotation
  mlir::Operation* via = nullptr;
};

// Where one axis of a value came from, kept per axis because the axes of one value can come
// from different annotations (a dot's batch axis from one operand, its column axis from the
// other): the annotation that had it and the one step back. Kept only when asked for
// (PropagationOptions::recordAxisOrigins).
struct AxisLink {
  int64_t dim = 0;
  AxisRefAttr axis;
  std::shared_ptr<const std::string> origin;
  mlir::Value from;                  // null at the annotation
  mlir::Operation* via = nullptr;
};

// The whole story of one axis of a value, rebuilt from its links (PropagationReport).
struct AxisProvenance {
  int64_t dim = 0;
  AxisRefAttr axis;
  std::string origin;
  mlir::Value annotated;  // the value the annotation was on
  llvm::SmallVector<mlir::Operation*, 4> path;
};

struct TensorState {
  mlir::FlatSymbolRefAttr meshName;
  MeshAttr mesh;
  llvm::SmallVector<DimState, 4> dims;
  // Usually empty: no inline room, which would cost every value 32 bytes.
  llvm::SmallVector<AxisRefAttr, 0> replicated;
  llvm::SmallVector<AxisRefAttr, 0> unreduced;
  ProvenanceLink provenance;
  llvm::SmallVector<AxisLink, 0> axisLinks;

  bool isMasked(int64_t dim, int64_t level) const {
    return dims[dim].hasPriority() && dims[dim].priority > level;
  }
  // Whether any dimension is split.
  bool hasAxes() const;
  // Every axis the tensor uses: its dimensions' and its replicated and unreduced axes.
  AxisList allAxes() const;
};

// The state for a sharding annotation (ShardingAttr) on a value of `rank` dimensions.
TensorState stateFromAttr(ir::ShardingAttr sharding, MeshAttr mesh);

// An empty, open state over `mesh` for a value of `rank` dimensions: nothing known yet.
TensorState openState(mlir::FlatSymbolRefAttr meshName, MeshAttr mesh, int64_t rank);

// The ShardingAttr for `state`. With `closeOpenDims`, every dimension is written closed,
// the form the partitioner reads; otherwise open dimensions keep their `?`.
ir::ShardingAttr stateToAttr(const TensorState& state, mlir::MLIRContext* context,
                             bool closeOpenDims);

// stateToAttr for many states in a row (every value of a program once propagation ends).
// A program's values share a few shardings between them, and making one from its fields
// hashes them and looks them up in the context once per dimension and once for the whole:
// each sharding is made once here, then found by the identities of its fields.
class ShardingAttrWriter {
 public:
  explicit ShardingAttrWriter(mlir::MLIRContext* context) : context_(context) {}
  ir::ShardingAttr write(const TensorState& state, bool closeOpenDims);

 private:
  // A state's fields as words: pointers of uniqued attributes, flags, priorities, counts.
  using Key = llvm::SmallVector<uintptr_t, 16>;
  static void makeKey(const TensorState& state, bool closeOpenDims, Key& key);
  ir::ShardingAttr make(const TensorState& state, bool closeOpenDims);

  mlir::MLIRContext* context_;
  // Without axes or priority; open at 0, closed at 1. Made when first needed.
  ir::DimShardingAttr emptyDims_[2];
  // The shardings written so far, by their states' keys.
  KeyedTable<uintptr_t, ir::ShardingAttr> written_;
  Key scratch_;  // the key of the state being written, reused
};

}  // namespace tessel::propagation

#endif  // TESSEL_PARTITIONER_PROPAGATION_TENSOR_STATE_H_
