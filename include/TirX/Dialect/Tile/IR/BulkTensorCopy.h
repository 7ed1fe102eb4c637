//===- BulkTensorCopy.h - TMA copies and their tensor maps ------*- C++ -*-===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//
//
// A `tile.apply` of `cp.async.bulk.tensor` (the tensor memory accelerator,
// TMA) moves one whole box between a kernel's global tensor and shared
// memory. Its global operand is the box itself: a `tirx.region` (or a chain
// of them) of one of the kernel's global tensor parameters, whose shape is
// the box and whose offsets are the box's coordinates. Its shared operand is
// the box's image: dense row-major in box order, optionally with the TMA's
// XOR swizzle. The hardware reads the tensor through a tensor map (a
// 128-byte CUtensorMap): the compiler gives the kernel one hidden
// grid-constant parameter per distinct (tensor parameter, box, swizzle),
// after its own parameters, in first-use order; the launcher encodes each
// from the tensor it is given (docs/hopper.md). `prefetch.tensormap` takes a
// box too, and prefetches the map(s) the copies of that box use.
//
//===----------------------------------------------------------------------===//

#ifndef TIRX_DIALECT_TILE_IR_BULKTENSORCOPY_H
#define TIRX_DIALECT_TILE_IR_BULKTENSORCOPY_H

#include "TirX/Dialect/Tile/IR/TileOperands.h"
#include "TirX/Dialect/Tile/PTX/PTXInstruction.h"

#include "mlir/IR/OpDefinition.h"

#include <string>

namespace mlir::tirx::tile {

/// What one tensor map encodes beyond the tensor the launcher is given.
struct TensorMapKey {
  /// The kernel parameter holding the global tensor.
  unsigned argIndex = 0;
  /// The box, outermost dimension first (the tensor's order).
  SmallVector<int64_t, 5> box;
  /// The shared image's swizzle: 0 (none), 32, 64 or 128 bytes.
  unsigned swizzleBytes = 0;
  /// The element type the map declares: "" for a copy's map (the width is
  /// enough: TMA copies bits), the tensor's type for a reduction's ("f32",
  /// "bf16", "f16", "u32", "s32", "u64", "s64"): the operation's type.
  std::string elementType;

  bool operator==(const TensorMapKey &other) const {
    return argIndex == other.argIndex && box == other.box &&
           swizzleBytes == other.swizzleBytes &&
           elementType == other.elementType;
  }
};

/// The function attribute (an array of {arg, box, swizzle} dictionaries)
/// that lists a kernel's tensor maps, one per hidden parameter at its end.
inline constexpr llvm::StringLiteral kTensorMapsAttrName = "tirx.tensor_maps";
/// A CUtensorMap's size and alignment in bytes (cuda.h).
inline constexpr int64_t kTensorMapBytes = 128;
inline constexpr int64_t kTensorMapAlignment = 64;

ArrayAttr getTensorMapsAttr(MLIRContext *context, ArrayRef<TensorMapKey> keys);
/// The keys of a kTensorMapsAttrName attribute (empty when malformed).
SmallVector<TensorMapKey> parseTensorMapsAttr(Attribute attr);

/// The global operand of a TMA copy, resolved: the kernel parameter and the
/// box's coordinates, outermost first (each a constant or an `index`
/// value: the sum of the offsets of the region chain).
struct TensorMapOperand {
  /// Where the region chain starts: the kernel parameter of a verified copy
  /// (`tensor`), or whatever the verifier refuses.
  Value root;
  BlockArgument tensor;
  SmallVector<SmallVector<Value, 2>, 5> dynamicOffsets;
  SmallVector<int64_t, 5> staticOffsets;
};

/// Whether `instruction` is a TMA copy or a tensor-map prefetch (has a
/// tensor-map operand).
bool isBulkTensorCopy(const ptx::Instruction &instruction);

/// Whether `instruction` is `prefetch.tensormap` (its box has no image).
bool isTensorMapPrefetch(const ptx::Instruction &instruction);

/// Verifies a TMA copy's or prefetch's operands (ApplyOp::verify's part for
/// them).
LogicalResult verifyBulkTensorCopy(Operation *op,
                                   const ptx::Instruction &instruction,
                                   ArrayRef<MixedOperand> operands);

/// The global operand `value` of a verified TMA copy, resolved.
TensorMapOperand resolveTensorMapOperand(Value value);

/// The tensor map a verified TMA copy (`op`, spelled `instruction`) reads;
/// for a prefetch, its box without a swizzle (getPrefetchedTensorMaps finds
/// the maps it reads).
TensorMapKey getTensorMapKey(Operation *op,
                             const ptx::Instruction &instruction);

/// The distinct tensor maps of the TMA copies in `body`, in first-use
/// order, then those of prefetched boxes no copy uses: the kernel's hidden
/// parameters. Needs verified copies.
SmallVector<TensorMapKey> collectTensorMaps(Region &body);

/// The positions in `maps` of the tensor maps a prefetch of `prefetch`'s box
/// reads: every map of the same tensor and box, whatever its swizzle.
SmallVector<unsigned> getPrefetchedTensorMaps(ArrayRef<TensorMapKey> maps,
                                              const TensorMapKey &prefetch);

} // namespace mlir::tirx::tile

#endif // TIRX_DIALECT_TILE_IR_BULKTENSORCOPY_H
