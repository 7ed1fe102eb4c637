//===- Interpreter.cpp - Launches, CTAs and the warp scheduler ------------===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//

#include "CollectiveSemantics.h"
#include "KernelRun.h"

#include "TirX/Dialect/TirX/IR/TirXDialect.h"

#include "mlir/IR/AffineExpr.h"

#include "llvm/Support/MathExtras.h"

#include <thread>

using namespace mlir;
using namespace mlir::tirx;
using namespace mlir::tirx::interp;

void Storage::allocate(int64_t size, bool shadowed) {
  owned.assign(size, 0);
  data = owned.data();
  bytes = size;
  initialized.assign(size, 0);
  if (shadowed)
    shadow.assign(size, ByteShadow());
}

InFlightDiagnostic interp::emitRunError(Operation *op, CtaRun &cta) {
  cta.failed = true;
  return op->emitError();
}

//===----------------------------------------------------------------------===//
// The launch
//===----------------------------------------------------------------------===//

int64_t KernelRun::getSizeValue(StringAttr name) {
  for (unsigned index = 0; index < kernel.getNumArguments(); ++index)
    if (kernel.getArgAttrOfType<StringAttr>(index,
                                            TirXDialect::kSizeAttrName) == name)
      return static_cast<int64_t>(arguments[index].scalarBits);
  return 0;
}

LogicalResult KernelRun::bindArguments() {
  FunctionType type = kernel.getFunctionType();
  if (arguments.size() != type.getNumInputs())
    // check-diagnostics: internal, callers pass one argument per parameter
    return kernel.emitError("the interpreter got ")
           << arguments.size() << " arguments for a kernel of "
           << type.getNumInputs() << " parameters";
  argumentStorage.resize(arguments.size());
  for (auto [index, input] : llvm::enumerate(type.getInputs())) {
    auto tensor = dyn_cast<TensorType>(input);
    if (!tensor)
      continue;
    const KernelArgument &argument = arguments[index];
    int64_t needed = tensor.getElementBytes();
    if (tensor.hasStaticShape()) {
      needed *= tensor.getLayoutOrDefault().span(Axis::m);
    } else {
      for (auto [dim, extent] : llvm::enumerate(tensor.getShape())) {
        StringAttr name = tensor.getSizeName(dim);
        needed *= name ? getSizeValue(name) : extent;
      }
    }
    if (!argument.data || static_cast<int64_t>(argument.bytes) < needed)
      return kernel.emitError("argument #")
             << index << " holds " << argument.bytes << " bytes, but " << tensor
             << " needs " << needed;
    auto storage = std::make_unique<Storage>();
    storage->kind = Storage::Kind::Global;
    storage->name = "argument #" + std::to_string(index);
    storage->data = static_cast<uint8_t *>(argument.data);
    storage->bytes = static_cast<int64_t>(argument.bytes);
    argumentStorage[index] = std::move(storage);
  }
  LaunchConfigAttr launch = kernel.getLaunch();
  for (unsigned dim = 0; dim < launch.getBlock().size(); ++dim)
    block[dim] = launch.getBlock()[dim];
  numThreads = block[0] * block[1] * block[2];
  numWarps = llvm::divideCeil(numThreads, kWarpSize);
  if (launch.hasCluster())
    for (unsigned dim = 0; dim < launch.getCluster().size(); ++dim)
      cluster[dim] = launch.getCluster()[dim];
  for (unsigned dim = 0; dim < launch.getGrid().size(); ++dim) {
    std::optional<int64_t> extent =
        launch.evaluateGridExtent(dim, [&](unsigned index) {
          return std::optional(
              static_cast<int64_t>(arguments[index].scalarBits));
        });
    if (!extent || *extent < 1)
      return kernel.emitError("grid extent ")
             << dim << " evaluates to "
             << (extent ? std::to_string(*extent) : "nothing")
             << " for these arguments";
    grid[dim] = *extent;
    if (grid[dim] % cluster[dim])
      return kernel.emitError("grid extent ")
             << dim << " is " << grid[dim]
             << " for these arguments, not a multiple of the cluster's "
             << cluster[dim];
  }
  return success();
}

LogicalResult KernelRun::run() {
  if (failed(bindArguments()))
    return failure();
  // Clusters tile the grid; a cluster's CTAs are ranked x fastest
  // (%cluster_ctarank). `block=` runs the cluster that holds that CTA.
  std::array<int64_t, 3> clusters;
  for (unsigned dim = 0; dim < 3; ++dim)
    clusters[dim] = grid[dim] / cluster[dim];
  for (int64_t cz = 0; cz < clusters[2]; ++cz)
    for (int64_t cy = 0; cy < clusters[1]; ++cy)
      for (int64_t cx = 0; cx < clusters[0]; ++cx) {
        SmallVector<std::array<int64_t, 3>> blocks;
        bool wanted = options.onlyBlock < 0;
        for (int64_t z = 0; z < cluster[2]; ++z)
          for (int64_t y = 0; y < cluster[1]; ++y)
            for (int64_t x = 0; x < cluster[0]; ++x) {
              std::array<int64_t, 3> index = {cx * cluster[0] + x,
                                              cy * cluster[1] + y,
                                              cz * cluster[2] + z};
              wanted |= index[0] + grid[0] * (index[1] + grid[1] * index[2]) ==
                        options.onlyBlock;
              blocks.push_back(index);
            }
        if (!wanted)
          continue;
        ClusterRun run(*this, blocks);
        if (failed(run.run()))
          return failure();
      }
  return success();
}

//===----------------------------------------------------------------------===//
// A cluster, its CTAs and the scheduler
//===----------------------------------------------------------------------===//

ClusterRun::ClusterRun(KernelRun &launch,
                       ArrayRef<std::array<int64_t, 3>> blocks)
    : launch(launch), numCtas(blocks.size()) {
  for (auto [rank, blockIndex] : llvm::enumerate(blocks))
    ctas.push_back(std::make_unique<CtaRun>(*this, rank, blockIndex));
  barrier.released.assign(getNumSlots(), 0);
}

ClusterRun::~ClusterRun() = default;

CtaRun::CtaRun(ClusterRun &cluster, unsigned rank,
               std::array<int64_t, 3> blockIndex)
    : launch(cluster.launch), cluster(cluster), rank(rank),
      blockIndex(blockIndex), failed(cluster.failed) {
  proxyFences.assign(launch.numThreads, 0);
  for (int64_t index = 0; index < launch.numWarps; ++index) {
    auto warp = std::make_unique<WarpState>();
    warp->index = index;
    warp->slot = rank * launch.numWarps + index;
    int64_t lanes =
        std::min<int64_t>(kWarpSize, launch.numThreads - index * kWarpSize);
    warp->live = lanes == kWarpSize ? kFullMask : (LaneMask(1) << lanes) - 1;
    warp->clock.assign(cluster.getNumSlots(), 0);
    warp->clock[warp->slot] = 1;
    warps.push_back(std::move(warp));
  }
}

int64_t CtaRun::getFlatBlockIndex() const {
  return blockIndex[0] +
         launch.grid[0] * (blockIndex[1] + launch.grid[1] * blockIndex[2]);
}

std::string CtaRun::describeThread(unsigned warp, unsigned lane) const {
  std::string text =
      "block (" + std::to_string(blockIndex[0]) + ", " +
      std::to_string(blockIndex[1]) + ", " + std::to_string(blockIndex[2]) +
      ") thread " + std::to_string(warp * kWarpSize + lane) + " (warp " +
      std::to_string(warp) + ", lane " + std::to_string(lane) + ")";
  return text;
}

Storage *CtaRun::getPeerStorage(Storage &storage, int64_t peerRank) {
  if (peerRank < 0 || peerRank >= int64_t(cluster.ctas.size()) ||
      storage.kind != Storage::Kind::Shared || !storage.origin)
    return nullptr;
  return &cluster.ctas[peerRank]->getSharedStorage(storage.origin);
}

WarpState &ClusterRun::getWarp(unsigned slot) {
  return *getCta(slot).warps[slot % launch.numWarps];
}

std::string ClusterRun::describeSlot(unsigned slot, unsigned lane) {
  return getCta(slot).describeThread(slot % launch.numWarps, lane);
}

uint32_t ClusterRun::getProxyFences(unsigned slot, unsigned lane) {
  return getCta(slot).proxyFences[(slot % launch.numWarps) * kWarpSize + lane];
}

void ClusterRun::runWarp(CtaRun &cta, WarpState &warp) {
  {
    std::unique_lock<std::mutex> lock(mutex);
    turnChanged.wait(lock, [&] { return running == int(warp.slot); });
  }
  if (!failed) {
    WarpExecutor executor(cta, warp);
    for (BlockArgument arg : launch.kernel.getArguments()) {
      LaneValue value;
      value.storage = launch.argumentStorage[arg.getArgNumber()].get();
      if (!value.storage)
        value.lanes.fill(launch.arguments[arg.getArgNumber()].scalarBits);
      executor.set(arg, value);
    }
    if (succeeded(
            executor.executeBlock(launch.kernel.getBody().front(), warp.live)))
      (void)drainAsyncCopies(executor);
  }
  std::unique_lock<std::mutex> lock(mutex);
  warp.status = WarpState::Status::Done;
  running = -1;
  turnChanged.notify_all();
}

LogicalResult ClusterRun::yield(WarpState &warp) {
  std::unique_lock<std::mutex> lock(mutex);
  running = -1;
  turnChanged.notify_all();
  turnChanged.wait(lock, [&] { return running == int(warp.slot); });
  return failure(failed);
}

LogicalResult ClusterRun::run() {
  std::vector<WarpState *> warps;
  std::vector<std::thread> tasks;
  for (auto &cta : ctas)
    for (auto &warp : cta->warps) {
      warps.push_back(warp.get());
      CtaRun *owner = cta.get();
      WarpState *state = warp.get();
      tasks.emplace_back([this, owner, state] { runWarp(*owner, *state); });
    }
  auto handTurn = [&](WarpState &warp) {
    std::unique_lock<std::mutex> lock(mutex);
    running = warp.slot;
    turnChanged.notify_all();
    turnChanged.wait(lock, [&] { return running == -1; });
  };
  size_t next = 0;
  while (true) {
    // Round robin over the runnable warps; with none, either every warp is
    // done or the rest wait for each other.
    WarpState *chosen = nullptr;
    bool allDone = true;
    for (size_t step = 0; step < warps.size(); ++step) {
      WarpState &warp = *warps[(next + step) % warps.size()];
      if (warp.status != WarpState::Status::Done)
        allDone = false;
      if (warp.status == WarpState::Status::Runnable) {
        chosen = &warp;
        break;
      }
    }
    if (allDone)
      break;
    // No warp can run: the TMA loads still in flight complete now (the
    // latest the hardware can complete them), which may wake a waiter.
    if (!chosen && !failed) {
      bool completed = false;
      for (auto &cta : ctas)
        if (llvm::any_of(cta->mbarriers, [](const auto &entry) {
              return !entry.second.pendingLoads.empty();
            })) {
          (void)cta->completePendingLoads(nullptr);
          completed = true;
        }
      if (completed)
        continue;
    }
    if (!chosen || failed) {
      if (!failed)
        (void)reportDeadlock();
      failed = true;
      // Wake every blocked warp: each sees `failed` and unwinds.
      for (WarpState *warp : warps) {
        if (warp->status == WarpState::Status::Done)
          continue;
        warp->status = WarpState::Status::Runnable;
        handTurn(*warp);
      }
      continue;
    }
    next = (llvm::find(warps, chosen) - warps.begin()) + 1;
    handTurn(*chosen);
  }
  for (std::thread &task : tasks)
    task.join();
  for (auto &cta : ctas)
    if (!failed && cta->uninitializedRead) {
      cta->uninitializedRead->first->emitError(cta->uninitializedRead->second);
      failed = true;
    }
  return failure(failed);
}

LogicalResult ClusterRun::reportDeadlock() {
  Operation *first = nullptr;
  for (auto &cta : ctas)
    for (auto &warp : cta->warps)
      if (!first && warp->status == WarpState::Status::Blocked)
        first = warp->blockedAt;
  if (!first)
    return failure();
  InFlightDiagnostic diag = first->emitError("deadlock in ");
  CtaRun &front = *ctas.front();
  if (ctas.size() == 1)
    diag << "block (" << front.blockIndex[0] << ", " << front.blockIndex[1]
         << ", " << front.blockIndex[2] << ")";
  else
    diag << "the cluster of blocks (" << front.blockIndex[0] << ", "
         << front.blockIndex[1] << ", " << front.blockIndex[2] << ") to ("
         << ctas.back()->blockIndex[0] << ", " << ctas.back()->blockIndex[1]
         << ", " << ctas.back()->blockIndex[2] << ")";
  diag << ": every warp still running waits for another";
  for (auto &cta : ctas) {
    std::string where =
        ctas.size() == 1 ? std::string()
                         : " of block (" + std::to_string(cta->blockIndex[0]) +
                               ", " + std::to_string(cta->blockIndex[1]) +
                               ", " + std::to_string(cta->blockIndex[2]) + ")";
    for (auto &warp : cta->warps) {
      if (warp->status == WarpState::Status::Blocked)
        diag.attachNote(warp->blockedAt->getLoc())
            << "warp " << warp->index << where << " waits here";
      else if (warp->status == WarpState::Status::Done)
        diag.attachNote(launch.kernel.getLoc())
            << "warp " << warp->index << where << " has finished the kernel";
    }
    // What each mbarrier's current phase still waits for.
    for (auto &[key, barrier] : cta->mbarriers) {
      if (!barrier.initOp)
        continue;
      Diagnostic &note = diag.attachNote(barrier.initOp->getLoc());
      note << "the mbarrier initialized here" << where << " is in phase "
           << barrier.phase << ", which still waits for "
           << barrier.pendingArrivals << " arrival(s) of "
           << barrier.expectedArrivals;
      if (barrier.transactionBytes > 0)
        note << " and " << barrier.transactionBytes << " transaction byte(s)";
      else if (barrier.transactionBytes < 0)
        note << "; its transfers brought " << -barrier.transactionBytes
             << " byte(s) more than an expect_tx announced";
    }
  }
  return failure();
}

LogicalResult ClusterRun::arrive(WarpState &warp, Operation *op, LaneMask lanes,
                                 bool release) {
  CtaRun &cta = getCta(warp.slot);
  if (warp.clusterArrival) {
    emitRunError(op, cta)
        << "arrives at the cluster barrier again before waiting for the "
           "phase it arrived in ("
        << cta.describeThread(warp.index, llvm::countr_zero(lanes)) << ")";
    return failure();
  }
  warp.clusterArrival = barrier.phase;
  if (release) {
    for (auto [slot, value] : llvm::enumerate(warp.clock))
      barrier.released[slot] = std::max(barrier.released[slot], value);
    ++warp.clock[warp.slot];
  }
  barrier.arrivedThreads += llvm::popcount(lanes);
  if (barrier.arrivedThreads < launch.numThreads * int64_t(ctas.size()))
    return success();
  // Every thread of the cluster has arrived: the phase completes.
  barrier.completed = barrier.released;
  barrier.released.assign(getNumSlots(), 0);
  barrier.arrivedThreads = 0;
  ++barrier.phase;
  for (auto &peer : ctas)
    for (auto &waiter : peer->warps)
      if (waiter->status == WarpState::Status::Blocked && waiter->blockedAt &&
          waiter->clusterArrival && *waiter->clusterArrival < barrier.phase)
        waiter->status = WarpState::Status::Runnable;
  return success();
}

LogicalResult ClusterRun::wait(WarpState &warp, Operation *op) {
  CtaRun &cta = getCta(warp.slot);
  if (!warp.clusterArrival) {
    emitRunError(op, cta) << "waits at the cluster barrier without having "
                             "arrived ("
                          << cta.describeThread(warp.index,
                                                llvm::countr_zero(warp.live))
                          << ")";
    return failure();
  }
  while (*warp.clusterArrival >= barrier.phase) {
    warp.status = WarpState::Status::Blocked;
    warp.blockedAt = op;
    if (mlir::failed(yield(warp)))
      return failure();
  }
  warp.blockedAt = nullptr;
  warp.clusterArrival.reset();
  for (auto [slot, value] : llvm::enumerate(barrier.completed))
    warp.clock[slot] = std::max(warp.clock[slot], value);
  return success();
}

LogicalResult CtaRun::arriveAtBarrier(WarpState &warp, Operation *op,
                                      unsigned id, int64_t expectedThreads,
                                      bool arriveOnly) {
  NamedBarrier &barrier = barriers[id];
  if (barrier.arrivedThreads == 0) {
    barrier.expectedThreads = expectedThreads;
    barrier.firstArrival = op;
  } else if (barrier.expectedThreads != expectedThreads) {
    InFlightDiagnostic diag = emitRunError(op, *this)
                              << "barrier " << id << " is expected with "
                              << expectedThreads << " threads here, but with "
                              << barrier.expectedThreads << " by warp "
                              << barrier.arrivedWarps.front();
    diag.attachNote(barrier.firstArrival->getLoc()) << "that arrival";
    return failure();
  }
  barrier.arrivedThreads += llvm::popcount(warp.live);
  barrier.arrivedWarps.push_back(warp.index);
  if (barrier.arrivedThreads > barrier.expectedThreads) {
    // check-diagnostics: internal, collectives need whole warps (verifier):
    // arrivals come 32 at a time, counts are multiples of 32
    emitRunError(op, *this)
        << "barrier " << id << " expects " << barrier.expectedThreads
        << " threads, but " << barrier.arrivedThreads << " arrived (warp "
        << warp.index << " is one too many)";
    return failure();
  }
  if (barrier.arrivedThreads == barrier.expectedThreads) {
    // Completed: every participant's clock becomes their join, and each
    // starts a new epoch of its own.
    VectorClock joined(cluster.getNumSlots(), 0);
    for (unsigned index : barrier.arrivedWarps)
      for (auto [slot, value] : llvm::enumerate(warps[index]->clock))
        joined[slot] = std::max(joined[slot], value);
    for (unsigned index : barrier.arrivedWarps) {
      WarpState &participant = *warps[index];
      // An arrive-only participant releases but does not acquire.
      bool waits = index == warp.index
                       ? !arriveOnly
                       : llvm::is_contained(barrier.waitingWarps, index);
      if (waits)
        participant.clock = joined;
      ++participant.clock[participant.slot];
    }
    for (unsigned index : barrier.waitingWarps) {
      warps[index]->status = WarpState::Status::Runnable;
      warps[index]->blockedAt = nullptr;
    }
    barrier = NamedBarrier();
    return success();
  }
  if (arriveOnly)
    return success();
  barrier.waitingWarps.push_back(warp.index);
  warp.status = WarpState::Status::Blocked;
  warp.blockedAt = op;
  return yield(warp);
}

//===----------------------------------------------------------------------===//
// Entry points
//===----------------------------------------------------------------------===//

LogicalResult interp::runKernel(KernelOp kernel,
                                ArrayRef<KernelArgument> arguments,
                                const InterpreterOptions &options) {
  KernelRun run(kernel, arguments, options);
  return run.run();
}

LogicalResult interp::runKernel(ModuleOp module, StringRef name,
                                ArrayRef<KernelArgument> arguments,
                                const InterpreterOptions &options) {
  KernelOp found;
  unsigned count = 0;
  module.walk([&](KernelOp kernel) {
    ++count;
    if (name.empty() || kernel.getSymName() == name)
      found = kernel;
  });
  if (!found || (name.empty() && count > 1))
    // check-diagnostics: internal, the C API names kernels it has listed
    return module.emitError(
               name.empty() ? "the module has no kernel, or several: name one"
                            : "the module has no kernel named '")
           << name << (name.empty() ? "" : "'");
  return runKernel(found, arguments, options);
}
