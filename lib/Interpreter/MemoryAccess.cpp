//===- MemoryAccess.cpp - Reads and writes with their checks --------------===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//
//
// Every byte the interpreter reads or writes goes through here, so each
// access is checked once: inside its storage, initialized before it is read
// (shared memory and registers), and, in shared memory, ordered after every
// conflicting access of another warp (vector clocks; a FastTrack-style
// shadow: the last write and the reads since, one per warp). Accesses of
// one warp are ordered by program order (its lanes run in lockstep, as
// compute-sanitizer's racecheck assumes) except two lanes of one instruction
// writing one byte.
//
//===----------------------------------------------------------------------===//

#include "KernelRun.h"

#include <cstring>

using namespace mlir;
using namespace mlir::tirx;
using namespace mlir::tirx::interp;

static uint8_t *getAddress(Storage &storage, unsigned lane, int64_t offset) {
  if (storage.kind == Storage::Kind::Local)
    return storage.data + lane * storage.laneBytes + offset;
  return storage.data + offset;
}

static std::string describeAccess(CtaRun &cta, const AccessEpoch &epoch,
                                  bool isWrite) {
  return (isWrite ? "write by " : "read by ") +
         cta.cluster.describeSlot(epoch.warp, epoch.lane);
}

LogicalResult WarpExecutor::checkAccess(Operation *op, Storage &storage,
                                        unsigned lane, int64_t offset,
                                        int64_t bytes, bool isWrite,
                                        bool record) {
  int64_t limit =
      storage.kind == Storage::Kind::Local ? storage.laneBytes : storage.bytes;
  if (offset < 0 || offset + bytes > limit) {
    emitRunError(op, cta) << (isWrite ? "write" : "read") << " of " << bytes
                          << " bytes at byte offset " << offset << " of "
                          << storage.name << " (" << limit
                          << " bytes) is out of bounds, by "
                          << cta.describeThread(warp.index, lane);
    return failure();
  }
  if (storage.kind == Storage::Kind::Global)
    return success();
  if (storage.kind == Storage::Kind::Local && !wgmmaAccess &&
      (!warp.openWgmmaGroup.empty() || !warp.wgmmaGroups.empty())) {
    auto overlaps = [&](const PendingAccumulator &pending) {
      return pending.storage == &storage && offset < pending.end &&
             pending.begin < offset + bytes;
    };
    const PendingAccumulator *found = nullptr;
    for (const PendingAccumulator &pending : warp.openWgmmaGroup)
      if (!found && overlaps(pending))
        found = &pending;
    for (const auto &group : warp.wgmmaGroups)
      for (const PendingAccumulator &pending : group)
        if (!found && overlaps(pending))
          found = &pending;
    if (found) {
      InFlightDiagnostic diag =
          emitRunError(op, cta)
          << (isWrite ? "writes" : "reads")
          << " registers a wgmma still accumulates into ("
          << cta.describeThread(warp.index, lane)
          << "): wait for its group with wgmma.wait_group first";
      diag.attachNote(found->op->getLoc()) << "the wgmma";
      return failure();
    }
  }
  int64_t initBase =
      storage.kind == Storage::Kind::Local ? lane * storage.laneBytes : 0;
  if (!isWrite && cta.launch.options.checkUninitialized) {
    for (int64_t byte = offset; byte < offset + bytes; ++byte) {
      if (storage.initialized[initBase + byte])
        continue;
      std::string message;
      llvm::raw_string_ostream os(message);
      os << "reads byte " << byte << " of " << storage.name
         << ", which no thread has written ("
         << cta.describeThread(warp.index, lane) << ")";
      // Registers are the thread's own: nothing can write them later. In
      // shared memory, the write may be another warp's that a missing
      // barrier lets come later; that warp's write then reports the race,
      // which says more, and this is reported only if none does.
      if (storage.kind == Storage::Kind::Local) {
        emitRunError(op, cta) << message;
        return failure();
      }
      if (!cta.uninitializedRead)
        cta.uninitializedRead = {op, message};
      break;
    }
  }
  if (isWrite && record)
    std::fill_n(storage.initialized.begin() + initBase + offset, bytes, 1);
  if (storage.kind != Storage::Kind::Shared || !cta.launch.options.checkRaces)
    return success();

  const VectorClock &clock = clockOverride ? *clockOverride : warp.clock;
  AccessEpoch current;
  current.clock = clock[warp.slot];
  current.warp = warp.slot;
  current.lane = lane;
  current.valid = true;
  current.atomic = atomicAccess;
  current.instruction = warp.instructions;
  current.op = op;
  current.asyncProxy = asyncProxyAccess;
  current.proxyFences = cta.proxyFences[warp.index * kWarpSize + lane];
  // Whether `earlier` is ordered before the current access.
  auto ordered = [&](const AccessEpoch &earlier) {
    if (!earlier.valid || (earlier.atomic && current.atomic))
      return true;
    if (earlier.warp == warp.slot)
      return !(isWrite && earlier.instruction == current.instruction &&
               earlier.lane != lane);
    return earlier.clock <= clock[earlier.warp];
  };
  auto report = [&](const AccessEpoch &earlier, bool earlierIsWrite,
                    int64_t byte) {
    InFlightDiagnostic diag =
        emitRunError(op, cta)
        << "data race on byte " << byte << " of " << storage.name << ": this "
        << describeAccess(cta, current, isWrite) << " and an earlier "
        << describeAccess(cta, earlier, earlierIsWrite)
        << " are not ordered by any synchronization";
    diag.attachNote(earlier.op->getLoc()) << "the earlier access";
    return failure();
  };
  for (int64_t byte = offset; byte < offset + bytes; ++byte) {
    ByteShadow &shadow = storage.shadow[byte];
    if (!ordered(shadow.write))
      return report(shadow.write, true, byte);
    // The async proxy sees a generic write only after its thread's
    // fence.proxy.async.
    const AccessEpoch &written = shadow.write;
    if (asyncProxyAccess && !isWrite && written.valid && !written.asyncProxy &&
        cta.cluster.getProxyFences(written.warp, written.lane) <=
            written.proxyFences) {
      InFlightDiagnostic diag =
          emitRunError(op, cta)
          << "the async proxy reads byte " << byte << " of " << storage.name
          << ", which " << cta.cluster.describeSlot(written.warp, written.lane)
          << " wrote through the generic proxy with no fence.proxy.async "
             "after the write";
      diag.attachNote(written.op->getLoc()) << "the generic write";
      return failure();
    }
    if (isWrite) {
      for (const AccessEpoch &read : shadow.reads)
        if (!ordered(read))
          return report(read, false, byte);
      if (!record)
        continue;
      shadow.write = current;
      shadow.reads.clear();
      continue;
    }
    auto own = llvm::find_if(shadow.reads, [&](const AccessEpoch &read) {
      return read.warp == current.warp;
    });
    if (own != shadow.reads.end())
      *own = current;
    else
      shadow.reads.push_back(current);
  }
  return success();
}

LogicalResult WarpExecutor::checkWriteStarts(Operation *op, Storage &storage,
                                             unsigned lane, int64_t offset,
                                             int64_t bytes) {
  return checkAccess(op, storage, lane, offset, bytes, /*isWrite=*/true,
                     /*record=*/false);
}

LogicalResult WarpExecutor::read(Operation *op, Storage &storage, unsigned lane,
                                 int64_t offset, int64_t bytes, void *out) {
  if (failed(checkAccess(op, storage, lane, offset, bytes, /*isWrite=*/false)))
    return failure();
  std::memcpy(out, getAddress(storage, lane, offset), bytes);
  return success();
}

LogicalResult WarpExecutor::write(Operation *op, Storage &storage,
                                  unsigned lane, int64_t offset, int64_t bytes,
                                  const void *in) {
  if (failed(checkAccess(op, storage, lane, offset, bytes, /*isWrite=*/true)))
    return failure();
  std::memcpy(getAddress(storage, lane, offset), in, bytes);
  return success();
}
