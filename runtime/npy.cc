// The .npy reader and writer: the magic string, the Python-dict header and the raw
// little-endian data.
#include "runtime/npy.h"

#include <cerrno>
#include <cstdint>
#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "support/output_file.h"
#include "support/status_macros.h"

namespace tessel::runtime {
namespace {

// Data is copied as is, so the host must store numbers little-endian like the files do.
static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "npy I/O assumes a little-endian host");

constexpr char kMagic[] = "\x93NUMPY";
constexpr size_t kMagicSize = 6;
// NumPy pads the header so that the data starts at a multiple of 64 bytes.
constexpr size_t kAlignment = 64;

struct DtypeName {
  ElementType type;
  absl::string_view descr;
};

// What SerializeNpy writes for each type (the one-byte types use '|', like NumPy).
constexpr DtypeName kDtypes[] = {
    {ElementType::kPred, "|b1"}, {ElementType::kS8, "|i1"},        {ElementType::kS16, "<i2"},
    {ElementType::kS32, "<i4"},  {ElementType::kS64, "<i8"},       {ElementType::kU8, "|u1"},
    {ElementType::kU16, "<u2"},  {ElementType::kU32, "<u4"},       {ElementType::kU64, "<u8"},
    {ElementType::kF16, "<f2"},  {ElementType::kBF16, "bfloat16"}, {ElementType::kF32, "<f4"},
    {ElementType::kF64, "<f8"},  {ElementType::kC64, "<c8"},       {ElementType::kC128, "<c16"},
};

absl::string_view DescrOf(ElementType type) {
  for (const DtypeName& dtype : kDtypes) {
    if (dtype.type == type) return dtype.descr;
  }
  return "";
}

std::optional<ElementType> TypeOfDescr(absl::string_view descr) {
  for (const DtypeName& dtype : kDtypes) {
    if (dtype.descr == descr) return dtype.type;
    // '<' and '|' mean the same for one-byte types.
    if (dtype.descr[0] == '|' && descr.size() == dtype.descr.size() && descr[0] == '<' &&
        descr.substr(1) == dtype.descr.substr(1)) {
      return dtype.type;
    }
  }
  return std::nullopt;
}

// The header dictionary: {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }.
struct Header {
  std::string descr;
  bool fortranOrder = false;
  Shape shape;
};

// A recursive-descent reader for the subset of Python literals the header uses.
class HeaderParser {
 public:
  explicit HeaderParser(absl::string_view text) : text_(text) {}

  absl::StatusOr<Header> Parse() {
    Header header;
    bool seenDescr = false, seenOrder = false, seenShape = false;
    SkipSpace();
    if (!Consume('{')) return Error("expected '{'");
    while (true) {
      SkipSpace();
      if (Consume('}')) break;
      TESSEL_ASSIGN_OR_RETURN(std::string key, ParseString());
      SkipSpace();
      if (!Consume(':')) return Error(absl::StrCat("expected ':' after '", key, "'"));
      SkipSpace();
      if (key == "descr" && !seenDescr) {
        TESSEL_ASSIGN_OR_RETURN(header.descr, ParseString());
        seenDescr = true;
      } else if (key == "fortran_order" && !seenOrder) {
        TESSEL_ASSIGN_OR_RETURN(header.fortranOrder, ParseBool());
        seenOrder = true;
      } else if (key == "shape" && !seenShape) {
        TESSEL_ASSIGN_OR_RETURN(header.shape, ParseShape());
        seenShape = true;
      } else {
        return Error(absl::StrCat("unexpected or repeated key '", key, "'"));
      }
      SkipSpace();
      if (Consume(',')) continue;
      SkipSpace();
      if (!Consume('}')) return Error("expected ',' or '}'");
      break;
    }
    SkipSpace();
    if (pos_ != text_.size()) return Error("unexpected text after '}'");
    if (!seenDescr || !seenOrder || !seenShape) {
      return Error("needs the keys 'descr', 'fortran_order' and 'shape'");
    }
    return header;
  }

 private:
  absl::Status Error(absl::string_view message) const {
    return absl::InvalidArgumentError(absl::StrCat("bad header at offset ", pos_, ": ", message));
  }
  void SkipSpace() {
    while (pos_ < text_.size() && absl::ascii_isspace(static_cast<unsigned char>(text_[pos_]))) {
      ++pos_;
    }
  }
  bool Consume(char c) {
    if (pos_ < text_.size() && text_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  bool ConsumeWord(absl::string_view word) {
    if (text_.substr(pos_, word.size()) != word) return false;
    pos_ += word.size();
    return true;
  }

  // A quoted string without escapes (dtype names and keys have none).
  absl::StatusOr<std::string> ParseString() {
    if (pos_ >= text_.size() || (text_[pos_] != '\'' && text_[pos_] != '"')) {
      return Error("expected a quoted string");
    }
    char quote = text_[pos_++];
    size_t end = text_.find(quote, pos_);
    if (end == absl::string_view::npos) return Error("unterminated string");
    std::string value(text_.substr(pos_, end - pos_));
    pos_ = end + 1;
    return value;
  }

  absl::StatusOr<bool> ParseBool() {
    if (ConsumeWord("True")) return true;
    if (ConsumeWord("False")) return false;
    return Error("expected True or False");
  }

  // "()", "(3,)", "(2, 3)"; Python 2 wrote longs as "3L".
  absl::StatusOr<Shape> ParseShape() {
    if (!Consume('(')) return Error("expected '(' to open the shape");
    Shape shape;
    while (true) {
      SkipSpace();
      if (Consume(')')) return shape;
      size_t start = pos_;
      int64_t dim = 0;
      while (pos_ < text_.size() && absl::ascii_isdigit(static_cast<unsigned char>(text_[pos_]))) {
        if (dim > (int64_t{1} << 56)) return Error("dimension too large");
        dim = dim * 10 + (text_[pos_++] - '0');
      }
      if (pos_ == start) return Error("expected a non-negative dimension");
      Consume('L');
      shape.push_back(dim);
      SkipSpace();
      if (Consume(',')) continue;
      if (Consume(')')) return shape;
      return Error("expected ',' or ')' in the shape");
    }
  }

  absl::string_view text_;
  size_t pos_ = 0;
};

uint32_t ReadLittleEndian(absl::string_view bytes) {
  uint32_t value = 0;
  for (size_t i = bytes.size(); i > 0; --i) {
    value = (value << 8) | static_cast<unsigned char>(bytes[i - 1]);
  }
  return value;
}

// Prefixes `status`'s message with the file's name.
absl::Status InFile(absl::string_view name, const absl::Status& status) {
  return absl::Status(status.code(), absl::StrCat(name, ": ", status.message()));
}

// Where a file's data is and what it holds.
struct Layout {
  ElementType type;
  Shape shape;
  size_t dataOffset;
  uint64_t dataBytes;
};

// Reads the magic string and the header from `head` (the start of the file, at least
// through the header) and checks that a file of `fileSize` bytes holds exactly the data the
// header describes. With head too short for the header, says how much is needed in
// `needed` (when not null) and fails.
absl::StatusOr<Layout> ParseLayout(absl::string_view head, uint64_t fileSize,
                                   size_t* needed = nullptr) {
  if (head.size() < kMagicSize + 2 || head.substr(0, kMagicSize) != kMagic) {
    return absl::InvalidArgumentError("not a .npy file (bad magic string)");
  }
  int major = static_cast<unsigned char>(head[kMagicSize]);
  int minor = static_cast<unsigned char>(head[kMagicSize + 1]);
  // 1.0 has a 16-bit header length, 2.0 and 3.0 (which allows UTF-8 in the header) 32 bits.
  size_t lengthSize;
  if (major == 1 && minor == 0) {
    lengthSize = 2;
  } else if ((major == 2 || major == 3) && minor == 0) {
    lengthSize = 4;
  } else {
    return absl::InvalidArgumentError(
        absl::StrCat("unsupported .npy format version ", major, ".", minor));
  }
  size_t prefix = kMagicSize + 2 + lengthSize;
  if (fileSize < prefix) return absl::DataLossError("truncated header");
  if (head.size() < prefix) {
    if (needed != nullptr) *needed = prefix;
    return absl::DataLossError("truncated header");
  }
  size_t headerLength = ReadLittleEndian(head.substr(kMagicSize + 2, lengthSize));
  if (fileSize - prefix < headerLength) return absl::DataLossError("truncated header");
  if (head.size() - prefix < headerLength) {
    if (needed != nullptr) *needed = prefix + headerLength;
    return absl::DataLossError("truncated header");
  }
  TESSEL_ASSIGN_OR_RETURN(Header header, HeaderParser(head.substr(prefix, headerLength)).Parse());
  std::optional<ElementType> type = TypeOfDescr(header.descr);
  if (!type) {
    return absl::UnimplementedError(absl::StrCat("unsupported dtype '", header.descr, "'"));
  }
  if (header.fortranOrder) {
    return absl::UnimplementedError("Fortran-order arrays are not supported");
  }
  // The data size the shape implies, guarded against overflow.
  const uint64_t available = fileSize - prefix - headerLength;
  uint64_t expected = static_cast<uint64_t>(ElementTypeSize(*type));
  bool overflow = false;
  for (int64_t dim : header.shape) {
    overflow |= __builtin_mul_overflow(expected, static_cast<uint64_t>(dim), &expected);
  }
  for (int64_t dim : header.shape) {
    if (dim == 0) {
      expected = 0;
      overflow = false;
    }
  }
  std::string shape = absl::StrCat("(", absl::StrJoin(header.shape, ", "), ")");
  if (overflow || expected > available) {
    return absl::DataLossError(absl::StrCat("truncated data: shape ", shape, " needs ",
                                            overflow ? "more than 2^64" : absl::StrCat(expected),
                                            " bytes, found ", available));
  }
  if (expected < available) {
    return absl::DataLossError(
        absl::StrCat(available - expected, " unexpected bytes after the data of shape ", shape));
  }
  return Layout{*type, std::move(header.shape), prefix + headerLength, expected};
}

// Any nonzero byte is true; store the canonical 1.
void CanonicalizePred(Tensor& tensor) {
  absl::Span<std::byte> out = tensor.bytes();
  for (size_t i = 0; i < out.size(); ++i) {
    out[i] = std::byte{static_cast<unsigned char>(out[i] != std::byte{0})};
  }
}

absl::StatusOr<Tensor> Parse(absl::string_view bytes) {
  TESSEL_ASSIGN_OR_RETURN(Layout layout, ParseLayout(bytes, bytes.size()));
  // Every byte is written below.
  Tensor tensor = Tensor::Uninitialized(layout.type, layout.shape);
  if (layout.dataBytes > 0) {
    std::memcpy(tensor.bytes().data(), bytes.data() + layout.dataOffset, layout.dataBytes);
  }
  if (layout.type == ElementType::kPred) CanonicalizePred(tensor);
  return tensor;
}

// Reads a regular file of `fileSize` bytes: the header first, then the data straight into
// the tensor's buffer (reading byte by byte through a string and copying took longer than
// a large product).
absl::StatusOr<Tensor> ReadRegularFile(std::ifstream& in, uint64_t fileSize,
                                       absl::string_view path) {
  // Headers are short: NumPy writes them in a few hundred bytes.
  std::string head(std::min<uint64_t>(fileSize, 4096), '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  if (!in) return absl::DataLossError(absl::StrCat(path, ": read failed"));
  size_t needed = 0;
  absl::StatusOr<Layout> layout = ParseLayout(head, fileSize, &needed);
  if (!layout.ok() && needed > head.size()) {
    const size_t had = head.size();
    head.resize(needed);
    in.read(head.data() + had, static_cast<std::streamsize>(needed - had));
    if (!in) return absl::DataLossError(absl::StrCat(path, ": read failed"));
    layout = ParseLayout(head, fileSize);
  }
  if (!layout.ok()) return InFile(path, layout.status());
  Tensor tensor = Tensor::Uninitialized(layout->type, layout->shape);
  const uint64_t inHead = std::min<uint64_t>(head.size() - std::min(head.size(), layout->dataOffset),
                                             layout->dataBytes);
  char* out = reinterpret_cast<char*>(tensor.bytes().data());
  if (inHead > 0) std::memcpy(out, head.data() + layout->dataOffset, inHead);
  if (layout->dataBytes > inHead) {
    in.read(out + inHead, static_cast<std::streamsize>(layout->dataBytes - inHead));
    if (!in) return absl::DataLossError(absl::StrCat(path, ": read failed"));
  }
  if (layout->type == ElementType::kPred) CanonicalizePred(tensor);
  return tensor;
}

}  // namespace

absl::StatusOr<Tensor> ParseNpy(absl::string_view bytes, absl::string_view name) {
  absl::StatusOr<Tensor> tensor = Parse(bytes);
  if (!tensor.ok()) return InFile(name, tensor.status());
  return tensor;
}

std::string SerializeNpy(const Tensor& tensor) {
  std::string dict =
      absl::StrCat("{'descr': '", DescrOf(tensor.type()), "', 'fortran_order': False, 'shape': (",
                   absl::StrJoin(tensor.shape(), ", "), tensor.rank() == 1 ? ",), }" : "), }");
  // Pad with spaces and end with a newline so the data starts on an aligned offset.
  auto padded = [&](size_t lengthSize) {
    size_t unpadded = kMagicSize + 2 + lengthSize + dict.size() + 1;
    return dict.size() + 1 + (kAlignment - unpadded % kAlignment) % kAlignment;
  };
  bool version1 = padded(2) <= 0xFFFF;
  size_t lengthSize = version1 ? 2 : 4;
  size_t headerLength = padded(lengthSize);
  std::string out(kMagic, kMagicSize);
  out.push_back(version1 ? 1 : 2);
  out.push_back(0);
  for (size_t i = 0; i < lengthSize; ++i) out.push_back(static_cast<char>(headerLength >> (8 * i)));
  out += dict;
  out.append(headerLength - dict.size() - 1, ' ');
  out.push_back('\n');
  out.append(reinterpret_cast<const char*>(tensor.bytes().data()), tensor.byte_size());
  return out;
}

absl::StatusOr<Tensor> ReadNpy(absl::string_view path) {
  std::string file(path);
  // std::ifstream opens a directory and then throws from inside its read; ask first, so that a
  // directory named as an input is a message like any other unreadable file.
  std::error_code ignored;
  if (std::filesystem::is_directory(file, ignored)) {
    return absl::InvalidArgumentError(absl::StrCat(path, ": cannot open: ", std::strerror(EISDIR)));
  }
  std::ifstream in(file, std::ios::binary);
  if (!in) {
    int error = errno;
    return absl::Status(absl::ErrnoToStatusCode(error),
                        absl::StrCat(path, ": cannot open: ", std::strerror(error)));
  }
  // The size of a regular file, to read its data in one piece; other files (pipes) are
  // read to their end.
  std::error_code sizeError;
  const bool regular = std::filesystem::is_regular_file(file, sizeError);
  const uintmax_t fileSize = regular ? std::filesystem::file_size(file, sizeError) : 0;
  if (regular && !sizeError) {
    try {
      return ReadRegularFile(in, fileSize, path);
    } catch (const std::ios_base::failure&) {
      return absl::DataLossError(absl::StrCat(path, ": read failed"));
    }
  }
  std::string bytes;
  try {
    bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  } catch (const std::ios_base::failure&) {
    // libstdc++ throws on a read error (EIO, EISDIR) whatever the stream's exception mask.
    in.setstate(std::ios::badbit);
  }
  if (in.bad()) return absl::DataLossError(absl::StrCat(path, ": read failed"));
  return ParseNpy(bytes, path);
}

absl::Status WriteNpy(const Tensor& tensor, absl::string_view path) {
  // Through a temporary file renamed into place: a failed write leaves no partial .npy.
  return WriteOutputFile(path, SerializeNpy(tensor));
}

}  // namespace tessel::runtime
