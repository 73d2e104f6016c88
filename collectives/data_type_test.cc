// Data type names and MLIR types: every type, complex ones included, reads back from its
// XLA name, and maps to its own MLIR type.
#include "collectives/data_type.h"

#include <optional>
#include <string>
#include <vector>

#include "collectives/data_type_mlir.h"
#include "gtest/gtest.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/raw_ostream.h"
#include "mlir/IR/MLIRContext.h"

namespace tessel::collectives {
namespace {

std::vector<DataType> EveryDataType() {
  std::vector<DataType> types(std::begin(kAllDataTypes), std::end(kAllDataTypes));
  types.insert(types.end(), std::begin(kComplexDataTypes), std::end(kComplexDataTypes));
  return types;
}

std::string Spelled(mlir::Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  type.print(os);
  return text;
}

TEST(DataTypeTest, EveryTypeReadsBackFromItsName) {
  for (DataType type : EveryDataType()) {
    std::optional<DataType> read = DataTypeFromName(DataTypeName(type));
    ASSERT_TRUE(read.has_value()) << DataTypeName(type);
    EXPECT_EQ(*read, type) << DataTypeName(type);
  }
}

TEST(DataTypeTest, OtherNamesNameNoType) {
  for (const char* name : {"", "f8", "s4", "F32", "f32 ", "token", "unknown"}) {
    EXPECT_FALSE(DataTypeFromName(name).has_value()) << "'" << name << "'";
  }
  // Prefixes and extensions of names, and names with a NUL byte before or after them.
  using namespace std::string_literals;
  for (const std::string& name :
       {"f3"s, "f320"s, "c12"s, "c1280"s, "bf"s, "pre"s, "\0s8"s, "s8\0"s, "\0\0s8"s, "u\0"s}) {
    EXPECT_FALSE(DataTypeFromName(name).has_value()) << "'" << name << "'";
  }
}

TEST(DataTypeTest, EveryTypeHasItsOwnMlirType) {
  mlir::MLIRContext context;
  llvm::DenseSet<mlir::Type> seen;
  for (DataType type : EveryDataType()) {
    mlir::Type mlirType = DataTypeToMlir(type, &context);
    ASSERT_TRUE(mlirType) << DataTypeName(type);
    EXPECT_TRUE(seen.insert(mlirType).second) << DataTypeName(type) << " repeats a type";
  }
}

TEST(DataTypeTest, MapsToTheMlirSpellings) {
  mlir::MLIRContext context;
  EXPECT_EQ(Spelled(DataTypeToMlir(DataType::kPred, &context)), "i1");
  EXPECT_EQ(Spelled(DataTypeToMlir(DataType::kS32, &context)), "i32");
  EXPECT_EQ(Spelled(DataTypeToMlir(DataType::kU8, &context)), "ui8");
  EXPECT_EQ(Spelled(DataTypeToMlir(DataType::kBF16, &context)), "bf16");
  EXPECT_EQ(Spelled(DataTypeToMlir(DataType::kC64, &context)), "complex<f32>");
  EXPECT_EQ(Spelled(DataTypeToMlir(DataType::kC128, &context)), "complex<f64>");
}

}  // namespace
}  // namespace tessel::collectives
