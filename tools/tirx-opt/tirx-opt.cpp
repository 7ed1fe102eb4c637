//===- tirx-opt.cpp - The TirX optimizer driver ---------------------------===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//

#include "TirX/InitAll.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  mlir::tirx::registerAllTirXDialects(registry);
  mlir::tirx::registerAllTirXPasses();
  mlir::registerCanonicalizerPass();
  mlir::registerCSEPass();
  mlir::registerInlinerPass();
  mlir::registerSymbolDCEPass();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "TirX optimizer driver\n", registry));
}
