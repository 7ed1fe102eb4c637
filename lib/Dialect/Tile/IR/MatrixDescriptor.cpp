//===- MatrixDescriptor.cpp - wgmma shared-memory matrix descriptors ------===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//
//
// The canonical no-swizzle layouts, in bytes, with T = 16 / elementBytes
// elements per 16-byte core-matrix row (CUTLASS writes them in 16-byte units
// as ((8,n),2):((1,SBO),LBO) and ((1,n),(8,k)):((X,SBO),(1,LBO))):
//
//   K-major  (r, k): (r % 8) 16 + (k % T) e + (k / T) LBO + (r / 8) SBO
//   MN-major (r, k): (r % T) e + (k % 8) 16 + (r / T) SBO + (k / 8) LBO
//
// so LBO always steps along K and SBO along M/N. The strides are read off the
// layout at the first core matrix of each direction, then every element is
// checked against the formula.
//
//===----------------------------------------------------------------------===//

#include "TirX/Dialect/Tile/IR/MatrixDescriptor.h"

#include "llvm/ADT/Twine.h"

#include <tuple>

using namespace mlir;
using namespace mlir::tirx;
using namespace mlir::tirx::tile;

uint64_t MatrixDescriptor::getConstantBits() const {
  return (static_cast<uint64_t>(leadingBytes >> 4) & 0x3FFF) << 16 |
         (static_cast<uint64_t>(strideBytes >> 4) & 0x3FFF) << 32 |
         static_cast<uint64_t>(layoutType & 3) << 62;
}

/// A descriptor stride is 14 bits of 16-byte units.
static constexpr int64_t kMaxStrideBytes = int64_t(1) << 18;

/// Why a tile is no canonical wgmma matrix.
static llvm::Error fail(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

/// "(row, col)", how a message names an element of the matrix.
static std::string element(int64_t row, int64_t col) {
  return "(" + std::to_string(row) + ", " + std::to_string(col) + ")";
}

static llvm::Expected<MatrixDescriptor>
matchSwizzled(const TileLayout &layout, int64_t modeBytes, int64_t start,
              int64_t rows, int64_t cols, int64_t elementBytes, bool mnMajor);

llvm::Expected<MatrixDescriptor>
mlir::tirx::tile::matchMatrixDescriptor(const TileLayout &layout, int64_t start,
                                        int64_t rows, int64_t cols,
                                        int64_t elementBytes, bool mnMajor) {
  std::optional<int64_t> mode = layout.getSwizzleModeBytes(elementBytes);
  if (!mode) {
    std::string text;
    llvm::raw_string_ostream os(text);
    os << *layout.getSwizzle();
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "its swizzle " + text +
            " is no wgmma mode (the 32, 64 or 128-byte "
            "swizzle of " +
            std::to_string(elementBytes) + "-byte elements)");
  }
  if (*mode)
    return matchSwizzled(layout, *mode, start, rows, cols, elementBytes,
                         mnMajor);
  auto byteAt = [&](int64_t row, int64_t col) {
    return at(layout.apply(start + row * cols + col), Axis::m) * elementBytes;
  };
  int64_t base = byteAt(0, 0);
  auto offset = [&](int64_t row, int64_t col) {
    return byteAt(row, col) - base;
  };
  const char *major = mnMajor ? "MN-major" : "K-major";
  if (base % 16 != 0)
    return fail("the matrix starts at byte " + llvm::Twine(base) +
                " of the tensor, which is not 16-byte aligned (a descriptor "
                "holds the address in 16-byte units)");
  int64_t perRow = 16 / elementBytes; // T: elements per 16-byte row
  // Core matrix: 8 rows of 16 contiguous bytes, 16 bytes apart. K-major
  // rows run along K; MN-major rows run along M/N (one row per k).
  for (int64_t i = 0; i < perRow; ++i) {
    int64_t row = mnMajor ? i : 0, col = mnMajor ? 0 : i;
    if (offset(row, col) != i * elementBytes)
      return fail(llvm::Twine("a ") + major +
                  " core matrix row is 16 contiguous bytes along " +
                  (mnMajor ? "M/N" : "K") + ", but element " +
                  element(row, col) + " is at byte " +
                  llvm::Twine(offset(row, col)) +
                  " from element (0, 0), "
                  "expected " +
                  llvm::Twine(i * elementBytes));
  }
  for (int64_t i = 1; i < 8; ++i) {
    int64_t row = mnMajor ? 0 : i, col = mnMajor ? i : 0;
    if (offset(row, col) != 16 * i)
      return fail(llvm::Twine("the 8 rows of a ") + major +
                  " core matrix are 16 bytes apart, but element " +
                  element(row, col) + " is at byte " +
                  llvm::Twine(offset(row, col)) +
                  " from element (0, 0), "
                  "expected " +
                  llvm::Twine(16 * i));
  }
  // The first core matrix along K and along M/N give LBO and SBO.
  int64_t kStep = mnMajor ? 8 : perRow;
  int64_t mnStep = mnMajor ? perRow : 8;
  MatrixDescriptor descriptor;
  descriptor.leadingBytes = cols > kStep ? offset(0, kStep) : 0;
  descriptor.strideBytes = rows > mnStep ? offset(mnStep, 0) : 0;
  auto checkStride = [&](int64_t bytes, const char *name, const char *along,
                         int64_t row, int64_t col) -> llvm::Error {
    if (bytes >= 0 && bytes % 16 == 0 && bytes < kMaxStrideBytes)
      return llvm::Error::success();
    return fail(llvm::Twine("the ") + name + " (between core matrices along " +
                along + ": element " + element(row, col) + " is at byte " +
                llvm::Twine(bytes) +
                " from element (0, 0)) must be a "
                "non-negative multiple of 16 below 2^18");
  };
  if (llvm::Error error = checkStride(
          descriptor.leadingBytes, "leading byte offset (LBO)", "K", 0, kStep))
    return std::move(error);
  if (llvm::Error error = checkStride(
          descriptor.strideBytes, "stride byte offset (SBO)", "M/N", mnStep, 0))
    return std::move(error);
  for (int64_t row = 0; row < rows; ++row) {
    for (int64_t col = 0; col < cols; ++col) {
      int64_t expected = mnMajor
                             ? (row % perRow) * elementBytes + (col % 8) * 16 +
                                   (row / perRow) * descriptor.strideBytes +
                                   (col / 8) * descriptor.leadingBytes
                             : (row % 8) * 16 + (col % perRow) * elementBytes +
                                   (col / perRow) * descriptor.leadingBytes +
                                   (row / 8) * descriptor.strideBytes;
      if (offset(row, col) != expected)
        return fail("element " + element(row, col) + " is at byte " +
                    llvm::Twine(offset(row, col)) +
                    " from element (0, 0), but the canonical " + major +
                    " layout without swizzle (LBO " +
                    llvm::Twine(descriptor.leadingBytes) + ", SBO " +
                    llvm::Twine(descriptor.strideBytes) + ") puts it at byte " +
                    llvm::Twine(expected));
    }
  }
  return descriptor;
}

/// The swizzled modes. Before the swizzle, with W = mode / 16 chunks of 16
/// bytes a swizzle row (CUTLASS: ((8,n),2):((W,SBO),1) and
/// ((W,n),(8,k)):((1,LBO),(W,SBO)) in 16-byte units):
///
///   K-major  (r, k): (r % 8) mode + (r / 8) SBO + k e
///   MN-major (r, k): r e (within a swizzle row of mode bytes along M/N)
///                    + (r / (T W)) LBO + (k % 8) mode + (k / 8) SBO
///
/// and the hardware XORs the address (bits [4, 4 + log2 W) ^= bits [7, ...)).
/// The tile's layout must put every element where that swizzle of the
/// canonical address puts it. The layout's offsets are relative to the
/// tensor, the hardware's absolute: the verifier requires the tensor aligned
/// to the swizzle period, and the matrix to start where the swizzle changes
/// nothing (its first row a multiple of 8 in the pattern), so that the
/// descriptor's start address is the element's address and its base offset 0.
static llvm::Expected<MatrixDescriptor>
matchSwizzled(const TileLayout &layout, int64_t modeBytes, int64_t start,
              int64_t rows, int64_t cols, int64_t elementBytes, bool mnMajor) {
  const Swizzle &swizzle = *layout.getSwizzle();
  TileLayout affine = layout.getAffinePart();
  auto affineAt = [&](int64_t row, int64_t col) {
    return at(affine.apply(start + row * cols + col), Axis::m) * elementBytes;
  };
  int64_t base = affineAt(0, 0);
  auto offset = [&](int64_t row, int64_t col) {
    return affineAt(row, col) - base;
  };
  std::string mode = std::to_string(modeBytes) + "-byte swizzle";
  const char *major = mnMajor ? "MN-major" : "K-major";
  if (base % 16 != 0 ||
      swizzle.apply(base / elementBytes) * elementBytes != base)
    return fail("the matrix starts at byte " + llvm::Twine(base) +
                " before the " + mode +
                ", which is not the start of a "
                "swizzle row of the pattern (a descriptor's base offset would "
                "not be 0)");
  int64_t perChunk = 16 / elementBytes;           // T
  int64_t rowElements = modeBytes / elementBytes; // T W
  // One swizzle row: contiguous along K (K-major) or M/N (MN-major).
  int64_t runLength = std::min(mnMajor ? rows : cols, rowElements);
  for (int64_t i = 0; i < runLength; ++i) {
    int64_t row = mnMajor ? i : 0, col = mnMajor ? 0 : i;
    if (offset(row, col) != i * elementBytes)
      return fail(
          llvm::Twine("a ") + major + " " + mode + " row is contiguous along " +
          (mnMajor ? "M/N" : "K") + " before the swizzle, but element " +
          element(row, col) + " is at byte " + llvm::Twine(offset(row, col)) +
          " from element (0, 0), expected " + llvm::Twine(i * elementBytes));
  }
  for (int64_t i = 1; i < 8 && i < (mnMajor ? cols : rows); ++i) {
    int64_t row = mnMajor ? 0 : i, col = mnMajor ? i : 0;
    if (offset(row, col) != modeBytes * i)
      return fail(llvm::Twine("the 8 rows of a ") + major + " " + mode +
                  " pattern are " + llvm::Twine(modeBytes) +
                  " bytes apart, but element " + element(row, col) +
                  " is at byte " + llvm::Twine(offset(row, col)) +
                  " from element (0, 0) before the swizzle, expected " +
                  llvm::Twine(modeBytes * i));
  }
  MatrixDescriptor descriptor;
  descriptor.layoutType = modeBytes == 128 ? 1 : modeBytes == 64 ? 2 : 3;
  if (mnMajor) {
    descriptor.leadingBytes = rows > rowElements ? offset(rowElements, 0) : 0;
    descriptor.strideBytes = cols > 8 ? offset(0, 8) : 0;
  } else {
    // K-major swizzled descriptors do not use LBO; CUTLASS writes 1.
    descriptor.leadingBytes = 16;
    descriptor.strideBytes = rows > 8 ? offset(8, 0) : 0;
  }
  for (auto [bytes, name, along] :
       {std::make_tuple(descriptor.leadingBytes, "leading byte offset (LBO)",
                        "M/N, between swizzle rows"),
        std::make_tuple(descriptor.strideBytes, "stride byte offset (SBO)",
                        mnMajor ? "K" : "M/N")})
    if (bytes < 0 || bytes % 16 != 0 || bytes >= kMaxStrideBytes)
      return fail(llvm::Twine("the ") + name + " (between 8-row groups along " +
                  along + ": " + llvm::Twine(bytes) +
                  " bytes) must be a non-negative multiple of 16 below 2^18");
  for (int64_t row = 0; row < rows; ++row) {
    for (int64_t col = 0; col < cols; ++col) {
      int64_t canonical =
          mnMajor
              ? (row % rowElements) * elementBytes +
                    (row / rowElements) * descriptor.leadingBytes +
                    (col % 8) * modeBytes + (col / 8) * descriptor.strideBytes
              : (row % 8) * modeBytes + (row / 8) * descriptor.strideBytes +
                    (col / perChunk) * 16 + (col % perChunk) * elementBytes;
      int64_t expected =
          swizzle.apply((base + canonical) / elementBytes) * elementBytes;
      int64_t actual =
          at(layout.apply(start + row * cols + col), Axis::m) * elementBytes;
      if (actual != expected)
        return fail("element " + element(row, col) + " is at byte " +
                    llvm::Twine(actual) + " of the tensor, but the canonical " +
                    major + " layout with the " + mode + " (LBO " +
                    llvm::Twine(descriptor.leadingBytes) + ", SBO " +
                    llvm::Twine(descriptor.strideBytes) + ") puts it at byte " +
                    llvm::Twine(expected));
    }
  }
  return descriptor;
}
