//===- TileOperandChecks.h - Static checks of tile operands -----*- C++ -*-===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//
//
// The checks `tile.apply` and `tile.ewise` share (spec §2, §7): operands are
// viewed as group × repeat × atom over the threads the scope binds, and the
// checker proves ownership, distinct destinations, and contiguous, aligned
// memory atoms by enumerating the (statically shaped) tile.
//
//===----------------------------------------------------------------------===//

#ifndef TIRX_LIB_DIALECT_TILE_IR_TILEOPERANDCHECKS_H
#define TIRX_LIB_DIALECT_TILE_IR_TILEOPERANDCHECKS_H

#include "TirX/Dialect/Tile/IR/TileOps.h"
#include "TirX/Dialect/Tile/PTX/PTXInstruction.h"

namespace mlir::tirx::tile {

/// One operand of a tile op in PTX/parameter order: an SSA value or a typed
/// immediate.
struct MixedOperand {
  unsigned position;
  Value value;         // null for an immediate
  TypedAttr immediate; // null for an SSA value
  Type getType() const { return value ? value.getType() : immediate.getType(); }
};

/// Pairs `args` with `kinds` (unit = next SSA value). Fails, with a
/// diagnostic on `op`, when they disagree.
FailureOr<SmallVector<MixedOperand>> getMixedOperands(Operation *op,
                                                      ValueRange args,
                                                      ArrayAttr kinds);

/// The PTX scalar kind of an element type (signless integers are signed).
std::optional<ptx::ScalarKind> getScalarKind(Type type);

/// A tensor operand as the shared checker sees it.
struct TileTensorOperand {
  unsigned position;
  std::string name; // e.g. "d", "a", or "input #1"
  TensorType type;
  bool isDestination;
  bool isMemory;
  /// Elements per instruction on the innermost axis, or 0 for none (ewise).
  unsigned atom;
  /// Bytes of one memory atom (memory operands only).
  unsigned vectorBytes;
};

/// Checks decomposition, group extents, shape agreement, ownership,
/// distinct destinations and memory atoms of `operands` under `scope`.
LogicalResult checkTileTensorOperands(Operation *op, Scope scope,
                                      ArrayRef<TileTensorOperand> operands);

} // namespace mlir::tirx::tile

#endif // TIRX_LIB_DIALECT_TILE_IR_TILEOPERANDCHECKS_H
