//===- ExecutionState.h - The interpreter's machine state -------*- C++ -*-===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//
//
// What the interpreter keeps while a kernel runs: the storage tensors live in
// (with the shadow state the checks read), the SSA values of each warp (one
// value per lane), and the warps' synchronization state. Warps are the unit
// of execution: their lanes run in lockstep, so accesses of one warp are
// ordered by program order, and happens-before between warps is a vector
// clock per warp that barriers join.
//
//===----------------------------------------------------------------------===//

#ifndef TIRX_LIB_INTERPRETER_EXECUTIONSTATE_H
#define TIRX_LIB_INTERPRETER_EXECUTIONSTATE_H

#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/bit.h"

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mlir::tirx::interp {

constexpr unsigned kWarpSize = 32;
/// Lanes of a warp, bit i for lane i.
using LaneMask = uint32_t;
constexpr LaneMask kFullMask = ~LaneMask(0);

/// Calls `fn(lane)` for each lane of `mask`, lowest first.
template <typename Fn> void forEachLane(LaneMask mask, Fn fn) {
  while (mask) {
    unsigned lane = llvm::countr_zero(mask);
    fn(lane);
    mask &= mask - 1;
  }
}

/// Per warp of a CTA, the number of its synchronization epochs another warp
/// has observed (FastTrack-style vector clock).
using VectorClock = llvm::SmallVector<uint32_t, 8>;

/// One access a shadow byte remembers: which warp and lane, at which of the
/// warp's clock values, by which operation.
struct AccessEpoch {
  uint32_t clock = 0;
  uint16_t warp = 0;
  uint8_t lane = 0;
  bool valid = false;
  /// An atomic read-modify-write: atomics never race with each other.
  bool atomic = false;
  /// Made by the async proxy (TMA, wgmma) rather than the generic one.
  bool asyncProxy = false;
  /// The fence.proxy.async count of the accessing thread at the access: a
  /// generic write is visible to the async proxy once its thread fences.
  uint32_t proxyFences = 0;
  /// The instruction (per warp, monotonic) that made the access: two lanes
  /// of one instruction writing one byte race even though they are in
  /// lockstep.
  uint64_t instruction = 0;
  Operation *op = nullptr;
};

/// The shadow state of one byte of shared memory: the last write and the
/// reads since, one per warp.
struct ByteShadow {
  AccessEpoch write;
  llvm::SmallVector<AccessEpoch, 1> reads;
};

/// Where a tensor's bytes live: a kernel argument (global), an
/// `alloc_shared` of the CTA, or an `alloc_local` of a warp (one segment of
/// `laneBytes` per lane).
struct Storage {
  enum class Kind { Global, Shared, Local };
  Kind kind = Kind::Global;
  /// How messages name it: "argument #0", "the shared tensor allocated at
  /// ...".
  std::string name;
  uint8_t *data = nullptr;
  int64_t bytes = 0;
  int64_t laneBytes = 0;
  /// The allocating op (null for arguments).
  Operation *origin = nullptr;
  /// Shared and local storage: which bytes were written (per lane segment
  /// for local storage).
  std::vector<uint8_t> initialized;
  /// Shared storage: the race checker's shadow, one entry per byte.
  std::vector<ByteShadow> shadow;
  /// Owned bytes (shared and local storage).
  std::vector<uint8_t> owned;

  void allocate(int64_t size, bool shadowed);
};

/// One SSA value in a warp: a scalar's bits per lane (low-aligned), or a
/// tensor: its storage and, per lane, the byte offset of its base.
struct LaneValue {
  Storage *storage = nullptr;
  std::array<uint64_t, kWarpSize> lanes{};

  bool isTensor() const { return storage != nullptr; }
  int64_t offset(unsigned lane) const {
    return static_cast<int64_t>(lanes[lane]);
  }
};

/// Several values (a block's results).
using LaneValues = llvm::SmallVector<LaneValue, 2>;

/// A cp.async in flight: the bytes it read at issue and where they land.
struct AsyncCopy {
  Storage *storage = nullptr;
  int64_t offset = 0;
  std::vector<uint8_t> bytes;
  Operation *op = nullptr;
};

/// One lane's cp.async groups: committed ones, oldest first, and the
/// group being filled.
struct AsyncCopyGroups {
  std::vector<std::vector<AsyncCopy>> committed;
  std::vector<AsyncCopy> open;
};

/// A TMA store's (or reduction's) read of its shared image, which the
/// hardware may perform until the bulk wait_group that retires its group:
/// the element's bytes, read again there as at the issuer's clock of the
/// issue (`clock`), so that a write after the issue but not after the
/// retirement conflicts.
struct PendingBulkRead {
  Storage *storage = nullptr;
  int64_t offset = 0;
  int64_t bytes = 0;
  Operation *op = nullptr;
  std::shared_ptr<const VectorClock> clock;
};

/// One lane's bulk groups, as AsyncCopyGroups.
struct BulkReadGroups {
  std::vector<std::vector<PendingBulkRead>> committed;
  std::vector<PendingBulkRead> open;
};

class CtaRun;

/// Bytes an asynchronous operation writes when it completes (a TMA load):
/// checked then as the issuing warp's access at the clock it had when it
/// issued the operation.
struct PendingWrite {
  Storage *storage = nullptr;
  llvm::SmallVector<std::pair<int64_t, uint64_t>, 0> elements; // offset, bits
  int64_t elementBytes = 0;
  /// The issuing thread: its CTA (a multicast writes into its peers'
  /// shared memory), warp index in that CTA, and lane.
  CtaRun *issuer = nullptr;
  unsigned warp = 0, lane = 0;
  VectorClock clock;
  Operation *op = nullptr;
  /// The transaction bytes it completes on its mbarrier.
  int64_t transactionBytes = 0;
};

/// An mbarrier object (PTX ISA 9.7.13.15): its current phase, the arrivals
/// and transaction bytes that phase still waits for, and, for the race
/// checker, the clocks its arrivals released (joined by the waiters of the
/// phase they complete).
struct MbarrierState {
  Operation *initOp = nullptr;
  int64_t expectedArrivals = 0;
  int64_t pendingArrivals = 0;
  int64_t transactionBytes = 0;
  /// Completed phases (its low bit is the current phase's parity).
  uint64_t phase = 0;
  VectorClock released;
  std::array<VectorClock, 2> completed;
  /// TMA loads that complete on it, oldest first.
  std::vector<PendingWrite> pendingLoads;
};

/// A wgmma whose accumulators are in flight: its destination registers (per
/// lane, the same byte range of `storage`) until a wgmma.wait_group retires
/// its group.
struct PendingAccumulator {
  Storage *storage = nullptr;
  int64_t begin = 0, end = 0;
  Operation *op = nullptr;
  /// Its shared operands' bytes (storage, offset, size), read by `lane`:
  /// the wgmma may read them until its group completes, so they are read
  /// again, for the checks, when the group is retired.
  std::vector<std::tuple<Storage *, int64_t, int64_t>> sharedReads;
  unsigned lane = 0;
  /// The warp's instruction count and clock at the wgmma's issue.
  uint64_t instruction = 0;
  VectorClock clock;
};

/// A warp's state while it runs.
struct WarpState {
  /// Its index in its CTA, and its slot in the cluster's vector clocks
  /// (rank * warps per CTA + index).
  unsigned index = 0;
  unsigned slot = 0;
  /// Lanes that exist (a block need not be a multiple of 32 threads).
  LaneMask live = 0;
  llvm::DenseMap<Value, LaneValue> values;
  /// Register tiles, one storage per `alloc_local`.
  llvm::DenseMap<Operation *, std::unique_ptr<Storage>> locals;
  VectorClock clock;
  /// Per lane, its cp.async groups.
  std::array<AsyncCopyGroups, kWarpSize> asyncCopies;
  /// Per lane, its TMA stores' reads in flight, by bulk group.
  std::array<BulkReadGroups, kWarpSize> bulkReads;
  /// wgmma accumulators in flight: the open group, then committed groups
  /// (oldest first).
  std::vector<PendingAccumulator> openWgmmaGroup;
  std::vector<std::vector<PendingAccumulator>> wgmmaGroups;
  /// Instructions executed so far (AccessEpoch::instruction).
  uint64_t instructions = 0;
  enum class Status { Runnable, Blocked, Done } status = Status::Runnable;
  /// The operation a blocked warp waits at (deadlock reports).
  Operation *blockedAt = nullptr;
  /// Blocked on an mbarrier phase (woken by any completed phase).
  bool waitsOnMbarrier = false;
  /// The cluster barrier's phase the warp arrived in and has not waited for
  /// yet.
  std::optional<uint64_t> clusterArrival;
};

/// A hardware barrier of the CTA (bar.sync's 16 named barriers; `cta_sync`
/// is barrier 0 with every thread).
struct NamedBarrier {
  int64_t expectedThreads = 0;
  int64_t arrivedThreads = 0;
  /// The first arrival: messages about a count mismatch point at it.
  Operation *firstArrival = nullptr;
  llvm::SmallVector<unsigned, 8> arrivedWarps;
  llvm::SmallVector<unsigned, 8> waitingWarps;
};

} // namespace mlir::tirx::interp

#endif // TIRX_LIB_INTERPRETER_EXECUTIONSTATE_H
