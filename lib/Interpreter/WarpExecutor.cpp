//===- WarpExecutor.cpp - One warp's operations, lanes in lockstep --------===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//
//
// Structured control flow runs as a SIMT machine does: a branch executes
// each side under the lanes that take it, a loop runs while any lane still
// iterates, and a value computed under a mask is defined only in its lanes.
//
//===----------------------------------------------------------------------===//

#include "ArithSemantics.h"
#include "KernelRun.h"

#include "TirX/Dialect/Tile/IR/TileOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/SymbolTable.h"

#include "llvm/ADT/bit.h"

using namespace mlir;
using namespace mlir::tirx;
using namespace mlir::tirx::interp;

/// The lanes of `mask` where the i1 `value` holds.
static LaneMask getTrueLanes(const LaneValue &value, LaneMask mask) {
  LaneMask result = 0;
  forEachLane(mask, [&](unsigned lane) {
    if (value.lanes[lane] & 1)
      result |= LaneMask(1) << lane;
  });
  return result;
}

/// Copies the lanes of `mask` from `from` into `into`.
static void mergeLanes(LaneValue &into, const LaneValue &from, LaneMask mask) {
  if (from.storage)
    into.storage = from.storage;
  forEachLane(mask,
              [&](unsigned lane) { into.lanes[lane] = from.lanes[lane]; });
}

FailureOr<LaneValues> WarpExecutor::executeBlock(Block &block, LaneMask mask) {
  for (Operation &op : block.without_terminator()) {
    if (cta.failed)
      return failure();
    if (failed(executeOp(op, mask)))
      return failure();
  }
  LaneValues results;
  for (Value operand : block.getTerminator()->getOperands())
    results.push_back(get(operand));
  return results;
}

LogicalResult WarpExecutor::executeOp(Operation &op, LaneMask mask) {
  if (llvm::raw_ostream *trace = cta.launch.options.trace) {
    *trace << "[block " << cta.getFlatBlockIndex() << " warp " << warp.index
           << " lanes 0x";
    trace->write_hex(mask);
    *trace << "] " << op.getName() << " " << op.getLoc() << "\n";
  }
  if (isa<scf::ForOp>(op))
    return executeFor(&op, mask);
  if (isa<scf::IfOp>(op))
    return executeIf(&op, mask);
  if (isa<scf::IndexSwitchOp>(op))
    return executeIndexSwitch(&op, mask);
  if (isa<scf::WhileOp>(op))
    return executeWhile(&op, mask);
  if (isa<tile::ApplyOp>(op))
    return executeApply(&op, mask);
  if (isa<tile::EwiseOp>(op))
    return executeEwise(&op, mask);
  if (auto call = dyn_cast<func::CallOp>(op)) {
    auto callee = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
        &op, call.getCalleeAttr());
    if (!callee || callee.isExternal()) {
      // check-diagnostics: internal, the verifier requires ewise callees and
      // what they call to have bodies
      emitRunError(&op, cta)
          << "the interpreter needs the body of '" << call.getCallee() << "'";
      return failure();
    }
    Block &body = callee.getBody().front();
    // The callee's values are keyed by its own SSA values: a recursive
    // call would overwrite its caller's.
    for (auto [arg, operand] :
         llvm::zip(body.getArguments(), call.getOperands()))
      set(arg, LaneValue(get(operand)));
    FailureOr<LaneValues> results = executeBlock(body, mask);
    if (failed(results))
      return failure();
    for (auto [result, value] : llvm::zip(call.getResults(), *results))
      set(result, value);
    return success();
  }
  if (op.getDialect() &&
      op.getDialect()->getNamespace() == TirXDialect::getDialectNamespace())
    return executeTensorOp(&op, mask);
  if (isScalarOp(&op)) {
    SmallVector<uint64_t, 4> operands(op.getNumOperands());
    LaneValue result;
    bool ok = true;
    forEachLane(mask, [&](unsigned lane) {
      if (!ok)
        return;
      for (auto [index, operand] : llvm::enumerate(op.getOperands()))
        operands[index] = get(operand).lanes[lane];
      FailureOr<uint64_t> bits = evaluateScalarOp(&op, operands);
      if (failed(bits)) {
        ok = false;
        return;
      }
      result.lanes[lane] = *bits;
    });
    if (!ok) {
      emitRunError(&op, cta) << "the interpreter cannot evaluate this "
                                "operation (an integer division by zero or a "
                                "form it does not model)";
      return failure();
    }
    set(op.getResult(0), result);
    return success();
  }
  emitRunError(&op, cta) << "the interpreter does not model '" << op.getName()
                         << "'";
  return failure();
}

LogicalResult WarpExecutor::executeIf(Operation *op, LaneMask mask) {
  auto ifOp = cast<scf::IfOp>(op);
  LaneMask taken = getTrueLanes(get(ifOp.getCondition()), mask);
  LaneMask notTaken = mask & ~taken;
  LaneValues results(ifOp.getNumResults());
  if (taken) {
    FailureOr<LaneValues> values =
        executeBlock(ifOp.getThenRegion().front(), taken);
    if (failed(values))
      return failure();
    for (auto [result, value] : llvm::zip(results, *values))
      mergeLanes(result, value, taken);
  }
  if (notTaken && !ifOp.getElseRegion().empty()) {
    FailureOr<LaneValues> values =
        executeBlock(ifOp.getElseRegion().front(), notTaken);
    if (failed(values))
      return failure();
    for (auto [result, value] : llvm::zip(results, *values))
      mergeLanes(result, value, notTaken);
  }
  for (auto [result, value] : llvm::zip(ifOp.getResults(), results))
    set(result, value);
  return success();
}

LogicalResult WarpExecutor::executeIndexSwitch(Operation *op, LaneMask mask) {
  auto switchOp = cast<scf::IndexSwitchOp>(op);
  const LaneValue &selector = get(switchOp.getArg());
  LaneValues results(switchOp.getNumResults());
  // Each case runs for the lanes whose selector equals its value, the
  // default for the rest, one after the other (divergent lanes).
  LaneMask remaining = mask;
  auto run = [&](Region &region, LaneMask lanes) -> LogicalResult {
    if (!lanes)
      return success();
    FailureOr<LaneValues> values = executeBlock(region.front(), lanes);
    if (failed(values))
      return failure();
    for (auto [result, value] : llvm::zip(results, *values))
      mergeLanes(result, value, lanes);
    return success();
  };
  for (auto [value, region] :
       llvm::zip(switchOp.getCases(), switchOp.getCaseRegions())) {
    int64_t caseValue = value;
    LaneMask lanes = 0;
    forEachLane(remaining, [&](unsigned lane) {
      if (static_cast<int64_t>(selector.lanes[lane]) == caseValue)
        lanes |= LaneMask(1) << lane;
    });
    remaining &= ~lanes;
    if (failed(run(region, lanes)))
      return failure();
  }
  if (failed(run(switchOp.getDefaultRegion(), remaining)))
    return failure();
  for (auto [result, value] : llvm::zip(switchOp.getResults(), results))
    set(result, value);
  return success();
}

LogicalResult WarpExecutor::executeFor(Operation *op, LaneMask mask) {
  auto forOp = cast<scf::ForOp>(op);
  unsigned width = getScalarBitWidth(forOp.getInductionVar().getType());
  bool isUnsigned = forOp.getUnsignedCmp();
  LaneValue lower = get(forOp.getLowerBound());
  LaneValue upper = get(forOp.getUpperBound());
  LaneValue step = get(forOp.getStep());
  LaneValue index = lower;
  LaneValues carried;
  for (Value init : forOp.getInitArgs())
    carried.push_back(get(init));
  auto continuing = [&](LaneMask lanes) {
    LaneMask result = 0;
    forEachLane(lanes, [&](unsigned lane) {
      if (compareLess(index.lanes[lane], upper.lanes[lane], width, isUnsigned))
        result |= LaneMask(1) << lane;
    });
    return result;
  };
  Block &body = *forOp.getBody();
  for (LaneMask active = continuing(mask); active;
       active = continuing(active)) {
    set(forOp.getInductionVar(), index);
    for (auto [arg, value] : llvm::zip(forOp.getRegionIterArgs(), carried))
      set(arg, value);
    FailureOr<LaneValues> yielded = executeBlock(body, active);
    if (failed(yielded))
      return failure();
    for (auto [value, next] : llvm::zip(carried, *yielded))
      mergeLanes(value, next, active);
    forEachLane(active, [&](unsigned lane) {
      index.lanes[lane] =
          truncateBits(index.lanes[lane] + step.lanes[lane], width);
    });
  }
  for (auto [result, value] : llvm::zip(forOp.getResults(), carried))
    set(result, value);
  return success();
}

LogicalResult WarpExecutor::executeWhile(Operation *op, LaneMask mask) {
  auto whileOp = cast<scf::WhileOp>(op);
  LaneValues carried;
  for (Value init : whileOp.getInits())
    carried.push_back(get(init));
  LaneValues results(whileOp.getNumResults());
  Block &before = whileOp.getBefore().front();
  Block &after = whileOp.getAfter().front();
  LaneMask active = mask;
  while (active) {
    for (auto [arg, value] : llvm::zip(before.getArguments(), carried))
      set(arg, value);
    FailureOr<LaneValues> forwarded = executeBlock(before, active);
    if (failed(forwarded))
      return failure();
    // The terminator's operands are (condition, forwarded...).
    LaneMask continuing = getTrueLanes((*forwarded)[0], active);
    LaneMask leaving = active & ~continuing;
    for (auto [result, value] :
         llvm::zip(results, ArrayRef(*forwarded).drop_front()))
      mergeLanes(result, value, leaving);
    active = continuing;
    if (!active)
      break;
    for (auto [arg, value] :
         llvm::zip(after.getArguments(), ArrayRef(*forwarded).drop_front()))
      set(arg, value);
    FailureOr<LaneValues> next = executeBlock(after, active);
    if (failed(next))
      return failure();
    for (auto [value, nextValue] : llvm::zip(carried, *next))
      mergeLanes(value, nextValue, active);
  }
  for (auto [result, value] : llvm::zip(whileOp.getResults(), results))
    set(result, value);
  return success();
}
