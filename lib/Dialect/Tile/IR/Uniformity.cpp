//===- Uniformity.cpp - Which values are the same across a warp -----------===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//

#include "TirX/Dialect/Tile/IR/Uniformity.h"
#include "TirX/Dialect/TirX/IR/TirXOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/DenseMap.h"

using namespace mlir;
using namespace mlir::tirx;
using namespace mlir::tirx::tile;

/// Whether `value` is `thread_idx x` divided, floor-divided or shifted right
/// by a constant multiple of 32 (a warp index). A warp is 32 consecutive
/// flat thread ids (x + X·(y + Y·z)), so `x / 32` is the same across a warp
/// only when the block's x extent X is a multiple of 32, or the block is
/// one-dimensional.
static bool isWarpIndex(Operation *op) {
  auto kernel = op->getParentOfType<KernelOp>();
  if (!kernel)
    return false;
  ArrayRef<int64_t> block = kernel.getLaunch().getBlock();
  bool oneDimensional = llvm::all_of(block.drop_front(),
                                     [](int64_t extent) { return extent == 1; });
  if (!oneDimensional && block.front() % 32 != 0)
    return false;
  if (!isa<arith::DivUIOp, arith::DivSIOp, arith::FloorDivSIOp, arith::ShRUIOp,
           arith::ShRSIOp>(op))
    return false;
  auto threadIdx = op->getOperand(0).getDefiningOp<ThreadIdxOp>();
  if (!threadIdx || threadIdx.getDim() != Dim::x)
    return false;
  APInt divisor;
  if (!matchPattern(op->getOperand(1), m_ConstantInt(&divisor)))
    return false;
  if (isa<arith::ShRUIOp, arith::ShRSIOp>(op))
    return divisor.getZExtValue() >= 5;
  return divisor.getZExtValue() > 0 && divisor.getZExtValue() % 32 == 0;
}

static bool isUniform(Value value, llvm::DenseMap<Value, bool> &memo,
                      unsigned depth) {
  // Deep chains are not worth proving; say "not proven".
  if (depth > 64)
    return false;
  if (auto it = memo.find(value); it != memo.end())
    return it->second;
  memo[value] = false; // cycles (loop-carried values) are not proven
  bool result = false;
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    Operation *owner = arg.getOwner()->getParentOp();
    if (isa<KernelOp>(owner)) {
      result = true;
    } else if (auto loop = dyn_cast<scf::ForOp>(owner)) {
      result = arg == loop.getInductionVar() &&
               isUniform(loop.getLowerBound(), memo, depth + 1) &&
               isUniform(loop.getUpperBound(), memo, depth + 1) &&
               isUniform(loop.getStep(), memo, depth + 1);
    }
  } else {
    Operation *op = value.getDefiningOp();
    if (matchPattern(value, m_Constant()) || isa<BlockIdxOp>(op) ||
        isWarpIndex(op)) {
      result = true;
    } else if (!isa<ThreadIdxOp>(op) && op->getNumRegions() == 0 &&
               isMemoryEffectFree(op)) {
      result = llvm::all_of(op->getOperands(), [&](Value operand) {
        return isUniform(operand, memo, depth + 1);
      });
    }
  }
  memo[value] = result;
  return result;
}

bool mlir::tirx::tile::isWarpUniform(Value value) {
  llvm::DenseMap<Value, bool> memo;
  return isUniform(value, memo, 0);
}

Value mlir::tirx::tile::findDivergentCondition(Operation *op) {
  for (Operation *parent = op->getParentOp(); parent && !isa<KernelOp>(parent);
       parent = parent->getParentOp()) {
    Value condition;
    if (auto ifOp = dyn_cast<scf::IfOp>(parent))
      condition = ifOp.getCondition();
    else if (auto whileOp = dyn_cast<scf::WhileOp>(parent))
      condition = whileOp.getConditionOp().getCondition();
    if (condition && !isWarpUniform(condition))
      return condition;
  }
  return {};
}
