// How the MPI backend hands each data type and reduction to MPI. Data moves as MPI's fixed
// width integer types (pred as one byte, f16 and bf16 as two-byte contiguous types). Integer
// sums and products run on the unsigned type of the same width, so they wrap; pred reduces
// with bitwise or/and on bytes. Complex numbers move as MPI_C_FLOAT_COMPLEX and
// MPI_C_DOUBLE_COMPLEX. Floating-point and complex reductions use user-defined non-commutative
// operations built on collectives/reduction.h: MPI then combines the members in rank order
// (which is group order), NaNs propagate as the interface says, and f16/bf16 work at all.
//
//   MpiTypeTable table;  // after MPI_Init
//   MpiTypeTable::Reduction r = table.ReductionFor(DataType::kBF16, ReductionKind::kSum);
//   MPI_Iallreduce(in, out, count, r.type, r.op, comm, &request);
#ifndef TESSEL_COLLECTIVES_MPI_MPI_TYPES_H_
#define TESSEL_COLLECTIVES_MPI_MPI_TYPES_H_

#include <mpi.h>

#include "collectives/data_type.h"
#include "collectives/reduction.h"

namespace tessel::collectives::mpi {

class MpiTypeTable {
 public:
  // REQUIRES: MPI is initialized and not finalized.
  MpiTypeTable();
  // Frees the derived types and operations, unless MPI is already finalized.
  ~MpiTypeTable();
  MpiTypeTable(const MpiTypeTable&) = delete;
  MpiTypeTable& operator=(const MpiTypeTable&) = delete;

  // The MPI type one element of `type` moves as.
  MPI_Datatype MoveType(DataType type) const;

  struct Reduction {
    MPI_Datatype type;
    MPI_Op op;
  };
  // The type and operation that reduce `type` elements with `kind`.
  Reduction ReductionFor(DataType type, ReductionKind kind) const;

  // Whether ReductionFor(type, ...) is one of the user-defined operations above, whose
  // result depends on the order the members are combined in (floating-point and complex).
  static bool IsOrderSensitive(DataType type);

 private:
  MPI_Datatype f16_ = MPI_DATATYPE_NULL;
  MPI_Datatype bf16_ = MPI_DATATYPE_NULL;
  // Indexed by [float type: f16, bf16, f32, f64, c64, c128][kind].
  MPI_Op float_ops_[6][4];
};

}  // namespace tessel::collectives::mpi

#endif  // TESSEL_COLLECTIVES_MPI_MPI_TYPES_H_
