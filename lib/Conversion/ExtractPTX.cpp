//===- ExtractPTX.cpp - Write the objects of gpu.binary ops ---------------===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//

#include "TirX/Conversion/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/ToolOutputFile.h"

namespace mlir::tirx {
#define GEN_PASS_DEF_TIRXEXTRACTPTX
#include "TirX/Conversion/Passes.h.inc"
} // namespace mlir::tirx

using namespace mlir;

namespace {
struct ExtractPTXPass : public tirx::impl::TirXExtractPTXBase<ExtractPTXPass> {
  using Base::Base;

  void runOnOperation() override {
    std::string message;
    std::unique_ptr<llvm::ToolOutputFile> file =
        openOutputFile(output, &message);
    if (!file) {
      getOperation()->emitError("tirx-extract-ptx: ") << message;
      return signalPassFailure();
    }
    getOperation()->walk([&](gpu::BinaryOp binary) {
      // The first object: the PTX or cubin asked for (keep-cubin's cubin
      // follows the PTX).
      ArrayRef<Attribute> objects = binary.getObjects().getValue();
      if (auto gpuObject = dyn_cast_if_present<gpu::ObjectAttr>(
              objects.empty() ? Attribute() : objects.front()))
        file->os() << gpuObject.getObject().getValue();
    });
    file->keep();
  }
};
} // namespace
