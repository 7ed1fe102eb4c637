//===- LayoutGrouping.h - Shard iters grouped by a logical shape -*- C++
//-*-===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//
//
// A layout is rank-agnostic: `apply` flattens a coordinate row-major and
// splits the flat index across the shard iters. When a logical shape aligns
// with the iters, each dimension owns a contiguous run of them and its
// coordinate can be split within its own run (spec §1.4 "grouping"): the
// same numbers, but expressions without a global flatten. Walking dimensions
// and iters innermost first, each dimension takes the iters whose extents
// multiply to its extent, splitting an iter (e, s) into (e/k, s·k), (k, s)
// where a dimension boundary falls inside it. Unit iters are dropped.
//
//   S[(2, 32, 4) : (128, 4, 1)] over (2, 32, 4) → [(2,128)], [(32,4)], [(4,1)]
//   S[8 : 1] over (2, 4)                          → [(2,4)], [(4,1)]
//
// Within a group (outer to inner, P_j = product of inner extents), the digit
// of coordinate x for iter j is (x / P_j) mod e_j (no modulo for j = 0).
//
//===----------------------------------------------------------------------===//

#ifndef TIRX_LAYOUT_LAYOUTGROUPING_H
#define TIRX_LAYOUT_LAYOUTGROUPING_H

#include "TirX/Layout/TileLayout.h"

namespace mlir::tirx {

/// The shard iters of each dimension of `shape`, outer to inner, or an error
/// naming the dimension that does not align with the layout's iters.
llvm::Expected<llvm::SmallVector<llvm::SmallVector<Iter>>>
groupByShape(const TileLayout &layout, llvm::ArrayRef<int64_t> shape);

/// Address classes of the repeats of a tensor of `numElements` elements
/// split row-major into groups of `perGroup` (one per executing thread) and
/// those into repeats of `perRepeat`: repeat r joins the class of an earlier
/// repeat c when, in every group and at every position of the repeat, its
/// memory offset is c's plus one constant distance (not negative), so one
/// address per class and group plus constant immediates reach every
/// element. Entry r is r's class (its first repeat). Affine layouts that
/// group by the shape give one class; a swizzled one whose XOR pattern
/// differs between groups (rows of different threads) one class per
/// pattern, e.g. per 16-byte chunk column of a 128-byte swizzle.
llvm::SmallVector<int64_t> getRepeatAddressClasses(const TileLayout &layout,
                                                   int64_t numElements,
                                                   int64_t perGroup,
                                                   int64_t perRepeat);

} // namespace mlir::tirx

#endif // TIRX_LAYOUT_LAYOUTGROUPING_H
