// ElementType's names and sizes, taken from the runtime's list, which has the same order.
#include "partitioner/api/element_type.h"

#include <iterator>

#include "partitioner/api/element_type_conversion.h"

namespace tessel {
namespace {

// Every enumerator of the API's list has the runtime's value, so that ToRuntime and
// FromRuntime can cast.
template <ElementType api, runtime::ElementType rt>
constexpr bool kSame = static_cast<int>(api) == static_cast<int>(rt);

static_assert(kSame<ElementType::kPred, runtime::ElementType::kPred>);
static_assert(kSame<ElementType::kS8, runtime::ElementType::kS8>);
static_assert(kSame<ElementType::kS16, runtime::ElementType::kS16>);
static_assert(kSame<ElementType::kS32, runtime::ElementType::kS32>);
static_assert(kSame<ElementType::kS64, runtime::ElementType::kS64>);
static_assert(kSame<ElementType::kU8, runtime::ElementType::kU8>);
static_assert(kSame<ElementType::kU16, runtime::ElementType::kU16>);
static_assert(kSame<ElementType::kU32, runtime::ElementType::kU32>);
static_assert(kSame<ElementType::kU64, runtime::ElementType::kU64>);
static_assert(kSame<ElementType::kF16, runtime::ElementType::kF16>);
static_assert(kSame<ElementType::kBF16, runtime::ElementType::kBF16>);
static_assert(kSame<ElementType::kF32, runtime::ElementType::kF32>);
static_assert(kSame<ElementType::kF64, runtime::ElementType::kF64>);
static_assert(kSame<ElementType::kC64, runtime::ElementType::kC64>);
static_assert(kSame<ElementType::kC128, runtime::ElementType::kC128>);
// No enumerator after the last one on either side.
static_assert(std::size(kAllElementTypes) ==
              std::size(collectives::kAllDataTypes) + std::size(collectives::kComplexDataTypes));

}  // namespace

absl::string_view ElementTypeName(ElementType type) {
  return runtime::ElementTypeName(ToRuntime(type));
}

int64_t ElementTypeSize(ElementType type) { return runtime::ElementTypeSize(ToRuntime(type)); }

}  // namespace tessel
