//===- TirXOps.h - tirx operations ------------------------------*- C++ -*-===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//

#ifndef TIRX_DIALECT_TIRX_IR_TIRXOPS_H
#define TIRX_DIALECT_TIRX_IR_TIRXOPS_H

#include "TirX/Dialect/TirX/IR/TirXDialect.h"
#include "TirX/Dialect/TirX/IR/TirXTypes.h"
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMTypes.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

#include "TirX/Dialect/TirX/IR/TirXInterfaces.h.inc"

#define GET_OP_CLASSES
#include "TirX/Dialect/TirX/IR/TirXOps.h.inc"

namespace mlir::tirx {
/// The target chip's SM number (90 for "sm_90", 100 for "sm_100a") named by
/// the nearest `tirx.chip` attribute on `op` or an ancestor (what
/// `tirx-to-gpu{chip=...}` and the pipeline set), or nothing when no target
/// is named: no default is assumed. Fails with a diagnostic on a malformed
/// chip name.
FailureOr<std::optional<unsigned>> getTargetSM(Operation *op);

/// One conversion of a `tirx.print` format: its text (`%5.2f`), whether it
/// takes a float (else an integer), and whether an integer is 64 bits
/// (`l`, `ll`, `z`, `j`, `t` length).
struct PrintConversion {
  std::string text;
  /// Where the conversion starts in the format.
  size_t offset = 0;
  bool isFloat = false;
  bool isWide = false;
};
/// The conversions of a printf format, in order (`%%` is text), or the
/// reason it is not one `tirx.print` takes.
llvm::Expected<SmallVector<PrintConversion>> parsePrintFormat(StringRef format);

/// The target PTX ISA version (x10) named by the nearest `tirx.ptx`
/// attribute on `op` or an ancestor, or 80 (the pipeline's default
/// `features=+ptx80`) for a named chip. Fails with a diagnostic on a
/// malformed value.
FailureOr<unsigned> getTargetPTX(Operation *op);

/// The result type of `tirx.region` on `source` with these offsets
/// (ShapedType::kDynamic for an SSA offset) and sizes, and the alignment the
/// region claims for its base (proven by the kernel's verifier), or a
/// diagnostic through `emitError`.
FailureOr<TensorType>
inferRegionType(function_ref<InFlightDiagnostic()> emitError, TensorType source,
                ArrayRef<int64_t> staticOffsets, ArrayRef<int64_t> sizes,
                std::optional<int64_t> claimedAlign = std::nullopt);

/// Block extents (x, y, z as given) of the kernel enclosing `op`: the launch
/// of a `tirx.kernel`, or the `known_block_size` of a `gpu.func` kernel (what
/// `tirx-to-gpu` makes of it). Empty outside kernels.
SmallVector<int64_t, 3> getEnclosingBlockExtents(Operation *op);

/// Threads per block of the kernel enclosing `op` (the product of
/// getEnclosingBlockExtents). std::nullopt outside kernels.
std::optional<int64_t> getEnclosingBlockThreads(Operation *op);

/// CUDA's limit on a block's static shared memory: a kernel whose
/// `alloc_shared`s need more gets them in dynamic shared memory (one
/// `.extern .shared` array, sized at launch; docs/lowering.md).
inline constexpr int64_t kMaxStaticSharedBytes = 48 * 1024;

/// The shared memory `kernel` (a tirx.kernel, or the gpu.func made of one)
/// allocates: each `alloc_shared` in op order at its alignment, as
/// tirx-lower-tensors places them in dynamic shared memory. Per allocation,
/// its byte offset goes to `offsets` when given.
int64_t getSharedMemoryBytes(Operation *kernel,
                             SmallVectorImpl<int64_t> *offsets = nullptr);

/// The dynamic shared memory a launch of `kernel` passes: its shared bytes
/// when they exceed kMaxStaticSharedBytes, 0 otherwise.
int64_t getDynamicSharedMemoryBytes(Operation *kernel);

/// The argument of `func` (a tirx.kernel, or the gpu.func made of one) that
/// declares size variable `name` (docs/sizes.md), or null.
BlockArgument getSizeArgument(FunctionOpInterface func, StringAttr name);

/// The declared divisor (`tirx.multiple_of`, default 1) of argument `index`
/// of `func`, a size variable.
int64_t getSizeMultiple(FunctionOpInterface func, unsigned index);

/// The declared largest value (`tirx.at_most`) of argument `index` of
/// `func`, a size variable; 0 when it declares none.
int64_t getSizeAtMost(FunctionOpInterface func, unsigned index);

/// The bounds proof (docs/bounds.md): proves that every global or shared
/// tensor operand of every `TensorAccessOpInterface` op in `kernel` lies
/// inside its tensor for all values of the block, thread and loop indices
/// where the op's guard holds. Fails with a located diagnostic naming the
/// operand, the dimension and a witness otherwise.
LogicalResult verifyAccessBounds(KernelOp kernel);

/// Barrier convergence (docs/barriers.md): every CTA barrier of `kernel`
/// (tirx.cta_sync, bar.sync of all the block's threads) is reached by every
/// thread of the CTA. A condition, switch or loop bound around one that
/// depends on the thread index is evaluated for each thread of the block;
/// threads that disagree are an error naming two of them. Where it also
/// depends on values that are not constants (block index, sizes, loop
/// indices), or on an scf.while's condition, a warning says it is not
/// proven.
LogicalResult verifyBarrierConvergence(KernelOp kernel);

/// Whether `op` is a tile.apply of bar.sync, with or without a thread
/// count (of the whole CTA or of part of it).
bool isBarSync(Operation *op);
/// Whether `op` is a barrier every thread of the CTA takes part in:
/// tirx.cta_sync, `bar.sync a` and `bar.sync a, b` with b the block's
/// thread count `numThreads`.
bool isCTABarrier(Operation *op, int64_t numThreads);

/// The innermost construct around `barrier` (an scf.if, scf.for,
/// scf.while or scf.index_switch) whose decision depends on a value read
/// from memory, or null.
Operation *getConstructDecidedByMemory(Operation *barrier, KernelOp kernel);

/// "thread 37 (warp 1, lane 5)", or "thread (5, 1, 0) (warp 1, lane 5)" in
/// a block of several dimensions: thread `flat` of a block of extents
/// `block`.
std::string describeBlockThread(int64_t flat, ArrayRef<int64_t> block);

/// The race proof (docs/races.md): no two threads of a CTA access one
/// shared memory byte, one of them writing, with no CTA barrier between
/// them. An error with the witness where they may; a warning naming the
/// construct where the kernel's synchronization is beyond the proof's model
/// (an error with `strict`). Assumes the bounds proof and the barrier
/// convergence check passed.
LogicalResult verifyRaceFreedom(KernelOp kernel, bool strict = false);

/// The proxy check (docs/races.md, "Proxies"): after a generic-proxy write
/// of shared memory that the async proxy reads (TMA stores, wgmma), the
/// writing thread executes fence.proxy.async before any barrier, mbarrier
/// arrival or async-proxy read that may hand the bytes over. An error at
/// the write otherwise.
LogicalResult verifyProxyFences(KernelOp kernel);
} // namespace mlir::tirx

#endif // TIRX_DIALECT_TIRX_IR_TIRXOPS_H
