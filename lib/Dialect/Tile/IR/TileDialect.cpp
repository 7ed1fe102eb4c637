//===- TileDialect.cpp - The tile dialect ---------------------------------===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//

#include "TirX/Dialect/Tile/IR/TileDialect.h"
#include "TirX/Dialect/Tile/IR/CheckedOperandCache.h"
#include "TirX/Dialect/Tile/IR/TileAttrs.h"
#include "TirX/Dialect/Tile/IR/TileOps.h"

using namespace mlir;
using namespace mlir::tirx::tile;

#include "TirX/Dialect/Tile/IR/TileDialect.cpp.inc"
#include "TirX/Dialect/Tile/IR/TileEnums.cpp.inc"

void TileDialect::initialize() {
  checkedOperands = std::make_unique<CheckedOperandCache>();
  registerAttributes();
  addOperations<
#define GET_OP_LIST
#include "TirX/Dialect/Tile/IR/TileOps.cpp.inc"
      >();
}
