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
  }
  if (launch.hasCluster() && launch.getNumClusterCTAs() > 1)
    return kernel.emitError("the interpreter does not model thread-block "
                            "clusters yet (cluster of ")
           << launch.getNumClusterCTAs() << " CTAs)";
  return success();
}

LogicalResult KernelRun::run() {
  if (failed(bindArguments()))
    return failure();
  int64_t flat = 0;
  for (int64_t z = 0; z < grid[2]; ++z)
    for (int64_t y = 0; y < grid[1]; ++y)
      for (int64_t x = 0; x < grid[0]; ++x, ++flat) {
        if (options.onlyBlock >= 0 && flat != options.onlyBlock)
          continue;
        CtaRun cta(*this, {x, y, z});
        if (failed(cta.run()))
          return failure();
      }
  return success();
}

//===----------------------------------------------------------------------===//
// A CTA and its scheduler
//===----------------------------------------------------------------------===//

CtaRun::CtaRun(KernelRun &launch, std::array<int64_t, 3> blockIndex)
    : launch(launch), blockIndex(blockIndex) {
  proxyFences.assign(launch.numThreads, 0);
  int64_t numWarps = llvm::divideCeil(launch.numThreads, kWarpSize);
  for (int64_t index = 0; index < numWarps; ++index) {
    auto warp = std::make_unique<WarpState>();
    warp->index = index;
    int64_t lanes =
        std::min<int64_t>(kWarpSize, launch.numThreads - index * kWarpSize);
    warp->live = lanes == kWarpSize ? kFullMask : (LaneMask(1) << lanes) - 1;
    warp->clock.assign(numWarps, 0);
    warp->clock[index] = 1;
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

void CtaRun::runWarp(WarpState &warp) {
  {
    std::unique_lock<std::mutex> lock(mutex);
    turnChanged.wait(lock, [&] { return running == int(warp.index); });
  }
  if (!failed) {
    WarpExecutor executor(*this, warp);
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

LogicalResult CtaRun::yield(WarpState &warp) {
  std::unique_lock<std::mutex> lock(mutex);
  running = -1;
  turnChanged.notify_all();
  turnChanged.wait(lock, [&] { return running == int(warp.index); });
  return failure(failed);
}

LogicalResult CtaRun::run() {
  std::vector<std::thread> tasks;
  tasks.reserve(warps.size());
  for (auto &warp : warps)
    tasks.emplace_back([this, &warp] { runWarp(*warp); });
  size_t next = 0;
  while (true) {
    // Round robin over the runnable warps; with none, either every warp is
    // done or the rest wait for each other.
    int chosen = -1;
    bool allDone = true;
    for (size_t step = 0; step < warps.size(); ++step) {
      WarpState &warp = *warps[(next + step) % warps.size()];
      if (warp.status != WarpState::Status::Done)
        allDone = false;
      if (warp.status == WarpState::Status::Runnable) {
        chosen = warp.index;
        break;
      }
    }
    if (allDone)
      break;
    // No warp can run: the TMA loads still in flight complete now (the
    // latest the hardware can complete them), which may wake a waiter.
    if (chosen < 0 && !failed && llvm::any_of(mbarriers, [](const auto &entry) {
          return !entry.second.pendingLoads.empty();
        })) {
      (void)completePendingLoads(nullptr);
      continue;
    }
    if (chosen < 0 || failed) {
      if (!failed)
        (void)reportDeadlock();
      failed = true;
      // Wake every blocked warp: each sees `failed` and unwinds.
      for (auto &warp : warps) {
        if (warp->status == WarpState::Status::Done)
          continue;
        warp->status = WarpState::Status::Runnable;
        std::unique_lock<std::mutex> lock(mutex);
        running = warp->index;
        turnChanged.notify_all();
        turnChanged.wait(lock, [&] { return running == -1; });
      }
      continue;
    }
    next = chosen + 1;
    std::unique_lock<std::mutex> lock(mutex);
    running = chosen;
    turnChanged.notify_all();
    turnChanged.wait(lock, [&] { return running == -1; });
  }
  for (std::thread &task : tasks)
    task.join();
  if (!failed && uninitializedRead) {
    uninitializedRead->first->emitError(uninitializedRead->second);
    failed = true;
  }
  return failure(failed);
}

LogicalResult CtaRun::reportDeadlock() {
  Operation *first = nullptr;
  for (auto &warp : warps)
    if (warp->status == WarpState::Status::Blocked) {
      first = warp->blockedAt;
      break;
    }
  if (!first)
    return failure();
  InFlightDiagnostic diag = first->emitError("deadlock in block (")
                            << blockIndex[0] << ", " << blockIndex[1] << ", "
                            << blockIndex[2]
                            << "): every warp still running waits for another";
  for (auto &warp : warps) {
    if (warp->status == WarpState::Status::Blocked)
      diag.attachNote(warp->blockedAt->getLoc())
          << "warp " << warp->index << " waits here";
    else if (warp->status == WarpState::Status::Done)
      diag.attachNote(launch.kernel.getLoc())
          << "warp " << warp->index << " has finished the kernel";
  }
  // What each mbarrier's current phase still waits for.
  for (auto &[key, barrier] : mbarriers) {
    if (!barrier.initOp)
      continue;
    Diagnostic &note = diag.attachNote(barrier.initOp->getLoc());
    note << "the mbarrier initialized here is in phase " << barrier.phase
         << ", which still waits for " << barrier.pendingArrivals
         << " arrival(s) of " << barrier.expectedArrivals;
    if (barrier.transactionBytes > 0)
      note << " and " << barrier.transactionBytes << " transaction byte(s)";
    else if (barrier.transactionBytes < 0)
      note << "; its transfers brought " << -barrier.transactionBytes
           << " byte(s) more than an expect_tx announced";
  }
  return failure();
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
    VectorClock joined(warps.size(), 0);
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
      ++participant.clock[index];
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
