// A test fixture for propagation's unit tests: a context with the Tessel dialect and a
// 4x2 mesh named @mesh (axes "x" and "y"), with helpers that name its axes.
#ifndef TESSEL_PARTITIONER_PROPAGATION_MESH_TEST_FIXTURE_H_
#define TESSEL_PARTITIONER_PROPAGATION_MESH_TEST_FIXTURE_H_

#include "gtest/gtest.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/MLIRContext.h"
#include "partitioner/propagation/tensor_state.h"

namespace tessel::propagation {

class MeshTest : public ::testing::Test {
 protected:
  MeshTest() {
    context_.loadDialect<ir::TesselDialect>();
    mesh_ = MeshAttr::get(&context_,
                          {ir::MeshAxisAttr::get(&context_, "x", 4),
                           ir::MeshAxisAttr::get(&context_, "y", 2)},
                          {});
    meshName_ = mlir::FlatSymbolRefAttr::get(&context_, "mesh");
  }

  AxisRefAttr Axis(llvm::StringRef name) { return AxisRefAttr::get(&context_, name); }
  AxisRefAttr Sub(llvm::StringRef name, int64_t pre, int64_t size) {
    return AxisRefAttr::get(&context_, name, pre, size);
  }

  mlir::MLIRContext context_;
  MeshAttr mesh_;
  mlir::FlatSymbolRefAttr meshName_;
};

}  // namespace tessel::propagation

#endif  // TESSEL_PARTITIONER_PROPAGATION_MESH_TEST_FIXTURE_H_
