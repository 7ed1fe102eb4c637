//===- Uniformity.h - Which values are the same across a warp ---*- C++ -*-===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//
//
// A `.sync` warp collective must be executed by every lane of the warp:
// predicating it per lane, or branching around it on a per-lane condition,
// is undefined behaviour that no test reliably catches. The verifier
// therefore proves that a collective's predicate, and the condition of
// every scf.if / scf.while around it, is warp-uniform.
//
// The proof is a conservative backward walk, valid before and after
// tirx-to-gpu (tirx or gpu index ops, tirx.kernel or gpu.func parameters):
// constants, block indices and extents, kernel parameters (sizes, tensors),
// loop indices of loops with uniform
// bounds, `thread_idx x` divided (or shifted) by a multiple of 32 (when the
// block's x extent is a multiple of 32, or the block is 1-D), and pure
// operations of uniform operands are uniform; anything else (a thread index,
// a loaded value, an unknown block argument) is not.
//
//===----------------------------------------------------------------------===//

#ifndef TIRX_DIALECT_TILE_IR_UNIFORMITY_H
#define TIRX_DIALECT_TILE_IR_UNIFORMITY_H

#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"

namespace mlir::tirx::tile {

/// Whether `value` provably has the same value in every lane of a warp (in
/// every thread of a warpgroup with `unitThreads` 128: a warp index divided
/// by 4 is, the warp index is not).
bool isWarpUniform(Value value, int64_t unitThreads = 32);

/// The first condition (innermost first) of an scf.if / scf.while around
/// `op`, inside its kernel, that is not provably warp-uniform; null when all
/// are.
Value findDivergentCondition(Operation *op, int64_t unitThreads = 32);

} // namespace mlir::tirx::tile

#endif // TIRX_DIALECT_TILE_IR_UNIFORMITY_H
