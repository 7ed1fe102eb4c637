//===- KernelRun.h - One kernel launch on the interpreter -------*- C++ -*-===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//
//
// A launch is run CTA by CTA (`CtaRun`). Each warp of a CTA executes on a
// task of its own (a host thread, only one of which runs at a time, chosen
// by the CTA's scheduler: execution is deterministic); a warp gives the turn
// back only when it must wait for another (a barrier), so everything between
// two synchronization points of a warp runs without interleaving, which is
// one of the orders the hardware may pick. `WarpExecutor` interprets the
// operations for one warp, its lanes in lockstep under an active mask.
//
//===----------------------------------------------------------------------===//

#ifndef TIRX_LIB_INTERPRETER_KERNELRUN_H
#define TIRX_LIB_INTERPRETER_KERNELRUN_H

#include "ExecutionState.h"

#include "TirX/Dialect/Tile/IR/TileOperands.h"
#include "TirX/Dialect/Tile/PTX/PTXInstruction.h"
#include "TirX/Dialect/TirX/IR/TirXOps.h"
#include "TirX/Interpreter/Interpreter.h"

#include "mlir/IR/Diagnostics.h"

#include <condition_variable>
#include <map>
#include <mutex>

namespace mlir::tirx::interp {

class CtaRun;

/// Launch-wide state: the kernel, its argument storage, options.
struct KernelRun {
  KernelOp kernel;
  const InterpreterOptions &options;
  /// Per kernel argument: its storage (tensors) or null.
  std::vector<std::unique_ptr<Storage>> argumentStorage;
  ArrayRef<KernelArgument> arguments;
  std::array<int64_t, 3> grid = {1, 1, 1};
  std::array<int64_t, 3> block = {1, 1, 1};
  int64_t numThreads = 1;

  KernelRun(KernelOp kernel, ArrayRef<KernelArgument> arguments,
            const InterpreterOptions &options)
      : kernel(kernel), options(options), arguments(arguments) {}
  LogicalResult run();
  /// The value of size variable `name` in this launch.
  int64_t getSizeValue(StringAttr name);

private:
  LogicalResult bindArguments();
};

/// The part of a CTA's state the warps share, and the scheduler that hands
/// the turn from warp to warp.
class CtaRun {
public:
  CtaRun(KernelRun &launch, std::array<int64_t, 3> blockIndex);
  LogicalResult run();

  KernelRun &launch;
  std::array<int64_t, 3> blockIndex;
  std::vector<std::unique_ptr<WarpState>> warps;
  /// Shared tensors, one storage per `alloc_shared`.
  llvm::DenseMap<Operation *, std::unique_ptr<Storage>> shared;
  std::array<NamedBarrier, 16> barriers;
  /// mbarriers by (storage, byte offset).
  std::map<std::pair<Storage *, int64_t>, MbarrierState> mbarriers;
  /// Polls of an mbarrier that found its phase incomplete since the last
  /// progress (an arrival, a completed transfer): a spinning warp nothing
  /// can release is a deadlock too.
  int64_t idlePolls = 0;
  /// Per thread, the fence.proxy.async it has executed.
  std::vector<uint32_t> proxyFences;
  /// Set on the first error: every warp stops at its next step.
  bool failed = false;
  /// The first read of shared memory no thread had written, reported when
  /// the CTA ends without a race explaining it.
  std::optional<std::pair<Operation *, std::string>> uninitializedRead;

  /// Called by a warp's task: gives the turn back until the scheduler
  /// resumes the warp. Fails when the run was aborted meanwhile.
  LogicalResult yield(WarpState &warp);
  /// Arrives at barrier `id` with the live lanes of `warp` (expecting
  /// `expectedThreads` in all) and, unless `arriveOnly`, waits for it to
  /// complete. Completion joins the vector clocks of every participant.
  LogicalResult arriveAtBarrier(WarpState &warp, Operation *op, unsigned id,
                                int64_t expectedThreads, bool arriveOnly);
  /// Completes the TMA loads pending on `barrier` (all mbarriers when
  /// null): their bytes land and their transaction counts complete.
  LogicalResult completePendingLoads(MbarrierState *barrier);
  /// Marks progress: resets the spin detection, wakes mbarrier waiters.
  void madeProgress();
  /// The flat index of the CTA in the grid (messages).
  int64_t getFlatBlockIndex() const;
  /// "block (x, y, z) warp w lane l", for messages.
  std::string describeThread(unsigned warp, unsigned lane) const;

private:
  void runWarp(WarpState &warp);
  LogicalResult reportDeadlock();

  std::mutex mutex;
  std::condition_variable turnChanged;
  /// The warp that has the turn; -1: the scheduler.
  int running = -1;
};

/// Interprets operations for one warp.
class WarpExecutor {
public:
  WarpExecutor(CtaRun &cta, WarpState &warp) : cta(cta), warp(warp) {}

  /// Executes `block`'s operations on the lanes of `mask` up to its
  /// terminator, whose operand values it returns.
  FailureOr<LaneValues> executeBlock(Block &block, LaneMask mask);

  LaneValue &get(Value value) { return warp.values[value]; }
  void set(Value value, LaneValue laneValue) {
    warp.values[value] = std::move(laneValue);
  }
  unsigned getThreadId(unsigned lane) const {
    return warp.index * kWarpSize + lane;
  }

  CtaRun &cta;
  WarpState &warp;
  /// Accesses are made as the warp was at this clock (an asynchronous
  /// operation completing later than its issue).
  const VectorClock *clockOverride = nullptr;
  /// The accesses are a wgmma's own, to the accumulators it has in flight.
  bool wgmmaAccess = false;

  // Implemented in TileExecution.cpp.
  LogicalResult executeApply(Operation *op, LaneMask mask);
  LogicalResult executeBulkTensorCopy(Operation *op,
                                      const ptx::Instruction &instruction,
                                      ArrayRef<tile::MixedOperand> operands,
                                      const tile::ExecutionDomain &domain,
                                      LaneMask active);
  LogicalResult executeEwise(Operation *op, LaneMask mask);

  // Memory accesses with their checks (MemoryAccess.cpp). `op` is the
  // accessing operation; `bytes` at byte `offset` of `storage` (for local
  // storage, in `lane`'s segment).
  LogicalResult read(Operation *op, Storage &storage, unsigned lane,
                     int64_t offset, int64_t bytes, void *out);
  LogicalResult write(Operation *op, Storage &storage, unsigned lane,
                      int64_t offset, int64_t bytes, const void *in);
  /// Starts a new instruction (AccessEpoch::instruction).
  void beginInstruction() { ++warp.instructions; }
  /// The accesses being made are atomic (atom, red).
  bool atomicAccess = false;
  /// The accesses are the async proxy's (TMA, wgmma's shared operands).
  bool asyncProxyAccess = false;

private:
  LogicalResult executeOp(Operation &op, LaneMask mask);
  LogicalResult executeFor(Operation *op, LaneMask mask);
  LogicalResult executeIf(Operation *op, LaneMask mask);
  LogicalResult executeWhile(Operation *op, LaneMask mask);
  LogicalResult executeTensorOp(Operation *op, LaneMask mask);
  LogicalResult checkAccess(Operation *op, Storage &storage, unsigned lane,
                            int64_t offset, int64_t bytes, bool isWrite);
};

/// Emits an error at `op` for the run (its text names the threads).
InFlightDiagnostic emitRunError(Operation *op, CtaRun &cta);

} // namespace mlir::tirx::interp

#endif // TIRX_LIB_INTERPRETER_KERNELRUN_H
