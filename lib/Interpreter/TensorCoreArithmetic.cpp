//===- TensorCoreArithmetic.cpp - sm_90 tensor-core dot products ----------===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//
//
// Every term is an exact integer significand times a power of two: inputs of
// at most 24 significant bits, products of at most 48, so a block's aligned
// sum fits 64 bits and fp8's exact sum an APInt as wide as its exponents
// span. Rounding to the accumulator happens once, here, not through a
// wider float format (which would round twice).
//
//===----------------------------------------------------------------------===//

#include "TensorCoreArithmetic.h"

#include "TirX/Interpreter/InstructionSemantics.h"

#include "llvm/ADT/APInt.h"
#include "llvm/ADT/APSInt.h"

#include <algorithm>
#include <optional>

using namespace mlir::tirx::interp;
using llvm::APFloat;
using llvm::APInt;

namespace {
/// significand * 2^exponent, exactly; `alignment` is the exponent the
/// tensor core aligns the term by.
struct Term {
  int64_t significand;
  int exponent;
  int alignment;
};
} // namespace

/// Bits kept below the largest alignment exponent of a block.
static constexpr int kAlignedFractionBits = 25;

/// A tensor-core type's format: tf32 is read as the f32 word it is carried
/// in (its low 13 bits cleared first).
static const llvm::fltSemantics *getSemantics(llvm::StringRef type) {
  return getFloatSemantics(type == "tf32" ? "f32" : type);
}

std::optional<TensorCoreFormat> mlir::tirx::interp::getTensorCoreFormat(
    llvm::StringRef atype, llvm::StringRef btype, llvm::StringRef ctype) {
  const llvm::fltSemantics *a = getSemantics(atype), *b = getSemantics(btype),
                           *c = getSemantics(ctype);
  if (!a || !b || (ctype != "f32" && ctype != "f16"))
    return std::nullopt;
  bool fp8 = atype.starts_with("e");
  if (fp8 != btype.starts_with("e") || (!fp8 && atype != btype))
    return std::nullopt;
  unsigned blockSize = fp8 ? 0 : atype == "tf32" ? 8 : 16;
  return TensorCoreFormat{a, b, c, blockSize};
}

/// x (finite, non-zero) as an exact term aligned by its exponent, subnormals
/// by the smallest normal exponent of their format.
static Term decompose(const APFloat &x) {
  const llvm::fltSemantics &semantics = x.getSemantics();
  int precision = APFloat::semanticsPrecision(semantics);
  int leading = llvm::ilogb(x);
  APFloat wide = x;
  bool losesInfo = false;
  wide.convert(APFloat::IEEEquad(), APFloat::rmTowardZero, &losesInfo);
  wide = llvm::scalbn(wide, precision - 1 - leading, APFloat::rmTowardZero);
  llvm::APSInt significand(64, /*isUnsigned=*/false);
  bool isExact = false;
  wide.convertToInteger(significand, APFloat::rmTowardZero, &isExact);
  return Term{significand.getExtValue(), leading - (precision - 1),
              std::max(leading, APFloat::semanticsMinExponent(semantics))};
}

/// sum * 2^exponent rounded once to `semantics` with `mode` (toward zero or
/// to nearest even); an exact zero is +0.
static APFloat roundToFormat(APInt sum, int exponent,
                             const llvm::fltSemantics &semantics,
                             APFloat::roundingMode mode) {
  if (sum.isZero())
    return APFloat::getZero(semantics);
  bool negative = sum.isNegative();
  APInt magnitude = sum.abs();
  int leading = exponent + static_cast<int>(magnitude.getActiveBits()) - 1;
  int precision = APFloat::semanticsPrecision(semantics);
  int quantum = std::max(leading, APFloat::semanticsMinExponent(semantics)) -
                (precision - 1);
  if (quantum > exponent) {
    unsigned shift = quantum - exponent;
    APInt kept = magnitude.lshr(shift);
    if (mode == APFloat::rmNearestTiesToEven) {
      APInt rest = magnitude - kept.shl(shift);
      APInt half = APInt::getOneBitSet(magnitude.getBitWidth(), shift - 1);
      if (rest.ugt(half) || (rest == half && kept[0]))
        kept += 1;
    }
    magnitude = kept;
    exponent = quantum;
  }
  // At most precision + 1 bits now: exact in the format, and so is the
  // scaling unless it overflows, which gives an infinity in either mode (as
  // the hardware does: truncation does not saturate).
  APFloat result(semantics);
  result.convertFromAPInt(magnitude, /*IsSigned=*/false, APFloat::rmTowardZero);
  result = llvm::scalbn(result, exponent, APFloat::rmNearestTiesToEven);
  if (negative)
    result.changeSign();
  return result;
}

/// The canonical NaN of an accumulator format: all ones but the sign.
static APFloat canonicalNaN(const llvm::fltSemantics &semantics) {
  unsigned width = APFloat::getSizeInBits(semantics);
  return APFloat(semantics, APInt::getSignedMaxValue(width));
}

/// NaN, an infinity, or nullopt when every term is finite.
static std::optional<APFloat> getSpecialResult(const TensorCoreFormat &format,
                                               llvm::ArrayRef<APFloat> a,
                                               llvm::ArrayRef<APFloat> b,
                                               const APFloat &c) {
  bool positiveInfinity = false, negativeInfinity = false;
  auto addInfinity = [&](bool negative) {
    (negative ? negativeInfinity : positiveInfinity) = true;
  };
  if (c.isNaN())
    return canonicalNaN(*format.accumulator);
  if (c.isInfinity())
    addInfinity(c.isNegative());
  for (auto [x, y] : llvm::zip_equal(a, b)) {
    if (x.isNaN() || y.isNaN() || (x.isInfinity() && y.isZero()) ||
        (x.isZero() && y.isInfinity()))
      return canonicalNaN(*format.accumulator);
    if (x.isInfinity() || y.isInfinity())
      addInfinity(x.isNegative() != y.isNegative());
  }
  if (positiveInfinity && negativeInfinity)
    return canonicalNaN(*format.accumulator);
  if (positiveInfinity || negativeInfinity)
    return APFloat::getInf(*format.accumulator, negativeInfinity);
  return std::nullopt;
}

/// The terms of c + the products: each nonzero product (aligned by the sum
/// of its inputs' exponents) and c; or the result itself where an operand
/// is special or every term is zero.
static std::optional<APFloat> collectTerms(const TensorCoreFormat &format,
                                           llvm::ArrayRef<APFloat> a,
                                           llvm::ArrayRef<APFloat> b,
                                           const APFloat &c,
                                           llvm::SmallVectorImpl<Term> &terms) {
  if (std::optional<APFloat> special = getSpecialResult(format, a, b, c))
    return special;
  for (auto [x, y] : llvm::zip_equal(a, b)) {
    if (x.isZero() || y.isZero())
      continue;
    Term first = decompose(x), second = decompose(y);
    terms.push_back(Term{first.significand * second.significand,
                         first.exponent + second.exponent,
                         first.alignment + second.alignment});
  }
  if (!c.isZero())
    terms.push_back(decompose(c));
  if (terms.empty())
    return APFloat::getZero(*format.accumulator);
  return std::nullopt;
}

/// One block: its products and c aligned to their largest exponent, each
/// truncated toward zero 25 bits below it, summed and rounded.
static APFloat sumBlock(const TensorCoreFormat &format,
                        llvm::ArrayRef<APFloat> a, llvm::ArrayRef<APFloat> b,
                        const APFloat &c) {
  llvm::SmallVector<Term, 17> terms;
  if (std::optional<APFloat> result = collectTerms(format, a, b, c, terms))
    return *result;
  int largest = terms.front().alignment;
  for (const Term &term : terms)
    largest = std::max(largest, term.alignment);
  int quantum = largest - kAlignedFractionBits;
  int64_t sum = 0;
  for (const Term &term : terms) {
    int shift = term.exponent - quantum;
    int64_t magnitude =
        term.significand < 0 ? -term.significand : term.significand;
    // A term below the largest by 2 + 25 bits or less: its aligned value is
    // under 2^27, so shifts stay well inside 64 bits.
    magnitude = shift >= 0     ? magnitude << shift
                : -shift >= 63 ? 0
                               : magnitude >> -shift;
    sum += term.significand < 0 ? -magnitude : magnitude;
  }
  APFloat::roundingMode mode = format.accumulator == &APFloat::IEEEsingle()
                                   ? APFloat::rmTowardZero
                                   : APFloat::rmNearestTiesToEven;
  return roundToFormat(APInt(64, sum, /*isSigned=*/true), quantum,
                       *format.accumulator, mode);
}

/// fp8: c plus the products, exactly, rounded once to nearest even.
static APFloat sumExactly(const TensorCoreFormat &format,
                          llvm::ArrayRef<APFloat> a, llvm::ArrayRef<APFloat> b,
                          const APFloat &c) {
  llvm::SmallVector<Term, 33> terms;
  if (std::optional<APFloat> result = collectTerms(format, a, b, c, terms))
    return *result;
  int lowest = terms.front().exponent, highest = lowest;
  for (const Term &term : terms) {
    lowest = std::min(lowest, term.exponent);
    highest = std::max(highest, term.exponent);
  }
  // Each term is under 2^49 at its exponent; the carries of 64 terms fit 7
  // more bits.
  unsigned width = highest - lowest + 49 + 8;
  APInt sum(width, 0);
  for (const Term &term : terms)
    sum += APInt(width, term.significand, /*isSigned=*/true)
               .shl(term.exponent - lowest);
  return roundToFormat(sum, lowest, *format.accumulator,
                       APFloat::rmNearestTiesToEven);
}

APFloat mlir::tirx::interp::tensorCoreDot(const TensorCoreFormat &format,
                                          llvm::ArrayRef<APFloat> a,
                                          llvm::ArrayRef<APFloat> b,
                                          const APFloat &c) {
  if (format.blockSize == 0)
    return sumExactly(format, a, b, c);
  APFloat accumulator = c;
  for (size_t start = 0; start < a.size(); start += format.blockSize) {
    size_t count = std::min<size_t>(format.blockSize, a.size() - start);
    accumulator = sumBlock(format, a.slice(start, count), b.slice(start, count),
                           accumulator);
  }
  return accumulator;
}
