//===- tirx-lsp-server.cpp - MLIR language server with the TirX dialects --===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//
//
// MLIR's language server with the TirX dialects registered, so that editors
// get diagnostics, hover and go-to-definition on .mlir files that use `tirx`
// and `tile` ops (point the MLIR editor extension's server path here).
//
//===----------------------------------------------------------------------===//

#include "TirX/InitAll.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-lsp-server/MlirLspServerMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  mlir::tirx::registerAllTirXDialects(registry);
  return mlir::failed(mlir::MlirLspServerMain(argc, argv, registry)) ? 1 : 0;
}
