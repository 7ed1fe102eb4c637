//===- TensorMapParams.cpp - TMA tensor maps as grid-constant params ------===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//

#include "TirX/Conversion/Passes.h"
#include "TirX/Dialect/Tile/IR/BulkTensorCopy.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

namespace mlir::tirx {
#define GEN_PASS_DEF_TIRXTENSORMAPPARAMS
#include "TirX/Conversion/Passes.h.inc"
} // namespace mlir::tirx

using namespace mlir;

namespace {
struct TensorMapParamsPass
    : public tirx::impl::TirXTensorMapParamsBase<TensorMapParamsPass> {
  void runOnOperation() override {
    LLVM::LLVMFuncOp func = getOperation();
    Attribute attr = func->getAttr(tirx::tile::kTensorMapsAttrName);
    if (!attr)
      return;
    size_t numMaps = tirx::tile::parseTensorMapsAttr(attr).size();
    if (numMaps == 0 || numMaps > func.getNumArguments()) {
      // check-diagnostics: internal, written by tirx-to-gpu
      func.emitOpError("has a malformed '")
          << tirx::tile::kTensorMapsAttrName << "' attribute";
      return signalPassFailure();
    }
    MLIRContext *context = &getContext();
    Builder builder(context);
    auto image = LLVM::LLVMArrayType::get(IntegerType::get(context, 8),
                                          tirx::tile::kTensorMapBytes);
    for (unsigned index = func.getNumArguments() - numMaps,
                  e = func.getNumArguments();
         index < e; ++index) {
      func.setArgAttr(index, LLVM::LLVMDialect::getByValAttrName(),
                      TypeAttr::get(image));
      func.setArgAttr(index, NVVM::NVVMDialect::getGridConstantAttrName(),
                      builder.getUnitAttr());
    }
  }
};
} // namespace
