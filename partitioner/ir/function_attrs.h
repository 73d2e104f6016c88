// Editing the attributes of many arguments or results of one function in a single rewrite.
// FuncOp::setArgAttr rebuilds the function's whole argument attribute array on each call, so
// annotating every argument one call at a time is quadratic in their number (an unrolled
// model has thousands); the editor collects the changes and writes each array once.
//
//   FunctionAttrEditor edit(func);
//   for (unsigned i = 0; i < n; ++i) edit.setArg(i, "tessel.sharding", shardings[i]);
//   edit.commit();  // or let it go out of scope
#ifndef TESSEL_PARTITIONER_IR_FUNCTION_ATTRS_H_
#define TESSEL_PARTITIONER_IR_FUNCTION_ATTRS_H_

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/OperationSupport.h"

namespace tessel::ir {

class FunctionAttrEditor {
 public:
  explicit FunctionAttrEditor(mlir::func::FuncOp func) : func_(func) {}
  ~FunctionAttrEditor() { commit(); }
  FunctionAttrEditor(const FunctionAttrEditor&) = delete;
  FunctionAttrEditor& operator=(const FunctionAttrEditor&) = delete;

  // The attribute `name` of argument (result) `index` as edited so far; null when absent.
  mlir::Attribute getArg(unsigned index, llvm::StringRef name);
  mlir::Attribute getResult(unsigned index, llvm::StringRef name);
  void setArg(unsigned index, llvm::StringRef name, mlir::Attribute value);
  void setResult(unsigned index, llvm::StringRef name, mlir::Attribute value);
  void removeArg(unsigned index, llvm::StringRef name);
  void removeResult(unsigned index, llvm::StringRef name);

  // Writes the edited arrays back to the function (each at most once).
  void commit();

 private:
  llvm::SmallVector<mlir::NamedAttrList>& args();
  llvm::SmallVector<mlir::NamedAttrList>& results();

  mlir::func::FuncOp func_;
  llvm::SmallVector<mlir::NamedAttrList> args_, results_;
  bool argsLoaded_ = false, resultsLoaded_ = false;
  bool argsChanged_ = false, resultsChanged_ = false;
};

}  // namespace tessel::ir

#endif  // TESSEL_PARTITIONER_IR_FUNCTION_ATTRS_H_
