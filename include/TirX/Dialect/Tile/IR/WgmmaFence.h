//===- WgmmaFence.h - wgmma.fence before register accesses ------*- C++ -*-===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//
//
// PTX requires `wgmma.fence.sync.aligned` between any access to a
// wgmma.mma_async's accumulator (or A fragment) registers by another
// instruction and the wgmma; without it the result is undefined, and no
// test reliably catches it. The verifier proves the fence is there with a
// conservative walk over the structured control flow of the kernel
// (docs/wgmma.md): along every path from the kernel's start to the wgmma,
// the last access of the operand's registers (through any tirx.view,
// tirx.reinterpret or tirx.region of its tirx.alloc_local) by an op other
// than a wgmma.mma_async is followed by a wgmma.fence. scf.if joins its
// branches; a loop (or any other op with regions) joins its body's end into
// its start until nothing changes, so an access after the wgmma reaches it
// through the back edge. Fresh registers need no fence: a tile whose first
// access is the wgmma passes.
//
//===----------------------------------------------------------------------===//

#ifndef TIRX_DIALECT_TILE_IR_WGMMAFENCE_H
#define TIRX_DIALECT_TILE_IR_WGMMAFENCE_H

#include "TirX/Dialect/Tile/IR/TileOperands.h"
#include "TirX/Dialect/Tile/PTX/PTXInstruction.h"

#include "mlir/IR/Operation.h"

namespace mlir::tirx::tile {

/// Whether `instruction` is a wgmma.mma_async.
bool isWgmmaMma(const ptx::Instruction &instruction);

/// Verifies that a wgmma.mma_async (`op`, spelled `instruction`) is fenced
/// after every other access to its register operands (ApplyOp::verify's
/// part for it).
LogicalResult verifyWgmmaFence(Operation *op,
                               const ptx::Instruction &instruction,
                               ArrayRef<MixedOperand> operands);

/// verifyWgmmaFence for every wgmma.mma_async `tile.apply` inside `top`
/// (a kernel, a function or a module): the whole-kernel part of a wgmma's
/// checks, run by tirx-verify-kernels rather than by the op's verifier
/// (it walks the kernel once per wgmma).
LogicalResult verifyWgmmaFences(Operation *top);

} // namespace mlir::tirx::tile

#endif // TIRX_DIALECT_TILE_IR_WGMMAFENCE_H
