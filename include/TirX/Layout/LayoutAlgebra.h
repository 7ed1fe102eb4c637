//===- LayoutAlgebra.h - Composition, complement, products, divides -*- C++
//-*-===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//
//
// CuTe's layout algebra on TileLayouts, so that a tiling above one atom is
// computed instead of written as strides by hand.
//
// A TileLayout L is a function of the flat index i in [0, size(L)) (row-major,
// the last shard iter fastest) to a physical coordinate with one value per
// axis (TileLayout.h). An *index layout* is one whose image is itself an index:
// every shard iter on `m`, no replica, offset or swizzle. The operations, with
// `A` any layout unless said otherwise:
//
//   compose(A, B)        C(i) = A(B(i)) for B an index layout whose every
//                        value is < size(A). C keeps A's replicas, offset and
//                        swizzle, and lists, for each iter of B in order, the
//                        iters of A it covers.
//   complement(A, M)     for A on one axis, no replica/offset/swizzle, its
//                        iters (by stride) not overlapping: the layout R on
//                        that axis such that [R, A] (R's iters slower than
//                        A's) maps [0, size(R) * size(A)) one-to-one onto an
//                        interval that covers [0, M): R fills A's holes
//                        first, then repeats A's whole footprint c,
//                        ceil(M / c) times (CuTe's rule).
//   coalesce(A)          the same function with the fewest shard iters
//                        (TileLayout::canonicalize).
//   rightInverse(A)      for A on one axis: the index layout R with
//                        A(R(j)) = j for every j < size(R), size(R) being the
//                        largest k such that A's values include [0, k) through
//                        A's contiguous iters.
//   logicalProduct(A, B) [B', A]: A repeated at every value of B, B's values
//                        counted in copies of A: on each axis, B's iters are
//                        composed with the complement of A's iters (shard and
//                        replica) on that axis, so no copy overlaps A or
//                        another copy. Flat index = i_B * size(A) + i_A: this
//                        is CuTe's zipped product (shape (shape_B...,
//                        shape_A...)).
//   logicalDivide(A, T)  A composed with [complement(T, size(A)), T]: for an
//                        index layout T (the tiler), flat index
//                        = tile_number * size(T) + position in the tile.
//
// By-mode forms, for a layout over a logical shape (one value per mode, the
// rank of both shapes equal):
//   blockedProduct(A, shapeA, B, shapeB)  shape (shapeB_d * shapeA_d): in mode
//       d, coordinate ib * shapeA_d + ia (each copy of A a block);
//   rakedProduct(A, shapeA, B, shapeB)    coordinate ia * shapeB_d + ib (copies
//       interleaved element by element);
//   zippedDivide(A, shape, tile)          shape (shape_0 / tile_0, ...,
//       tile_0, ...): the tile number's modes, then the position in the tile;
//       in a flat layout the zipped and tiled forms are the same function.
//
// Every operation returns the reason when its divisibility conditions fail
// (CuTe's static asserts), e.g. "compose: stride 3 of the inner layout neither
// divides nor is a multiple of extent 2 of the outer layout".
//
//===----------------------------------------------------------------------===//

#ifndef TIRX_LAYOUT_LAYOUTALGEBRA_H
#define TIRX_LAYOUT_LAYOUTALGEBRA_H

#include "TirX/Layout/TileLayout.h"

namespace mlir::tirx {

/// A layout with the logical shape its by-mode operations produced.
struct ShapedLayout {
  TileLayout layout;
  llvm::SmallVector<int64_t, 4> shape;
};

/// C(i) = outer(inner(i)); `inner` must be an index layout into `outer`.
llvm::Expected<TileLayout> compose(const TileLayout &outer,
                                   const TileLayout &inner);

/// The complement of a one-axis layout with respect to `cosizeTarget` (>= 1).
llvm::Expected<TileLayout> complement(const TileLayout &layout,
                                      int64_t cosizeTarget);

/// The same function with the fewest shard iters.
TileLayout coalesce(const TileLayout &layout);

/// The right inverse of a one-axis layout (an index layout).
llvm::Expected<TileLayout> rightInverse(const TileLayout &layout);

/// [B', A]: `a` repeated at every value of `b` (see the header comment).
llvm::Expected<TileLayout> logicalProduct(const TileLayout &a,
                                          const TileLayout &b);

/// `a` composed with [complement(tiler, size(a)), tiler].
llvm::Expected<TileLayout> logicalDivide(const TileLayout &a,
                                         const TileLayout &tiler);

/// Copies of `a` (over `shapeA`) as blocks, arranged by `b` (over `shapeB`).
llvm::Expected<ShapedLayout> blockedProduct(const TileLayout &a,
                                            llvm::ArrayRef<int64_t> shapeA,
                                            const TileLayout &b,
                                            llvm::ArrayRef<int64_t> shapeB);

/// Copies of `a` interleaved element by element, arranged by `b`.
llvm::Expected<ShapedLayout> rakedProduct(const TileLayout &a,
                                          llvm::ArrayRef<int64_t> shapeA,
                                          const TileLayout &b,
                                          llvm::ArrayRef<int64_t> shapeB);

/// `a` over `shape` cut into tiles of `tile`: shape (shape / tile..., tile...).
llvm::Expected<ShapedLayout> zippedDivide(const TileLayout &a,
                                          llvm::ArrayRef<int64_t> shape,
                                          llvm::ArrayRef<int64_t> tile);

} // namespace mlir::tirx

#endif // TIRX_LAYOUT_LAYOUTALGEBRA_H
