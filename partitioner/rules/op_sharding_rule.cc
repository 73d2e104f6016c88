// OpShardingRule queries, verification and its textual form (printer and parser).
#include "partitioner/rules/op_sharding_rule.h"

#include <cctype>
#include <optional>

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallBitVector.h"
#include "llvm/Support/raw_ostream.h"
#include "mlir/IR/BuiltinTypeInterfaces.h"

namespace tessel::rules {
namespace {

// Letters used for the first factors; later ones are z_1, z_2, ...
constexpr llvm::StringLiteral kFactorLetters = "ijklmnopqrstuvwxyz";

// The kinds that get their own list in the textual form, in printing order.
struct KindList {
  llvm::StringLiteral keyword;
  bool (*has)(const Factor&);
};
constexpr KindList kKindLists[] = {
    {"reduction", [](const Factor& f) { return f.kind == FactorKind::kReduction; }},
    {"need_replication", [](const Factor& f) { return f.kind == FactorKind::kNeedReplication; }},
    {"permutation", [](const Factor& f) { return f.kind == FactorKind::kPermutation; }},
    {"blocked", [](const Factor& f) { return f.blocked; }},
    {"movable", [](const Factor& f) { return f.movable; }},
};

// Whether `factor` appears in some dimension of `tensors`.
bool appearsIn(llvm::ArrayRef<TensorFactors> tensors, int64_t factor) {
  return llvm::any_of(tensors, [&](const TensorFactors& tensor) {
    return llvm::any_of(tensor,
                        [&](const DimFactors& dim) { return llvm::is_contained(dim, factor); });
  });
}

void printTensors(llvm::raw_ostream& os, llvm::ArrayRef<TensorFactors> tensors) {
  os << "(";
  llvm::interleave(
      tensors, os,
      [&](const TensorFactors& tensor) {
        os << "[";
        llvm::interleave(
            tensor, os,
            [&](const DimFactors& dim) {
              for (int64_t factor : dim) os << OpShardingRule::factorName(factor);
            },
            ", ");
        os << "]";
      },
      ", ");
  os << ")";
}

// A recursive-descent parser over the textual form; spaces between tokens are ignored.
class RuleParser {
 public:
  RuleParser(llvm::StringRef text, std::string* error) : text_(text), error_(error) {}

  mlir::FailureOr<OpShardingRule> parse() {
    llvm::SmallVector<TensorFactors> operands, results;
    if (mlir::failed(parseTensors(operands)) || mlir::failed(expect("->")) ||
        mlir::failed(parseTensors(results)) || mlir::failed(parseSizes())) {
      return mlir::failure();
    }
    while (!atEnd()) {
      if (mlir::failed(parseKindList())) return mlir::failure();
    }
    for (auto [index, size] : llvm::enumerate(sizes_)) {
      if (!size) {
        return fail("factor " + OpShardingRule::factorName(index) + " has no size");
      }
      factors_[index].size = *size;
    }
    for (const TensorFactors& tensor : llvm::concat<const TensorFactors>(operands, results)) {
      for (const DimFactors& dim : tensor) {
        for (int64_t factor : dim) {
          if (factor >= static_cast<int64_t>(factors_.size())) {
            return fail("factor " + OpShardingRule::factorName(factor) + " has no size");
          }
        }
      }
    }
    return OpShardingRule(factors_, std::move(operands), std::move(results));
  }

 private:
  void skipSpaces() {
    text_ = text_.ltrim();
  }
  bool atEnd() {
    skipSpaces();
    return text_.empty();
  }
  bool consume(llvm::StringRef token) {
    skipSpaces();
    return text_.consume_front(token);
  }
  mlir::LogicalResult fail(const llvm::Twine& message) {
    if (error_) *error_ = message.str();
    return mlir::failure();
  }
  // Where the parser stands, for messages: "at end of rule" or "at '<next characters>'".
  std::string where() {
    skipSpaces();
    if (text_.empty()) return "at end of rule";
    return "at '" + text_.take_front(12).str() + "'";
  }
  mlir::LogicalResult expect(llvm::StringRef token) {
    if (consume(token)) return mlir::success();
    return fail("expected '" + token + "' " + where());
  }

  // A factor name at the front of the text, or nullopt (consuming nothing) if there is none.
  std::optional<int64_t> parseFactorName() {
    skipSpaces();
    if (text_.empty()) return std::nullopt;
    size_t letter = kFactorLetters.find(text_.front());
    if (letter == llvm::StringRef::npos) return std::nullopt;
    text_ = text_.drop_front();
    if (letter == kFactorLetters.size() - 1 && text_.starts_with("_")) {
      llvm::StringRef digits = text_.drop_front().take_while(
          [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
      int64_t suffix = 0;
      if (!digits.empty() && !digits.getAsInteger(10, suffix) && suffix > 0) {
        text_ = text_.drop_front(1 + digits.size());
        return static_cast<int64_t>(letter) + suffix;
      }
    }
    return static_cast<int64_t>(letter);
  }

  mlir::LogicalResult parseFactorRef(int64_t& factor) {
    std::optional<int64_t> parsed = parseFactorName();
    if (!parsed) return fail("expected a factor name " + where());
    factor = *parsed;
    return mlir::success();
  }

  mlir::LogicalResult parseTensors(llvm::SmallVectorImpl<TensorFactors>& tensors) {
    if (mlir::failed(expect("("))) return mlir::failure();
    if (consume(")")) return mlir::success();
    do {
      TensorFactors& tensor = tensors.emplace_back();
      if (mlir::failed(expect("["))) return mlir::failure();
      if (consume("]")) continue;
      do {
        DimFactors& dim = tensor.emplace_back();
        while (std::optional<int64_t> factor = parseFactorName()) dim.push_back(*factor);
        if (dim.empty()) return fail("expected a factor name " + where());
      } while (consume(","));
      if (mlir::failed(expect("]"))) return mlir::failure();
    } while (consume(","));
    return expect(")");
  }

  mlir::LogicalResult parseSizes() {
    if (mlir::failed(expect("{"))) return mlir::failure();
    if (consume("}")) return mlir::success();
    do {
      int64_t factor;
      if (mlir::failed(parseFactorRef(factor)) || mlir::failed(expect("="))) {
        return mlir::failure();
      }
      skipSpaces();
      llvm::StringRef digits = text_.take_while(
          [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
      int64_t size;
      if (digits.empty() || digits.getAsInteger(10, size)) {
        return fail("expected the size of factor " + OpShardingRule::factorName(factor));
      }
      text_ = text_.drop_front(digits.size());
      if (factor >= static_cast<int64_t>(sizes_.size())) {
        sizes_.resize(factor + 1);
        factors_.resize(factor + 1);
      }
      if (sizes_[factor]) {
        return fail("factor " + OpShardingRule::factorName(factor) + " has two sizes");
      }
      sizes_[factor] = size;
    } while (consume(","));
    return expect("}");
  }

  mlir::LogicalResult parseKindList() {
    const KindList* list = llvm::find_if(
        kKindLists, [&](const KindList& candidate) { return consume(candidate.keyword); });
    if (list == std::end(kKindLists)) {
      return fail("expected reduction, need_replication, permutation, blocked or movable " +
                  where());
    }
    if (mlir::failed(expect("=")) || mlir::failed(expect("{"))) return mlir::failure();
    do {
      int64_t factor;
      if (mlir::failed(parseFactorRef(factor))) return mlir::failure();
      if (factor >= static_cast<int64_t>(factors_.size())) {
        return fail("factor " + OpShardingRule::factorName(factor) + " has no size");
      }
      Factor& target = factors_[factor];
      if (list->keyword == "blocked") {
        target.blocked = true;
      } else if (list->keyword == "movable") {
        target.movable = true;
      } else if (target.kind != FactorKind::kPassThrough) {
        return fail("factor " + OpShardingRule::factorName(factor) + " has two kinds");
      } else if (list->keyword == "reduction") {
        target.kind = FactorKind::kReduction;
      } else if (list->keyword == "need_replication") {
        target.kind = FactorKind::kNeedReplication;
      } else {
        target.kind = FactorKind::kPermutation;
      }
    } while (consume(","));
    return expect("}");
  }

  llvm::StringRef text_;
  std::string* error_;
  llvm::SmallVector<std::optional<int64_t>> sizes_;
  llvm::SmallVector<Factor> factors_;
};

}  // namespace

llvm::StringRef stringifyFactorKind(FactorKind kind) {
  switch (kind) {
    case FactorKind::kPassThrough:
      return "pass_through";
    case FactorKind::kReduction:
      return "reduction";
    case FactorKind::kNeedReplication:
      return "need_replication";
    case FactorKind::kPermutation:
      return "permutation";
  }
  return "unknown";
}

std::string OpShardingRule::factorName(int64_t index) {
  int64_t last = kFactorLetters.size() - 1;
  if (index <= last) return std::string(1, kFactorLetters[index]);
  return "z_" + std::to_string(index - last);
}

llvm::SmallVector<FactorUse> OpShardingRule::getUses(int64_t factor) const {
  llvm::SmallVector<FactorUse> uses;
  auto collect = [&](llvm::ArrayRef<TensorFactors> tensors, bool isResult) {
    for (auto [tensor, dims] : llvm::enumerate(tensors)) {
      for (auto [dim, factors] : llvm::enumerate(dims)) {
        for (auto [position, candidate] : llvm::enumerate(factors)) {
          if (candidate == factor) {
            uses.push_back({isResult, static_cast<int64_t>(tensor), static_cast<int64_t>(dim),
                            static_cast<int64_t>(position)});
          }
        }
      }
    }
  };
  collect(getOperands(), /*isResult=*/false);
  collect(getResults(), /*isResult=*/true);
  return uses;
}

llvm::hash_code hash_value(const OpShardingRule& rule) {
  // Every op's rule is hashed once per propagation; a multiply-xor per integer costs a few
  // instructions where llvm::hash_combine costs tens.
  uint64_t hash = 0;
  auto mix = [&](uint64_t value) { hash = (hash ^ value) * 0x100000001b3ull + 0x9e3779b9; };
  mix(rule.getNumOperands());
  mix(rule.getNumResults());
  for (const Factor& factor : rule.getFactors()) {
    mix(static_cast<uint64_t>(factor.size));
    mix(static_cast<uint64_t>(factor.kind) | (uint64_t{factor.blocked} << 8) |
        (uint64_t{factor.movable} << 9));
  }
  for (int64_t t = 0; t < rule.getNumOperands() + rule.getNumResults(); ++t) {
    const TensorFactors& tensor = t < rule.getNumOperands()
                                      ? rule.getOperand(t)
                                      : rule.getResult(t - rule.getNumOperands());
    mix(tensor.size());
    for (const DimFactors& dim : tensor) {
      mix(dim.size());
      for (int64_t factor : dim) mix(static_cast<uint64_t>(factor));
    }
  }
  return llvm::hash_value(hash);
}

bool OpShardingRule::isInResults(int64_t factor) const {
  return appearsIn(getResults(), factor);
}

bool OpShardingRule::isInOperands(int64_t factor) const {
  return appearsIn(getOperands(), factor);
}

namespace {

llvm::SmallBitVector factorsIn(llvm::ArrayRef<TensorFactors> tensors, int64_t numFactors) {
  llvm::SmallBitVector factors(numFactors);
  for (const TensorFactors& tensor : tensors) {
    for (const DimFactors& dim : tensor) {
      for (int64_t factor : dim) factors.set(factor);
    }
  }
  return factors;
}

}  // namespace

llvm::SmallBitVector OpShardingRule::operandFactors() const {
  return factorsIn(getOperands(), getNumFactors());
}

llvm::SmallBitVector OpShardingRule::resultFactors() const {
  return factorsIn(getResults(), getNumFactors());
}

bool OpShardingRule::isExactDim(const DimFactors& dimFactors) const {
  if (dimFactors.size() == 1 &&
      factors_[dimFactors.front()].kind == FactorKind::kNeedReplication) {
    return false;
  }
  return llvm::none_of(dimFactors, [&](int64_t factor) {
    return factors_[factor].kind == FactorKind::kPermutation;
  });
}

std::optional<std::string> OpShardingRule::findMismatch(mlir::TypeRange operandTypes,
                                                        mlir::TypeRange resultTypes) const {
  std::string problem;
  llvm::raw_string_ostream os(problem);
  for (auto [index, factor] : llvm::enumerate(factors_)) {
    if (factor.size < 0) {
      os << "factor " << factorName(index) << " has negative size " << factor.size;
      return problem;
    }
  }
  // Writes the first problem of `tensors` against `types` to `os`; true when there is one.
  auto findTensorMismatch = [&](llvm::ArrayRef<TensorFactors> tensors, mlir::TypeRange types,
                                llvm::StringRef what) -> bool {
    if (tensors.size() != types.size()) {
      os << "the rule has " << tensors.size() << " " << what << " mappings but the op has "
         << types.size() << " " << what << "s";
      return true;
    }
    for (auto [index, tensor, type] : llvm::enumerate(tensors, types)) {
      auto shaped = llvm::dyn_cast<mlir::ShapedType>(type);
      int64_t rank = shaped && shaped.hasRank() ? shaped.getRank() : 0;
      if (static_cast<int64_t>(tensor.size()) != rank) {
        os << what << " " << index << " has rank " << rank << " but its mapping has "
           << tensor.size() << " dimensions";
        return true;
      }
      llvm::SmallBitVector seen(factors_.size());
      for (auto [dim, dimFactors] : llvm::enumerate(tensor)) {
        if (dimFactors.empty()) {
          os << "dimension " << dim << " of " << what << " " << index << " has no factor";
          return true;
        }
        int64_t product = 1;
        for (int64_t factor : dimFactors) {
          if (factor < 0 || factor >= getNumFactors()) {
            os << "factor index " << factor << " is out of range [0, " << getNumFactors()
               << ")";
            return true;
          }
          if (seen.test(factor)) {
            os << "factor " << factorName(factor) << " appears twice in " << what << " "
               << index;
            return true;
          }
          seen.set(factor);
          product *= factors_[factor].size;
        }
        if (shaped.isDynamicDim(dim)) {
          os << "dimension " << dim << " of " << what << " " << index << " is dynamic";
          return true;
        }
        int64_t size = shaped.getDimSize(dim);
        if (isExactDim(dimFactors) && product != size) {
          os << "dimension " << dim << " of " << what << " " << index << " has size " << size
             << " but its factors multiply to " << product;
          return true;
        }
      }
    }
    return false;
  };
  if (findTensorMismatch(getOperands(), operandTypes, "operand") ||
      findTensorMismatch(getResults(), resultTypes, "result")) {
    return problem;
  }
  for (auto [index, factor] : llvm::enumerate(factors_)) {
    if (factor.kind == FactorKind::kReduction && isInResults(index)) {
      os << "reduction factor " << factorName(index) << " appears in a result";
      return problem;
    }
  }
  return std::nullopt;
}

mlir::LogicalResult OpShardingRule::verify(
    mlir::TypeRange operandTypes, mlir::TypeRange resultTypes,
    llvm::function_ref<mlir::InFlightDiagnostic()> emitError) const {
  if (std::optional<std::string> problem = findMismatch(operandTypes, resultTypes)) {
    return emitError() << "sharding rule does not fit the op: " << *problem;
  }
  return mlir::success();
}

std::string OpShardingRule::toString() const {
  std::string text;
  llvm::raw_string_ostream os(text);
  printTensors(os, getOperands());
  os << "->";
  printTensors(os, getResults());
  os << " {";
  for (auto [index, factor] : llvm::enumerate(factors_)) {
    if (index > 0) os << ", ";
    os << factorName(index) << "=" << factor.size;
  }
  os << "}";
  for (const KindList& list : kKindLists) {
    llvm::SmallVector<int64_t> members;
    for (auto [index, factor] : llvm::enumerate(factors_)) {
      if (list.has(factor)) members.push_back(index);
    }
    if (members.empty()) continue;
    os << " " << list.keyword << "={";
    llvm::interleave(
        members, os, [&](int64_t factor) { os << factorName(factor); }, ", ");
    os << "}";
  }
  return text;
}

mlir::FailureOr<OpShardingRule> OpShardingRule::parse(llvm::StringRef text,
                                                      std::string* error) {
  return RuleParser(text, error).parse();
}

}  // namespace tessel::rules
