// The cost report of one function on one device of its mesh: memory (arguments, peak live
// bytes), compute time (op_cost.h), communication per collective kind and axes
// (collective_cost.h), and a step time that adds compute and communication, assuming they do
// not overlap. `tessel report` prints it; the numbers are estimates from peak rates.
//
//   CostReport report = BuildCostReport(partitioned_main, DefaultHardwareSpec());
//   std::cout << FormatCostReport(report);      // a table
//   std::cout << FormatCostReportJson(report);  // the same numbers as JSON
//
// Control flow: a counted while loop (a constant trip count, partitioner/ir/hlo/
// trip_count.h) counts its body once per trip; any other while body is counted once and the
// report says how many such loops it met; of a case's branches the costliest counts; a
// func.call counts its callee.
#ifndef TESSEL_COST_MODEL_COST_REPORT_H_
#define TESSEL_COST_MODEL_COST_REPORT_H_

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <utility>

#include "cost_model/collective_cost.h"
#include "cost_model/hardware_spec.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "partitioner/ir/location.h"

namespace tessel::cost_model {

// What the collectives of one kind (and axes) add up to on one device.
struct CollectiveTotals {
  int64_t count = 0;
  double operand_bytes = 0;
  double sent_bytes = 0;
  double seconds = 0;
};

struct CostReport {
  std::string function;
  std::string hardware;  // the spec's name
  // The devices of the function's mesh (1 without a mesh).
  int64_t devices = 1;

  // Memory of one device.
  int64_t argument_bytes = 0;
  int64_t result_bytes = 0;
  int64_t peak_bytes = 0;
  std::string peak_op;        // the op where the peak is reached, e.g. "hlo.dot_general"
  std::string peak_location;  // and where it is, "file:line:col"
  std::string peak_value;     // the name the source gives the op's value ("%h", "dot.3"), or ""
  int64_t memory_capacity_bytes = 0;

  // Compute on one device.
  double flops = 0;
  double memory_traffic_bytes = 0;
  double compute_seconds = 0;

  // Communication of one device.
  std::map<CollectiveKind, CollectiveTotals> by_kind;
  // Keyed by kind and the axes as written in the ops, comma-separated ("data,model").
  std::map<std::pair<CollectiveKind, std::string>, CollectiveTotals> by_kind_and_axes;
  double communication_seconds = 0;

  // compute_seconds + communication_seconds: no overlap of compute and communication.
  double step_seconds = 0;

  // While loops whose trip count is not known statically; each such body was counted once.
  // A counted loop (partitioner/ir/hlo/trip_count.h) counts its body once per trip.
  int64_t while_loops = 0;
};

using ::tessel::PlaceNamer;

// The report for `func` (normally a partitioned function, whose types are per device).
// `name_of` names the op where memory peaks; without it, a name location's name does.
CostReport BuildCostReport(mlir::func::FuncOp func, const HardwareSpec& spec,
                           const PlaceNamer& name_of = nullptr);

// A readable table, ending in a newline.
std::string FormatCostReport(const CostReport& report);

// One JSON object (keys in docs/cost_model.md), ending in a newline.
std::string FormatCostReportJson(const CostReport& report);

}  // namespace tessel::cost_model

#endif  // TESSEL_COST_MODEL_COST_REPORT_H_
