// Batched edits of function argument and result attributes (function_attrs.h).
#include "partitioner/ir/function_attrs.h"

#include "mlir/IR/BuiltinAttributes.h"

namespace tessel::ir {
namespace {

void load(llvm::SmallVector<mlir::NamedAttrList>& lists,
          llvm::ArrayRef<mlir::DictionaryAttr> dicts) {
  for (mlir::DictionaryAttr dict : dicts) lists.emplace_back(dict);
}

llvm::SmallVector<mlir::DictionaryAttr> dictionaries(
    mlir::MLIRContext* context, llvm::ArrayRef<mlir::NamedAttrList> lists) {
  llvm::SmallVector<mlir::DictionaryAttr> dicts;
  for (const mlir::NamedAttrList& list : lists) dicts.push_back(list.getDictionary(context));
  return dicts;
}

}  // namespace

llvm::SmallVector<mlir::NamedAttrList>& FunctionAttrEditor::args() {
  if (!argsLoaded_) {
    llvm::SmallVector<mlir::DictionaryAttr> dicts;
    func_.getAllArgAttrs(dicts);
    load(args_, dicts);
    argsLoaded_ = true;
  }
  return args_;
}

llvm::SmallVector<mlir::NamedAttrList>& FunctionAttrEditor::results() {
  if (!resultsLoaded_) {
    llvm::SmallVector<mlir::DictionaryAttr> dicts;
    func_.getAllResultAttrs(dicts);
    load(results_, dicts);
    resultsLoaded_ = true;
  }
  return results_;
}

mlir::Attribute FunctionAttrEditor::getArg(unsigned index, llvm::StringRef name) {
  return args()[index].get(name);
}

mlir::Attribute FunctionAttrEditor::getResult(unsigned index, llvm::StringRef name) {
  return results()[index].get(name);
}

void FunctionAttrEditor::setArg(unsigned index, llvm::StringRef name, mlir::Attribute value) {
  args()[index].set(name, value);
  argsChanged_ = true;
}

void FunctionAttrEditor::setResult(unsigned index, llvm::StringRef name, mlir::Attribute value) {
  results()[index].set(name, value);
  resultsChanged_ = true;
}

void FunctionAttrEditor::removeArg(unsigned index, llvm::StringRef name) {
  if (args()[index].erase(name)) argsChanged_ = true;
}

void FunctionAttrEditor::removeResult(unsigned index, llvm::StringRef name) {
  if (results()[index].erase(name)) resultsChanged_ = true;
}

void FunctionAttrEditor::commit() {
  mlir::MLIRContext* context = func_.getContext();
  if (argsChanged_) func_.setAllArgAttrs(dictionaries(context, args_));
  if (resultsChanged_) func_.setAllResultAttrs(dictionaries(context, results_));
  argsChanged_ = resultsChanged_ = false;
}

}  // namespace tessel::ir
