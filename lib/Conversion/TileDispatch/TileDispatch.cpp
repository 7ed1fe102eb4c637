//===- TileDispatch.cpp - The tile-dispatch pass --------------------------===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//

#include "TirX/Conversion/Passes.h"
#include "TirX/Dialect/Tile/IR/TileOps.h"

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
      signalPassFailure();
  }
};
} // namespace
