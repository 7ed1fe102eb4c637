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

namespace {
// tile.ewise @f (dst, inputs...) ⇒ per element of the thread: slot loads, a
// copy of @f's body, one slot store.
struct EwiseOpDispatch : public OpRewritePattern<EwiseOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(EwiseOp op,
                                PatternRewriter &rewriter) const override {
    auto callee = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
        op, op.getCalleeAttr());
    if (!callee || callee.isExternal())
      return op.emitError("tile-dispatch: callee ")
             << op.getCalleeAttr() << " is not a func.func with a body here";
    if (!callee.getBody().hasOneBlock())
      return op.emitError("tile-dispatch: callee ")
             << op.getCalleeAttr()
             << " must have a single block (use scf.if for branches)";
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
    auto dstType = cast<tirx::TensorType>(destination.getType());
    for (int64_t element = 0; element < elements; ++element) {
      IRMapping mapping;
      for (const MixedOperand &operand : ArrayRef(*operands).drop_front()) {
        BlockArgument param = body.getArgument(operand.position - 1);
        Value value;
        if (operand.immediate)
          value = arith::ConstantOp::create(rewriter, loc, operand.immediate);
        else if (isa<tirx::TensorType>(operand.getType()))
          value = SlotLoadOp::create(rewriter, loc, param.getType(),
                                     operand.value,
                                     slots[operand.position][element]);
        else
          value = operand.value;
        mapping.map(param, value);
      }
      for (Operation &bodyOp : body.without_terminator())
        rewriter.clone(bodyOp, mapping);
      Value result =
          mapping.lookup(body.getTerminator()->getOperand(0));
      SlotStoreOp::create(rewriter, loc, result, destination.value,
                          slots[0][element]);
    }
    (void)dstType;
    rewriter.eraseOp(op);
    return success();
  }
};
} // namespace

void mlir::tirx::populateTileEwiseDispatchPatterns(RewritePatternSet &patterns) {
  patterns.add<EwiseOpDispatch>(patterns.getContext());
}
