//===- PrintLayouts.cpp - Print the views of register tiles ---------------===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//

#include "TirX/Dialect/TirX/IR/TirXOps.h"
#include "TirX/Layout/LayoutViews.h"
#include "TirX/Transforms/Passes.h"

#include "llvm/Support/raw_ostream.h"

namespace mlir::tirx {
#define GEN_PASS_DEF_TIRXPRINTLAYOUTS
#include "TirX/Transforms/Passes.h.inc"
} // namespace mlir::tirx

using namespace mlir;
using namespace mlir::tirx;

namespace {
struct PrintLayoutsPass
    : public tirx::impl::TirXPrintLayoutsBase<PrintLayoutsPass> {
  using Base::Base;

  void runOnOperation() override {
    if (view != "tensor" && view != "thread" && view != "both") {
      getOperation()->emitError("tirx-print-layouts: view must be tensor, "
                                "thread or both, got '")
          << view << "'";
      return signalPassFailure();
    }
    llvm::raw_ostream &os = llvm::outs();
    getOperation()->walk([&](AllocLocalOp alloc) {
      tirx::TensorType type = alloc.getResult().getType();
      TileLayout layout = type.getLayoutOrDefault();
      os << "// " << alloc->getName() << " at " << alloc.getLoc() << ": "
         << type << "\n";
      if (llvm::Error error = checkViewShape(layout, type.getShape())) {
        alloc.emitError() << llvm::toString(std::move(error));
        return signalPassFailure();
      }
      if (view != "thread")
        printTensorView(os, layout, type.getShape());
      if (view != "tensor")
        printThreadView(os, layout, type.getShape());
      os << "\n";
    });
  }
};
} // namespace
