// Tests of hlo.rng_bit_generator and the generators under it. The expected bits come from
// outside Tessel: Random123's known-answer vectors for the generators, and jax.lax.
// rng_bit_generator on XLA's CPU backend (JAX 0.10, key u32[4] {1, 2, 3, 4}, i.e. the ui64
// state {0x200000001, 0x400000003}) for the op.
#include <cstdint>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "runtime/kernel_test_util.h"
#include "runtime/kernels/counter_rng.h"

namespace tessel::runtime {
namespace {

using ::testing::ElementsAre;

TEST(CounterRngTest, ThreefryKnownAnswers) {
  EXPECT_THAT(rng::Threefry2x32({0, 0}, {0, 0}), ElementsAre(0x6b200159u, 0x99ba4efeu));
  EXPECT_THAT(rng::Threefry2x32({0xffffffffu, 0xffffffffu}, {0xffffffffu, 0xffffffffu}),
              ElementsAre(0x1cb996fcu, 0xbb002be7u));
  EXPECT_THAT(rng::Threefry2x32({0x243f6a88u, 0x85a308d3u}, {0x13198a2eu, 0x03707344u}),
              ElementsAre(0xc4923a9cu, 0x483df7a0u));
}

TEST(CounterRngTest, PhiloxKnownAnswers) {
  EXPECT_THAT(rng::Philox4x32({0, 0, 0, 0}, {0, 0}),
              ElementsAre(0x6627e8d5u, 0xe169c58du, 0xbc57ac4cu, 0x9b00dbd8u));
  EXPECT_THAT(rng::Philox4x32({0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu},
                              {0xffffffffu, 0xffffffffu}),
              ElementsAre(0x408f276du, 0x41c83b0eu, 0xa20bc7c6u, 0x6d5451fdu));
  EXPECT_THAT(rng::Philox4x32({0x243f6a88u, 0x85a308d3u, 0x13198a2eu, 0x03707344u},
                              {0xa4093822u, 0x299f31d0u}),
              ElementsAre(0xd16cfe09u, 0x94fdccebu, 0x5001e420u, 0x24126ea1u));
}

class RandomKernelsTest : public KernelTest {
 protected:
  // The op on the state JAX makes of the key {1, 2, 3, 4}; results: state, bits. A
  // `window` is of rank 2, and may start at %c3.
  std::vector<Tensor> Generate(absl::string_view algorithm, absl::string_view type,
                               absl::string_view window = "") {
    std::string program = absl::StrCat(
        "func.func @main(%s: tensor<2xui64>) -> (tensor<2xui64>, ", type, ") {\n",
        window.empty() ? "" : "  %c3 = hlo.constant dense<3> : tensor<i32>\n",
        "  %n, %b = hlo.rng_bit_generator %s, algorithm = ", algorithm, " ", window, " : ",
        "tensor<2xui64>", window.empty() ? "" : ", tensor<i32>, tensor<i32>", " -> ", type, "\n",
        "  return %n, %b : tensor<2xui64>, ", type, "\n}");
    absl::StatusOr<std::vector<Tensor>> results =
        Run(program, {Tensor::FromVector<uint64_t>({2}, {0x200000001, 0x400000003})});
    EXPECT_TRUE(results.ok()) << results.status();
    return results.ok() ? *results : std::vector<Tensor>(2, Tensor::Scalar<float>(0));
  }
};

TEST_F(RandomKernelsTest, ThreefryMatchesXla) {
  // u32[4,6]: cut in half along dimension 0; 12 calls advance the counter from 3 to 15.
  std::vector<Tensor> r = Generate("three_fry", "tensor<4x6xui32>");
  EXPECT_THAT(r[0], BitwiseEq(Tensor::FromVector<uint64_t>({2}, {0x200000001, 0x40000000f})));
  EXPECT_THAT(r[1].ToVector<uint32_t>(),
              testing::ElementsAreArray(
                  {1576285164u, 740599976u,  2436392515u, 1335360347u, 3981753173u, 3812192618u,
                   2249660814u, 2425682526u, 1497962777u, 2260235687u, 3953550934u, 2023144656u,
                   2959620048u, 3014899208u, 1878941568u, 3405818142u, 1801137613u, 3887489914u,
                   1759477693u, 3167314751u, 3159671019u, 3736842863u, 17593395u,   3352391975u}));
  // u8[5]: odd, so cut along its largest dimension (3 calls); the low byte of each word.
  r = Generate("three_fry", "tensor<5xui8>");
  EXPECT_THAT(r[0], BitwiseEq(Tensor::FromVector<uint64_t>({2}, {0x200000001, 0x400000006})));
  EXPECT_THAT(r[1], BitwiseEq(Tensor::FromVector<uint8_t>({5}, {236, 142, 168, 94, 67})));
  // u64[3]: one call per element, low word first.
  r = Generate("three_fry", "tensor<3xui64>");
  EXPECT_THAT(r[0], BitwiseEq(Tensor::FromVector<uint64_t>({2}, {0x200000001, 0x400000006})));
  EXPECT_THAT(r[1], BitwiseEq(Tensor::FromVector<uint64_t>(
                        {3}, {9662219624799024108u, 10418227120389269672u, 6433701140276733507u})));
}

TEST_F(RandomKernelsTest, PhiloxMatchesXla) {
  // u32[3,5]: four elements per call, 4 calls.
  std::vector<Tensor> r = Generate("philox", "tensor<3x5xui32>");
  EXPECT_THAT(r[0], BitwiseEq(Tensor::FromVector<uint64_t>({2}, {0x200000001, 0x400000007})));
  EXPECT_THAT(r[1].ToVector<uint32_t>(),
              testing::ElementsAreArray({512747620u, 1298009047u, 1267190206u, 761827841u,
                                         1383286907u, 1639995030u, 2756207988u, 2154813423u,
                                         2586587831u, 3476143680u, 1796768528u, 312929065u,
                                         595050331u, 3179752574u, 3495892623u}));
  // default is philox.
  EXPECT_THAT(Generate("default", "tensor<3x5xui32>")[1], BitwiseEq(r[1]));
  r = Generate("philox", "tensor<2x3xui16>");
  EXPECT_THAT(r[1], BitwiseEq(Tensor::FromVector<uint16_t>(
                        {2, 3}, {59492, 3031, 51646, 37377, 18555, 22166})));
  r = Generate("philox", "tensor<3xui64>");
  EXPECT_THAT(r[0], BitwiseEq(Tensor::FromVector<uint64_t>({2}, {0x200000001, 0x400000005})));
  EXPECT_THAT(r[1], BitwiseEq(Tensor::FromVector<uint64_t>(
                        {3}, {5574906407289874532u, 3272025663544478142u, 7043725020835825787u})));
}

TEST_F(RandomKernelsTest, WindowIsTheBoxOfTheWholeOutput) {
  for (absl::string_view algorithm : {"three_fry", "philox"}) {
    SCOPED_TRACE(algorithm);
    std::vector<Tensor> whole = Generate(algorithm, "tensor<7x5xui16>");
    // Rows 3..6 and columns 3..7 of the 7x5 output: columns 5..7 lie outside and are 0.
    std::vector<Tensor> box =
        Generate(algorithm, "tensor<4x5xui16>", "window of [7, 5] at [%c3, %c3]");
    EXPECT_THAT(box[0], BitwiseEq(whole[0]));  // the state of the whole output
    absl::Span<const uint16_t> all = whole[1].data<uint16_t>();
    absl::Span<const uint16_t> part = box[1].data<uint16_t>();
    for (int64_t i = 0; i < 4; ++i) {
      for (int64_t j = 0; j < 5; ++j) {
        const uint16_t want = j + 3 < 5 ? all[(i + 3) * 5 + j + 3] : 0;
        EXPECT_EQ(part[i * 5 + j], want) << "at " << i << ", " << j;
      }
    }
  }
}

TEST_F(RandomKernelsTest, PhiloxCounterCarriesIntoTheHighWordOfAThreeElementState) {
  // Counter low word at its maximum: the second call carries into state[2].
  absl::StatusOr<std::vector<Tensor>> r = Run(R"(
    func.func @main(%s: tensor<3xui64>) -> (tensor<3xui64>, tensor<8xui32>) {
      %n, %b = hlo.rng_bit_generator %s, algorithm = philox : tensor<3xui64> -> tensor<8xui32>
      return %n, %b : tensor<3xui64>, tensor<8xui32>
    })",
                                              {Tensor::FromVector<uint64_t>(
                                                  {3}, {7, 0xffffffffffffffffu, 5})});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_THAT((*r)[0], BitwiseEq(Tensor::FromVector<uint64_t>({3}, {7, 1, 6})));
  std::array<uint32_t, 4> second = rng::Philox4x32({0, 0, 6, 0}, {7, 0});
  EXPECT_THAT((*r)[1].ToVector<uint32_t>(),
              testing::ElementsAre(testing::_, testing::_, testing::_, testing::_, second[0],
                                   second[1], second[2], second[3]));
}

}  // namespace
}  // namespace tessel::runtime
