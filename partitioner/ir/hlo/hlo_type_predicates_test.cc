// The inline type tests of hlo_type_predicates.h accept exactly the types that ODS's own
// constraints (SignlessIntOfWidths, F16/BF16/F32/F64, Complex<...>, StaticShapeTensorOf)
// accept, written here as ODS writes them.
#include "partitioner/ir/hlo/hlo_type_predicates.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/raw_ostream.h"

namespace tessel::hlo {
namespace {

bool odsSignedInt(mlir::Type t) {
  return t.isSignlessInteger(8) || t.isSignlessInteger(16) || t.isSignlessInteger(32) ||
         t.isSignlessInteger(64);
}
bool odsUnsignedInt(mlir::Type t) {
  return t.isUnsignedInteger(8) || t.isUnsignedInteger(16) || t.isUnsignedInteger(32) ||
         t.isUnsignedInteger(64);
}
bool odsFloat(mlir::Type t) { return t.isF16() || t.isBF16() || t.isF32() || t.isF64(); }
bool odsComplex(mlir::Type t) {
  auto complex = llvm::dyn_cast<mlir::ComplexType>(t);
  return complex && (complex.getElementType().isF32() || complex.getElementType().isF64());
}

class HloTypePredicatesTest : public ::testing::Test {
 protected:
  std::vector<mlir::Type> elementTypes() {
    mlir::Builder b(&context_);
    std::vector<mlir::Type> types;
    for (unsigned width : {1u, 2u, 7u, 8u, 16u, 24u, 32u, 64u, 128u}) {
      types.push_back(b.getIntegerType(width));
      types.push_back(b.getIntegerType(width, /*isSigned=*/true));
      types.push_back(mlir::IntegerType::get(&context_, width, mlir::IntegerType::Unsigned));
    }
    for (mlir::Type t : std::vector<mlir::Type>{b.getF16Type(), b.getBF16Type(),
                                                b.getF32Type(), b.getF64Type(),
                                                b.getF80Type(), b.getF128Type(),
                                                b.getFloat8E4M3FNType(), b.getTF32Type(),
                                                b.getIndexType()}) {
      types.push_back(t);
    }
    for (mlir::Type element : std::vector<mlir::Type>(types)) {
      if (llvm::isa<mlir::IntegerType, mlir::FloatType>(element)) {
        types.push_back(mlir::ComplexType::get(element));
      }
    }
    types.push_back(b.getNoneType());
    return types;
  }

  mlir::MLIRContext context_;
};

TEST_F(HloTypePredicatesTest, ElementTypesMatchOds) {
  int accepted = 0;
  for (mlir::Type t : elementTypes()) {
    std::string name;
    llvm::raw_string_ostream(name) << t;
    SCOPED_TRACE(name);
    EXPECT_EQ(isHloPredType(t), t.isSignlessInteger(1));
    EXPECT_EQ(isHloSignedIntType(t), odsSignedInt(t));
    EXPECT_EQ(isHloUnsignedIntType(t), odsUnsignedInt(t));
    EXPECT_EQ(isHloFloatType(t), odsFloat(t));
    EXPECT_EQ(isHloComplexType(t), odsComplex(t));
    accepted += isHloPredType(t) + isHloSignedIntType(t) + isHloUnsignedIntType(t) +
                isHloFloatType(t) + isHloComplexType(t);
  }
  // pred, s8..s64, u8..u64, four floats, two complex types.
  EXPECT_EQ(accepted, 1 + 4 + 4 + 4 + 2);
}

TEST_F(HloTypePredicatesTest, StaticTensorsMatchOds) {
  mlir::Type f32 = mlir::Float32Type::get(&context_);
  int64_t dynamic = mlir::ShapedType::kDynamic;
  std::vector<mlir::Type> types = {
      mlir::RankedTensorType::get({}, f32),
      mlir::RankedTensorType::get({4, 8}, f32),
      mlir::RankedTensorType::get({0, 3}, f32),
      mlir::RankedTensorType::get({dynamic}, f32),
      mlir::RankedTensorType::get({4, dynamic}, f32),
      mlir::UnrankedTensorType::get(f32),
      mlir::VectorType::get({4}, f32),
      mlir::MemRefType::get({4}, f32),
      f32,
  };
  for (mlir::Type t : types) {
    bool ods = llvm::isa<mlir::RankedTensorType>(t) &&
               llvm::cast<mlir::ShapedType>(t).hasStaticShape();
    EXPECT_EQ(isStaticRankedTensor(t), ods);
    if (ods) {
      EXPECT_EQ(staticTensorElementType(t), f32);
    }
  }
}

}  // namespace
}  // namespace tessel::hlo
