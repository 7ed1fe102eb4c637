//===- InitAll.cpp - Register every TirX dialect and pass -----------------===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//

#include "TirX/InitAll.h"
#include "TirX/Dialect/Tile/IR/TileDialect.h"
#include "TirX/Dialect/TirX/IR/TirXDialect.h"
#include "TirX/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/DialectRegistry.h"

void mlir::tirx::registerAllTirXDialects(DialectRegistry &registry) {
  registry.insert<TirXDialect, tile::TileDialect, func::FuncDialect,
                  arith::ArithDialect, math::MathDialect, scf::SCFDialect>();
}

void mlir::tirx::registerAllTirXPasses() { registerTirXTransformsPasses(); }
