//===- RegisterBudget.h - Per-thread register footprint ---------*- C++ -*-===//
//
// Part of the TirX project.
//
// The register budget of a tirx.kernel (docs/registers.md). Register tiles
// (`tirx.alloc_local`) become per-thread values (tirx-lower-tensors: span(m)
// slots of the tile's storage layout, one LLVM value per slot), so their
// footprint is known before any code is generated. The verifier bounds it:
//
//   regs(tile)   = span_m(storage(layout)) · ⌈element bits / 32⌉
//                  (an 8- or 16-bit element takes a 32-bit register of its
//                  own: the lowering keeps one element per slot value);
//   live(point)  = Σ regs of the tiles allocated before `point` in its own
//                  block and in every enclosing block of the kernel — a tile
//                  is live from its allocation to the end of its block (it
//                  cannot be used after: SSA dominance), so the bodies of two
//                  sibling loops, or the then/else of an scf.if, never add up;
//   limit        = min(255, ⌊65536 / (32·warps) / 8⌋·8) − kRegisterMargin,
//                  warps = ⌈threads per block / 32⌉ (registers are given to
//                  warps in units of 8 per thread; 65536 per SM from sm_50
//                  to sm_120, 255 per thread since sm_35).
//
// After an op whose RegisterLimitOpInterface names a count (a warpgroup's
// setmaxnreg), the limit is that count less the margin for the rest of its
// block and the blocks nested there.
//
// An allocation that brings live() above the limit is a located error.
//
//===----------------------------------------------------------------------===//

#ifndef TIRX_DIALECT_TIRX_IR_REGISTERBUDGET_H
#define TIRX_DIALECT_TIRX_IR_REGISTERBUDGET_H

#include "mlir/Support/LLVM.h"

#include <cstdint>

namespace mlir::tirx {
class KernelOp;
class TensorType;

/// Registers per thread a thread may use at most (PTX .maxnreg / ptxas).
inline constexpr int64_t kMaxRegistersPerThread = 255;
/// 32-bit registers in an SM's register file (sm_50 … sm_120).
inline constexpr int64_t kRegisterFileSize = 65536;
/// Registers per thread are allocated to warps in units of this many.
inline constexpr int64_t kRegisterAllocationUnit = 8;
/// Registers kept out of the tiles' budget for what the lowering adds: the
/// 64-bit addresses of the tensors, thread/block indices, loop counters and
/// predicates.
inline constexpr int64_t kRegisterMargin = 16;

/// 32-bit registers per thread that a register tile of `type` occupies.
int64_t getRegisterFootprint(TensorType type);

/// Registers per thread available to a block of `threads` threads, before
/// the margin: min(255, the register file over the block's warps).
int64_t getRegistersPerThreadLimit(int64_t threads);

/// Checks that the register tiles live at every point of `kernel` fit the
/// budget; emits an error at the first allocation that does not.
LogicalResult verifyRegisterBudget(KernelOp kernel);
} // namespace mlir::tirx

#endif // TIRX_DIALECT_TIRX_IR_REGISTERBUDGET_H
