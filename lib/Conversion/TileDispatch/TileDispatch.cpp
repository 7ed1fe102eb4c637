//===- TileDispatch.cpp - The tile-dispatch pass --------------------------===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//

#include "TirX/Conversion/Passes.h"
#include "TirX/Dialect/Tile/IR/TileOps.h"
#include "TirX/Dialect/TirX/IR/TirXOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::tirx {
#define GEN_PASS_DEF_TILEDISPATCH
#include "TirX/Conversion/Passes.h.inc"
} // namespace mlir::tirx

using namespace mlir;
using namespace mlir::tirx;

namespace {
struct TileDispatchPass
    : public tirx::impl::TileDispatchBase<TileDispatchPass> {
  void runOnOperation() override {
    // Instructions are lowered only against a named target: their floors
    // were checked against it (ApplyOp's verifier), never against a guess.
    WalkResult untargeted = getOperation()->walk([](tile::ApplyOp op) {
      FailureOr<std::optional<unsigned>> sm = getTargetSM(op);
      if (failed(sm))
        return WalkResult::interrupt();
      if (*sm)
        return WalkResult::advance();
      op.emitOpError("has no target chip to check '")
          << op.getInstruction().getSpelling()
          << "' against: name one with tirx-to-gpu{chip=sm_90} (as "
             "--tirx-to-ptx does) or a 'tirx.chip' attribute on the module";
      return WalkResult::interrupt();
    });
    if (untargeted.wasInterrupted())
      return signalPassFailure();
    RewritePatternSet patterns(&getContext());
    populateTileApplyDispatchPatterns(patterns);
    populateTileEwiseDispatchPatterns(patterns);
    // Every tile op is rewritten once; nothing created needs revisiting.
    GreedyRewriteConfig config;
    config.setUseTopDownTraversal(true).setRegionSimplificationLevel(
        GreedySimplifyRegionLevel::Disabled);
    (void)applyPatternsGreedily(getOperation(), std::move(patterns), config);
    // A tile op left behind failed with a diagnostic already emitted.
    WalkResult result = getOperation()->walk([](Operation *op) {
      return isa<tile::ApplyOp, tile::EwiseOp>(op) ? WalkResult::interrupt()
                                                   : WalkResult::advance();
    });
    if (result.wasInterrupted())
      return signalPassFailure();
    // Each access through a masked region is now predicated on its
    // elements: the region is an ordinary one for what follows.
    getOperation()->walk([](RegionOp region) { region.setMasked(false); });
    // Scalar functions were copied into GPU modules for ewise; once inlined,
    // nothing calls them and they would only bloat the PTX.
    getOperation()->walk([](gpu::GPUModuleOp module) {
      for (auto func :
           llvm::make_early_inc_range(module.getOps<func::FuncOp>()))
        if (SymbolTable::symbolKnownUseEmpty(func, module))
          func.erase();
    });
  }
};
} // namespace
