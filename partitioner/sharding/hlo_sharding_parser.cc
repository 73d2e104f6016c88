// Parser of XLA's HLO text form of shardings (HloSharding::Parse, see hlo_sharding.h).
// Errors name the 0-based offset into the text where parsing stopped.
#include <cctype>
#include <limits>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "partitioner/sharding/hlo_sharding.h"

namespace tessel::sharding {
namespace {

class ShardingParser {
 public:
  explicit ShardingParser(absl::string_view text) : text_(text) {}

  absl::StatusOr<HloSharding> ParseAll() {
    absl::StatusOr<HloSharding> sharding = ParseSharding();
    if (!sharding.ok()) return sharding;
    SkipSpace();
    if (pos_ != text_.size()) return Error("the end of the sharding");
    return sharding;
  }

 private:
  // Skips white space and `/* ... */` comments.
  void SkipSpace() {
    while (pos_ < text_.size()) {
      if (std::isspace(static_cast<unsigned char>(text_[pos_]))) {
        ++pos_;
      } else if (text_.substr(pos_, 2) == "/*") {
        size_t end = text_.find("*/", pos_ + 2);
        pos_ = end == absl::string_view::npos ? text_.size() : end + 2;
      } else {
        return;
      }
    }
  }

  bool Consume(absl::string_view token) {
    SkipSpace();
    if (text_.substr(pos_, token.size()) != token) return false;
    pos_ += token.size();
    return true;
  }

  absl::Status ErrorAt(size_t pos, absl::string_view message) {
    return absl::InvalidArgumentError(
        absl::StrCat(message, " at offset ", pos, " of sharding \"", text_, "\""));
  }
  absl::Status Error(absl::string_view expected) {
    SkipSpace();
    return ErrorAt(pos_, absl::StrCat("expected ", expected));
  }

  absl::Status Expect(absl::string_view token) {
    if (Consume(token)) return absl::OkStatus();
    return Error(absl::StrCat("'", token, "'"));
  }

  // A keyword: letters and underscores.
  std::string ParseWord() {
    SkipSpace();
    size_t begin = pos_;
    while (pos_ < text_.size() &&
           (std::isalpha(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_')) {
      ++pos_;
    }
    return std::string(text_.substr(begin, pos_ - begin));
  }

  absl::StatusOr<int64_t> ParseInt() {
    SkipSpace();
    size_t begin = pos_;
    int64_t value = 0;
    while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) {
      int digit = text_[pos_] - '0';
      if (value > (std::numeric_limits<int64_t>::max() - digit) / 10) {
        return ErrorAt(begin, "integer out of range");
      }
      value = value * 10 + digit;
      ++pos_;
    }
    if (pos_ == begin) return Error("a non-negative integer");
    return value;
  }

  // `open int, int, ... close`; the list may be empty.
  absl::StatusOr<std::vector<int64_t>> ParseIntList(absl::string_view open,
                                                    absl::string_view close) {
    absl::Status status = Expect(open);
    if (!status.ok()) return status;
    std::vector<int64_t> values;
    if (Consume(close)) return values;
    do {
      absl::StatusOr<int64_t> value = ParseInt();
      if (!value.ok()) return value.status();
      values.push_back(*value);
    } while (Consume(","));
    status = Expect(close);
    if (!status.ok()) return status;
    return values;
  }

  // Inside a tuple (`in_tuple`) an element may not be a tuple itself; saying so at its first
  // brace keeps the recursion two levels deep whatever the input's nesting.
  absl::StatusOr<HloSharding> ParseSharding(bool in_tuple = false) {
    size_t open_pos = pos_;
    absl::Status status = Expect("{");
    if (!status.ok()) return status;
    SkipSpace();
    if (text_.substr(pos_, 1) == "{" || (in_tuple && text_.substr(pos_, 1) == "}")) {
      if (in_tuple) return ErrorAt(open_pos, "a tuple element must not be a tuple");
      return ParseTupleRest();
    }
    if (Consume("}")) return HloSharding::Tuple({});
    size_t keyword_pos = pos_;
    std::string keyword = ParseWord();
    absl::StatusOr<HloSharding> sharding = absl::InternalError("unset");
    if (keyword == "replicated") {
      sharding = HloSharding::Replicated();
    } else if (keyword == "manual") {
      sharding = HloSharding::Manual();
    } else if (keyword == "unreduced") {
      sharding = HloSharding::Unreduced();
    } else if (keyword == "maximal") {
      status = Expect("device");
      if (status.ok()) status = Expect("=");
      if (!status.ok()) return status;
      size_t device_pos = pos_;
      absl::StatusOr<int64_t> device = ParseInt();
      if (!device.ok()) return device.status();
      sharding = HloSharding::Maximal(*device);
      if (!sharding.ok()) return ErrorAt(device_pos, sharding.status().message());
    } else if (keyword == "devices") {
      sharding = ParseTiledRest(keyword_pos);
      if (!sharding.ok()) return sharding;
    } else if (keyword == "unknown" || keyword == "metadata" || keyword == "shard_as" ||
               keyword == "shard_like") {
      return ErrorAt(keyword_pos, absl::StrCat("unsupported sharding attribute '", keyword, "'"));
    } else {
      return ErrorAt(keyword_pos,
                     "expected 'replicated', 'manual', 'unreduced', 'maximal' or 'devices'");
    }
    SkipSpace();
    if (!Consume("}")) {
      size_t here = pos_;
      std::string word = ParseWord();
      if (word == "metadata" || word == "shard_as" || word == "shard_like") {
        return ErrorAt(here, absl::StrCat("unsupported sharding attribute '", word, "'"));
      }
      pos_ = here;
      return Error("'}'");
    }
    return sharding;
  }

  // After the first `{` of a tuple: `{...}, {...}}`.
  absl::StatusOr<HloSharding> ParseTupleRest() {
    std::vector<HloSharding> elements;
    do {
      SkipSpace();
      size_t element_pos = pos_;
      absl::StatusOr<HloSharding> element = ParseSharding(/*in_tuple=*/true);
      if (!element.ok()) return element;
      if (element->IsTuple()) return ErrorAt(element_pos, "a tuple element must not be a tuple");
      elements.push_back(*std::move(element));
    } while (Consume(","));
    absl::Status status = Expect("}");
    if (!status.ok()) return status;
    return HloSharding::Tuple(std::move(elements));
  }

  // After `devices`: `=[dims]` then `<=[reshape]T(perm)` or a device list, then the trailing
  // dim attributes.
  absl::StatusOr<HloSharding> ParseTiledRest(size_t devices_pos) {
    absl::Status status = Expect("=");
    if (!status.ok()) return status;
    absl::StatusOr<std::vector<int64_t>> dims = ParseIntList("[", "]");
    if (!dims.ok()) return dims.status();
    absl::StatusOr<TileAssignment> tiles = absl::InternalError("unset");
    if (Consume("<=")) {
      absl::StatusOr<std::vector<int64_t>> reshape = ParseIntList("[", "]");
      if (!reshape.ok()) return reshape.status();
      std::vector<int> perm;
      SkipSpace();
      if (Consume("T")) {
        absl::StatusOr<std::vector<int64_t>> values = ParseIntList("(", ")");
        if (!values.ok()) return values.status();
        perm.assign(values->begin(), values->end());
      } else {
        for (size_t i = 0; i < reshape->size(); ++i) perm.push_back(static_cast<int>(i));
      }
      tiles = TileAssignment::CreateIota(*dims, *reshape, perm);
    } else {
      std::vector<int64_t> devices;
      do {
        absl::StatusOr<int64_t> device = ParseInt();
        if (!device.ok()) return device.status();
        devices.push_back(*device);
      } while (Consume(","));
      tiles = TileAssignment::CreateExplicit(*dims, devices);
    }
    if (!tiles.ok()) return ErrorAt(devices_pos, tiles.status().message());

    std::vector<SubgroupType> types;
    bool saw_replicate = false, saw_dims = false;
    while (true) {
      SkipSpace();
      size_t attribute_pos = pos_;
      std::string word = ParseWord();
      // XLA writes at most one of the two: they describe the same trailing dims.
      if ((word == "last_tile_dim_replicate" || word == "last_tile_dims") &&
          (saw_replicate || saw_dims)) {
        return ErrorAt(attribute_pos,
                       absl::StrCat("'", word, "' after ",
                                    saw_replicate ? "last_tile_dim_replicate" : "last_tile_dims"));
      }
      if (word == "last_tile_dim_replicate") {
        saw_replicate = true;
        types.push_back(SubgroupType::kReplicated);
      } else if (word == "last_tile_dims") {
        saw_dims = true;
        status = Expect("=");
        if (status.ok()) status = Expect("{");
        if (!status.ok()) return status;
        do {
          SkipSpace();
          size_t type_pos = pos_;
          std::string type = ParseWord();
          if (type == "manual") {
            types.push_back(SubgroupType::kManual);
          } else if (type == "unreduced") {
            types.push_back(SubgroupType::kUnreduced);
          } else if (type == "replicated") {
            types.push_back(SubgroupType::kReplicated);
          } else {
            return ErrorAt(type_pos, "expected 'manual', 'unreduced' or 'replicated'");
          }
        } while (Consume(","));
        status = Expect("}");
        if (!status.ok()) return status;
      } else {
        pos_ = attribute_pos;
        break;
      }
    }
    absl::StatusOr<HloSharding> sharding = HloSharding::Tiled(*std::move(tiles), types);
    if (!sharding.ok()) return ErrorAt(devices_pos, sharding.status().message());
    return sharding;
  }

  absl::string_view text_;
  size_t pos_ = 0;
};

}  // namespace

absl::StatusOr<HloSharding> HloSharding::Parse(absl::string_view text) {
  return ShardingParser(text).ParseAll();
}

}  // namespace tessel::sharding
