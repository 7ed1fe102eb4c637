//===- LayoutRegion.h - Restricting a layout to a sub-tile ------*- C++ -*-===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//
//
// A region keeps the rank of its tensor and selects, per dimension d,
// `sizes[d]` elements starting at `offsets[d]`. Its layout is the source
// layout restricted to those elements, with the physical coordinates of every
// element unchanged:
//
//   1. Group the shard iters by the logical shape: walking dimensions and
//      iters innermost first, each dimension takes the run of iters whose
//      extents multiply to its extent, splitting an iter (e, s) into
//      (e/k, s·k), (k, s) where a dimension boundary falls inside it.
//   2. In each dimension, the selected range [o, o+n) must be one sub-range
//      of one iter level j of its group: n = a·P_j with P_j the product of
//      the inner extents, o a multiple of P_j, and the range not wrapping
//      level j. The group becomes (a, s_j) followed by the inner iters, and
//      the digits of o times their strides move into the layout's offset.
//   3. A dynamic offset (an SSA value) needs its dimension to be a single
//      iter (e, s, axis): the group becomes (n, s, axis) and the offset adds
//      `value · s` on `axis` at run time (reported in `dynamicIters`).
//
// Example: row-major S[(1024, 2, 32, 4) : (256, 128, 4, 1)] restricted to
// [%bx, 0, 0, 0] [1, 2, 32, 4] gives S[(1, 2, 32, 4) : (256, 128, 4, 1)] and
// one dynamic iter (1024, 256, m): element offset += %bx · 256.
//
//===----------------------------------------------------------------------===//

#ifndef TIRX_LAYOUT_LAYOUTREGION_H
#define TIRX_LAYOUT_LAYOUTREGION_H

#include "TirX/Layout/TileLayout.h"

namespace mlir::tirx {

struct LayoutRegion {
  /// The restricted layout, static offsets folded into its offset.
  TileLayout layout;
  /// Per dynamic offset, in dimension order: the iter it indexes.
  llvm::SmallVector<Iter> dynamicIters;
};

/// Restricts `layout`, viewed over `shape`, to the region with the given
/// offsets (std::nullopt = dynamic) and sizes. Errors name the dimension.
llvm::Expected<LayoutRegion>
restrictLayout(const TileLayout &layout, llvm::ArrayRef<int64_t> shape,
               llvm::ArrayRef<std::optional<int64_t>> offsets,
               llvm::ArrayRef<int64_t> sizes);

} // namespace mlir::tirx

#endif // TIRX_LAYOUT_LAYOUTREGION_H
