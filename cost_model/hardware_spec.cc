// The built-in hardware spec, text-format loading and validation, and link lookup.
#include "cost_model/hardware_spec.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <set>
#include <sstream>

#include "absl/strings/str_cat.h"
#include "google/protobuf/io/tokenizer.h"
#include "google/protobuf/text_format.h"

namespace tessel::cost_model {
namespace {

// Peak numbers from NVIDIA's H100 SXM5 datasheet: 989 TFLOP/s dense BF16 tensor-core math,
// 3.35 TB/s HBM3, 80 GB; NVLink 4 gives 900 GB/s per GPU in both directions together, so
// 450 GB/s each way. The per-hop latency of 2 us is an assumption of the order NCCL shows for
// small messages inside one node.
constexpr char kDefaultSpecText[] = R"pb(name: "H100 SXM5-class node, NVLink 4 (assumed)"
flops_per_second: 989e12
memory_bandwidth_bytes_per_second: 3.35e12
memory_capacity_bytes: 80000000000
default_link { bandwidth_bytes_per_second: 450e9 latency_seconds: 2e-6 }
)pb";

// Keeps the first syntax error the text-format parser reports, with its position.
class FirstErrorCollector : public google::protobuf::io::ErrorCollector {
 public:
  void AddError(int line, google::protobuf::io::ColumnNumber column,
                const std::string& message) override {
    if (!error_.empty()) return;
    // The parser counts lines and columns from 0.
    error_ = absl::StrCat(line + 1, ":", column + 1, ": ", message);
  }
  const std::string& error() const { return error_; }

 private:
  std::string error_;
};

absl::Status CheckLink(const Link& link, const std::string& where, const std::string& source) {
  // Infinities are refused with the rest: an infinite latency times zero hops is NaN, and
  // NaN makes every comparison of two plans false.
  if (!(link.bandwidth_bytes_per_second() > 0) || !std::isfinite(link.bandwidth_bytes_per_second())) {
    return absl::InvalidArgumentError(
        absl::StrCat(source, ": ", where, ": bandwidth_bytes_per_second must be positive and finite, got ",
                     link.bandwidth_bytes_per_second()));
  }
  if (!(link.latency_seconds() >= 0) || !std::isfinite(link.latency_seconds())) {
    return absl::InvalidArgumentError(
        absl::StrCat(source, ": ", where, ": latency_seconds must be finite and not negative, got ",
                     link.latency_seconds()));
  }
  return absl::OkStatus();
}

absl::Status CheckSpec(const HardwareSpec& spec, const std::string& source) {
  auto positive = [&](double value, const char* field) -> absl::Status {
    if (value > 0 && std::isfinite(value)) return absl::OkStatus();
    return absl::InvalidArgumentError(
        absl::StrCat(source, ": ", field, " must be positive and finite, got ", value));
  };
  absl::Status status = positive(spec.flops_per_second(), "flops_per_second");
  if (status.ok()) {
    status = positive(spec.memory_bandwidth_bytes_per_second(),
                      "memory_bandwidth_bytes_per_second");
  }
  if (status.ok()) {
    status = positive(static_cast<double>(spec.memory_capacity_bytes()),
                      "memory_capacity_bytes");
  }
  if (!status.ok()) return status;
  if (!spec.has_default_link()) {
    return absl::InvalidArgumentError(absl::StrCat(source, ": default_link is missing"));
  }
  if (absl::Status link = CheckLink(spec.default_link(), "default_link", source); !link.ok()) {
    return link;
  }
  std::set<std::string> seen;
  for (const AxisLink& axis : spec.axis_links()) {
    if (axis.axis().empty()) {
      return absl::InvalidArgumentError(absl::StrCat(source, ": an axis_links entry has no axis"));
    }
    if (!seen.insert(axis.axis()).second) {
      return absl::InvalidArgumentError(
          absl::StrCat(source, ": axis \"", axis.axis(), "\" is listed twice in axis_links"));
    }
    std::string where = absl::StrCat("axis \"", axis.axis(), "\"");
    if (!axis.has_link()) {
      return absl::InvalidArgumentError(absl::StrCat(source, ": ", where, ": link is missing"));
    }
    if (absl::Status link = CheckLink(axis.link(), where, source); !link.ok()) return link;
  }
  return absl::OkStatus();
}

}  // namespace

const char* DefaultHardwareSpecText() { return kDefaultSpecText; }

const HardwareSpec& DefaultHardwareSpec() {
  // The fields of kDefaultSpecText, set one by one: parsing the text needs protobuf's
  // reflection, whose descriptors are built on first use (a third of a millisecond, in
  // every run that partitions). hardware_spec_test checks that the two agree.
  static const HardwareSpec* spec = [] {
    auto* built = new HardwareSpec();
    built->set_name("H100 SXM5-class node, NVLink 4 (assumed)");
    built->set_flops_per_second(989e12);
    built->set_memory_bandwidth_bytes_per_second(3.35e12);
    built->set_memory_capacity_bytes(80000000000);
    built->mutable_default_link()->set_bandwidth_bytes_per_second(450e9);
    built->mutable_default_link()->set_latency_seconds(2e-6);
    return built;
  }();
  return *spec;
}

absl::StatusOr<HardwareSpec> ParseHardwareSpec(const std::string& text,
                                               const std::string& source) {
  HardwareSpec spec;
  FirstErrorCollector errors;
  google::protobuf::TextFormat::Parser parser;
  parser.RecordErrorsTo(&errors);
  if (!parser.ParseFromString(text, &spec)) {
    return absl::InvalidArgumentError(absl::StrCat(
        source, ":", errors.error().empty() ? " not a hardware spec" : errors.error()));
  }
  if (absl::Status status = CheckSpec(spec, source); !status.ok()) return status;
  return spec;
}

absl::StatusOr<HardwareSpec> LoadHardwareSpec(const std::string& path) {
  std::ifstream file(path);
  if (!file) return absl::NotFoundError(absl::StrCat(path, ": cannot read the hardware spec"));
  std::stringstream text;
  text << file.rdbuf();
  return ParseHardwareSpec(text.str(), path);
}

Link LinkForAxes(const HardwareSpec& spec, absl::Span<const std::string> axes) {
  if (axes.empty()) return spec.default_link();
  Link slowest;
  bool first = true;
  for (const std::string& name : axes) {
    const Link* link = &spec.default_link();
    for (const AxisLink& axis : spec.axis_links()) {
      if (axis.axis() == name) link = &axis.link();
    }
    if (first) {
      slowest = *link;
      first = false;
      continue;
    }
    slowest.set_bandwidth_bytes_per_second(
        std::min(slowest.bandwidth_bytes_per_second(), link->bandwidth_bytes_per_second()));
    slowest.set_latency_seconds(std::max(slowest.latency_seconds(), link->latency_seconds()));
  }
  return slowest;
}

}  // namespace tessel::cost_model
