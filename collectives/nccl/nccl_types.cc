// The mapping of element types and reductions onto NCCL's (see nccl_types.h).
#include "collectives/nccl/nccl_types.h"

#include <cstring>

#include "absl/strings/str_cat.h"

namespace tessel::collectives::nccl {

bool ReductionWidens(DataType type) { return type == DataType::kS16 || type == DataType::kU16; }

ncclDataType_t ReductionNcclType(DataType type) {
  switch (type) {
    case DataType::kPred:
      return ncclUint8;
    case DataType::kS8:
      return ncclInt8;
    case DataType::kS16:
      return ncclInt32;
    case DataType::kS32:
      return ncclInt32;
    case DataType::kS64:
      return ncclInt64;
    case DataType::kU8:
      return ncclUint8;
    case DataType::kU16:
      return ncclUint32;
    case DataType::kU32:
      return ncclUint32;
    case DataType::kU64:
      return ncclUint64;
    case DataType::kF16:
      return ncclFloat16;
    case DataType::kBF16:
      return ncclBfloat16;
    case DataType::kF32:
      return ncclFloat32;
    case DataType::kF64:
      return ncclFloat64;
    case DataType::kC64:
      return ncclFloat32;
    case DataType::kC128:
      return ncclFloat64;
  }
  return ncclUint8;  // unreachable: every enumerator is handled above
}

int64_t ReductionElementSize(DataType type) {
  return ReductionWidens(type) ? 4 : DataTypeSize(type) / ReductionValuesPerElement(type);
}

int64_t ReductionValuesPerElement(DataType type) { return IsComplexDataType(type) ? 2 : 1; }

absl::Status ValidateNcclReduction(DataType type, ReductionKind kind) {
  absl::Status status = ValidateReduction(type, kind);
  if (status.ok() && IsComplexDataType(type) && kind == ReductionKind::kProd) {
    return absl::UnimplementedError(
        absl::StrCat("prod reduction of ", DataTypeName(type),
                     " is not supported on NCCL, which has no complex type (sum is)"));
  }
  return status;
}

ncclRedOp_t ReductionNcclOp(DataType type, ReductionKind kind) {
  if (type == DataType::kPred) {
    return kind == ReductionKind::kSum || kind == ReductionKind::kMax ? ncclMax : ncclMin;
  }
  switch (kind) {
    case ReductionKind::kSum:
      return ncclSum;
    case ReductionKind::kProd:
      return ncclProd;
    case ReductionKind::kMax:
      return ncclMax;
    case ReductionKind::kMin:
      return ncclMin;
  }
  return ncclSum;  // unreachable: every enumerator is handled above
}

void Widen(DataType type, const void* narrow, void* wide, int64_t count) {
  for (int64_t i = 0; i < count; ++i) {
    if (type == DataType::kS16) {
      int16_t value;
      std::memcpy(&value, static_cast<const char*>(narrow) + 2 * i, 2);
      int32_t widened = value;
      std::memcpy(static_cast<char*>(wide) + 4 * i, &widened, 4);
    } else {
      uint16_t value;
      std::memcpy(&value, static_cast<const char*>(narrow) + 2 * i, 2);
      uint32_t widened = value;
      std::memcpy(static_cast<char*>(wide) + 4 * i, &widened, 4);
    }
  }
}

void Narrow(DataType type, const void* wide, void* narrow, int64_t count) {
  for (int64_t i = 0; i < count; ++i) {
    uint32_t value;
    std::memcpy(&value, static_cast<const char*>(wide) + 4 * i, 4);
    uint16_t low = static_cast<uint16_t>(value & 0xffffu);
    std::memcpy(static_cast<char*>(narrow) + 2 * i, &low, 2);
  }
}

}  // namespace tessel::collectives::nccl
