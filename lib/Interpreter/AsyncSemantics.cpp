//===- AsyncSemantics.cpp - mbarriers, TMA completion, wgmma groups -------===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//
//
// Hopper's asynchronous machinery as the interpreter runs it:
//
// - an mbarrier's state lives beside shared memory, keyed by its address:
//   phase, pending arrivals, transaction bytes (PTX ISA, "mbarrier");
// - a TMA load reads global memory when it is issued and writes shared
//   memory when it completes, which is as late as the ISA allows: when a
//   thread waits on its mbarrier, or when no warp could run otherwise. Its
//   bytes are checked then, as the issuing thread's access at the clock it
//   issued with; its transaction bytes complete on the mbarrier;
// - waits block the warp (try_wait.parity's retry loop) or yield it
//   (test_wait / try_wait into a predicate, which user code polls), and a
//   completed phase wakes every waiting warp;
// - happens-before: an arrival releases the arriving warp's clock into the
//   phase, a TMA load the issuer's; a wait that sees the phase complete
//   acquires them.
//
//===----------------------------------------------------------------------===//

#include "CollectiveSemantics.h"

using namespace mlir;
using namespace mlir::tirx;
using namespace mlir::tirx::interp;

static void join(VectorClock &into, const VectorClock &from) {
  if (into.size() < from.size())
    into.resize(from.size(), 0);
  for (auto [slot, value] : llvm::enumerate(from))
    into[slot] = std::max(into[slot], value);
}

/// Completes the current phase when nothing is pending.
static void maybeCompletePhase(CtaRun &cta, MbarrierState &barrier) {
  // Transaction bytes may complete before they are expected (a negative
  // count): the phase waits for both to balance.
  if (barrier.pendingArrivals > 0 || barrier.transactionBytes != 0)
    return;
  barrier.completed[barrier.phase & 1] = barrier.released;
  barrier.released.assign(cta.cluster.getNumSlots(), 0);
  barrier.pendingArrivals = barrier.expectedArrivals;
  barrier.transactionBytes = 0;
  ++barrier.phase;
  cta.madeProgress();
}

void CtaRun::madeProgress() {
  idlePolls = 0;
  for (auto &waiter : warps)
    if (waiter->status == WarpState::Status::Blocked && waiter->waitsOnMbarrier)
      waiter->status = WarpState::Status::Runnable;
}

LogicalResult CtaRun::completePendingLoads(MbarrierState *only) {
  auto completeAll = [&](MbarrierState &barrier) -> LogicalResult {
    std::vector<PendingWrite> loads = std::move(barrier.pendingLoads);
    barrier.pendingLoads.clear();
    for (PendingWrite &load : loads) {
      WarpExecutor issuer(*load.issuer, *load.issuer->warps[load.warp]);
      issuer.clockOverride = &load.clock;
      issuer.asyncProxyAccess = true;
      for (auto [offset, bits] : load.elements)
        if (mlir::failed(issuer.write(load.op, *load.storage, load.lane, offset,
                                      load.elementBytes, &bits)))
          return failure();
      join(barrier.released, load.clock);
      barrier.transactionBytes -= load.transactionBytes;
      maybeCompletePhase(*this, barrier);
    }
    return success();
  };
  if (only)
    return completeAll(*only);
  for (auto &[key, barrier] : mbarriers)
    if (mlir::failed(completeAll(barrier)))
      return failure();
  return success();
}

LogicalResult interp::executeMbarrierInstruction(
    WarpExecutor &executor, Operation *op, const ptx::Instruction &instruction,
    MutableArrayRef<SmallVector<OperandAtom, 4>> laneAtoms, LaneMask active,
    function_ref<std::pair<Storage *, int64_t>(unsigned)> barrierOf) {
  CtaRun &cta = executor.cta;
  WarpState &warp = executor.warp;
  StringRef form = instruction.formName;
  auto value = [&](unsigned lane, StringRef name) -> int64_t {
    int index = findOperand(instruction, name);
    return index < 0 ? 0
                     : static_cast<int64_t>(laneAtoms[lane][index].elements[0]);
  };
  auto setValue = [&](unsigned lane, StringRef name, uint64_t bits) {
    int index = findOperand(instruction, name);
    if (index >= 0)
      laneAtoms[lane][index].elements[0] = bits;
  };
  auto stateOf = [&](unsigned lane) -> MbarrierState * {
    auto [storage, offset] = barrierOf(lane);
    auto found = cta.mbarriers.find({storage, offset});
    if (found == cta.mbarriers.end() || !found->second.initOp) {
      emitRunError(op, cta) << "'" << instruction.spelling
                            << "' on an mbarrier no thread has initialized ("
                            << cta.describeThread(warp.index, lane) << ", byte "
                            << offset << " of " << storage->name << ")";
      return nullptr;
    }
    return &found->second;
  };

  for (unsigned lane = 0; lane < kWarpSize; ++lane) {
    if (!(active >> lane & 1))
      continue;
    if (form == "mbarrier.init") {
      auto [storage, offset] = barrierOf(lane);
      MbarrierState &barrier = cta.mbarriers[{storage, offset}];
      barrier = MbarrierState();
      barrier.initOp = op;
      barrier.expectedArrivals = barrier.pendingArrivals = value(lane, "count");
      barrier.released.assign(cta.cluster.getNumSlots(), 0);
      // The object's bytes are written (a later read by the generic proxy
      // sees initialized memory).
      uint64_t zero = 0;
      if (failed(executor.write(op, *storage, lane, offset, 8, &zero)))
        return failure();
      continue;
    }
    // The object: this CTA's, or for a remote arrival the one at the same
    // offset of CTA `cta`'s copy of the storage (mapa.shared::cluster).
    CtaRun *owner = &cta;
    MbarrierState *barrier = nullptr;
    if (form == "mbarrier.arrive.remote") {
      auto [storage, offset] = barrierOf(lane);
      int64_t rank = value(lane, "cta");
      Storage *peerStorage = cta.getPeerStorage(*storage, rank);
      if (!peerStorage) {
        emitRunError(op, cta)
            << "arrives on the mbarrier of CTA " << rank << " of a cluster of "
            << cta.cluster.ctas.size() << " CTAs ("
            << cta.describeThread(warp.index, lane) << ")";
        return failure();
      }
      owner = cta.cluster.ctas[rank].get();
      auto found = owner->mbarriers.find({peerStorage, offset});
      if (found == owner->mbarriers.end() || !found->second.initOp) {
        emitRunError(op, cta)
            << "arrives on an mbarrier CTA " << rank << " has not initialized ("
            << cta.describeThread(warp.index, lane) << ", byte " << offset
            << " of " << storage->name << ")";
        return failure();
      }
      barrier = &found->second;
    } else {
      barrier = stateOf(lane);
    }
    if (!barrier)
      return failure();
    if (form == "mbarrier.inval") {
      barrier->initOp = nullptr;
      continue;
    }
    if (form == "mbarrier.expect_tx") {
      barrier->transactionBytes += value(lane, "tx");
      continue;
    }
    if (form.starts_with("mbarrier.arrive")) {
      if (form.contains("expect_tx"))
        barrier->transactionBytes += value(lane, "tx");
      int64_t count =
          findOperand(instruction, "count") >= 0 ? value(lane, "count") : 1;
      if (count > barrier->pendingArrivals) {
        InFlightDiagnostic diag =
            emitRunError(op, cta)
            << "arrives " << count << " time(s) on an mbarrier whose phase "
            << barrier->phase << " expects only " << barrier->pendingArrivals
            << " more arrival(s) of " << barrier->expectedArrivals << " ("
            << cta.describeThread(warp.index, lane) << ")";
        diag.attachNote(barrier->initOp->getLoc())
            << "the mbarrier was initialized here";
        return failure();
      }
      // The arrival releases what the warp did so far; what it does next
      // is a new epoch.
      join(barrier->released, warp.clock);
      ++warp.clock[warp.slot];
      barrier->pendingArrivals -= count;
      setValue(lane, "state", barrier->phase);
      maybeCompletePhase(*owner, *barrier);
      continue;
    }
    // The waits: has the phase of parity `phaseParity` completed? That is
    // the phase before the current one (PTX: the current phase's parity
    // differs from it).
    bool loop = form == "mbarrier.try_wait.parity.loop";
    while (true) {
      int64_t parity = value(lane, "phaseParity") & 1;
      bool complete = (barrier->phase & 1) != uint64_t(parity);
      if (!complete) {
        if (failed(cta.completePendingLoads(barrier)))
          return failure();
        complete = (barrier->phase & 1) != uint64_t(parity);
      }
      if (complete) {
        join(warp.clock, barrier->completed[parity]);
        setValue(lane, "waitComplete", 1);
        break;
      }
      setValue(lane, "waitComplete", 0);
      // Nothing this warp does can complete the phase: give the turn to
      // the others (blocked until a phase completes for the retry loop).
      warp.blockedAt = op;
      if (loop) {
        warp.status = WarpState::Status::Blocked;
        warp.waitsOnMbarrier = true;
      } else if (++cta.idlePolls > 64 * int64_t(cta.warps.size()) + 1024) {
        emitRunError(op, cta) << "deadlock: warp " << warp.index
                              << " polls an mbarrier phase (parity " << parity
                              << ") that nothing completes any more";
        return failure();
      }
      if (failed(cta.yield(warp)))
        return failure();
      warp.waitsOnMbarrier = false;
      warp.blockedAt = nullptr;
      if (!loop)
        break;
    }
  }
  return success();
}

/// wgmma.fence, commit_group and wait_group: the bookkeeping of the
/// accumulators in flight.
LogicalResult interp::executeWgmmaSync(WarpExecutor &executor,
                                       const ptx::Instruction &instruction,
                                       int64_t pendingGroups) {
  WarpState &warp = executor.warp;
  StringRef mode = instruction.getModifier(ptx::Slot::mode);
  if (mode == "commit_group") {
    warp.wgmmaGroups.push_back(std::move(warp.openWgmmaGroup));
    warp.openWgmmaGroup.clear();
  } else if (mode == "wait_group") {
    while (warp.wgmmaGroups.size() > size_t(pendingGroups)) {
      // The wgmma may read its shared operands at any time until its group
      // completes: a write to them that is not ordered before the issue
      // (another warp's, or this warp's own after the issue) overlapped it.
      std::vector<PendingAccumulator> group = std::move(warp.wgmmaGroups[0]);
      warp.wgmmaGroups.erase(warp.wgmmaGroups.begin());
      for (const PendingAccumulator &pending : group)
        for (auto [storage, offset, bytes] : pending.sharedReads)
          for (int64_t byte = offset; byte < offset + bytes; ++byte) {
            const AccessEpoch &write = storage->shadow[byte].write;
            if (!write.valid)
              continue;
            bool before = write.warp == warp.slot
                              ? write.instruction <= pending.instruction
                              : write.clock <= pending.clock[write.warp];
            if (before)
              continue;
            InFlightDiagnostic diag =
                emitRunError(write.op, executor.cta)
                << "overwrites byte " << byte << " of " << storage->name
                << " while a wgmma issued before it may still read it ("
                << executor.cta.cluster.describeSlot(write.warp, write.lane)
                << "): the wgmma's group must complete (wgmma.wait_group) "
                   "before its operands are written";
            diag.attachNote(pending.op->getLoc()) << "the wgmma";
            return failure();
          }
      // The reads last until now: a write still to come (a TMA load issued
      // earlier) is checked against this moment.
      executor.asyncProxyAccess = true;
      for (const PendingAccumulator &pending : group)
        for (auto [storage, offset, bytes] : pending.sharedReads) {
          uint64_t ignored = 0;
          if (failed(executor.read(pending.op, *storage, pending.lane, offset,
                                   bytes, &ignored))) {
            executor.asyncProxyAccess = false;
            return failure();
          }
        }
      executor.asyncProxyAccess = false;
    }
  }
  return success();
}
