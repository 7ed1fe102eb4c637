//===- TileOperands.h - Operands of tile ops and their checks ---*- C++ -*-===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//
//
// The checks `tile.apply` and `tile.ewise` share (spec §2, §7): operands are
// viewed as group × repeat × atom over the threads the scope binds, and the
// checker proves ownership, distinct destinations, and contiguous, aligned
// memory atoms by enumerating the (statically shaped) tile. Choosing the PTX
// form that gives each operand its atom is FormSelection.h's job.
//
//===----------------------------------------------------------------------===//

#ifndef TIRX_DIALECT_TILE_IR_TILEOPERANDS_H
#define TIRX_DIALECT_TILE_IR_TILEOPERANDS_H

#include "TirX/Dialect/Tile/IR/TileOps.h"
#include "TirX/Layout/TileLayout.h"

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
FailureOr<SmallVector<MixedOperand>>
getMixedOperands(Operation *op, ValueRange args, ArrayAttr kinds);

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
  /// Collective register operands: the instruction's fragment (TileLayout
  /// notation) over the atom; empty for per-thread operands.
  StringRef fragment = {};
  /// The atom's shape (the operand's trailing dimensions) when it has more
  /// than one dimension (an mma fragment's {16, 8}); empty: {atom}.
  SmallVector<int64_t, 2> atomShape = {};
  /// A shared matrix passed as a wgmma descriptor: each atom must be in a
  /// canonical layout (MatrixDescriptor.h), MN-major when `mnMajor`.
  bool isDescriptor = false;
  bool mnMajor = false;

  /// The trailing dimensions the atom covers: none for ewise (atom 0).
  SmallVector<int64_t, 2> getAtomShape() const {
    if (!atomShape.empty())
      return atomShape;
    if (atom)
      return {static_cast<int64_t>(atom)};
    return {};
  }
};

/// The threads that execute a tile op together, and the group prefix of its
/// operands (spec §2.2): thread: (); warp: (32); warpgroup: (4, 32);
/// cta: (block / 32, 32) — a block smaller than a warp gives (1, n).
/// A warp-collective instruction absorbs the lane axis into its atom: its
/// group prefix drops the lanes (warp: (); warpgroup: (4); cta: (block/32)),
/// and each group coordinate is executed by whole warps.
struct ExecutionDomain {
  Scope scope;
  int64_t numThreads;
  SmallVector<int64_t, 2> groupShape;
  /// Lanes are part of the atom (a warp-collective instruction).
  bool lanesInAtom = false;
  /// The warps of a warpgroup are too (a warpgroup collective: wgmma): the
  /// group prefix is (): warpgroup, (block / 128): cta.
  bool warpgroupInAtom = false;

  /// Flat thread ids (in the CTA) executing group coordinate `group` (with
  /// lanesInAtom: the id of lane 0 of each executing warp, or warpgroup with
  /// warpgroupInAtom); stops when `fn` returns false.
  void forEachThread(ArrayRef<int64_t> group,
                     function_ref<bool(int64_t)> fn) const;
  /// Number of group coordinates.
  int64_t getNumGroups() const;
};

/// The domain of `op` under `scope`, or a diagnostic on `op` (outside a
/// kernel, partial warps or warpgroups). `lanesInAtom` for warp-collective
/// instructions, which need whole warps.
FailureOr<ExecutionDomain> getExecutionDomain(Operation *op, Scope scope,
                                              bool lanesInAtom = false,
                                              bool warpgroupInAtom = false);

/// Checks decomposition, group extents, shape agreement, ownership,
/// distinct destinations and memory atoms of `operands` under `scope`.
/// `sameRepeats`: every operand has the same group x repeat shape (false
/// when the caller checked another structure: mma's (M, N, K) repeats).
LogicalResult checkTileTensorOperands(Operation *op, Scope scope,
                                      ArrayRef<TileTensorOperand> operands,
                                      bool lanesInAtom = false,
                                      bool sameRepeats = true,
                                      bool warpgroupInAtom = false);

/// A collective operand's fragment, parsed: per atom element, the lane that
/// holds it (for a warpgroup fragment, the thread of the warpgroup:
/// 32 wid_in_wg + laneid) and its register among the lane's
/// `registersPerLane`.
struct Fragment {
  TileLayout layout;
  SmallVector<int64_t> lane;
  SmallVector<int64_t> registerIndex;
  int64_t registersPerLane = 1;
};
/// Parses (once per notation) a PTX_FRAGMENT layout.
const Fragment &getFragment(StringRef notation);

} // namespace mlir::tirx::tile

#endif // TIRX_DIALECT_TILE_IR_TILEOPERANDS_H
