//===- RegionAccess.h - Tile accesses through tirx.regions ------*- C++ -*-===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//
//
// Two kinds of region are reached by tile ops element by element rather
// than through their type's layout:
// - a region of a runtime-sized tensor that spans several indices of a
//   dimension whose stride is a runtime product (a 32x32 tile of an (M, N)
//   tensor): its type's layout is the tile's own row-major order, and each
//   element's address is its coordinates times the tensor's runtime
//   strides (docs/sizes.md, "Tiles of runtime-sized tensors");
// - a `tirx.region ... masked`, which may overhang its tensor's end; each
//   access
// through it happens only where all its elements are inside the tensor
// (docs/sizes.md, "Masked regions"). Its uses reach a tile op's memory
// operand directly or through `tirx.view`s, which keep the elements'
// row-major order: element f of a reshape is element f of its source, and
// a view to a k times wider element packs elements [k f, k f + k) (a
// narrower one splits them).
//
//===----------------------------------------------------------------------===//

#ifndef TIRX_DIALECT_TIRX_IR_REGIONACCESS_H
#define TIRX_DIALECT_TIRX_IR_REGIONACCESS_H

#include "TirX/Dialect/TirX/IR/TirXOps.h"

namespace mlir::tirx {

/// The masked region `tile` is, directly or through views; null when it is
/// none.
RegionOp getMaskedRegion(Value tile);

/// The first dimension in which a region of `sizes` of the runtime-sized
/// `source` spans several indices although its stride is a runtime product
/// (it lies outside the innermost runtime extent), or -1.
int64_t getRuntimeStridedDim(TensorType source, ArrayRef<int64_t> sizes);

/// The region `tile` is, directly or through views, when it spans several
/// indices of a runtime-strided dimension (getRuntimeStridedDim); null
/// otherwise.
RegionOp getRuntimeStridedRegion(Value tile);

/// The row-major position in `region` of element `flat` (row-major) of
/// `tile`, a view of it: unchanged through reshapes, k times it through a
/// view packing k elements into one (its first element). Null when a view
/// on the way splits elements (no region element starts there).
Value buildRegionPosition(OpBuilder &builder, Location loc, Value tile,
                          Value flat);

/// Per dimension of `region`, the coordinate of the region element at
/// row-major position `flat`.
SmallVector<Value> buildRegionCoordinates(OpBuilder &builder, Location loc,
                                          RegionOp region, Value flat);

/// The region elements `count` contiguous elements of `tile` (a region, or
/// a view of one) cover, at most: `count` through reshapes, k
/// times it through a view packing k elements into one.
int64_t getRegionElementCount(Value tile, int64_t count);

/// Whether dimension `dim` of `region` may overhang its source: its offset
/// is dynamic or the source's extent is a runtime size (a static offset into
/// a static extent was checked by the region's type).
bool mayOverhang(RegionOp region, unsigned dim);

/// The i1 value that is true where the `count` elements of `tile` (a masked
/// region, or a reshape of one) starting at `indices` are all inside the
/// region's source. The elements are contiguous on `tile`'s innermost
/// dimension and, as the verifier ensures, on the region's innermost one.
/// Emitted at the builder's insertion point, inside the function that
/// declares the source's size variables.
Value buildMaskCondition(OpBuilder &builder, Location loc, Value tile,
                         RegionOp region, ArrayRef<Value> indices,
                         int64_t count);

} // namespace mlir::tirx

#endif // TIRX_DIALECT_TIRX_IR_REGIONACCESS_H
