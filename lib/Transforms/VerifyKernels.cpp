//===- VerifyKernels.cpp - Whole-kernel checks, once ----------------------===//
//
// Part of the TirX project.
//
// The register budget, the bounds proof and the wgmma fence check each look
// at a whole kernel. As op verifiers they ran after the parser and again
// after every pass of a pipeline; as this pass they run once, where the
// pipeline needs them (before tirx-to-gpu), with the same diagnostics.
//
//===----------------------------------------------------------------------===//

#include "TirX/Dialect/Tile/IR/WgmmaFence.h"
#include "TirX/Dialect/TirX/IR/RegisterBudget.h"
#include "TirX/Dialect/TirX/IR/TirXOps.h"
#include "TirX/Transforms/Passes.h"

namespace mlir::tirx {
#define GEN_PASS_DEF_TIRXVERIFYKERNELS
#include "TirX/Transforms/Passes.h.inc"
} // namespace mlir::tirx

using namespace mlir;
using namespace mlir::tirx;

namespace {
struct VerifyKernelsPass
    : public tirx::impl::TirXVerifyKernelsBase<VerifyKernelsPass> {
  using TirXVerifyKernelsBase::TirXVerifyKernelsBase;

  void runOnOperation() override {
    bool failed = false;
    // Every kernel is checked, so that one run reports each kernel's first
    // problem.
    getOperation()->walk([&](KernelOp kernel) {
      failed |=
          mlir::failed(verifyRegisterBudget(kernel)) ||
          mlir::failed(verifyAccessBounds(kernel)) ||
          mlir::failed(verifyBarrierConvergence(kernel)) ||
          (raceProof && (mlir::failed(verifyProxyFences(kernel)) ||
                         mlir::failed(verifyRaceFreedom(kernel, strictRaces))));
    });
    if (failed || mlir::failed(tile::verifyWgmmaFences(getOperation())))
      return signalPassFailure();
    markAllAnalysesPreserved();
  }
};
} // namespace
