// Tests of .npy reading (golden files written by NumPy, see testdata/make_npy_testdata.py),
// writing, round trips and error reporting.
#include "runtime/npy.h"

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <limits>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "support/status_matchers.h"

namespace tessel::runtime {
namespace {

using ::tessel::testing::IsOk;
using ::tessel::testing::StatusIs;

constexpr float kInf = std::numeric_limits<float>::infinity();

std::string Golden(absl::string_view name) { return absl::StrCat("runtime/testdata/", name); }

std::string TempPath(absl::string_view name) {
  const char* dir = std::getenv("TEST_TMPDIR");
  return absl::StrCat(dir ? dir : "/tmp", "/", name);
}

std::string FileBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

MATCHER_P(BitwiseEq, expected, "is bitwise equal to " + expected.ToString()) {
  *result_listener << "which is " << arg.ToString();
  return arg.BitwiseEquals(expected);
}

struct GoldenCase {
  const char* file;
  Tensor expected;
};

// The values make_npy_testdata.py writes.
std::vector<GoldenCase> GoldenCases() {
  return {
      {"pred_2x3.npy", Tensor::FromVector<bool>({2, 3}, {true, false, true, false, false, true})},
      {"s8_4.npy", Tensor::FromVector<int8_t>({4}, {-128, -1, 0, 127})},
      {"s16_3.npy", Tensor::FromVector<int16_t>({3}, {-32768, 2, 32767})},
      {"s32_2x3.npy",
       Tensor::FromVector<int32_t>({2, 3}, {std::numeric_limits<int32_t>::min(), -1, 0, 1, 2,
                                            std::numeric_limits<int32_t>::max()})},
      {"s64_2.npy", Tensor::FromVector<int64_t>({2}, {std::numeric_limits<int64_t>::min(),
                                                      std::numeric_limits<int64_t>::max()})},
      {"u8_3.npy", Tensor::FromVector<uint8_t>({3}, {0, 1, 255})},
      {"u16_2.npy", Tensor::FromVector<uint16_t>({2}, {0, 65535})},
      {"u32_2.npy", Tensor::FromVector<uint32_t>({2}, {7, 4294967295u})},
      {"u64_2.npy", Tensor::FromVector<uint64_t>({2}, {0, std::numeric_limits<uint64_t>::max()})},
      {"f16_4.npy",
       Tensor::FromVector<f16>({4}, {f16(1.5f), f16(-0.0f), f16(kInf), f16(65504.0f)})},
      {"f32_2x2.npy", Tensor::FromVector<float>({2, 2}, {0.5f, -2.0f, std::nanf(""), -kInf})},
      {"f64_3.npy", Tensor::FromVector<double>({3}, {0.1, -1e300, 5e-324})},
      {"bf16_3.npy", Tensor::FromVector<bf16>({3}, {bf16(1.0f), bf16(-2.5f), bf16(0.0078125f)})},
      {"f32_scalar.npy", Tensor::Scalar<float>(3.25f)},
      {"f32_0x3.npy", Tensor::Zeros(ElementType::kF32, {0, 3})},
      {"s32_version2.npy", Tensor::FromVector<int32_t>({2, 2}, {1, 2, 3, 4})},
      {"complex64.npy", Tensor::FromVector<c64>({1}, {c64(1.0f, 2.0f)})},
  };
}

TEST(NpyTest, ReadsFilesWrittenByNumPy) {
  for (const GoldenCase& golden : GoldenCases()) {
    absl::StatusOr<Tensor> tensor = ReadNpy(Golden(golden.file));
    ASSERT_THAT(tensor, IsOk()) << golden.file;
    EXPECT_THAT(*tensor, BitwiseEq(golden.expected)) << golden.file;
  }
}

TEST(NpyTest, WritesTheBytesNumPyWrites) {
  // Same header text and padding as NumPy (version 1.0 files only; s32_version2 was
  // written as 2.0 on purpose).
  for (const GoldenCase& golden : GoldenCases()) {
    if (std::string(golden.file) == "s32_version2.npy") continue;
    EXPECT_EQ(SerializeNpy(golden.expected), FileBytes(Golden(golden.file))) << golden.file;
  }
}

TEST(NpyTest, RoundTripsThroughAFileForEveryElementType) {
  std::vector<Tensor> tensors = {
      Tensor::FromVector<bool>({3}, {true, false, true}),
      Tensor::FromVector<int8_t>({2, 1}, {-5, 6}),
      Tensor::FromVector<int16_t>({1}, {-300}),
      Tensor::FromVector<int32_t>({}, {42}),
      Tensor::FromVector<int64_t>({2}, {-1, 1}),
      Tensor::FromVector<uint8_t>({2}, {9, 200}),
      Tensor::FromVector<uint16_t>({1, 1, 2}, {1, 60000}),
      Tensor::FromVector<uint32_t>({1}, {4000000000u}),
      Tensor::FromVector<uint64_t>({1}, {1}),
      Tensor::FromVector<f16>({2}, {f16(0.333f), f16(-kInf)}),
      Tensor::FromVector<bf16>({2, 2}, {bf16(1), bf16(-1), bf16(std::nanf("")), bf16(-0.0f)}),
      Tensor::FromVector<c64>({2}, {c64(1.5f, -2.0f), c64(-0.0f, kInf)}),
      Tensor::FromVector<c128>({1, 2}, {c128(0.1, 1e300), c128(std::nan(""), -3.0)}),
      Tensor::FromVector<float>({3}, {1e-45f, -0.0f, 3.5f}),
      Tensor::FromVector<double>({1}, {-7.25}),
      Tensor::Zeros(ElementType::kS16, {4, 0, 2}),
  };
  for (size_t i = 0; i < tensors.size(); ++i) {
    std::string path = TempPath(absl::StrCat("round_trip_", i, ".npy"));
    ASSERT_THAT(WriteNpy(tensors[i], path), IsOk());
    absl::StatusOr<Tensor> back = ReadNpy(path);
    ASSERT_THAT(back, IsOk());
    EXPECT_THAT(*back, BitwiseEq(tensors[i]));
  }
}

TEST(NpyTest, HeadersAreAlignedAndUseVersion2OnlyWhenNeeded) {
  std::string small = SerializeNpy(Tensor::FromVector<float>({2}, {1, 2}));
  EXPECT_EQ(small[6], 1);  // version 1.0
  size_t header =
      static_cast<unsigned char>(small[8]) | (static_cast<unsigned char>(small[9]) << 8);
  EXPECT_EQ((10 + header) % 64, 0u);
  EXPECT_EQ(small[10 + header - 1], '\n');
  // 30000 dimensions of size 1 make a header longer than 65535 bytes.
  Tensor tall = Tensor::Zeros(ElementType::kU8, Shape(30000, 1));
  std::string big = SerializeNpy(tall);
  EXPECT_EQ(big[6], 2);
  absl::StatusOr<Tensor> back = ParseNpy(big);
  ASSERT_THAT(back, IsOk());
  EXPECT_THAT(*back, BitwiseEq(tall));
}

TEST(NpyTest, RejectsWhatTesselCannotRepresent) {
  EXPECT_THAT(ReadNpy(Golden("fortran_order.npy")),
              StatusIs(absl::StatusCode::kUnimplemented,
                       "runtime/testdata/fortran_order.npy: Fortran-order arrays"));
  EXPECT_THAT(ReadNpy(Golden("big_endian.npy")),
              StatusIs(absl::StatusCode::kUnimplemented,
                       "runtime/testdata/big_endian.npy: unsupported dtype '>i4'"));
}

TEST(NpyTest, MissingFileIsNotFound) {
  EXPECT_THAT(ReadNpy("runtime/testdata/no_such_file.npy"),
              StatusIs(absl::StatusCode::kNotFound, "runtime/testdata/no_such_file.npy"));
}

// A version 1.0 file with `dict` as its header (unpadded) and `data` after it.
std::string WithHeader(absl::string_view dict, absl::string_view data) {
  std::string header = absl::StrCat(dict, "\n");
  std::string out = "\x93NUMPY";
  out += std::string("\x01\x00", 2);
  out.push_back(static_cast<char>(header.size() & 0xFF));
  out.push_back(static_cast<char>(header.size() >> 8));
  return absl::StrCat(out, header, data);
}

TEST(NpyTest, MalformedBytesNameTheSource) {
  EXPECT_THAT(ParseNpy("PK\x03\x04 not npy", "x.npy"),
              StatusIs(absl::StatusCode::kInvalidArgument, "x.npy: not a .npy file"));
  std::string badVersion = SerializeNpy(Tensor::Scalar<float>(1));
  badVersion[6] = 4;
  EXPECT_THAT(ParseNpy(badVersion, "x.npy"),
              StatusIs(absl::StatusCode::kInvalidArgument, "version 4.0"));
  EXPECT_THAT(ParseNpy(std::string("\x93NUMPY\x01\x00\x50", 9), "x.npy"),
              StatusIs(absl::StatusCode::kDataLoss, "x.npy: truncated header"));
  std::string four(4, '\0');
  EXPECT_THAT(ParseNpy(WithHeader("{'descr': '<f4', 'shape': (1,), }", four), "x.npy"),
              StatusIs(absl::StatusCode::kInvalidArgument, "needs the keys"));
  EXPECT_THAT(
      ParseNpy(WithHeader("{'descr': '<f4', 'fortran_order': False, 'shape': (1,)", four), "x.npy"),
      StatusIs(absl::StatusCode::kInvalidArgument, "expected ',' or '}'"));
  EXPECT_THAT(
      ParseNpy(WithHeader("{'descr': '<f4', 'fortran_order': No, 'shape': (1,), }", four), "x.npy"),
      StatusIs(absl::StatusCode::kInvalidArgument, "expected True or False"));
  EXPECT_THAT(
      ParseNpy(WithHeader("{'descr': '<f4', 'fortran_order': False, 'shape': (-1,), }", four),
               "x.npy"),
      StatusIs(absl::StatusCode::kInvalidArgument, "expected a non-negative dimension"));
  EXPECT_THAT(ParseNpy(WithHeader("{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, "
                                  "'shape': (1,), }",
                                  four),
                       "x.npy"),
              StatusIs(absl::StatusCode::kInvalidArgument, "repeated key 'descr'"));
}

TEST(NpyTest, AcceptsHeaderVariantsNumPyHasWritten) {
  // Double quotes, Python 2 longs, '<' for a one-byte type, no trailing comma.
  std::string bytes =
      WithHeader("{\"descr\": \"<i1\", \"fortran_order\": False, \"shape\": (2L, 1L)}", "\x05\xfb");
  absl::StatusOr<Tensor> tensor = ParseNpy(bytes);
  ASSERT_THAT(tensor, IsOk());
  EXPECT_THAT(*tensor, BitwiseEq(Tensor::FromVector<int8_t>({2, 1}, {5, -5})));
  // Any nonzero byte of a pred is true.
  absl::StatusOr<Tensor> preds = ParseNpy(WithHeader(
      "{'descr': '|b1', 'fortran_order': False, 'shape': (2,), }", std::string("\x00\x07", 2)));
  ASSERT_THAT(preds, IsOk());
  EXPECT_THAT(*preds, BitwiseEq(Tensor::FromVector<bool>({2}, {false, true})));
}

TEST(NpyTest, DataOfTheWrongSizeIsDataLoss) {
  std::string full = SerializeNpy(Tensor::FromVector<int32_t>({3}, {1, 2, 3}));
  EXPECT_THAT(ParseNpy(full.substr(0, full.size() - 1), "t.npy"),
              StatusIs(absl::StatusCode::kDataLoss,
                       "t.npy: truncated data: shape (3) needs 12 bytes, found 11"));
  EXPECT_THAT(
      ParseNpy(full + "x", "t.npy"),
      StatusIs(absl::StatusCode::kDataLoss, "1 unexpected bytes after the data of shape (3)"));
  // A shape whose byte count overflows 64 bits.
  EXPECT_THAT(ParseNpy(WithHeader("{'descr': '<f8', 'fortran_order': False, "
                                  "'shape': (72057594037927936, 4096), }",
                                  ""),
                       "t.npy"),
              StatusIs(absl::StatusCode::kDataLoss, "needs more than 2^64 bytes"));
  // A zero dimension after dimensions whose product overflows: no data, an empty tensor.
  absl::StatusOr<Tensor> empty = ParseNpy(
      WithHeader("{'descr': '<f4', 'fortran_order': False, "
                 "'shape': (4294967296, 4294967296, 0), }",
                 ""),
      "t.npy");
  ASSERT_TRUE(empty.ok()) << empty.status();
  EXPECT_EQ(empty->num_elements(), 0);
  EXPECT_EQ(empty->shape(), (Shape{int64_t{1} << 32, int64_t{1} << 32, 0}));
}

// ReadNpy reads a regular file's header and then its data straight into the tensor; it
// must accept and reject exactly what ParseNpy does with the same bytes.
TEST(NpyTest, FilesReadAsTheirBytesParse) {
  std::string ints = SerializeNpy(Tensor::FromVector<int32_t>({3}, {1, 2, 3}));
  std::string big = SerializeNpy(Tensor::FromVector<float>({3000}, std::vector<float>(3000, 2.5f)));
  // A header longer than the first read, with data after it.
  std::string tall = SerializeNpy(Tensor::Zeros(ElementType::kU8, Shape(3000, 1)));
  std::string preds = WithHeader("{'descr': '|b1', 'fortran_order': False, 'shape': (3,), }",
                                 std::string("\x00\x07\x01", 3));
  const std::vector<std::string> files = {
      ints,
      ints.substr(0, ints.size() - 1),
      ints + "x",
      big,
      big.substr(0, big.size() - 5),
      tall,
      tall.substr(0, 5000),
      tall.substr(0, tall.size() - 1),
      preds,
      "",
      "\x93NU",
      std::string("\x93NUMPY\x01\x00\x50", 9),
      SerializeNpy(Tensor::Zeros(ElementType::kF32, {2, 0})),
  };
  for (size_t i = 0; i < files.size(); ++i) {
    std::string path = TempPath(absl::StrCat("file_", i, ".npy"));
    {
      std::ofstream out(path, std::ios::binary);
      out << files[i];
    }
    absl::StatusOr<Tensor> read = ReadNpy(path);
    absl::StatusOr<Tensor> parsed = ParseNpy(files[i], path);
    ASSERT_EQ(read.status(), parsed.status()) << "file " << i;
    if (read.ok()) {
      EXPECT_THAT(*read, BitwiseEq(*parsed)) << "file " << i;
    }
  }
}

}  // namespace
}  // namespace tessel::runtime
