//===- KernelRun.h - One kernel launch on the interpreter -------*- C++ -*-===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//
//
// A launch is run cluster by cluster (`ClusterRun`; a launch without
// clusters is clusters of one CTA), the CTAs of a cluster (`CtaRun`)
// together. Each warp executes on a task of its own (a host thread, only
// one of which runs at a time, chosen by the cluster's scheduler: execution
// is deterministic); a warp gives the turn back only when it must wait for
// another (a barrier), so everything between two synchronization points of
// a warp runs without interleaving, which is one of the orders the hardware
// may pick. `WarpExecutor` interprets the operations for one warp, its lanes
// in lockstep under an active mask. Vector clocks have one slot per warp of
// the cluster (WarpState::slot).
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
class ClusterRun;

/// Launch-wide state: the kernel, its argument storage, options.
struct KernelRun {
  KernelOp kernel;
  const InterpreterOptions &options;
  /// Per kernel argument: its storage (tensors) or null.
  std::vector<std::unique_ptr<Storage>> argumentStorage;
  ArrayRef<KernelArgument> arguments;
  std::array<int64_t, 3> grid = {1, 1, 1};
  std::array<int64_t, 3> block = {1, 1, 1};
  /// CTAs per cluster in each dimension ({1, 1, 1} without clusters).
  std::array<int64_t, 3> cluster = {1, 1, 1};
  int64_t numThreads = 1;
  int64_t numWarps = 1;

  KernelRun(KernelOp kernel, ArrayRef<KernelArgument> arguments,
            const InterpreterOptions &options)
      : kernel(kernel), options(options), arguments(arguments) {}
  LogicalResult run();
  /// The value of size variable `name` in this launch.
  int64_t getSizeValue(StringAttr name);

private:
  LogicalResult bindArguments();
};

/// The barrier of a cluster (barrier.cluster.arrive / wait): every thread of
/// every CTA arrives once a phase.
struct ClusterBarrier {
  int64_t arrivedThreads = 0;
  uint64_t phase = 0;
  /// What the (non-relaxed) arrivals of the current phase released, and
  /// what the last completed phase did.
  VectorClock released, completed;
};

/// The CTAs of one cluster and the scheduler that hands the turn from warp
/// to warp among all of them.
class ClusterRun {
public:
  ClusterRun(KernelRun &launch, ArrayRef<std::array<int64_t, 3>> blocks);
  ~ClusterRun();
  LogicalResult run();

  KernelRun &launch;
  /// By rank (%cluster_ctarank: x fastest).
  std::vector<std::unique_ptr<CtaRun>> ctas;
  ClusterBarrier barrier;
  /// Set on the first error: every warp stops at its next step.
  bool failed = false;
  /// CTAs in the cluster (set before they are made).
  int64_t numCtas = 1;
  int64_t getNumSlots() const { return numCtas * launch.numWarps; }
  /// The warp of clock slot `slot`, and its CTA.
  WarpState &getWarp(unsigned slot);
  CtaRun &getCta(unsigned slot) { return *ctas[slot / launch.numWarps]; }
  /// The fence.proxy.async count of a slot's lane.
  uint32_t getProxyFences(unsigned slot, unsigned lane);
  /// "block (x, y, z) thread t (warp w, lane l)" of a clock slot's lane.
  std::string describeSlot(unsigned slot, unsigned lane);
  /// Gives the turn back until the scheduler resumes `warp`.
  LogicalResult yield(WarpState &warp);
  /// barrier.cluster.arrive of `warp`'s lanes `lanes` (`release`: not
  /// .relaxed), and barrier.cluster.wait.
  LogicalResult arrive(WarpState &warp, Operation *op, LaneMask lanes,
                       bool release);
  LogicalResult wait(WarpState &warp, Operation *op);

private:
  friend class CtaRun;
  void runWarp(CtaRun &cta, WarpState &warp);
  LogicalResult reportDeadlock();

  std::mutex mutex;
  std::condition_variable turnChanged;
  /// The slot of the warp that has the turn; -1: the scheduler.
  int running = -1;
};

/// The part of a CTA's state its warps share.
class CtaRun {
public:
  CtaRun(ClusterRun &cluster, unsigned rank, std::array<int64_t, 3> blockIndex);

  KernelRun &launch;
  ClusterRun &cluster;
  /// The CTA's rank in its cluster.
  unsigned rank;
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
  /// The cluster's: set on the first error.
  bool &failed;
  /// The first read of shared memory no thread had written, reported when
  /// the CTA ends without a race explaining it.
  std::optional<std::pair<Operation *, std::string>> uninitializedRead;

  /// Called by a warp's task: gives the turn back until the scheduler
  /// resumes the warp. Fails when the run was aborted meanwhile.
  LogicalResult yield(WarpState &warp) { return cluster.yield(warp); }
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
  /// The storage of `alloc_shared` op `alloc` in this CTA (allocated when
  /// first reached, by this CTA or by a peer writing into it).
  Storage &getSharedStorage(Operation *alloc);
  /// The copy in CTA `rank` of the cluster of this CTA's shared `storage`,
  /// or null for a rank outside the cluster.
  Storage *getPeerStorage(Storage &storage, int64_t rank);
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
  /// Retires `lane`'s bulk groups beyond the newest `pending`: their TMA
  /// stores' reads of shared memory are checked again at this moment.
  LogicalResult retireBulkReads(unsigned lane, size_t pending);
  LogicalResult executeEwise(Operation *op, LaneMask mask);

  // Memory accesses with their checks (MemoryAccess.cpp). `op` is the
  // accessing operation; `bytes` at byte `offset` of `storage` (for local
  // storage, in `lane`'s segment).
  LogicalResult read(Operation *op, Storage &storage, unsigned lane,
                     int64_t offset, int64_t bytes, void *out);
  LogicalResult write(Operation *op, Storage &storage, unsigned lane,
                      int64_t offset, int64_t bytes, const void *in);
  /// Checks a write that is about to start without making it: an
  /// asynchronous copy may write its destination any time after its issue,
  /// so an unordered access of another warp already conflicts then.
  LogicalResult checkWriteStarts(Operation *op, Storage &storage, unsigned lane,
                                 int64_t offset, int64_t bytes);
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
  LogicalResult executeIndexSwitch(Operation *op, LaneMask mask);
  LogicalResult executeWhile(Operation *op, LaneMask mask);
  LogicalResult executeTensorOp(Operation *op, LaneMask mask);
  LogicalResult checkAccess(Operation *op, Storage &storage, unsigned lane,
                            int64_t offset, int64_t bytes, bool isWrite,
                            bool record = true);
};

/// Emits an error at `op` for the run (its text names the threads).
InFlightDiagnostic emitRunError(Operation *op, CtaRun &cta);

} // namespace mlir::tirx::interp

#endif // TIRX_LIB_INTERPRETER_KERNELRUN_H
