//===- ArithSemantics.cpp - arith and math ops on one lane ----------------===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//

#include "ArithSemantics.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/BuiltinTypes.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/APSInt.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/ADT/TypeSwitch.h"

#include <cmath>

using namespace mlir;
using namespace mlir::tirx;
using namespace mlir::tirx::interp;
using llvm::APFloat;
using llvm::APInt;

unsigned interp::getScalarBitWidth(Type type) {
  if (type.isIndex())
    return 64;
  return type.getIntOrFloatBitWidth();
}

uint64_t interp::truncateBits(uint64_t bits, unsigned width) {
  return width >= 64 ? bits : bits & ((uint64_t(1) << width) - 1);
}

bool interp::compareLess(uint64_t a, uint64_t b, unsigned width,
                         bool isUnsigned) {
  APInt x(width, truncateBits(a, width)), y(width, truncateBits(b, width));
  return isUnsigned ? x.ult(y) : x.slt(y);
}

bool interp::isScalarOp(Operation *op) {
  if (op->getNumResults() != 1 || op->getNumRegions() != 0)
    return false;
  Type type = op->getResult(0).getType();
  if (!type.isIntOrIndexOrFloat())
    return false;
  StringRef dialect = op->getName().getDialectNamespace();
  return dialect == "arith" || dialect == "math";
}

static APInt toInt(uint64_t bits, Type type) {
  unsigned width = getScalarBitWidth(type);
  return APInt(width, truncateBits(bits, width));
}

static APFloat toFloat(uint64_t bits, Type type) {
  auto floatType = cast<FloatType>(type);
  unsigned width = floatType.getWidth();
  return APFloat(floatType.getFloatSemantics(), APInt(width, bits));
}

static uint64_t fromFloat(const APFloat &value) {
  return value.bitcastToAPInt().getZExtValue();
}

/// `value` rounded to `type` (nearest even).
static APFloat convertFloat(APFloat value, Type type) {
  bool losesInfo = false;
  value.convert(cast<FloatType>(type).getFloatSemantics(),
                APFloat::rmNearestTiesToEven, &losesInfo);
  return value;
}

/// The libm function a one-argument `math` op computes, in double.
static double (*getUnaryFunction(StringRef name))(double) {
  return llvm::StringSwitch<double (*)(double)>(name)
      .Case("math.exp", [](double x) { return std::exp(x); })
      .Case("math.exp2", [](double x) { return std::exp2(x); })
      .Case("math.expm1", [](double x) { return std::expm1(x); })
      .Case("math.log", [](double x) { return std::log(x); })
      .Case("math.log2", [](double x) { return std::log2(x); })
      .Case("math.log10", [](double x) { return std::log10(x); })
      .Case("math.log1p", [](double x) { return std::log1p(x); })
      .Case("math.sqrt", [](double x) { return std::sqrt(x); })
      .Case("math.rsqrt", [](double x) { return 1.0 / std::sqrt(x); })
      .Case("math.cbrt", [](double x) { return std::cbrt(x); })
      .Case("math.tanh", [](double x) { return std::tanh(x); })
      .Case("math.sinh", [](double x) { return std::sinh(x); })
      .Case("math.cosh", [](double x) { return std::cosh(x); })
      .Case("math.asinh", [](double x) { return std::asinh(x); })
      .Case("math.acosh", [](double x) { return std::acosh(x); })
      .Case("math.atanh", [](double x) { return std::atanh(x); })
      .Case("math.sin", [](double x) { return std::sin(x); })
      .Case("math.cos", [](double x) { return std::cos(x); })
      .Case("math.tan", [](double x) { return std::tan(x); })
      .Case("math.asin", [](double x) { return std::asin(x); })
      .Case("math.acos", [](double x) { return std::acos(x); })
      .Case("math.atan", [](double x) { return std::atan(x); })
      .Case("math.erf", [](double x) { return std::erf(x); })
      .Case("math.erfc", [](double x) { return std::erfc(x); })
      .Case("math.floor", [](double x) { return std::floor(x); })
      .Case("math.ceil", [](double x) { return std::ceil(x); })
      .Case("math.round", [](double x) { return std::round(x); })
      .Case("math.roundeven", [](double x) { return std::nearbyint(x); })
      .Case("math.trunc", [](double x) { return std::trunc(x); })
      .Case("math.absf", [](double x) { return std::fabs(x); })
      .Default(nullptr);
}

static double (*getBinaryFunction(StringRef name))(double, double) {
  return llvm::StringSwitch<double (*)(double, double)>(name)
      .Case("math.powf", [](double x, double y) { return std::pow(x, y); })
      .Case("math.atan2", [](double x, double y) { return std::atan2(x, y); })
      .Case("math.copysign",
            [](double x, double y) { return std::copysign(x, y); })
      .Default(nullptr);
}

FailureOr<uint64_t> interp::evaluateScalarOp(Operation *op,
                                             ArrayRef<uint64_t> operands) {
  Type resultType = op->getResult(0).getType();
  auto operandType = [&](unsigned index) {
    return op->getOperand(index).getType();
  };
  auto intResult = [&](const APInt &value) -> FailureOr<uint64_t> {
    return value.getZExtValue();
  };
  if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
    if (auto attr = dyn_cast<IntegerAttr>(constant.getValue()))
      return truncateBits(attr.getValue().getZExtValue(),
                          getScalarBitWidth(resultType));
    if (auto attr = dyn_cast<FloatAttr>(constant.getValue()))
      return fromFloat(attr.getValue());
    return failure();
  }
  // Casts.
  if (isa<arith::IndexCastOp, arith::ExtSIOp, arith::TruncIOp>(op))
    return intResult(toInt(operands[0], operandType(0))
                         .sextOrTrunc(getScalarBitWidth(resultType)));
  if (isa<arith::IndexCastUIOp, arith::ExtUIOp>(op))
    return intResult(toInt(operands[0], operandType(0))
                         .zextOrTrunc(getScalarBitWidth(resultType)));
  if (isa<arith::BitcastOp>(op))
    return operands[0];
  if (isa<arith::ExtFOp, arith::TruncFOp>(op))
    return fromFloat(
        convertFloat(toFloat(operands[0], operandType(0)), resultType));
  if (isa<arith::SIToFPOp, arith::UIToFPOp>(op)) {
    APFloat value(cast<FloatType>(resultType).getFloatSemantics());
    value.convertFromAPInt(toInt(operands[0], operandType(0)),
                           isa<arith::SIToFPOp>(op),
                           APFloat::rmNearestTiesToEven);
    return fromFloat(value);
  }
  if (isa<arith::FPToSIOp, arith::FPToUIOp>(op)) {
    // Out of range is poison in LLVM; the hardware saturates (cvt.rzi),
    // NaN gives 0: what the interpreter reports too.
    llvm::APSInt result(getScalarBitWidth(resultType),
                        isa<arith::FPToUIOp>(op));
    bool exact = false;
    APFloat value = toFloat(operands[0], operandType(0));
    if (value.isNaN())
      return uint64_t(0);
    value.convertToInteger(result, APFloat::rmTowardZero, &exact);
    return intResult(result);
  }
  if (auto select = dyn_cast<arith::SelectOp>(op))
    return (operands[0] & 1) ? operands[1] : operands[2];
  if (auto compare = dyn_cast<arith::CmpIOp>(op))
    return uint64_t(arith::applyCmpPredicate(
        compare.getPredicate(), toInt(operands[0], operandType(0)),
        toInt(operands[1], operandType(1))));
  if (auto compare = dyn_cast<arith::CmpFOp>(op))
    return uint64_t(arith::applyCmpPredicate(
        compare.getPredicate(), toFloat(operands[0], operandType(0)),
        toFloat(operands[1], operandType(1))));

  if (isa<FloatType>(resultType)) {
    const llvm::fltSemantics &semantics =
        cast<FloatType>(resultType).getFloatSemantics();
    auto arg = [&](unsigned index) {
      return toFloat(operands[index], resultType);
    };
    APFloat::roundingMode rounding = APFloat::rmNearestTiesToEven;
    std::optional<APFloat> result =
        llvm::TypeSwitch<Operation *, std::optional<APFloat>>(op)
            .Case<arith::AddFOp>([&](auto) {
              APFloat x = arg(0);
              x.add(arg(1), rounding);
              return x;
            })
            .Case<arith::SubFOp>([&](auto) {
              APFloat x = arg(0);
              x.subtract(arg(1), rounding);
              return x;
            })
            .Case<arith::MulFOp>([&](auto) {
              APFloat x = arg(0);
              x.multiply(arg(1), rounding);
              return x;
            })
            .Case<arith::DivFOp>([&](auto) {
              APFloat x = arg(0);
              x.divide(arg(1), rounding);
              return x;
            })
            .Case<arith::RemFOp>([&](auto) {
              APFloat x = arg(0);
              x.mod(arg(1));
              return x;
            })
            .Case<arith::NegFOp>([&](auto) { return -arg(0); })
            .Case<arith::MaximumFOp>(
                [&](auto) { return llvm::maximum(arg(0), arg(1)); })
            .Case<arith::MinimumFOp>(
                [&](auto) { return llvm::minimum(arg(0), arg(1)); })
            .Case<arith::MaxNumFOp>(
                [&](auto) { return llvm::maxnum(arg(0), arg(1)); })
            .Case<arith::MinNumFOp>(
                [&](auto) { return llvm::minnum(arg(0), arg(1)); })
            .Case<math::FmaOp>([&](auto) {
              APFloat x = arg(0);
              x.fusedMultiplyAdd(arg(1), arg(2), rounding);
              return x;
            })
            .Default([](Operation *) { return std::nullopt; });
    if (result)
      return fromFloat(*result);
    // Library functions: in double, rounded once.
    auto inDouble = [&](unsigned index) {
      APFloat x = arg(index);
      bool losesInfo = false;
      x.convert(APFloat::IEEEdouble(), rounding, &losesInfo);
      return x.convertToDouble();
    };
    std::optional<double> value;
    if (auto fn = getUnaryFunction(op->getName().getStringRef()))
      value = fn(inDouble(0));
    else if (auto fn = getBinaryFunction(op->getName().getStringRef()))
      value = fn(inDouble(0), inDouble(1));
    if (!value)
      return failure();
    APFloat rounded(*value);
    bool losesInfo = false;
    rounded.convert(semantics, rounding, &losesInfo);
    return fromFloat(rounded);
  }

  // Integer arithmetic.
  if (op->getNumOperands() == 1) {
    APInt a = toInt(operands[0], resultType);
    return llvm::TypeSwitch<Operation *, FailureOr<uint64_t>>(op)
        .Case<math::AbsIOp>([&](auto) { return intResult(a.abs()); })
        .Case<math::CountLeadingZerosOp>(
            [&](auto) { return uint64_t(a.countl_zero()); })
        .Case<math::CountTrailingZerosOp>(
            [&](auto) { return uint64_t(a.countr_zero()); })
        .Case<math::CtPopOp>([&](auto) { return uint64_t(a.popcount()); })
        .Default([](Operation *) { return failure(); });
  }
  if (op->getNumOperands() != 2)
    return failure();
  APInt a = toInt(operands[0], resultType);
  APInt b = toInt(operands[1], resultType);
  bool divisorZero = b.isZero();
  auto shift = [&](auto fn) -> FailureOr<uint64_t> {
    if (b.uge(a.getBitWidth()))
      return failure();
    return intResult(fn(static_cast<unsigned>(b.getZExtValue())));
  };
  return llvm::TypeSwitch<Operation *, FailureOr<uint64_t>>(op)
      .Case<arith::AddIOp>([&](auto) { return intResult(a + b); })
      .Case<arith::SubIOp>([&](auto) { return intResult(a - b); })
      .Case<arith::MulIOp>([&](auto) { return intResult(a * b); })
      .Case<arith::AndIOp>([&](auto) { return intResult(a & b); })
      .Case<arith::OrIOp>([&](auto) { return intResult(a | b); })
      .Case<arith::XOrIOp>([&](auto) { return intResult(a ^ b); })
      .Case<arith::MaxSIOp>([&](auto) { return intResult(a.sge(b) ? a : b); })
      .Case<arith::MinSIOp>([&](auto) { return intResult(a.sle(b) ? a : b); })
      .Case<arith::MaxUIOp>([&](auto) { return intResult(a.uge(b) ? a : b); })
      .Case<arith::MinUIOp>([&](auto) { return intResult(a.ule(b) ? a : b); })
      .Case<arith::ShLIOp>(
          [&](auto) { return shift([&](unsigned k) { return a.shl(k); }); })
      .Case<arith::ShRSIOp>(
          [&](auto) { return shift([&](unsigned k) { return a.ashr(k); }); })
      .Case<arith::ShRUIOp>(
          [&](auto) { return shift([&](unsigned k) { return a.lshr(k); }); })
      .Case<arith::DivSIOp, arith::DivUIOp, arith::RemSIOp, arith::RemUIOp,
            arith::FloorDivSIOp, arith::CeilDivSIOp, arith::CeilDivUIOp>(
          [&](Operation *division) -> FailureOr<uint64_t> {
            bool isSigned =
                isa<arith::DivSIOp, arith::RemSIOp, arith::FloorDivSIOp,
                    arith::CeilDivSIOp>(division);
            if (divisorZero ||
                (isSigned && a.isMinSignedValue() && b.isAllOnes()))
              return failure();
            return intResult(
                llvm::TypeSwitch<Operation *, APInt>(division)
                    .Case<arith::DivSIOp>([&](auto) { return a.sdiv(b); })
                    .Case<arith::DivUIOp>([&](auto) { return a.udiv(b); })
                    .Case<arith::RemSIOp>([&](auto) { return a.srem(b); })
                    .Case<arith::RemUIOp>([&](auto) { return a.urem(b); })
                    .Case<arith::FloorDivSIOp>([&](auto) {
                      return llvm::APIntOps::RoundingSDiv(
                          a, b, APInt::Rounding::DOWN);
                    })
                    .Case<arith::CeilDivSIOp>([&](auto) {
                      return llvm::APIntOps::RoundingSDiv(a, b,
                                                          APInt::Rounding::UP);
                    })
                    .Default([&](Operation *) {
                      return llvm::APIntOps::RoundingUDiv(a, b,
                                                          APInt::Rounding::UP);
                    }));
          })
      .Default([](Operation *) { return failure(); });
}
