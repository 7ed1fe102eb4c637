//===- ScalarSemantics.cpp - What the scalar PTX forms compute ------------===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//
//
// The per-thread register instructions of the `scalar` family module, on raw
// bits, as sm_90 computes them (PTX ISA 8.x: "Integer Arithmetic",
// "Floating-Point", "Half Precision Floating-Point", "Comparison and
// Selection", "Logic and Shift", "Data Movement and Conversion").
//
// Exact forms are exact: IEEE rounding through llvm::APFloat in the spelled
// mode (.rn ties to even, .rz, .rm, .rp; cvt's .rna ties away), one rounding
// for fma/mad; integer forms in two's complement through llvm::APInt.
// Results and modifiers:
//   NaN      a NaN result of f32, f16, bf16, e4m3 or e5m2 arithmetic is the
//            canonical NaN of its type (f32 0x7fffffff, f16/bf16 0x7fff,
//            e4m3/e5m2 0x7f): no payload propagates. f64 is different
//            (the ISA says nothing; measured on sm_90, the numerics
//            suite's golden): a NaN source, quieted, sign and payload kept
//            (of several: b before a in add, sub, mul, min, max; b, c, a in
//            fma (c against b unmeasured); a before b in div), and
//            0xfff8000000000000 for a NaN the operation creates (inf - inf,
//            0 * inf, sqrt(-1));
//            abs/neg of an f64 NaN quiet it and keep its sign. Conversions
//            to or from f64 keep the payload (shifted, quieted), bf16 to
//            f32 shifts the bits (a signaling NaN stays one), tf32 keeps
//            the high 19 bits of a NaN. mov, selp, prmt and lop3 copy bits.
//   .ftz     flushes subnormal inputs and results of the spelled type to
//            sign-preserving zero (f32, f16, f16x2, and bf16 for ex2); cvt
//            flushes only the f32 side, as the ISA says.
//   .sat     floats: clamps to [+0.0, 1.0], NaN and -0.0 give +0.0; integers
//            saturate to the type's range.
//   .relu    a negative result, -0.0 included, becomes +0.0; NaN stays
//            NaN.
//   .satfinite  |result| above the destination's largest finite value
//            (infinity included) becomes that value, sign kept.
//   min/max  a NaN input loses to a number, two NaNs (or .NaN with any)
//            give the canonical NaN; -0.0 < +0.0.
//
// Approximate forms: the exact value computed in double with libm, the
// spelled .ftz applied to the input before and the result after, rounded to
// nearest even in the destination type. Without .ftz, subnormal inputs and
// results are kept (sm_20+: "subnormal numbers are supported"). The ISA's
// stated bound for each, which the model is within:
//   div.approx.f32   a / b; max 2 ulp for |b| in [2^-126, 2^126]; for
//                    2^126 < |b| < 2^128 the ISA gives 0 (a finite) or NaN
//                    (a infinite), which the model reproduces.
//   div.full.f32     a / b; max 2 ulp over the full range.
//   rcp.approx.f32   1 / a; max 1 ulp.
//   rcp.approx.ftz.f64  1 / a from the 1.11.20 leading bits of a (its low 32
//                    bits ignored), rounded to 1.11.20, low 32 bits zero;
//                    a gross approximation: no bound beyond that format.
//   sqrt.approx.f32  sqrt(a); max relative error 2^-23.
//   rsqrt.approx.f32 1 / sqrt(a); max relative error 2^-22.9.
//   rsqrt.approx.f64 1 / sqrt(a) rounded to f64; approximate, no ulp bound.
//   ex2.approx.f32   2^a; max relative error 2^-22 (f32), 2^-9.9 (f16,
//                    f16x2), 2^-7 (bf16, bf16x2).
//   lg2.approx.f32   log2(a); max absolute error 2^-22 (2^-22.6 on the
//                    mantissa).
//
// Operands arrive as InstructionSemantics.h says: one uint64_t per element;
// a b128 element, wider than one word, is two (low word first).
//
//===----------------------------------------------------------------------===//

#include "TirX/Interpreter/InstructionSemantics.h"

#include "TirX/Dialect/Tile/PTX/PTXTypes.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/APInt.h"
#include "llvm/ADT/APSInt.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSwitch.h"

#include <cmath>

using namespace llvm;
using namespace mlir::tirx;
using namespace mlir::tirx::interp;
using ptx::Slot;

using RoundingMode = APFloat::roundingMode;

//===----------------------------------------------------------------------===//
// Types and lanes
//===----------------------------------------------------------------------===//

namespace {
/// A float format the scalar forms compute in.
struct FloatType {
  const fltSemantics *semantics;
  unsigned bits;
  uint64_t canonicalNaN;
};

/// A packed type's lanes: lane i is bits [i * bits, (i + 1) * bits) of the
/// carrier. A scalar type is one lane.
struct Lanes {
  StringRef scalar;
  unsigned bits;
  unsigned count;
};
} // namespace

static std::optional<FloatType> getFloatType(StringRef token) {
  return StringSwitch<std::optional<FloatType>>(token)
      .Case("f16", FloatType{&APFloat::IEEEhalf(), 16, 0x7fff})
      .Case("bf16", FloatType{&APFloat::BFloat(), 16, 0x7fff})
      .Case("f32", FloatType{&APFloat::IEEEsingle(), 32, 0x7fffffff})
      .Case("f64", FloatType{&APFloat::IEEEdouble(), 64, 0x7fffffffffffffffULL})
      .Case("e4m3", FloatType{&APFloat::Float8E4M3FN(), 8, 0x7f})
      .Case("e5m2", FloatType{&APFloat::Float8E5M2(), 8, 0x7f})
      .Default(std::nullopt);
}

const fltSemantics *mlir::tirx::interp::getFloatSemantics(StringRef type) {
  std::optional<FloatType> format = getFloatType(type);
  return format ? format->semantics : nullptr;
}

static Lanes getLanes(StringRef type) {
  unsigned bits = ptx::getTokenBits(type);
  if (type.consume_back("x2"))
    return {type, bits / 2, 2};
  return {type, bits, 1};
}

static uint64_t lowBits(unsigned bits) {
  return bits >= 64 ? ~uint64_t(0) : (uint64_t(1) << bits) - 1;
}

static uint64_t getLane(uint64_t value, const Lanes &lanes, unsigned i) {
  return (value >> (i * lanes.bits)) & lowBits(lanes.bits);
}

static uint64_t setLane(uint64_t value, const Lanes &lanes, unsigned i,
                        uint64_t lane) {
  return value | ((lane & lowBits(lanes.bits)) << (i * lanes.bits));
}

bool isSignedInt(StringRef type) { return type.starts_with("s"); }

static std::optional<RoundingMode> getRoundingMode(StringRef token) {
  return StringSwitch<std::optional<RoundingMode>>(token)
      .Cases({"", "rn", "rni"}, APFloat::rmNearestTiesToEven)
      .Cases({"rz", "rzi"}, APFloat::rmTowardZero)
      .Cases({"rm", "rmi"}, APFloat::rmTowardNegative)
      .Cases({"rp", "rpi"}, APFloat::rmTowardPositive)
      .Case("rna", APFloat::rmNearestTiesToAway)
      .Default(std::nullopt);
}

//===----------------------------------------------------------------------===//
// Float helpers
//===----------------------------------------------------------------------===//

static APFloat decode(const FloatType &type, uint64_t bits) {
  return APFloat(*type.semantics, APInt(type.bits, bits));
}

/// The result's bits; NaN results are canonical.
static uint64_t encode(const FloatType &type, const APFloat &value) {
  if (value.isNaN())
    return type.canonicalNaN;
  return value.bitcastToAPInt().getZExtValue();
}

static bool isNaN64(uint64_t bits) {
  return (bits & 0x7ff0000000000000ULL) == 0x7ff0000000000000ULL &&
         (bits & 0x000fffffffffffffULL);
}

/// The NaN an f64 operation returns: the first NaN of `sources` (f64 bits,
/// in the operation's priority order), quieted, or the NaN the operation
/// creates.
static uint64_t getNaN64(ArrayRef<uint64_t> sources) {
  for (uint64_t bits : sources)
    if (isNaN64(bits))
      return bits | 0x0008000000000000ULL;
  return 0xfff8000000000000ULL;
}

/// `value`'s bits, where a NaN of f64 follows getNaN64 on `sources` (the
/// operation's f64 sources), and others are canonical.
static uint64_t encode(const FloatType &type, const APFloat &value,
                       ArrayRef<uint64_t> sources) {
  if (value.isNaN() && type.bits == 64)
    return getNaN64(sources);
  return encode(type, value);
}

static APFloat flushSubnormal(const APFloat &value) {
  if (value.isDenormal())
    return APFloat::getZero(value.getSemantics(), value.isNegative());
  return value;
}

static APFloat convertTo(APFloat value, const fltSemantics &semantics,
                         RoundingMode mode) {
  bool losesInfo;
  value.convert(semantics, mode, &losesInfo);
  return value;
}

static APFloat fromDouble(double value, const fltSemantics &semantics) {
  return convertTo(APFloat(value), semantics, APFloat::rmNearestTiesToEven);
}

static double toDouble(const APFloat &value) {
  return convertTo(value, APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven)
      .convertToDouble();
}

/// Float `.sat`: [+0.0, 1.0], NaN to +0.0.
static APFloat saturate(const APFloat &value) {
  const fltSemantics &semantics = value.getSemantics();
  if (value.isNaN() || value.isNegative())
    return APFloat::getZero(semantics);
  APFloat one(semantics, 1);
  return value.compare(one) == APFloat::cmpGreaterThan ? one : value;
}

/// `.relu`: negative (-0.0 too) to +0.0, NaN kept.
static APFloat relu(const APFloat &value) {
  if (!value.isNaN() && value.isNegative())
    return APFloat::getZero(value.getSemantics());
  return value;
}

/// The correctly rounded square root, which APFloat lacks: the integer
/// square root of the significand, scaled to more than twice the precision,
/// with a sticky bit for an inexact remainder, rounded once by APFloat.
static APFloat squareRoot(const APFloat &value, RoundingMode mode) {
  const fltSemantics &semantics = value.getSemantics();
  if (value.isNaN() || value.isZero() ||
      (value.isInfinity() && !value.isNegative()))
    return value;
  if (value.isNegative())
    return APFloat::getNaN(semantics);
  // value = fraction * 2^exponent, fraction in [0.5, 1).
  int exponent;
  APFloat fraction = frexp(value, exponent, APFloat::rmNearestTiesToEven);
  unsigned precision = APFloat::semanticsPrecision(semantics);
  unsigned width = 3 * precision + 8;
  APSInt significand(width, /*isUnsigned=*/true);
  bool isExact;
  scalbn(fraction, precision, APFloat::rmNearestTiesToEven)
      .convertToInteger(significand, APFloat::rmTowardZero, &isExact);
  // value = significand * 2^scale; shift so that the root has at least
  // precision + 2 bits and the scale is even.
  int scale = exponent - static_cast<int>(precision);
  unsigned shift = precision + 4;
  if ((scale - static_cast<int>(shift)) % 2 != 0)
    ++shift;
  APInt radicand = APInt(significand) << shift;
  scale -= static_cast<int>(shift);
  APInt root = radicand.sqrt();
  while ((root * root).ugt(radicand))
    root -= 1;
  while (((root + 1) * (root + 1)).ule(radicand))
    root += 1;
  bool inexact = root * root != radicand;
  root = (root << 1) | APInt(width, inexact);
  APFloat result(semantics);
  result.convertFromAPInt(root, /*IsSigned=*/false, mode);
  // Exact: the root of a positive finite value is normal in f32 and f64.
  return scalbn(result, scale / 2 - 1, mode);
}

/// a < b for min/max: numbers by value, -0.0 below +0.0.
static bool isLess(const APFloat &a, const APFloat &b) {
  if (a.isZero() && b.isZero())
    return a.isNegative() && !b.isNegative();
  return a.compare(b) == APFloat::cmpLessThan;
}

//===----------------------------------------------------------------------===//
// Integer helpers
//===----------------------------------------------------------------------===//

/// `value` of type `type`, extended to `width` bits by its signedness.
static APInt extend(uint64_t value, unsigned bits, bool isSigned,
                    unsigned width) {
  APInt narrow(bits, value);
  return isSigned ? narrow.sext(width) : narrow.zext(width);
}

/// Clamps the (width-bit, signed) `value` into the range of a `bits`-bit
/// integer of the given signedness and truncates it to `bits`.
static uint64_t clampInt(const APInt &value, unsigned bits, bool isSigned) {
  unsigned width = value.getBitWidth();
  APInt low = isSigned ? APInt::getSignedMinValue(bits).sext(width)
                       : APInt::getZero(width);
  APInt high = isSigned ? APInt::getSignedMaxValue(bits).sext(width)
                        : APInt::getMaxValue(bits).zext(width);
  const APInt &clamped =
      value.slt(low) ? low : (value.sgt(high) ? high : value);
  return clamped.trunc(bits).getZExtValue();
}

//===----------------------------------------------------------------------===//
// The executor of one instruction
//===----------------------------------------------------------------------===//

namespace {
/// Executes one instruction on one thread's operand atoms.
class ScalarExecutor {
public:
  ScalarExecutor(const ptx::Instruction &instruction,
                 MutableArrayRef<OperandAtom> operands)
      : instruction(instruction), operands(operands) {}

  Error run();

private:
  Error fail(const Twine &why) const {
    return createStringError(inconvertibleErrorCode(),
                             "'" + instruction.spelling + "': " + why.str());
  }
  Error unsupported() const {
    // check-diagnostics: internal, every scalar form is modelled
    // (ScalarSemantics.EveryAcceptedSpellingExecutes)
    return fail("not modelled by the interpreter");
  }

  StringRef mod(Slot slot) const { return instruction.getModifier(slot); }
  bool has(StringRef token) const { return instruction.hasModifier(token); }
  StringRef type() const { return mod(Slot::type); }

  unsigned getWords(unsigned operand) const {
    return (instruction.operands[operand].element.bitWidth + 63) / 64;
  }
  /// Element `element` (its first word) of source operand `operand`.
  uint64_t src(unsigned operand, unsigned element = 0) const {
    unsigned bits = instruction.operands[operand].element.bitWidth;
    return operands[operand].elements[element * getWords(operand)] &
           lowBits(bits);
  }
  /// Sets the destination's one element.
  void setResult(uint64_t value) { setResult(0, {value}); }
  void setResult(unsigned operand, ArrayRef<uint64_t> words) {
    const ptx::OperandInfo &info = instruction.operands[operand];
    OperandAtom &atom = operands[operand];
    atom.bitWidth = info.element.bitWidth;
    atom.elements.assign(words.begin(), words.end());
    if (info.element.bitWidth < 64)
      for (uint64_t &word : atom.elements)
        word &= lowBits(info.element.bitWidth);
  }

  Error checkOperands() const;

  Error executeMov();
  Error executeIntArith();
  Error executeMulMadInt();
  Error executeFloatArith();
  Error executeHalfFma();
  Error executeDivRcpSqrt();
  Error executeMinMax();
  Error executeCvt();
  Error executeCvtPacked();
  Error executeCvtTf32();
  Error executeCvtFp8();
  Error executeEx2Lg2();
  Error executeAbsNeg();
  Error executeSetp();
  Error executeSelp();
  Error executeLop3();
  Error executePrmt();

  /// Applies `fn` to lane i of every source (operands 1..n), packing the
  /// lane results of `packedType` into one value.
  uint64_t mapLanes(StringRef packedType, unsigned numSources,
                    function_ref<uint64_t(ArrayRef<uint64_t>)> fn) const;

  const ptx::Instruction &instruction;
  MutableArrayRef<OperandAtom> operands;
};
} // namespace

Error ScalarExecutor::checkOperands() const {
  if (instruction.module != ptx::FamilyModuleId::scalar)
    // check-diagnostics: internal, the executor dispatches by module
    return fail("not a scalar-module instruction");
  if (operands.size() != instruction.operands.size())
    return fail("expects " + Twine(instruction.operands.size()) +
                " operands, got " + Twine(operands.size()));
  for (auto [i, info] : llvm::enumerate(instruction.operands)) {
    if (info.isDestination)
      continue;
    size_t needed = size_t(info.atom) * getWords(i);
    if (operands[i].elements.size() < needed)
      // check-diagnostics: internal, the executor gathers whole atoms
      return fail("operand '" + info.name + "' has " +
                  Twine(operands[i].elements.size()) + " words, needs " +
                  Twine(needed));
  }
  return Error::success();
}

uint64_t
ScalarExecutor::mapLanes(StringRef packedType, unsigned numSources,
                         function_ref<uint64_t(ArrayRef<uint64_t>)> fn) const {
  Lanes lanes = getLanes(packedType);
  uint64_t result = 0;
  SmallVector<uint64_t, 3> inputs(numSources);
  for (unsigned lane = 0; lane < lanes.count; ++lane) {
    for (unsigned i = 0; i < numSources; ++i)
      inputs[i] = getLane(src(i + 1), lanes, lane);
    result = setLane(result, lanes, lane, fn(inputs));
  }
  return result;
}

Error ScalarExecutor::run() {
  if (Error error = checkOperands())
    return error;
  StringRef family = instruction.family;
  StringRef form = instruction.formName;
  if (family == "mov")
    return executeMov();
  if ((family == "add" || family == "sub") && form.ends_with(".int"))
    return executeIntArith();
  if (form == "mul.int" || form == "mul.wide" || form == "mad.int" ||
      form == "mad.wide")
    return executeMulMadInt();
  if (form == "fma.half")
    return executeHalfFma();
  if (is_contained({"add", "sub", "mul", "mad", "fma"}, family))
    return executeFloatArith();
  if (is_contained({"div", "rcp", "sqrt", "rsqrt"}, family))
    return executeDivRcpSqrt();
  if (family == "min" || family == "max")
    return executeMinMax();
  if (form == "cvt")
    return executeCvt();
  if (form == "cvt.packed")
    return executeCvtPacked();
  if (form == "cvt.tf32")
    return executeCvtTf32();
  if (form.starts_with("cvt.f8x2") || form == "cvt.f16x2.f8x2")
    return executeCvtFp8();
  if (family == "ex2" || family == "lg2")
    return executeEx2Lg2();
  if (family == "abs" || family == "neg")
    return executeAbsNeg();
  if (family == "setp")
    return executeSetp();
  if (family == "selp")
    return executeSelp();
  if (family == "lop3")
    return executeLop3();
  if (family == "prmt")
    return executePrmt();
  return unsupported();
}

//===----------------------------------------------------------------------===//
// mov
//===----------------------------------------------------------------------===//

Error ScalarExecutor::executeMov() {
  const ptx::OperandInfo &d = instruction.operands[0];
  const ptx::OperandInfo &a = instruction.operands[1];
  // The scalar copy, pack and unpack are one bit string: the packed value
  // holds element 0 in its lowest bits (PTX: d = a.x | a.y << 16).
  unsigned totalBits = d.element.bitWidth * d.atom;
  unsigned words = (totalBits + 63) / 64;
  SmallVector<uint64_t, 2> bitString(words, 0);
  unsigned srcBits = a.element.bitWidth;
  for (unsigned e = 0; e < a.atom; ++e) {
    for (unsigned w = 0; w < getWords(1); ++w) {
      uint64_t word = operands[1].elements[e * getWords(1) + w];
      unsigned chunk = std::min(srcBits - 64 * w, 64u);
      word &= lowBits(chunk);
      unsigned position = e * srcBits + 64 * w;
      bitString[position / 64] |= word << (position % 64);
    }
  }
  unsigned dstBits = d.element.bitWidth;
  SmallVector<uint64_t, 4> result;
  for (unsigned e = 0; e < d.atom; ++e) {
    for (unsigned w = 0; w < getWords(0); ++w) {
      unsigned position = e * dstBits + 64 * w;
      unsigned chunk = std::min(dstBits - 64 * w, 64u);
      result.push_back((bitString[position / 64] >> (position % 64)) &
                       lowBits(chunk));
    }
  }
  setResult(0, result);
  return Error::success();
}

//===----------------------------------------------------------------------===//
// Integer arithmetic
//===----------------------------------------------------------------------===//

Error ScalarExecutor::executeIntArith() {
  bool isSub = instruction.family == "sub";
  bool sat = has("sat");
  Lanes lanes = getLanes(type());
  bool isSigned = isSignedInt(lanes.scalar);
  setResult(mapLanes(type(), 2, [&](ArrayRef<uint64_t> in) -> uint64_t {
    // One bit wider than the operands: the exact sum or difference.
    unsigned width = lanes.bits + 2;
    APInt a = extend(in[0], lanes.bits, isSigned, width);
    APInt b = extend(in[1], lanes.bits, isSigned, width);
    APInt exact = isSub ? a - b : a + b;
    if (sat)
      return clampInt(exact, lanes.bits, isSigned);
    return exact.trunc(lanes.bits).getZExtValue();
  }));
  return Error::success();
}

Error ScalarExecutor::executeMulMadInt() {
  unsigned bits = ptx::getTokenBits(type());
  bool isSigned = isSignedInt(type());
  StringRef mode = mod(Slot::mode);
  unsigned width = 2 * bits + 2;
  APInt product = extend(src(1), bits, isSigned, width) *
                  extend(src(2), bits, isSigned, width);
  bool isMad = instruction.family == "mad";
  if (mode == "wide") {
    APInt result = product.trunc(2 * bits);
    if (isMad)
      result += APInt(2 * bits, src(3));
    setResult(result.getZExtValue());
    return Error::success();
  }
  APInt half =
      mode == "hi" ? product.extractBits(bits, bits) : product.trunc(bits);
  if (!isMad) {
    setResult(half.getZExtValue());
    return Error::success();
  }
  // mad.hi.sat.s32 saturates the addition of c (the only .sat form).
  if (has("sat")) {
    APInt sum = half.sext(bits + 2) + extend(src(3), bits, true, bits + 2);
    setResult(clampInt(sum, bits, /*isSigned=*/true));
    return Error::success();
  }
  setResult((half + APInt(bits, src(3))).getZExtValue());
  return Error::success();
}

//===----------------------------------------------------------------------===//
// Float arithmetic: add, sub, mul, mad, fma
//===----------------------------------------------------------------------===//

Error ScalarExecutor::executeFloatArith() {
  StringRef family = instruction.family;
  Lanes lanes = getLanes(type());
  std::optional<FloatType> resultType = getFloatType(lanes.scalar);
  std::optional<RoundingMode> mode = getRoundingMode(mod(Slot::rnd));
  if (!resultType || !mode)
    return unsupported();
  // Mixed precision (add/sub/fma .f32.f16|bf16): the 16-bit sources widen
  // exactly to f32.
  std::optional<FloatType> narrowType = getFloatType(mod(Slot::atype));
  unsigned numNarrow = !narrowType ? 0 : (family == "fma" ? 2 : 1);
  bool ftz = has("ftz"), sat = has("sat");
  bool isTernary = family == "mad" || family == "fma";
  unsigned numSources = isTernary ? 3 : 2;
  setResult(
      mapLanes(type(), numSources, [&](ArrayRef<uint64_t> in) -> uint64_t {
        SmallVector<APFloat, 3> x;
        for (auto [i, bits] : llvm::enumerate(in)) {
          APFloat value = i < numNarrow
                              ? convertTo(decode(*narrowType, bits),
                                          *resultType->semantics, *mode)
                              : decode(*resultType, bits);
          x.push_back(ftz ? flushSubnormal(value) : value);
        }
        APFloat result = x[0];
        if (family == "add")
          result.add(x[1], *mode);
        else if (family == "sub")
          result.subtract(x[1], *mode);
        else if (family == "mul")
          result.multiply(x[1], *mode);
        else
          result.fusedMultiplyAdd(x[1], x[2], *mode);
        if (ftz)
          result = flushSubnormal(result);
        if (sat)
          result = saturate(result);
        // An f64 NaN source's priority (measured): b, then c, then a.
        SmallVector<uint64_t, 3> priority = {in[1]};
        if (isTernary)
          priority.push_back(in[2]);
        priority.push_back(in[0]);
        return encode(*resultType, result, priority);
      }));
  return Error::success();
}

/// fma.rn{.ftz}{.sat}{.oob}{.relu}.{f16,f16x2,bf16,bf16x2}.
Error ScalarExecutor::executeHalfFma() {
  Lanes lanes = getLanes(type());
  std::optional<FloatType> laneType = getFloatType(lanes.scalar);
  if (!laneType)
    return unsupported();
  bool ftz = has("ftz"), sat = has("sat"), oob = has("oob"),
       isRelu = has("relu");
  setResult(mapLanes(type(), 3, [&](ArrayRef<uint64_t> in) -> uint64_t {
    // .oob: an operand holding the out-of-bounds NaN a tensor copy fills
    // with (the canonical NaN pattern) makes the result +0.0.
    if (oob && llvm::any_of(in, [&](uint64_t bits) {
          return bits == laneType->canonicalNaN;
        }))
      return 0;
    SmallVector<APFloat, 3> x;
    for (uint64_t bits : in) {
      APFloat value = decode(*laneType, bits);
      x.push_back(ftz ? flushSubnormal(value) : value);
    }
    APFloat result = x[0];
    result.fusedMultiplyAdd(x[1], x[2], APFloat::rmNearestTiesToEven);
    if (ftz)
      result = flushSubnormal(result);
    if (sat)
      result = saturate(result);
    if (isRelu)
      result = relu(result);
    return encode(*laneType, result);
  }));
  return Error::success();
}

//===----------------------------------------------------------------------===//
// div, rcp, sqrt, rsqrt
//===----------------------------------------------------------------------===//

/// rcp.approx.ftz.f64: 1 / a from the 1.11.20 leading bits of a, rounded
/// back to 1.11.20 with the low 32 bits of the result zero.
static uint64_t approximateReciprocal64(uint64_t bits) {
  const FloatType f64 = *getFloatType("f64");
  APFloat a = flushSubnormal(decode(f64, bits & 0xffffffff00000000ULL));
  APFloat result =
      flushSubnormal(fromDouble(1.0 / toDouble(a), APFloat::IEEEdouble()));
  if (result.isNaN() || result.isInfinity() || result.isZero())
    return encode(f64, result);
  uint64_t resultBits = encode(f64, result);
  // Round to nearest at bit 32; a carry into the exponent is still right.
  return (resultBits + 0x80000000ULL) & 0xffffffff00000000ULL;
}

Error ScalarExecutor::executeDivRcpSqrt() {
  StringRef family = instruction.family;
  std::optional<FloatType> floatType = getFloatType(type());
  if (!floatType)
    return unsupported();
  const fltSemantics &semantics = *floatType->semantics;
  StringRef rnd = family == "rsqrt" ? "approx" : mod(Slot::rnd);
  bool ftz = has("ftz");
  auto input = [&](unsigned operand) {
    APFloat value = decode(*floatType, src(operand));
    return ftz ? flushSubnormal(value) : value;
  };
  SmallVector<uint64_t, 2> sources;
  for (unsigned operand = 1; operand < instruction.operands.size(); ++operand)
    sources.push_back(src(operand));
  auto finish = [&](const APFloat &value) {
    setResult(encode(*floatType, ftz ? flushSubnormal(value) : value, sources));
    return Error::success();
  };

  if (family == "rcp" && rnd == "approx" && type() == "f64") {
    setResult(approximateReciprocal64(src(1)));
    return Error::success();
  }
  if (rnd == "approx" || rnd == "full") {
    double a = toDouble(input(1));
    if (family == "div") {
      double b = toDouble(input(2));
      // div.approx computes a * (1 / b): 1 / b underflows for |b| > 2^126.
      if (rnd == "approx" && !std::isnan(a) && std::isfinite(b) &&
          std::fabs(b) > std::ldexp(1.0, 126)) {
        if (std::isinf(a))
          return finish(APFloat::getNaN(semantics));
        return finish(
            APFloat::getZero(semantics, std::signbit(a) != std::signbit(b)));
      }
      return finish(fromDouble(a / b, semantics));
    }
    double exact = family == "rcp"    ? 1.0 / a
                   : family == "sqrt" ? std::sqrt(a)
                                      : 1.0 / std::sqrt(a);
    return finish(fromDouble(exact, semantics));
  }

  std::optional<RoundingMode> mode = getRoundingMode(rnd);
  if (!mode)
    return unsupported();
  if (family == "sqrt")
    return finish(squareRoot(input(1), *mode));
  APFloat result = family == "div" ? input(1) : APFloat(semantics, 1);
  result.divide(input(family == "div" ? 2 : 1), *mode);
  return finish(result);
}

//===----------------------------------------------------------------------===//
// min, max
//===----------------------------------------------------------------------===//

Error ScalarExecutor::executeMinMax() {
  bool isMax = instruction.family == "max";
  unsigned numSources = instruction.operands.size() - 1;
  Lanes lanes = getLanes(type());
  bool isRelu = has("relu");
  if (std::optional<FloatType> floatType = getFloatType(lanes.scalar)) {
    bool ftz = has("ftz"), propagateNaN = has("NaN"), abs = has("abs"),
         xorsign = has("xorsign");
    setResult(mapLanes(type(), numSources, [&](ArrayRef<uint64_t> in) {
      SmallVector<APFloat, 3> x;
      bool sign = false;
      for (uint64_t bits : in) {
        APFloat value = decode(*floatType, bits);
        if (ftz)
          value = flushSubnormal(value);
        // .xorsign reads the signs before .abs clears them.
        sign ^= value.isNegative();
        x.push_back(abs ? llvm::abs(value) : value);
      }
      std::optional<APFloat> best;
      for (const APFloat &value : x) {
        if (value.isNaN()) {
          if (propagateNaN)
            return floatType->canonicalNaN;
          continue;
        }
        if (!best || (isMax ? isLess(*best, value) : isLess(value, *best)))
          best = value;
      }
      if (!best)
        return floatType->bits == 64
                   ? getNaN64(SmallVector<uint64_t, 3>(llvm::reverse(in)))
                   : floatType->canonicalNaN;
      if (xorsign && best->isNegative() != sign)
        best->changeSign();
      return encode(*floatType, *best);
    }));
    return Error::success();
  }
  bool isSigned = isSignedInt(lanes.scalar);
  setResult(mapLanes(type(), numSources, [&](ArrayRef<uint64_t> in) {
    APInt a = extend(in[0], lanes.bits, isSigned, 65);
    APInt b = extend(in[1], lanes.bits, isSigned, 65);
    APInt result = (a.slt(b) != isMax) ? a : b;
    if (isRelu && result.isNegative())
      result = 0;
    return result.trunc(lanes.bits).getZExtValue();
  }));
  return Error::success();
}

//===----------------------------------------------------------------------===//
// cvt
//===----------------------------------------------------------------------===//

/// A float's conversion to another float format, with cvt's modifiers.
static uint64_t convertFloat(const APFloat &input, const FloatType &to,
                             RoundingMode mode, bool isRelu, bool isSatfinite) {
  APFloat result = convertTo(input, *to.semantics, mode);
  // Formats without infinity (e4m3) overflow to NaN.
  if (isSatfinite && !input.isNaN() && (result.isNaN() || result.isInfinity()))
    result = APFloat::getLargest(*to.semantics, input.isNegative());
  if (isRelu)
    result = relu(result);
  return encode(to, result);
}

Error ScalarExecutor::executeCvt() {
  StringRef dType = mod(Slot::dtype), aType = mod(Slot::atype);
  std::optional<FloatType> dFloat = getFloatType(dType);
  std::optional<FloatType> aFloat = getFloatType(aType);
  unsigned dBits = ptx::getTokenBits(dType), aBits = ptx::getTokenBits(aType);
  bool dSigned = isSignedInt(dType), aSigned = isSignedInt(aType);
  std::optional<RoundingMode> mode = getRoundingMode(mod(Slot::rnd));
  if (!mode)
    return unsupported();
  bool ftz = has("ftz"), sat = has("sat");

  if (!dFloat && !aFloat) {
    APInt value = extend(src(1), aBits, aSigned, 66);
    setResult(sat ? clampInt(value, dBits, dSigned)
                  : value.trunc(dBits).getZExtValue());
    return Error::success();
  }

  if (!aFloat) {
    APFloat result(*dFloat->semantics);
    result.convertFromAPInt(APInt(aBits, src(1)), aSigned, *mode);
    if (ftz && dType == "f32")
      result = flushSubnormal(result);
    if (sat)
      result = saturate(result);
    setResult(encode(*dFloat, result));
    return Error::success();
  }

  APFloat input = decode(*aFloat, src(1));
  if (ftz && aType == "f32")
    input = flushSubnormal(input);

  if (!dFloat) {
    // Float to integer: rounded to an integer, clamped to the destination's
    // range (always, .sat or not), NaN to 0 (an f64 NaN into 32 bits: to
    // 0x80000000, measured on sm_90).
    if (input.isNaN()) {
      setResult(aType == "f64" && dBits == 32 ? 0x80000000u : 0);
      return Error::success();
    }
    input.roundToIntegral(*mode);
    unsigned width = 130;
    APInt value;
    if (input.isInfinity() || ilogb(input) >= 127) {
      value = input.isNegative() ? APInt::getSignedMinValue(width)
                                 : APInt::getSignedMaxValue(width);
    } else {
      APSInt integer(width, /*isUnsigned=*/false);
      bool isExact;
      input.convertToInteger(integer, APFloat::rmTowardZero, &isExact);
      value = integer;
    }
    setResult(clampInt(value, dBits, dSigned));
    return Error::success();
  }

  // A NaN to or from f64 keeps its sign and payload (quieted; the payload's
  // high bits when narrowing); bf16 to f32 is a shift of the bits.
  if (input.isNaN() && (aType == "f64" || dType == "f64")) {
    unsigned aFraction = APFloat::semanticsPrecision(*aFloat->semantics) - 1;
    unsigned dFraction = APFloat::semanticsPrecision(*dFloat->semantics) - 1;
    uint64_t payload = src(1) & lowBits(aFraction);
    payload = dFraction > aFraction ? payload << (dFraction - aFraction)
                                    : payload >> (aFraction - dFraction);
    uint64_t sign = (src(1) >> (aBits - 1)) & 1;
    uint64_t exponent = lowBits(dBits - 1 - dFraction);
    setResult(sign << (dBits - 1) | exponent << dFraction |
              uint64_t(1) << (dFraction - 1) | payload);
    return Error::success();
  }
  if (input.isNaN() && aType == "bf16" && dType == "f32") {
    setResult(src(1) << 16);
    return Error::success();
  }
  // Float to float. .relu and .satfinite come without .ftz and .sat.
  if (has("relu") || has("satfinite")) {
    setResult(
        convertFloat(input, *dFloat, *mode, has("relu"), has("satfinite")));
    return Error::success();
  }
  // .rni/.rzi/.rmi/.rpi round to an integer in the same format.
  APFloat result = input;
  if (mod(Slot::rnd).ends_with("i"))
    result.roundToIntegral(*mode);
  else
    result = convertTo(input, *dFloat->semantics, *mode);
  if (ftz && dType == "f32")
    result = flushSubnormal(result);
  if (sat)
    result = saturate(result);
  setResult(encode(*dFloat, result));
  return Error::success();
}

/// cvt.{rn,rz}{.relu}{.satfinite}.{f16x2,bf16x2}.f32 d, a, b: a converts
/// into the upper half, b into the lower.
Error ScalarExecutor::executeCvtPacked() {
  Lanes lanes = getLanes(mod(Slot::dtype));
  std::optional<FloatType> to = getFloatType(lanes.scalar);
  std::optional<RoundingMode> mode = getRoundingMode(mod(Slot::rnd));
  if (!to || !mode)
    return unsupported();
  const FloatType f32 = *getFloatType("f32");
  uint64_t result = 0;
  for (unsigned lane = 0; lane < 2; ++lane)
    result = setLane(result, lanes, lane,
                     convertFloat(decode(f32, src(lane == 0 ? 2 : 1)), *to,
                                  *mode, has("relu"), has("satfinite")));
  setResult(result);
  return Error::success();
}

/// cvt.{rna,rn,rz}{.satfinite}{.relu}.tf32.f32: the f32 rounded to tf32's
/// 10 fraction bits, held in a 32-bit register with the low 13 bits zero.
Error ScalarExecutor::executeCvtTf32() {
  std::optional<RoundingMode> mode = getRoundingMode(mod(Slot::rnd));
  if (!mode)
    return unsupported();
  // tf32 is f32 with 13 fraction bits fewer: its 19 bits are the high 19.
  // Measured on sm_90: a NaN keeps its high 19 bits; with .satfinite an
  // all-ones exponent (infinity or NaN) becomes those bits less one tf32
  // ulp: the largest finite number for an infinity, another NaN (or an
  // infinity) for a NaN.
  uint64_t a = src(1);
  if ((a & 0x7f800000) == 0x7f800000 && (a & 0x7fffff)) {
    setResult(has("satfinite") ? (a & ~uint64_t(0x1fff)) - 0x2000
                               : a & ~uint64_t(0x1fff));
    return Error::success();
  }
  const FloatType tf32{&APFloat::FloatTF32(), 19, 0x7fffffffULL >> 13};
  uint64_t bits = convertFloat(decode(*getFloatType("f32"), src(1)), tf32,
                               *mode, has("relu"), has("satfinite"));
  setResult(bits << 13);
  return Error::success();
}

/// The fp8 pair conversions: from two f32 (a upper, b lower) or one f16x2,
/// and back to f16x2. Narrowing is .rn.satfinite.
Error ScalarExecutor::executeCvtFp8() {
  Lanes dLanes = getLanes(mod(Slot::dtype));
  Lanes aLanes = getLanes(mod(Slot::atype));
  std::optional<FloatType> to = getFloatType(dLanes.scalar);
  std::optional<FloatType> from = getFloatType(aLanes.scalar);
  if (!to || !from)
    return unsupported();
  bool isRelu = has("relu"), isSatfinite = has("satfinite");
  uint64_t result = 0;
  for (unsigned lane = 0; lane < 2; ++lane) {
    uint64_t bits = aLanes.count == 2 ? getLane(src(1), aLanes, lane)
                                      : src(lane == 0 ? 2 : 1);
    result = setLane(result, dLanes, lane,
                     convertFloat(decode(*from, bits), *to,
                                  APFloat::rmNearestTiesToEven, isRelu,
                                  isSatfinite));
  }
  setResult(result);
  return Error::success();
}

//===----------------------------------------------------------------------===//
// ex2, lg2, abs, neg
//===----------------------------------------------------------------------===//

Error ScalarExecutor::executeEx2Lg2() {
  Lanes lanes = getLanes(type());
  std::optional<FloatType> laneType = getFloatType(lanes.scalar);
  if (!laneType)
    return unsupported();
  bool ftz = has("ftz"), isEx2 = instruction.family == "ex2";
  setResult(mapLanes(type(), 1, [&](ArrayRef<uint64_t> in) {
    APFloat a = decode(*laneType, in[0]);
    if (ftz)
      a = flushSubnormal(a);
    double x = toDouble(a);
    APFloat result =
        fromDouble(isEx2 ? std::exp2(x) : std::log2(x), *laneType->semantics);
    return encode(*laneType, ftz ? flushSubnormal(result) : result);
  }));
  return Error::success();
}

Error ScalarExecutor::executeAbsNeg() {
  bool isAbs = instruction.family == "abs";
  Lanes lanes = getLanes(type());
  if (std::optional<FloatType> laneType = getFloatType(lanes.scalar)) {
    bool ftz = has("ftz");
    setResult(mapLanes(type(), 1, [&](ArrayRef<uint64_t> in) {
      APFloat a = decode(*laneType, in[0]);
      if (ftz)
        a = flushSubnormal(a);
      return encode(*laneType, isAbs ? llvm::abs(a) : neg(a), in[0]);
    }));
    return Error::success();
  }
  // Two's complement: abs and neg of the minimum are the minimum.
  APInt a(lanes.bits, src(1));
  setResult((isAbs ? a.abs() : -a).getZExtValue());
  return Error::success();
}

//===----------------------------------------------------------------------===//
// setp, selp, lop3, prmt
//===----------------------------------------------------------------------===//

Error ScalarExecutor::executeSetp() {
  StringRef cmp = mod(Slot::cmp);
  bool result;
  if (std::optional<FloatType> floatType = getFloatType(type())) {
    APFloat a = decode(*floatType, src(1)), b = decode(*floatType, src(2));
    if (has("ftz")) {
      a = flushSubnormal(a);
      b = flushSubnormal(b);
    }
    APFloat::cmpResult order = a.compare(b);
    bool unordered = order == APFloat::cmpUnordered;
    bool eq = order == APFloat::cmpEqual;
    bool lt = order == APFloat::cmpLessThan;
    bool gt = order == APFloat::cmpGreaterThan;
    std::optional<bool> value = StringSwitch<std::optional<bool>>(cmp)
                                    .Case("eq", eq)
                                    .Case("ne", lt || gt)
                                    .Case("lt", lt)
                                    .Case("le", lt || eq)
                                    .Case("gt", gt)
                                    .Case("ge", gt || eq)
                                    .Case("equ", eq || unordered)
                                    .Case("neu", !eq)
                                    .Case("ltu", lt || unordered)
                                    .Case("leu", !gt)
                                    .Case("gtu", gt || unordered)
                                    .Case("geu", !lt)
                                    .Case("num", !unordered)
                                    .Case("nan", unordered)
                                    .Default(std::nullopt);
    if (!value)
      return unsupported();
    result = *value;
  } else {
    unsigned bits = ptx::getTokenBits(type());
    bool isSigned = isSignedInt(type());
    APInt a = extend(src(1), bits, isSigned, 65);
    APInt b = extend(src(2), bits, isSigned, 65);
    std::optional<bool> value = StringSwitch<std::optional<bool>>(cmp)
                                    .Case("eq", a == b)
                                    .Case("ne", a != b)
                                    .Cases({"lt", "lo"}, a.slt(b))
                                    .Cases({"le", "ls"}, a.sle(b))
                                    .Cases({"gt", "hi"}, a.sgt(b))
                                    .Cases({"ge", "hs"}, a.sge(b))
                                    .Default(std::nullopt);
    if (!value)
      return unsupported();
    result = *value;
  }
  setResult(result ? 1 : 0);
  return Error::success();
}

Error ScalarExecutor::executeSelp() {
  setResult((src(3) & 1) ? src(1) : src(2));
  return Error::success();
}

/// Bit i of d is bit (a_i b_i c_i) of the truth table: 0xF0, 0xCC and 0xAA
/// are the tables of a, b and c.
Error ScalarExecutor::executeLop3() {
  uint64_t a = src(1), b = src(2), c = src(3), table = src(4) & 0xff;
  uint64_t result = 0;
  for (unsigned bit = 0; bit < 32; ++bit) {
    unsigned index =
        ((a >> bit) & 1) << 2 | ((b >> bit) & 1) << 1 | ((c >> bit) & 1);
    result |= ((table >> index) & 1) << bit;
  }
  setResult(result);
  return Error::success();
}

/// prmt: each byte of d is a byte of {b, a} (a bytes 0-3, b bytes 4-7).
/// Without a mode, c's four nibbles select them (bit 3: replicate the
/// selected byte's sign); a mode's table maps c[1:0] to four selectors.
Error ScalarExecutor::executePrmt() {
  uint64_t source = src(2) << 32 | src(1);
  uint64_t c = src(3);
  StringRef mode = mod(Slot::mode);
  // Selectors of d.b0 .. d.b3, one row per value of c[1:0] (PTX ISA prmt).
  using Rows = std::array<std::array<uint8_t, 4>, 4>;
  std::optional<Rows> rows =
      StringSwitch<std::optional<Rows>>(mode)
          .Case("f4e",
                Rows{{{0, 1, 2, 3}, {1, 2, 3, 4}, {2, 3, 4, 5}, {3, 4, 5, 6}}})
          .Case("b4e",
                Rows{{{0, 7, 6, 5}, {1, 0, 7, 6}, {2, 1, 0, 7}, {3, 2, 1, 0}}})
          .Case("rc8",
                Rows{{{0, 0, 0, 0}, {1, 1, 1, 1}, {2, 2, 2, 2}, {3, 3, 3, 3}}})
          .Case("ecl",
                Rows{{{0, 1, 2, 3}, {1, 1, 2, 3}, {2, 2, 2, 3}, {3, 3, 3, 3}}})
          .Case("ecr",
                Rows{{{0, 0, 0, 0}, {0, 1, 1, 1}, {0, 1, 2, 2}, {0, 1, 2, 3}}})
          .Case("rc16",
                Rows{{{0, 1, 0, 1}, {2, 3, 2, 3}, {0, 1, 0, 1}, {2, 3, 2, 3}}})
          .Default(std::nullopt);
  if (!mode.empty() && !rows)
    return unsupported();
  uint64_t result = 0;
  for (unsigned i = 0; i < 4; ++i) {
    unsigned selector = rows ? (*rows)[c & 3][i] : (c >> (4 * i)) & 0xf;
    uint64_t byte = (source >> (8 * (selector & 7))) & 0xff;
    if (selector & 8)
      byte = (byte & 0x80) ? 0xff : 0;
    result |= byte << (8 * i);
  }
  setResult(result);
  return Error::success();
}

Error mlir::tirx::interp::executeScalarInstruction(
    const ptx::Instruction &instruction,
    MutableArrayRef<OperandAtom> operands) {
  return ScalarExecutor(instruction, operands).run();
}
