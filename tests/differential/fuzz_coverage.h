// What a run of the differential fuzzer exercised, counted in cases: each op of the input
// programs, mesh shapes and sharding forms, the options each case ran with, the strategies
// the partitioner chose where it compared several, the collectives of the partitioned
// programs, and the ops it partitioned by replication. A long run must reach every entry
// it is asked about some minimum number of times (Below).
//
//   FuzzCoverage coverage;
//   options.on_input = [&](mlir::ModuleOp m) { coverage.AddInput(m); };
//   ...                                   // one case
//   coverage.EndCase();
//   coverage.Print(std::cout);
#ifndef TESSEL_TESTS_DIFFERENTIAL_FUZZ_COVERAGE_H_
#define TESSEL_TESTS_DIFFERENTIAL_FUZZ_COVERAGE_H_

#include <cstddef>
#include <cstdint>
#include <map>
#include <ostream>
#include <set>
#include <string>
#include <vector>

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Operation.h"

namespace tessel::testing {

class FuzzCoverage {
 public:
  // Entries are "category: name" (e.g. "op: hlo.convolution", "collective: tessel.all_to_all");
  // each counts once per case however often the case shows it.
  void Add(const std::string& category, const std::string& name);
  // The input program: its ops (regions included), mesh ranks and sizes, sharding forms.
  void AddInput(mlir::ModuleOp module);
  // The partitioned program: its collectives by kind.
  void AddPartitioned(mlir::ModuleOp module);
  // A choice among `applicable` strategies of `op`: the one chosen ("strategy") and every
  // position that was on offer ("strategy offered"), so a run can tell a candidate it
  // never chose from one it never had.
  void AddStrategy(mlir::Operation* op, size_t chosen, size_t applicable);
  // Replication fallbacks, from the partitioner's remark or warning.
  void AddDiagnostic(const mlir::Diagnostic& diagnostic);
  // Ends a case: its entries join the totals.
  void EndCase();
  // Adds another count's totals (of cases it ended) to this one.
  void Merge(const FuzzCoverage& other);

  int64_t cases() const { return cases_; }
  int64_t Count(const std::string& category, const std::string& name) const;
  // The entries of `category` among `names` seen in fewer than `minimum` cases.
  std::vector<std::string> Below(const std::string& category,
                                 const std::vector<std::string>& names, int64_t minimum) const;
  // The strategy candidates offered in this run but chosen in fewer than `minimum` cases,
  // each as "<op> candidate <k> (<chosen> chosen, <offered> offered)".
  std::vector<std::string> StrategiesBelow(int64_t minimum) const;
  // One line per entry, grouped by category.
  void Print(std::ostream& os) const;

 private:
  std::set<std::pair<std::string, std::string>> current_;
  std::map<std::pair<std::string, std::string>, int64_t> totals_;
  int64_t cases_ = 0;
};

}  // namespace tessel::testing

#endif  // TESSEL_TESTS_DIFFERENTIAL_FUZZ_COVERAGE_H_
