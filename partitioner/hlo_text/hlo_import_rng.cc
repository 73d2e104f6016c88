// Import of `rng` (XLA's stateful generator of old frontends) as rng_bit_generator plus
// arithmetic, so that its values are a function of each element's position and a partitioned
// program draws exactly the numbers the unpartitioned one does.
#include <cmath>
#include <cstdint>

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "partitioner/hlo_text/hlo_importer.h"
#include "partitioner/ir/hlo/hlo_ops.h"

namespace tessel::hlo_text {
namespace {

// The generator key of an rng instruction: FNV-1a of its name, so that two rng ops draw
// independent streams and a program's numbers do not move when unrelated instructions are
// added or removed. XLA leaves rng's values to the backend; these are Tessel's own.
uint64_t rngKey(llvm::StringRef name) {
  uint64_t hash = 0xcbf29ce484222325ull;
  for (char c : name) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 0x100000001b3ull;
  }
  return hash;
}

class RngLowering {
 public:
  RngLowering(Importer& im, const Instruction& inst, mlir::RankedTensorType type)
      : b_(im.builder()), loc_(im.loc(inst)), type_(type) {
    wide_ = type.getElementType().isF64();
    computeType_ = mlir::RankedTensorType::get(
        type.getShape(), wide_ ? mlir::Type(b_.getF64Type()) : mlir::Type(b_.getF32Type()));
  }

  // A tensor of the result's shape, uniform on [0, 1) in the compute type: the top 24 (53)
  // bits of random words times 2^-24 (2^-53), exact in f32 (f64), so never 1.
  mlir::Value uniform01(uint64_t key) {
    const unsigned bits = wide_ ? 64 : 32;
    auto wordType = mlir::RankedTensorType::get(
        type_.getShape(), mlir::IntegerType::get(b_.getContext(), bits, mlir::IntegerType::Unsigned));
    auto stateType = mlir::RankedTensorType::get({2}, b_.getIntegerType(64, false));
    auto state = b_.create<hlo::ConstantOp>(
        loc_, mlir::DenseElementsAttr::get(
                  stateType, llvm::ArrayRef<llvm::APInt>{llvm::APInt(64, key), llvm::APInt(64, 0)}));
    auto gen = b_.create<hlo::RngBitGeneratorOp>(
        loc_, mlir::TypeRange{stateType, wordType}, state.getResult(), mlir::ValueRange{},
        hlo::RngAlgorithmAttr::get(b_.getContext(), hlo::RngAlgorithm::PHILOX),
        mlir::DenseI64ArrayAttr());
    const unsigned mantissa = wide_ ? 53 : 24;
    mlir::Value shift = splat(wordType, llvm::APInt(bits, bits - mantissa));
    mlir::Value top = b_.create<hlo::ShiftRightLogicalOp>(loc_, gen.getOutput(), shift);
    mlir::Value asFloat = b_.create<hlo::ConvertOp>(loc_, computeType_, top);
    return b_.create<hlo::MulOp>(loc_, asFloat, splatFloat(std::ldexp(1.0, -int(mantissa))));
  }

  mlir::Value splatFloat(double value) {
    auto scalar = computeType_.getElementType();
    return b_.create<hlo::ConstantOp>(
        loc_, mlir::DenseElementsAttr::get(computeType_, b_.getFloatAttr(scalar, value)));
  }

  // A rank-0 operand widened to the compute type and broadcast to the result's shape.
  mlir::Value broadcastScalar(mlir::Value scalar) {
    auto scalarType = mlir::RankedTensorType::get({}, computeType_.getElementType());
    if (scalar.getType() != scalarType) {
      scalar = b_.create<hlo::ConvertOp>(loc_, scalarType, scalar);
    }
    return b_.create<hlo::BroadcastInDimOp>(loc_, computeType_, scalar,
                                            b_.getDenseI64ArrayAttr({}));
  }

  // Back to the result's element type where it is narrower than f32.
  mlir::Operation* finish(mlir::Value value) {
    if (value.getType() == type_) return value.getDefiningOp();
    return b_.create<hlo::ConvertOp>(loc_, type_, value);
  }

  mlir::OpBuilder& builder() { return b_; }
  mlir::Location loc() { return loc_; }

 private:
  mlir::Value splat(mlir::RankedTensorType type, const llvm::APInt& value) {
    return b_.create<hlo::ConstantOp>(loc_, mlir::DenseElementsAttr::get(type, value));
  }

  mlir::OpBuilder& b_;
  mlir::Location loc_;
  mlir::RankedTensorType type_;
  mlir::RankedTensorType computeType_;
  bool wide_ = false;
};

// `f32[8,16] rng(a, b), distribution=rng_uniform`: uniform on [a, b), as a + (b - a) * u.
// `distribution=rng_normal`: normal with mean a and standard deviation b, by Box-Muller
// from two uniforms: a + b * sqrt(-2 ln(1 - u1)) * cos(2 pi u2) (1 - u1 lies in (0, 1]).
mlir::FailureOr<Imported> importRng(Importer& im, Instruction& inst) {
  if (failed(im.expectOperands(inst, 2))) return mlir::failure();
  mlir::FailureOr<AttrText*> distAttr = im.requireAttr(inst, "distribution");
  mlir::FailureOr<mlir::Value> a = im.operand(inst, 0);
  if (failed(distAttr) || failed(a)) return mlir::failure();
  mlir::FailureOr<mlir::Value> bOperand = im.operand(inst, 1);
  mlir::FailureOr<mlir::Type> type = im.arrayType(inst);
  if (failed(bOperand) || failed(type)) return mlir::failure();
  mlir::FailureOr<std::string> dist = ParseWordAttr(**distAttr, im.context());
  if (failed(dist)) return mlir::failure();
  if (*dist != "rng_uniform" && *dist != "rng_normal") {
    return im.error(**distAttr) << "unknown rng distribution '" << *dist
                                << "' (rng_uniform or rng_normal)";
  }
  auto resultType = mlir::cast<mlir::RankedTensorType>(*type);
  mlir::Type element = resultType.getElementType();
  if (!mlir::isa<mlir::FloatType>(element)) {
    return im.error(inst) << "'rng' makes floating-point values here; result type "
                          << resultType << " is not";
  }
  for (size_t i = 0; i < 2; ++i) {
    mlir::Value operand = i == 0 ? *a : *bOperand;
    auto operandType = mlir::cast<mlir::RankedTensorType>(operand.getType());
    if (operandType.getRank() != 0 || operandType.getElementType() != element) {
      return mlir::emitError(im.loc(inst.operands[i].pos))
             << "operand '" << inst.operands[i].name << "' of 'rng' must be a rank-0 "
             << element << ", got " << operandType;
    }
  }
  RngLowering rng(im, inst, resultType);
  mlir::OpBuilder& b = rng.builder();
  mlir::Location loc = rng.loc();
  const uint64_t key = rngKey(inst.name);
  mlir::Value lo = rng.broadcastScalar(*a);
  mlir::Value hi = rng.broadcastScalar(*bOperand);
  mlir::Value result;
  if (*dist == "rng_uniform") {
    mlir::Value width = b.create<hlo::SubOp>(loc, hi, lo);
    mlir::Value scaled = b.create<hlo::MulOp>(loc, width, rng.uniform01(key));
    result = b.create<hlo::AddOp>(loc, lo, scaled);
  } else {
    mlir::Value oneMinus = b.create<hlo::SubOp>(loc, rng.splatFloat(1.0), rng.uniform01(key));
    mlir::Value radius = b.create<hlo::SqrtOp>(
        loc, b.create<hlo::MulOp>(loc, rng.splatFloat(-2.0), b.create<hlo::LogOp>(loc, oneMinus)));
    mlir::Value angle = b.create<hlo::MulOp>(loc, rng.splatFloat(2.0 * M_PI),
                                             rng.uniform01(key ^ 0x9e3779b97f4a7c15ull));
    mlir::Value z = b.create<hlo::MulOp>(loc, radius, b.create<hlo::CosOp>(loc, angle));
    result = b.create<hlo::AddOp>(loc, lo, b.create<hlo::MulOp>(loc, hi, z));
  }
  return im.single(rng.finish(result));
}

}  // namespace

void RegisterRngImporters(ImporterTable& table) { table["rng"] = importRng; }

}  // namespace tessel::hlo_text
