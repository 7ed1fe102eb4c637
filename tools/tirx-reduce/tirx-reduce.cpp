//===- tirx-reduce.cpp - MLIR test-case reducer with the TirX dialects ----===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//
//
// MLIR's reducer with the TirX dialects and passes registered: shrinks a
// .mlir file while an "interestingness" script (for example, one that greps
// for a diagnostic from tirx-opt) keeps succeeding.
//
//===----------------------------------------------------------------------===//

#include "TirX/InitAll.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Tools/mlir-reduce/MlirReduceMain.h"
#include "mlir/Transforms/Passes.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  mlir::tirx::registerAllTirXDialects(registry);
  mlir::tirx::registerAllTirXPasses();
  mlir::registerCanonicalizerPass();
  mlir::registerCSEPass();
  mlir::registerSymbolDCEPass();
  mlir::MLIRContext context(registry);
  return mlir::failed(mlir::mlirReduceMain(argc, argv, context)) ? 1 : 0;
}
