// Writing and reading the partitioned-program mark (partitioned_marker.h).
#include "partitioner/ir/partitioned_marker.h"

#include <string>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"

namespace tessel::ir {
namespace {

mlir::ArrayAttr TypeArray(llvm::ArrayRef<mlir::Type> types, mlir::MLIRContext* context) {
  llvm::SmallVector<mlir::Attribute> attrs;
  for (mlir::Type type : types) attrs.push_back(mlir::TypeAttr::get(type));
  return mlir::ArrayAttr::get(context, attrs);
}

}  // namespace

void RecordGlobalLayout(mlir::OpResult result, mlir::Type type, mlir::Attribute sharding) {
  mlir::Operation* op = result.getOwner();
  mlir::MLIRContext* context = op->getContext();
  llvm::SmallVector<mlir::Attribute> entries(op->getNumResults(),
                                             mlir::DictionaryAttr::get(context));
  if (auto existing = op->getAttrOfType<mlir::ArrayAttr>(kGlobalLayoutsAttrName)) {
    if (existing.size() == entries.size()) entries.assign(existing.begin(), existing.end());
  }
  auto& entry = entries[result.getResultNumber()];
  auto existing_entry = llvm::dyn_cast<mlir::DictionaryAttr>(entry);
  if (existing_entry && !existing_entry.empty()) return;
  mlir::Builder builder(context);
  entry = builder.getDictionaryAttr({builder.getNamedAttr("type", mlir::TypeAttr::get(type)),
                                     builder.getNamedAttr("sharding", sharding)});
  op->setAttr(kGlobalLayoutsAttrName, mlir::ArrayAttr::get(context, entries));
}

std::optional<GlobalLayout> ReadGlobalLayout(mlir::OpResult result) {
  auto entries = result.getOwner()->getAttrOfType<mlir::ArrayAttr>(kGlobalLayoutsAttrName);
  if (!entries || entries.size() != result.getOwner()->getNumResults()) return std::nullopt;
  auto entry = llvm::dyn_cast<mlir::DictionaryAttr>(entries[result.getResultNumber()]);
  if (!entry) return std::nullopt;
  auto type = entry.getAs<mlir::TypeAttr>("type");
  mlir::Attribute sharding = entry.get("sharding");
  if (!type || !sharding) return std::nullopt;
  return GlobalLayout{type.getValue(), sharding};
}

void MarkPartitioned(mlir::ModuleOp module, const PartitionedSignature& signature) {
  mlir::MLIRContext* context = module.getContext();
  mlir::Builder builder(context);
  module->setAttr(
      kPartitionedAttrName,
      builder.getDictionaryAttr(
          {builder.getNamedAttr("num_partitions",
                                builder.getI64IntegerAttr(signature.num_partitions)),
           builder.getNamedAttr("parameter_types",
                                TypeArray(signature.parameter_types, context)),
           builder.getNamedAttr("result_types", TypeArray(signature.result_types, context))}));
}

absl::StatusOr<std::optional<PartitionedSignature>> ReadPartitionedMark(mlir::ModuleOp module,
                                                                        size_t num_parameters,
                                                                        size_t num_results) {
  mlir::Attribute attr = module->getAttr(kPartitionedAttrName);
  if (!attr) return std::nullopt;
  auto invalid = [](const std::string& why) {
    return absl::InvalidArgumentError(
        absl::StrCat("module attribute ", kPartitionedAttrName.str(), " ", why));
  };
  auto dict = mlir::dyn_cast<mlir::DictionaryAttr>(attr);
  if (!dict) return invalid("must be a dictionary");
  auto count = dict.getAs<mlir::IntegerAttr>("num_partitions");
  if (!count || count.getInt() < 1) return invalid("needs num_partitions, an integer >= 1");
  PartitionedSignature signature;
  signature.num_partitions = count.getInt();
  for (auto [key, what, size, types] :
       {std::make_tuple("parameter_types", "parameter", num_parameters,
                        &signature.parameter_types),
        std::make_tuple("result_types", "result", num_results, &signature.result_types)}) {
    auto array = dict.getAs<mlir::ArrayAttr>(key);
    if (!array || array.size() != size) {
      return invalid(absl::StrCat("needs ", key, ", one type per entry function ", what));
    }
    for (mlir::Attribute element : array) {
      auto type = mlir::dyn_cast<mlir::TypeAttr>(element);
      if (!type) return invalid(absl::StrCat(key, " must hold types"));
      types->push_back(type.getValue());
    }
  }
  return signature;
}

}  // namespace tessel::ir
