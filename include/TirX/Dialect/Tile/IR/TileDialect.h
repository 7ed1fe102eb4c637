//===- TileDialect.h - The tile dialect -------------------------*- C++ -*-===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//

#ifndef TIRX_DIALECT_TILE_IR_TILEDIALECT_H
#define TIRX_DIALECT_TILE_IR_TILEDIALECT_H

#include "TirX/Dialect/TirX/IR/TirXDialect.h"
#include "mlir/IR/Dialect.h"

#include <memory>

namespace mlir::tirx::tile {
class CheckedOperandCache;
} // namespace mlir::tirx::tile

#include "TirX/Dialect/Tile/IR/TileDialect.h.inc"

#endif // TIRX_DIALECT_TILE_IR_TILEDIALECT_H
