//===- DispatchUtils.h - Shared helpers of tile-dispatch --------*- C++ -*-===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//

#ifndef TIRX_LIB_CONVERSION_TILEDISPATCH_DISPATCHUTILS_H
#define TIRX_LIB_CONVERSION_TILEDISPATCH_DISPATCHUTILS_H

#include "TirX/Dialect/Tile/IR/TileOperands.h"

#include "mlir/IR/Builders.h"

namespace mlir::tirx::tile {

/// The executing thread's group coordinate (index values) for `domain`:
/// (), (lane), (warp in group, lane) or (warp, lane).
SmallVector<Value> buildGroupCoordinates(OpBuilder &builder, Location loc,
                                         Operation *op,
                                         const ExecutionDomain &domain);

/// The register slots the executing thread uses for the elements of one
/// group coordinate of a local tile, in row-major (repeat, atom) order.
/// Fails with a diagnostic on `op` when the slot would depend on the thread
/// (registers cannot be indexed at run time).
FailureOr<SmallVector<int64_t>> getThreadSlots(Operation *op, unsigned position,
                                               tirx::TensorType type,
                                               const ExecutionDomain &domain);

/// Row-major coordinate of `flat` in `shape`.
SmallVector<int64_t> delinearizeIndex(int64_t flat, ArrayRef<int64_t> shape);

} // namespace mlir::tirx::tile

#endif // TIRX_LIB_CONVERSION_TILEDISPATCH_DISPATCHUTILS_H
