//===- MatrixDescriptor.h - wgmma matrix descriptors ------------*- C++ -*-===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//
//
// wgmma reads its shared A and B through 64-bit matrix descriptors (PTX ISA
// 9.7.15.5.1): a start address and two byte strides between 8 x 16-byte
// "core matrices", over one of the canonical layouts. TirX never lets a
// program write a descriptor: it proves that a shared tile's layout is a
// canonical one and derives the strides from it (docs/wgmma.md). Pure layout
// math, shared by the verifier and the lowering.
//
//===----------------------------------------------------------------------===//

#ifndef TIRX_DIALECT_TILE_IR_MATRIXDESCRIPTOR_H
#define TIRX_DIALECT_TILE_IR_MATRIXDESCRIPTOR_H

#include "TirX/Layout/TileLayout.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>

namespace mlir::tirx::tile {

/// The fields of a descriptor that do not depend on where the matrix is.
struct MatrixDescriptor {
  /// Leading dimension byte offset: between core matrices along K.
  int64_t leadingBytes = 0;
  /// Stride dimension byte offset: between core matrices along M or N.
  int64_t strideBytes = 0;
  /// Bits 62-63: 0 no swizzle ("interleave"), 1 128B, 2 64B, 3 32B.
  unsigned layoutType = 0;

  /// LBO >> 4 in bits 16-29, SBO >> 4 in bits 32-45, base offset 0, the
  /// layout type in bits 62-63: everything but the start address.
  uint64_t getConstantBits() const;
  bool operator==(const MatrixDescriptor &other) const {
    return leadingBytes == other.leadingBytes &&
           strideBytes == other.strideBytes && layoutType == other.layoutType;
  }
};

/// Proves that the matrix whose element (row, k) is the tile's row-major
/// element `start + row * cols + k` (rows = M or N, cols = K) is in a
/// canonical no-swizzle layout, K-major (`mnMajor` false: 16 bytes of K
/// contiguous per row) or MN-major (16 bytes of M/N contiguous per k), and
/// derives its strides. The error names the first element or stride that does
/// not fit, and why.
llvm::Expected<MatrixDescriptor>
matchMatrixDescriptor(const TileLayout &layout, int64_t start, int64_t rows,
                      int64_t cols, int64_t elementBytes, bool mnMajor);

} // namespace mlir::tirx::tile

#endif // TIRX_DIALECT_TILE_IR_MATRIXDESCRIPTOR_H
