// The data type and reduction mapping of the MPI backend (see mpi_types.h).
#include "collectives/mpi/mpi_types.h"

#include <algorithm>
#include <cstring>

namespace tessel::collectives::mpi {
namespace {

int FloatIndex(DataType type) {
  switch (type) {
    case DataType::kF16: return 0;
    case DataType::kBF16: return 1;
    case DataType::kF32: return 2;
    case DataType::kF64: return 3;
    case DataType::kC64: return 4;
    default: return 5;
  }
}

int KindIndex(ReductionKind kind) { return static_cast<int>(kind); }

// MPI calls user functions as inout[i] = in[i] (op) inout[i], where `in` holds the lower
// ranks' partial result; Accumulate computes acc = acc (op) src, so the old inout goes to
// scratch and `in` is copied into place first. This keeps the left operand the lower rank,
// which matters for max/min of signed zeros and NaN payloads.
template <DataType kType, ReductionKind kKind>
void CombineInRankOrder(void* in, void* inout, int* len, MPI_Datatype* /*type*/) {
  constexpr int64_t kScratchBytes = 4096;
  alignas(16) unsigned char scratch[kScratchBytes];
  const int64_t size = DataTypeSize(kType);
  const int64_t per_chunk = kScratchBytes / size;
  auto* acc = static_cast<unsigned char*>(inout);
  const auto* src = static_cast<const unsigned char*>(in);
  for (int64_t done = 0; done < *len; done += per_chunk) {
    const int64_t n = std::min<int64_t>(per_chunk, *len - done);
    std::memcpy(scratch, acc + done * size, n * size);
    std::memcpy(acc + done * size, src + done * size, n * size);
    Accumulate(kType, kKind, acc + done * size, scratch, n);
  }
}

template <DataType kType>
void CreateOps(MPI_Op (&ops)[4]) {
  // commute = 0: MPI must then combine in rank order.
  MPI_Op_create(&CombineInRankOrder<kType, ReductionKind::kSum>, 0, &ops[0]);
  MPI_Op_create(&CombineInRankOrder<kType, ReductionKind::kProd>, 0, &ops[1]);
  MPI_Op_create(&CombineInRankOrder<kType, ReductionKind::kMax>, 0, &ops[2]);
  MPI_Op_create(&CombineInRankOrder<kType, ReductionKind::kMin>, 0, &ops[3]);
}

bool MpiFinalized() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  return finalized != 0;
}

}  // namespace

MpiTypeTable::MpiTypeTable() {
  MPI_Type_contiguous(2, MPI_BYTE, &f16_);
  MPI_Type_commit(&f16_);
  MPI_Type_contiguous(2, MPI_BYTE, &bf16_);
  MPI_Type_commit(&bf16_);
  CreateOps<DataType::kF16>(float_ops_[0]);
  CreateOps<DataType::kBF16>(float_ops_[1]);
  CreateOps<DataType::kF32>(float_ops_[2]);
  CreateOps<DataType::kF64>(float_ops_[3]);
  // Complex max and min are refused before any call (ValidateReduction); their slots exist
  // only so that the table is rectangular.
  CreateOps<DataType::kC64>(float_ops_[4]);
  CreateOps<DataType::kC128>(float_ops_[5]);
}

MpiTypeTable::~MpiTypeTable() {
  if (MpiFinalized()) return;
  for (auto& row : float_ops_) {
    for (MPI_Op& op : row) MPI_Op_free(&op);
  }
  MPI_Type_free(&f16_);
  MPI_Type_free(&bf16_);
}

MPI_Datatype MpiTypeTable::MoveType(DataType type) const {
  switch (type) {
    case DataType::kPred: return MPI_UINT8_T;
    case DataType::kS8: return MPI_INT8_T;
    case DataType::kS16: return MPI_INT16_T;
    case DataType::kS32: return MPI_INT32_T;
    case DataType::kS64: return MPI_INT64_T;
    case DataType::kU8: return MPI_UINT8_T;
    case DataType::kU16: return MPI_UINT16_T;
    case DataType::kU32: return MPI_UINT32_T;
    case DataType::kU64: return MPI_UINT64_T;
    case DataType::kF16: return f16_;
    case DataType::kBF16: return bf16_;
    case DataType::kF32: return MPI_FLOAT;
    case DataType::kF64: return MPI_DOUBLE;
    case DataType::kC64: return MPI_C_FLOAT_COMPLEX;
    case DataType::kC128: return MPI_C_DOUBLE_COMPLEX;
  }
  return MPI_BYTE;
}

bool MpiTypeTable::IsOrderSensitive(DataType type) {
  return type == DataType::kF16 || type == DataType::kBF16 || type == DataType::kF32 ||
         type == DataType::kF64 || IsComplexDataType(type);
}

MpiTypeTable::Reduction MpiTypeTable::ReductionFor(DataType type, ReductionKind kind) const {
  const bool sum_or_prod = kind == ReductionKind::kSum || kind == ReductionKind::kProd;
  const MPI_Op arithmetic = kind == ReductionKind::kSum    ? MPI_SUM
                            : kind == ReductionKind::kProd ? MPI_PROD
                            : kind == ReductionKind::kMax  ? MPI_MAX
                                                           : MPI_MIN;
  switch (type) {
    case DataType::kPred: {
      // Values are 0 or 1, so bitwise or/and are logical or/and.
      const bool either = kind == ReductionKind::kSum || kind == ReductionKind::kMax;
      return {MPI_UINT8_T, either ? MPI_BOR : MPI_BAND};
    }
    // Two's complement sums and products have the bits of the unsigned ones, which wrap
    // by definition; max and min need the signed order.
    case DataType::kS8: return {sum_or_prod ? MPI_UINT8_T : MPI_INT8_T, arithmetic};
    case DataType::kS16: return {sum_or_prod ? MPI_UINT16_T : MPI_INT16_T, arithmetic};
    case DataType::kS32: return {sum_or_prod ? MPI_UINT32_T : MPI_INT32_T, arithmetic};
    case DataType::kS64: return {sum_or_prod ? MPI_UINT64_T : MPI_INT64_T, arithmetic};
    case DataType::kU8:
    case DataType::kU16:
    case DataType::kU32:
    case DataType::kU64: return {MoveType(type), arithmetic};
    case DataType::kF16:
    case DataType::kBF16:
    case DataType::kF32:
    case DataType::kF64:
    case DataType::kC64:
    case DataType::kC128:
      return {MoveType(type), float_ops_[FloatIndex(type)][KindIndex(kind)]};
  }
  return {MoveType(type), arithmetic};
}

}  // namespace tessel::collectives::mpi
