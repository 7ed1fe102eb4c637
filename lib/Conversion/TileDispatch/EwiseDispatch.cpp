//===- EwiseDispatch.cpp - tile.ewise to an inlined body per element ------===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//

#include "DispatchUtils.h"
#include "TirX/Conversion/Passes.h"
#include "TirX/Dialect/Tile/IR/TileOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::tirx;
using namespace mlir::tirx::tile;

/// Clones the body of the scalar function `fn` at the builder's insertion
/// point with `args` for its parameters, inlining the calls it makes (the
/// verifier rejected recursion), and returns the result value.
static Value inlineScalarFunction(OpBuilder &builder, func::FuncOp fn,
                                  ValueRange args) {
  Block &body = fn.getBody().front();
  IRMapping mapping;
  mapping.map(body.getArguments(), args);
  for (Operation &op : body.without_terminator()) {
    Operation *clone = builder.clone(op, mapping);
    // Calls, also those nested in scf.if regions, are inlined in turn.
    SmallVector<func::CallOp> calls;
    clone->walk([&](func::CallOp call) { calls.push_back(call); });
    for (func::CallOp call : calls) {
      auto callee = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
          fn, call.getCalleeAttr());
      OpBuilder::InsertionGuard guard(builder);
      builder.setInsertionPoint(call);
      Value result = inlineScalarFunction(builder, callee, call.getOperands());
      call.getResult(0).replaceAllUsesWith(result);
      call.erase();
    }
  }
  return mapping.lookup(body.getTerminator()->getOperand(0));
}

namespace {
// tile.ewise @f (dst, inputs...) ⇒ per element of the thread: slot loads, a
// copy of @f's body, one slot store.
struct EwiseOpDispatch : public OpRewritePattern<EwiseOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(EwiseOp op,
                                PatternRewriter &rewriter) const override {
    auto callee = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
        op, op.getCalleeAttr());
    // The verifier guarantees a func.func with a body.
    assert(callee && !callee.isExternal() && "tile.ewise callee unverified");
    FailureOr<SmallVector<MixedOperand>> operands =
        getMixedOperands(op, op.getArgs(), op.getOperandKinds());
    if (failed(operands))
      return failure();
    FailureOr<ExecutionDomain> domain = getExecutionDomain(op, op.getScope());
    if (failed(domain))
      return failure();

    // Slots of every tensor operand, per element of one group coordinate.
    SmallVector<SmallVector<int64_t>> slots(operands->size());
    int64_t elements = 0;
    for (const MixedOperand &operand : *operands) {
      auto tensor = dyn_cast<tirx::TensorType>(operand.getType());
      if (!tensor)
        continue;
      FailureOr<SmallVector<int64_t>> tensorSlots =
          getThreadSlots(op, operand.position, tensor, *domain);
      if (failed(tensorSlots))
        return failure();
      slots[operand.position] = std::move(*tensorSlots);
      elements = slots[operand.position].size();
    }

    Location loc = op.getLoc();
    rewriter.setInsertionPoint(op);
    Block &body = callee.getBody().front();
    const MixedOperand &destination = operands->front();
    for (int64_t element = 0; element < elements; ++element) {
      SmallVector<Value> args;
      for (const MixedOperand &operand : ArrayRef(*operands).drop_front()) {
        Type paramType = body.getArgument(operand.position - 1).getType();
        if (operand.immediate)
          args.push_back(
              arith::ConstantOp::create(rewriter, loc, operand.immediate));
        else if (isa<tirx::TensorType>(operand.getType()))
          args.push_back(SlotLoadOp::create(rewriter, loc, paramType,
                                            operand.value,
                                            slots[operand.position][element]));
        else
          args.push_back(operand.value);
      }
      Value result = inlineScalarFunction(rewriter, callee, args);
      SlotStoreOp::create(rewriter, loc, result, destination.value,
                          slots[0][element]);
    }
    rewriter.eraseOp(op);
    return success();
  }
};
} // namespace

void mlir::tirx::populateTileEwiseDispatchPatterns(
    RewritePatternSet &patterns) {
  patterns.add<EwiseOpDispatch>(patterns.getContext());
}
