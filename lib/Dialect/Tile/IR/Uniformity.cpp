//===- Uniformity.cpp - Which values are the same across a warp -----------===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//

#include "TirX/Dialect/Tile/IR/Uniformity.h"
#include "TirX/Dialect/TirX/IR/TirXOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/DenseMap.h"

using namespace mlir;
using namespace mlir::tirx;
using namespace mlir::tirx::tile;

/// Whether `op` reads the thread index along x (tirx or gpu spelling).
static bool isThreadIndexX(Operation *op) {
  if (auto index = dyn_cast_or_null<ThreadIdxOp>(op))
    return index.getDim() == Dim::x;
  if (auto index = dyn_cast_or_null<gpu::ThreadIdOp>(op))
    return index.getDimension() == gpu::Dimension::x;
  return false;
}

/// Whether `op` is the thread index along x divided, floor-divided or
/// shifted right by a constant multiple of 32 (a warp index). A warp is 32
/// consecutive flat thread ids (x + X·(y + Y·z)), so `x / 32` is the same
/// across a warp only when the block's x extent X is a multiple of 32, or
/// the block is one-dimensional.
/// tid.x / k with k a multiple of `unitThreads` (32: a warp index).
static bool isWarpIndex(Operation *op, int64_t unitThreads) {
  if (!isa<arith::DivUIOp, arith::DivSIOp, arith::FloorDivSIOp, arith::ShRUIOp,
           arith::ShRSIOp>(op))
    return false;
  if (!isThreadIndexX(op->getOperand(0).getDefiningOp()))
    return false;
  SmallVector<int64_t, 3> block = getEnclosingBlockExtents(op);
  if (block.empty())
    return false;
  bool oneDimensional = llvm::all_of(
      ArrayRef(block).drop_front(), [](int64_t extent) { return extent == 1; });
  if (!oneDimensional && block.front() % unitThreads != 0)
    return false;
  APInt divisor;
  if (!matchPattern(op->getOperand(1), m_ConstantInt(&divisor)))
    return false;
  if (isa<arith::ShRUIOp, arith::ShRSIOp>(op))
    return divisor.getZExtValue() < 63 &&
           (int64_t(1) << divisor.getZExtValue()) % unitThreads == 0;
  return divisor.getZExtValue() > 0 &&
         divisor.getZExtValue() % unitThreads == 0;
}

/// Values every thread of the kernel sees alike, with no operand to look
/// through: constants and block, grid and launch extents.
static bool isUniformSource(Operation *op) {
  return matchPattern(op, m_Constant()) ||
         isa<BlockIdxOp, gpu::BlockIdOp, gpu::BlockDimOp, gpu::GridDimOp>(op);
}

static bool isUniform(Value value, llvm::DenseMap<Value, bool> &memo,
                      unsigned depth, int64_t unitThreads) {
  // Deep chains are not worth proving; say "not proven".
  if (depth > 64)
    return false;
  if (auto it = memo.find(value); it != memo.end())
    return it->second;
  memo[value] = false; // cycles (loop-carried values) are not proven
  bool result = false;
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    Operation *owner = arg.getOwner()->getParentOp();
    // Kernel parameters (sizes, tensors), before and after tirx-to-gpu.
    if (isa<KernelOp, gpu::GPUFuncOp>(owner) &&
        arg.getOwner()->isEntryBlock()) {
      result = true;
    } else if (auto loop = dyn_cast<scf::ForOp>(owner)) {
      result = arg == loop.getInductionVar() &&
               isUniform(loop.getLowerBound(), memo, depth + 1, unitThreads) &&
               isUniform(loop.getUpperBound(), memo, depth + 1, unitThreads) &&
               isUniform(loop.getStep(), memo, depth + 1, unitThreads);
    }
  } else {
    Operation *op = value.getDefiningOp();
    if (isUniformSource(op) || isWarpIndex(op, unitThreads)) {
      result = true;
    } else if (op->getNumOperands() > 0 && op->getNumRegions() == 0 &&
               isMemoryEffectFree(op)) {
      // Anything else without operands (a thread or lane index, an unknown
      // source) is not proven.
      result = llvm::all_of(op->getOperands(), [&](Value operand) {
        return isUniform(operand, memo, depth + 1, unitThreads);
      });
    }
  }
  memo[value] = result;
  return result;
}

bool mlir::tirx::tile::isWarpUniform(Value value, int64_t unitThreads) {
  llvm::DenseMap<Value, bool> memo;
  return isUniform(value, memo, 0, unitThreads);
}

Value mlir::tirx::tile::findDivergentCondition(Operation *op,
                                               int64_t unitThreads) {
  for (Operation *parent = op->getParentOp();
       parent && !isa<KernelOp, gpu::GPUFuncOp>(parent);
       parent = parent->getParentOp()) {
    Value condition;
    if (auto ifOp = dyn_cast<scf::IfOp>(parent))
      condition = ifOp.getCondition();
    else if (auto whileOp = dyn_cast<scf::WhileOp>(parent))
      condition = whileOp.getConditionOp().getCondition();
    if (condition && !isWarpUniform(condition, unitThreads))
      return condition;
  }
  return {};
}
