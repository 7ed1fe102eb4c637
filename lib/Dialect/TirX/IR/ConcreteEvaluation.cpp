//===- ConcreteEvaluation.cpp - a kernel's index arithmetic at one point --===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//

#include "ConcreteEvaluation.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/CheckedArithmetic.h"

#include <functional>

using namespace mlir;
using namespace mlir::tirx;
using llvm::APInt;

unsigned mlir::tirx::getComputeBitWidth(Type type) {
  // The kernels target NVPTX64: index is 64 bits.
  return type.isIndex() ? 64 : type.getIntOrFloatBitWidth();
}

void ConcreteEvaluator::bind(Value leaf, int64_t value) {
  values[leaf] = APInt(getComputeBitWidth(leaf.getType()),
                       static_cast<uint64_t>(value), /*isSigned=*/true,
                       /*implicitTrunc=*/true);
}

void ConcreteEvaluator::bindLaunchIndex(bool thread, unsigned dim,
                                        int64_t value) {
  launchIndices[dim + (thread ? 3 : 0)] = value;
}

std::optional<int64_t> ConcreteEvaluator::evaluateSigned(Value value) {
  std::optional<APInt> result = evaluate(value);
  if (!result)
    return std::nullopt;
  return result->getSExtValue();
}

std::optional<bool> ConcreteEvaluator::holds(Value condition) {
  std::optional<APInt> result = evaluate(condition);
  if (!result || result->getBitWidth() != 1)
    return std::nullopt;
  return result->isOne();
}

std::optional<APInt> ConcreteEvaluator::evaluate(Value value) {
  if (!value.getType().isIntOrIndex())
    return std::nullopt;
  auto known = values.find(value);
  if (known != values.end())
    return known->second;
  Operation *op = value.getDefiningOp();
  if (!op)
    return std::nullopt; // an unbound block argument
  std::optional<APInt> result =
      evaluateOp(op, getComputeBitWidth(value.getType()));
  if (result)
    values[value] = *result;
  return result;
}

std::optional<APInt> ConcreteEvaluator::evaluateOp(Operation *op,
                                                   unsigned width) {
  if (auto constantOp = dyn_cast<arith::ConstantOp>(op)) {
    auto attr = dyn_cast<IntegerAttr>(constantOp.getValue());
    if (!attr)
      return std::nullopt;
    return attr.getValue().sextOrTrunc(width);
  }
  auto launchIndex = [&](bool thread, Dim dim) -> std::optional<APInt> {
    auto found = launchIndices.find(static_cast<unsigned>(dim) + (thread ? 3 : 0));
    if (found == launchIndices.end())
      return std::nullopt;
    return APInt(width, found->second, /*isSigned=*/true);
  };
  if (auto index = dyn_cast<BlockIdxOp>(op))
    return launchIndex(false, index.getDim());
  if (auto index = dyn_cast<ThreadIdxOp>(op))
    return launchIndex(true, index.getDim());
  // Casts: truncation, sign or zero extension.
  if (isa<arith::IndexCastOp, arith::ExtSIOp, arith::IndexCastUIOp,
          arith::ExtUIOp, arith::TruncIOp>(op)) {
    std::optional<APInt> source = evaluate(op->getOperand(0));
    if (!source)
      return std::nullopt;
    if (isa<arith::IndexCastUIOp, arith::ExtUIOp>(op))
      return source->zextOrTrunc(width);
    return source->sextOrTrunc(width);
  }
  if (auto select = dyn_cast<arith::SelectOp>(op)) {
    std::optional<bool> condition = holds(select.getCondition());
    if (!condition)
      return std::nullopt;
    return evaluate(*condition ? select.getTrueValue() : select.getFalseValue());
  }
  if (op->getNumOperands() != 2)
    return std::nullopt;
  std::optional<APInt> lhs = evaluate(op->getOperand(0));
  std::optional<APInt> rhs = lhs ? evaluate(op->getOperand(1)) : std::nullopt;
  if (!rhs)
    return std::nullopt;
  const APInt &a = *lhs, &b = *rhs;
  if (auto compare = dyn_cast<arith::CmpIOp>(op))
    return APInt(1, arith::applyCmpPredicate(compare.getPredicate(), a, b));
  // Shifts by the width or more, and divisions by zero, are poison.
  auto shiftAmount = [&]() -> std::optional<unsigned> {
    if (b.uge(a.getBitWidth()))
      return std::nullopt;
    return static_cast<unsigned>(b.getZExtValue());
  };
  bool divisorZero = b.isZero();
  return llvm::TypeSwitch<Operation *, std::optional<APInt>>(op)
      .Case<arith::AddIOp>([&](auto) { return a + b; })
      .Case<arith::SubIOp>([&](auto) { return a - b; })
      .Case<arith::MulIOp>([&](auto) { return a * b; })
      .Case<arith::AndIOp>([&](auto) { return a & b; })
      .Case<arith::OrIOp>([&](auto) { return a | b; })
      .Case<arith::XOrIOp>([&](auto) { return a ^ b; })
      .Case<arith::MaxSIOp>([&](auto) { return a.sge(b) ? a : b; })
      .Case<arith::MinSIOp>([&](auto) { return a.sle(b) ? a : b; })
      .Case<arith::MaxUIOp>([&](auto) { return a.uge(b) ? a : b; })
      .Case<arith::MinUIOp>([&](auto) { return a.ule(b) ? a : b; })
      .Case<arith::ShLIOp>([&](auto) -> std::optional<APInt> {
        if (std::optional<unsigned> k = shiftAmount())
          return a.shl(*k);
        return std::nullopt;
      })
      .Case<arith::ShRSIOp>([&](auto) -> std::optional<APInt> {
        if (std::optional<unsigned> k = shiftAmount())
          return a.ashr(*k);
        return std::nullopt;
      })
      .Case<arith::ShRUIOp>([&](auto) -> std::optional<APInt> {
        if (std::optional<unsigned> k = shiftAmount())
          return a.lshr(*k);
        return std::nullopt;
      })
      .Case<arith::DivSIOp, arith::DivUIOp, arith::RemSIOp, arith::RemUIOp,
            arith::FloorDivSIOp, arith::CeilDivSIOp>(
          [&](Operation *division) -> std::optional<APInt> {
            // INT_MIN / -1 overflows: poison too.
            if (divisorZero ||
                (isa<arith::DivSIOp, arith::FloorDivSIOp, arith::CeilDivSIOp>(
                     division) &&
                 a.isMinSignedValue() && b.isAllOnes()))
              return std::nullopt;
            return llvm::TypeSwitch<Operation *, APInt>(division)
                .Case<arith::DivSIOp>([&](auto) { return a.sdiv(b); })
                .Case<arith::DivUIOp>([&](auto) { return a.udiv(b); })
                .Case<arith::RemSIOp>([&](auto) { return a.srem(b); })
                .Case<arith::RemUIOp>([&](auto) { return a.urem(b); })
                .Case<arith::FloorDivSIOp>([&](auto) {
                  return llvm::APIntOps::RoundingSDiv(a, b,
                                                      APInt::Rounding::DOWN);
                })
                .Default([&](Operation *) {
                  return llvm::APIntOps::RoundingSDiv(a, b,
                                                      APInt::Rounding::UP);
                });
          })
      .Default([](Operation *) { return std::nullopt; });
}

std::optional<int64_t> ConcreteEvaluator::evaluateGridExtent(unsigned dim) {
  return kernel.getLaunch().evaluateGridExtent(dim, [&](unsigned index) {
    return evaluateSigned(kernel.getArgument(index));
  });
}

std::string ConcreteEvaluator::checkDomain() {
  for (auto [key, value] : launchIndices) {
    bool thread = key >= 3;
    unsigned dim = key % 3;
    std::optional<int64_t> extent;
    if (thread) {
      ArrayRef<int64_t> block = kernel.getLaunch().getBlock();
      extent = dim < block.size() ? block[dim] : 1;
    } else {
      extent = evaluateGridExtent(dim);
    }
    if (!extent || value < 0 || value >= *extent)
      return (thread ? "thread_idx " : "block_idx ") + std::to_string(value) +
             " is outside the launch";
  }
  // Copied: evaluating loop bounds below adds entries to `values`.
  SmallVector<std::pair<Value, APInt>> leaves(values.begin(), values.end());
  for (auto [leaf, bits] : leaves) {
    auto arg = dyn_cast<BlockArgument>(leaf);
    if (!arg)
      continue;
    int64_t value = bits.getSExtValue();
    Operation *owner = arg.getOwner()->getParentOp();
    if (owner == kernel.getOperation()) {
      if (!kernel.getArgAttr(arg.getArgNumber(), TirXDialect::kSizeAttrName))
        continue;
      int64_t multiple = getSizeMultiple(kernel, arg.getArgNumber());
      int64_t atMost = getSizeAtMost(kernel, arg.getArgNumber());
      if (value < 1 || value > kLargestSizeValue || value % multiple != 0 ||
          (atMost && value > atMost))
        return "size variable value " + std::to_string(value) +
               " is not allowed by its declaration";
      continue;
    }
    auto loop = dyn_cast<scf::ForOp>(owner);
    if (!loop || arg != loop.getInductionVar())
      continue;
    std::optional<APInt> lower = evaluate(loop.getLowerBound());
    std::optional<APInt> upper = evaluate(loop.getUpperBound());
    std::optional<APInt> step = evaluate(loop.getStep());
    if (!lower || !upper || !step || step->isNonPositive() ||
        bits.slt(*lower) || bits.sge(*upper) ||
        !(bits - *lower).srem(*step).isZero())
      return "loop index " + std::to_string(value) +
             " is not one of its loop's iterations";
  }
  return "";
}
