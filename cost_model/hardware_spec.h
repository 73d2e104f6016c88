// The hardware the cost model estimates for (hardware_spec.proto): a built-in default, loading
// another from protobuf text, and the link a collective over some mesh axes uses.
//
//   TESSEL_ASSIGN_OR_RETURN(HardwareSpec spec, LoadHardwareSpec("cluster.textproto"));
//   Link link = LinkForAxes(spec, {"data", "model"});  // the slower of the two axes' links
#ifndef TESSEL_COST_MODEL_HARDWARE_SPEC_H_
#define TESSEL_COST_MODEL_HARDWARE_SPEC_H_

#include <string>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "cost_model/hardware_spec.pb.h"

namespace tessel::cost_model {

// The built-in spec, an assumption rather than a measurement: one node of H100 SXM5-class
// devices joined by NVLink 4, with the datasheet's peak numbers (docs/cost_model.md lists
// them and their source). Every axis uses the NVLink link.
const HardwareSpec& DefaultHardwareSpec();

// The text of the built-in spec, a complete example of the format.
const char* DefaultHardwareSpecText();

// Parses protobuf text into a spec and checks it: every rate, the capacity and the default
// link's bandwidth positive, latencies not negative, each axis named once. Fails with
// InvalidArgument naming `source` and, for a syntax error, its line:col.
absl::StatusOr<HardwareSpec> ParseHardwareSpec(const std::string& text,
                                               const std::string& source);

// Reads and parses the file `path` (NotFound if it cannot be read).
absl::StatusOr<HardwareSpec> LoadHardwareSpec(const std::string& path);

// The link collectives over `axes` (mesh axis names) use: the named axis's link, or the
// default link for an axis the spec does not name. A group that spans several axes is
// modelled as moving all its data over the slowest of their links (lowest bandwidth,
// highest latency); no axes gives the default link.
Link LinkForAxes(const HardwareSpec& spec, absl::Span<const std::string> axes);

}  // namespace tessel::cost_model

#endif  // TESSEL_COST_MODEL_HARDWARE_SPEC_H_
