//===- TileOps.h - tile operations ------------------------------*- C++ -*-===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//

#ifndef TIRX_DIALECT_TILE_IR_TILEOPS_H
#define TIRX_DIALECT_TILE_IR_TILEOPS_H

#include "TirX/Dialect/Tile/IR/TileAttrs.h"
#include "TirX/Dialect/Tile/IR/TileDialect.h"
#include "TirX/Dialect/TirX/IR/TirXOps.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "TirX/Dialect/Tile/IR/TileEnums.h.inc"

#define GET_OP_CLASSES
#include "TirX/Dialect/Tile/IR/TileOps.h.inc"

#endif // TIRX_DIALECT_TILE_IR_TILEOPS_H
