//===- TensorCoreArithmeticTest.cpp - Tests of the tensor-core model ------===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//
//
// Each case is derived by hand from the model's statement (the header) and
// chosen so that a plainer model gives another answer: one rounding of the
// exact sum, the exact sum truncated, products aligned by their true
// exponent, saturating truncation, sequential f32 additions.
//
//===----------------------------------------------------------------------===//

#include "TensorCoreArithmetic.h"

#include "gtest/gtest.h"

#include <cmath>

using namespace mlir::tirx::interp;
using llvm::APFloat;
using llvm::APInt;

namespace {

APFloat number(const llvm::fltSemantics &semantics, double value) {
  APFloat result(value);
  bool losesInfo = false;
  result.convert(semantics, APFloat::rmNearestTiesToEven, &losesInfo);
  EXPECT_FALSE(losesInfo) << value;
  return result;
}

/// The f32 (or f16) bits of c + sum a[i] b[i] in `format`, all values
/// given as doubles exactly representable in their formats.
uint64_t dot(const TensorCoreFormat &format, std::vector<double> a,
             std::vector<double> b, double c) {
  llvm::SmallVector<APFloat> first, second;
  for (double x : a)
    first.push_back(number(*format.inputA, x));
  for (double x : b)
    second.push_back(number(*format.inputB, x));
  return tensorCoreDot(format, first, second, number(*format.accumulator, c))
      .bitcastToAPInt()
      .getZExtValue();
}

TensorCoreFormat format(llvm::StringRef a, llvm::StringRef b,
                        llvm::StringRef c) {
  std::optional<TensorCoreFormat> result = getTensorCoreFormat(a, b, c);
  EXPECT_TRUE(result.has_value());
  return *result;
}

TEST(TensorCoreArithmetic, Formats) {
  EXPECT_EQ(format("f16", "f16", "f32").blockSize, 16u);
  EXPECT_EQ(format("bf16", "bf16", "f32").blockSize, 16u);
  EXPECT_EQ(format("tf32", "tf32", "f32").blockSize, 8u);
  EXPECT_EQ(format("e4m3", "e5m2", "f32").blockSize, 0u);
  EXPECT_FALSE(getTensorCoreFormat("f16", "bf16", "f32"));
  EXPECT_FALSE(getTensorCoreFormat("f16", "e4m3", "f32"));
  EXPECT_FALSE(getTensorCoreFormat("f16", "f16", "f64"));
}

// 1 - 2^-24 + 2^-25 = 1 - 2^-25: aligned at 2^-1 every bit is kept, and the
// sum truncates to 1 - 2^-24; one rounding to nearest would tie to 1.
TEST(TensorCoreArithmetic, RoundsTowardZeroToF32) {
  TensorCoreFormat f16 = format("f16", "f16", "f32");
  EXPECT_EQ(dot(f16, {std::ldexp(1.0, -12)}, {std::ldexp(1.0, -13)},
                1 - std::ldexp(1.0, -24)),
            0x3f7fffffu);
}

// 1 - 2^-26: the product sits one bit below the 25 kept under 2^0, so it
// is truncated away and D is 1; truncating the exact sum would give
// 1 - 2^-24.
TEST(TensorCoreArithmetic, TruncatesEachTermBeforeSumming) {
  TensorCoreFormat f16 = format("f16", "f16", "f32");
  EXPECT_EQ(dot(f16, {std::ldexp(1.0, -13)}, {-std::ldexp(1.0, -13)}, 1.0),
            0x3f800000u);
}

// 1.5 * 1.5 - 1.5 * 1.5 + 3 2^-26: products align at 2^(0 + 0) although
// 2.25 is above 2, so c keeps the bits down to 2^-25: D = 2^-25. Aligned
// at 2^1, c would vanish (D = +0); exactly, D = 3 2^-26.
TEST(TensorCoreArithmetic, AlignsProductsByTheSumOfExponents) {
  TensorCoreFormat bf16 = format("bf16", "bf16", "f32");
  EXPECT_EQ(dot(bf16, {1.5, 1.5}, {1.5, -1.5}, 3 * std::ldexp(1.0, -26)),
            0x33000000u);
}

TEST(TensorCoreArithmetic, BlocksOfSixteenChainThroughTheAccumulator) {
  // 32 products of k 32 (two blocks): 2^-25 in the first block is kept
  // against c = 1 - 2^-24, the sum truncates; the second block adds zeros.
  TensorCoreFormat f16 = format("f16", "f16", "f32");
  std::vector<double> a(32, 0.0), b(32, 0.0);
  a[0] = std::ldexp(1.0, -12);
  b[0] = std::ldexp(1.0, -13);
  EXPECT_EQ(dot(f16, a, b, 1 - std::ldexp(1.0, -24)), 0x3f7fffffu);
  // The same product in the second block: the first block's result is c
  // itself, and the second sums to the same value.
  std::swap(a[0], a[16]);
  std::swap(b[0], b[16]);
  EXPECT_EQ(dot(f16, a, b, 1 - std::ldexp(1.0, -24)), 0x3f7fffffu);
}

TEST(TensorCoreArithmetic, ZeroSumsArePositive) {
  TensorCoreFormat f16 = format("f16", "f16", "f32");
  EXPECT_EQ(dot(f16, {0.0}, {-1.0}, -0.0), 0x0u);
  EXPECT_EQ(dot(f16, {1.0}, {1.0}, -1.0), 0x0u);
}

// 2^64 * 2^64 = 2^128 overflows f32: an infinity, although the sum is
// truncated toward zero (which would saturate at the largest finite).
TEST(TensorCoreArithmetic, OverflowIsInfinite) {
  TensorCoreFormat bf16 = format("bf16", "bf16", "f32");
  EXPECT_EQ(dot(bf16, {std::ldexp(1.0, 64)}, {std::ldexp(1.0, 64)}, 0.0),
            0x7f800000u);
  EXPECT_EQ(dot(bf16, {-std::ldexp(1.0, 64)}, {std::ldexp(1.0, 64)}, 0.0),
            0xff800000u);
}

TEST(TensorCoreArithmetic, SpecialValues) {
  TensorCoreFormat f16 = format("f16", "f16", "f32");
  double infinity = INFINITY;
  EXPECT_EQ(dot(f16, {infinity}, {0.0}, 1.0), 0x7fffffffu);
  EXPECT_EQ(dot(f16, {infinity, infinity}, {1.0, -1.0}, 1.0), 0x7fffffffu);
  EXPECT_EQ(dot(f16, {infinity}, {-2.0}, 1.0), 0xff800000u);
  EXPECT_EQ(dot(f16, {1.0}, {1.0}, -infinity), 0xff800000u);
  EXPECT_EQ(dot(f16, {1.0}, {NAN}, 1.0), 0x7fffffffu);
  TensorCoreFormat half = format("f16", "f16", "f16");
  EXPECT_EQ(dot(half, {infinity}, {0.0}, 1.0), 0x7fffu);
}

// f16 accumulators round the truncated sum to nearest even: 1 + 2^-11 ties
// to 1, 1 + 3 2^-12 goes up to 1 + 2^-10 (truncation would give 1).
TEST(TensorCoreArithmetic, RoundsToNearestToF16) {
  TensorCoreFormat half = format("f16", "f16", "f16");
  EXPECT_EQ(dot(half, {std::ldexp(1.0, -5)}, {std::ldexp(1.0, -6)}, 1.0),
            0x3c00u);
  EXPECT_EQ(dot(half, {3 * std::ldexp(1.0, -6)}, {std::ldexp(1.0, -6)}, 1.0),
            0x3c01u);
}

// fp8: 64 + three products of 2^-18 (e4m3's smallest subnormal squared) is
// 64 plus 1.5 ulp, rounded once to 64 + 2 ulp; adding them one by one in
// f32 would tie back to 64 each time.
TEST(TensorCoreArithmetic, Fp8SumsExactlyAndRoundsOnce) {
  TensorCoreFormat fp8 = format("e4m3", "e4m3", "f32");
  double tiny = std::ldexp(1.0, -9);
  EXPECT_EQ(dot(fp8, {tiny, tiny, tiny}, {tiny, tiny, tiny}, 64.0),
            0x42800002u);
  EXPECT_EQ(dot(fp8, {tiny}, {tiny}, 64.0), 0x42800000u);
  // The e4m3 and e5m2 extremes: 448 * 57344 far below f32's range.
  TensorCoreFormat mixed = format("e4m3", "e5m2", "f32");
  EXPECT_EQ(dot(mixed, {448.0}, {57344.0}, 0.0),
            APFloat(448.0f * 57344.0f).bitcastToAPInt().getZExtValue());
}

TEST(TensorCoreArithmetic, Tf32BlocksOfEight) {
  // As RoundsTowardZeroToF32, in tf32.
  TensorCoreFormat tf32 = format("tf32", "tf32", "f32");
  EXPECT_EQ(dot(tf32, {std::ldexp(1.0, -12)}, {std::ldexp(1.0, -13)},
                1 - std::ldexp(1.0, -24)),
            0x3f7fffffu);
}

} // namespace
