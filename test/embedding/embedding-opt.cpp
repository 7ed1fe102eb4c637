//===- embedding-opt.cpp - A downstream opt tool that embeds TirX ---------===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//
//
// What a compiler built on MLIR does to take TirX in: register the TirX
// dialects and passes (TirX/InitAll.h) next to its own and upstream ones,
// then either run `--tirx-to-ptx` like tirx-opt or build the pipeline in C++.
//
//===----------------------------------------------------------------------===//

#include "TirX/InitAll.h"
#include "TirX/Pipelines/Pipelines.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  registry.insert<mlir::func::FuncDialect>(); // the embedder's own dialects
  mlir::tirx::registerAllTirXDialects(registry);
  mlir::tirx::registerAllTirXPasses();
  mlir::registerCanonicalizerPass();
  mlir::registerCSEPass();
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "An MLIR tool embedding TirX\n", registry));
}
