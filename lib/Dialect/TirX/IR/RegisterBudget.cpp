//===- RegisterBudget.cpp - Per-thread register footprint -----------------===//
//
// Part of the TirX project.
//
// The model is in RegisterBudget.h and docs/registers.md.
//
//===----------------------------------------------------------------------===//

#include "TirX/Dialect/TirX/IR/RegisterBudget.h"
#include "TirX/Dialect/TirX/IR/TirXOps.h"

#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tirx;

int64_t mlir::tirx::getRegisterFootprint(TensorType type) {
  int64_t slots = type.getLayoutOrDefault().storage().span(Axis::m);
  Type element = type.getElementType();
  int64_t bits = element.isIntOrFloat() ? element.getIntOrFloatBitWidth() : 64;
  return slots * llvm::divideCeil(bits, 32);
}

int64_t mlir::tirx::getRegistersPerThreadLimit(int64_t threads) {
  int64_t warps = llvm::divideCeil(std::max<int64_t>(threads, 1), 32);
  int64_t perThread = kRegisterFileSize / (warps * 32);
  perThread -= perThread % kRegisterAllocationUnit;
  return std::min(kMaxRegistersPerThread, perThread);
}

namespace {
/// The budget of one kernel.
struct Budget {
  int64_t threads;
  int64_t perThread;          // before the margin
  int64_t tiles;              // for register tiles
  Operation *setBy = nullptr; // the setmaxnreg that set perThread, if any
};
} // namespace

/// Adds the tiles allocated in `block` to `live` in program order, and
/// checks nested regions with what is live at their op.
static LogicalResult checkBlock(Block &block, int64_t live, Budget budget) {
  for (Operation &op : block) {
    if (auto alloc = dyn_cast<AllocLocalOp>(op)) {
      int64_t regs = getRegisterFootprint(alloc.getResult().getType());
      live += regs;
      if (live <= budget.tiles)
        continue;
      // Which limit binds: a setmaxnreg, the per-thread maximum, or the
      // register file.
      if (budget.setBy) {
        InFlightDiagnostic diag =
            alloc.emitOpError("register tiles need ")
            << live << " 32-bit registers per thread here (this tile " << regs
            << "), over the budget of " << budget.tiles << ": setmaxnreg "
            << "leaves " << budget.perThread << " per thread, less "
            << kRegisterMargin << " kept for addresses and indices";
        diag.attachNote(budget.setBy->getLoc()) << "the setmaxnreg";
        return diag;
      }
      if (budget.perThread == kMaxRegistersPerThread)
        return alloc.emitOpError("register tiles need ")
               << live << " 32-bit registers per thread here (this tile "
               << regs << "), over the budget of " << budget.tiles << ": "
               << kMaxRegistersPerThread << " registers per thread, less "
               << kRegisterMargin << " kept for addresses and indices";
      return alloc.emitOpError("register tiles need ")
             << live << " 32-bit registers per thread here (this tile " << regs
             << "), over the budget of " << budget.tiles
             << ": the register file's " << kRegisterFileSize
             << " registers over a block of " << budget.threads
             << " threads leave " << budget.perThread << " per thread, less "
             << kRegisterMargin << " kept for addresses and indices";
    }
    for (Region &region : op.getRegions())
      for (Block &inner : region)
        if (failed(checkBlock(inner, live, budget)))
          return failure();
    // setmaxnreg: the threads that pass it hold that many registers.
    if (auto limiter = dyn_cast<RegisterLimitOpInterface>(op))
      if (std::optional<int64_t> limit = limiter.getRegisterLimitAfter()) {
        budget.perThread = *limit;
        budget.tiles = *limit - kRegisterMargin;
        budget.setBy = &op;
      }
  }
  return success();
}

LogicalResult mlir::tirx::verifyRegisterBudget(KernelOp kernel) {
  Budget budget;
  budget.threads = kernel.getLaunch().getNumThreads();
  budget.perThread = getRegistersPerThreadLimit(budget.threads);
  budget.tiles = budget.perThread - kRegisterMargin;
  for (Block &block : kernel.getBody())
    if (failed(checkBlock(block, 0, budget)))
      return failure();
  return success();
}
