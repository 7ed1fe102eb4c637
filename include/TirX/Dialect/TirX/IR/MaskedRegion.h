//===- MaskedRegion.h - Accesses through masked tirx.regions ----*- C++ -*-===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//
//
// A `tirx.region ... masked` may overhang its tensor's end; each access
// through it happens only where all its elements are inside the tensor
// (docs/sizes.md, "Masked regions"). Its uses reach a tile op's memory
// operand directly or through `tirx.view`s, which keep the elements'
// row-major order: element f of a reshape is element f of its source, and
// a view to a k times wider element packs elements [k f, k f + k) (a
// narrower one splits them).
//
//===----------------------------------------------------------------------===//

#ifndef TIRX_DIALECT_TIRX_IR_MASKEDREGION_H
#define TIRX_DIALECT_TIRX_IR_MASKEDREGION_H

#include "TirX/Dialect/TirX/IR/TirXOps.h"

namespace mlir::tirx {

/// The masked region `tile` is, directly or through views; null when it is
/// none.
RegionOp getMaskedRegion(Value tile);

/// The region elements `count` contiguous elements of `tile` (a masked
/// region, or a view of one) cover, at most: `count` through reshapes, k
/// times it through a view packing k elements into one.
int64_t getMaskedAtomElements(Value tile, int64_t count);

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

#endif // TIRX_DIALECT_TIRX_IR_MASKEDREGION_H
