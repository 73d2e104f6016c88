// When the values of a block are read for the last time: the executor frees each one right
// after its last reader, and lets a kernel write its result into an operand that nothing
// reads afterwards. Without this every intermediate of a function stays alive until the
// function returns, and every elementwise result takes a fresh buffer.
//
//   BlockLifetimes lifetimes(block);
//   for (auto [index, op] : llvm::enumerate(block.without_terminator())) {
//     run(op, /*overwritable operands:*/ lifetimes.Overwritable(index));
//     for (mlir::Value value : lifetimes.DiesAfter(index)) free(value);
//   }
#ifndef TESSEL_RUNTIME_VALUE_LIFETIMES_H_
#define TESSEL_RUNTIME_VALUE_LIFETIMES_H_

#include <cstddef>
#include <vector>

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "mlir/IR/Block.h"
#include "mlir/IR/Value.h"

namespace tessel::runtime {

class BlockLifetimes {
 public:
  // Works out the lifetimes of `block`'s arguments and of its ops' results. A read by an
  // op nested in the region of an op of the block counts as a read by that op, since the
  // region runs inside it. Values from enclosing blocks are never listed. Arguments are
  // listed too; the executor frees or overwrites only the values it owns, which are its
  // arguments only when the region was handed them (Interpreter::RunRegionOwning).
  explicit BlockLifetimes(mlir::Block& block);

  // The values of the block that nothing reads after the op at `index` (in block order,
  // terminator excluded), results of that op with no reader included: arguments first,
  // then results in the order they were defined. Arguments nothing reads are listed after
  // the first op. Values the terminator reads are never listed: they are the block's
  // results.
  llvm::ArrayRef<mlir::Value> DiesAfter(size_t index) const { return ops_[index].dies; }

  // The operands of the op at `index` whose tensors the op may overwrite: each is read
  // last by this op, appears once among its operands and is not read inside its regions.
  llvm::ArrayRef<unsigned> Overwritable(size_t index) const { return ops_[index].overwritable; }

  // The number of ops, terminator excluded.
  size_t size() const { return ops_.size(); }

 private:
  struct OpLifetimes {
    llvm::SmallVector<mlir::Value, 2> dies;
    llvm::SmallVector<unsigned, 2> overwritable;
  };
  std::vector<OpLifetimes> ops_;
};

}  // namespace tessel::runtime

#endif  // TESSEL_RUNTIME_VALUE_LIFETIMES_H_
