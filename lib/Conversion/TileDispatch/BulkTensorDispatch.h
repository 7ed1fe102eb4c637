//===- BulkTensorDispatch.h - TMA copies to inline PTX ----------*- C++ -*-===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//

#ifndef TIRX_LIB_CONVERSION_TILEDISPATCH_BULKTENSORDISPATCH_H
#define TIRX_LIB_CONVERSION_TILEDISPATCH_BULKTENSORDISPATCH_H

#include "TirX/Dialect/Tile/IR/TileOperands.h"
#include "TirX/Dialect/Tile/PTX/PTXInstruction.h"

#include "mlir/IR/PatternMatch.h"

namespace mlir::tirx::tile {

/// A verified TMA copy (`cp.async.bulk.tensor`) ⇒ one inline-PTX
/// instruction: `[image], [map, {coords}], [mbar]` for a load,
/// `[map, {coords}], [image]` for a store. The map is the kernel's hidden
/// parameter tirx-to-gpu added for its (tensor, box, swizzle); the
/// coordinates are the box's region offsets, innermost first. A
/// `prefetch.tensormap` of a box prefetches each map the copies of that box
/// use.
LogicalResult emitBulkTensorCopy(PatternRewriter &rewriter, ApplyOp op,
                                 const ptx::Instruction &instruction,
                                 ArrayRef<MixedOperand> operands);

} // namespace mlir::tirx::tile

#endif // TIRX_LIB_CONVERSION_TILEDISPATCH_BULKTENSORDISPATCH_H
