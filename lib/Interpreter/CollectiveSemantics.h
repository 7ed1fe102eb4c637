//===- CollectiveSemantics.h - Instructions that touch more than registers ===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//
//
// The families whose semantics need the executor, not only bits: memory
// instructions (atomics are read-modify-writes the executor must not
// reorder), warp collectives (every lane's operands at once) and barriers
// (the CTA's scheduler).
//
//===----------------------------------------------------------------------===//

#ifndef TIRX_LIB_INTERPRETER_COLLECTIVESEMANTICS_H
#define TIRX_LIB_INTERPRETER_COLLECTIVESEMANTICS_H

#include "KernelRun.h"

#include "TirX/Interpreter/InstructionSemantics.h"

namespace mlir::tirx::interp {

/// The index of `instruction`'s operand named `name` (PTXTable.def's
/// operand names: "d", "src", "scale-d"), or -1.
int findOperand(const ptx::Instruction &instruction, StringRef name);

/// The new value of a read-modify-write (atom, red, a TMA reduction) of
/// memory holding `old` with operands `b` (and `c` for cas): `op` as PTX
/// spells it, `type` the operation's type ("f32", "bf16", "s32", "u64",
/// "b32", ...), `width` its bits. Float adds round to nearest even;
/// `flushSubnormals` flushes f32 inputs and result (atom.add.f32 does, a TMA
/// reduction does not). None for an operation the type does not take.
std::optional<uint64_t> combineAtomic(StringRef op, StringRef type,
                                      unsigned width, uint64_t old, uint64_t b,
                                      uint64_t c, bool flushSubnormals);

/// One lane's ld, st, atom, red or fence: `operands` hold its gathered
/// atoms (a memory destination of atom/red holds the memory's old value);
/// the executor scatters the destinations afterwards.
LogicalResult executeMemoryInstruction(WarpExecutor &executor, Operation *op,
                                       const ptx::Instruction &instruction,
                                       MutableArrayRef<OperandAtom> operands);

/// One per-thread form of the warp module (activemask) for one lane of the
/// lanes `active`.
LogicalResult executeWarpThreadInstruction(
    WarpExecutor &executor, Operation *op, const ptx::Instruction &instruction,
    MutableArrayRef<OperandAtom> operands, LaneMask active);

/// A warp collective (shfl, vote, redux, elect) or barrier (bar) of the
/// lanes `active` (the whole warp); `laneAtoms[lane]` are each lane's atoms.
LogicalResult executeCollectiveInstruction(
    WarpExecutor &executor, Operation *op, const ptx::Instruction &instruction,
    MutableArrayRef<SmallVector<OperandAtom, 4>> laneAtoms, LaneMask active);

/// mma.sync, ldmatrix or stmatrix of the lanes `active` (the whole warp):
/// each lane's fragment registers (and a memory operand's rows it
/// addresses) in `laneAtoms` (MatrixSemantics.cpp).
LogicalResult executeMatrixInstruction(
    WarpExecutor &executor, Operation *op, const ptx::Instruction &instruction,
    MutableArrayRef<SmallVector<OperandAtom, 4>> laneAtoms, LaneMask active);

/// One lane's cp.async (queued in its current group, written to `storage`
/// at byte `destination` when the group completes), commit_group,
/// wait_group or wait_all (AsyncCopies.cpp).
LogicalResult executeAsyncCopyInstruction(WarpExecutor &executor, Operation *op,
                                          const ptx::Instruction &instruction,
                                          MutableArrayRef<OperandAtom> operands,
                                          unsigned lane, Storage *storage,
                                          int64_t destination);

/// Completes every copy the executor's warp still has in flight (when it
/// finishes the kernel: the copies land, unwaited).
LogicalResult drainAsyncCopies(WarpExecutor &executor);

/// One warp's mbarrier instruction for the lanes `active` (init, inval,
/// arrive, expect_tx, the waits: a waiting warp blocks or yields);
/// `barrierOf(lane)` is the mbarrier the lane addresses (AsyncSemantics.cpp).
LogicalResult executeMbarrierInstruction(
    WarpExecutor &executor, Operation *op, const ptx::Instruction &instruction,
    MutableArrayRef<SmallVector<OperandAtom, 4>> laneAtoms, LaneMask active,
    function_ref<std::pair<Storage *, int64_t>(unsigned)> barrierOf);

/// wgmma.fence / commit_group / wait_group `pendingGroups`: the groups of
/// accumulators in flight.
LogicalResult executeWgmmaSync(WarpExecutor &executor,
                               const ptx::Instruction &instruction,
                               int64_t pendingGroups);

/// One warp's part of a wgmma.mma_async (the accumulator rows its lanes
/// hold): the shared operands as gathered by lane `reader`
/// (MatrixSemantics.cpp).
LogicalResult executeWgmma(
    WarpExecutor &executor, Operation *op, const ptx::Instruction &instruction,
    MutableArrayRef<SmallVector<OperandAtom, 4>> laneAtoms, unsigned reader);

} // namespace mlir::tirx::interp

#endif // TIRX_LIB_INTERPRETER_COLLECTIVESEMANTICS_H
