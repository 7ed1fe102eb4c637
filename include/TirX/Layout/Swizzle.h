//===- Swizzle.h - XOR swizzle of a layout's memory axis --------*- C++ -*-===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//
//
// THE SWIZZLE MATH
// ================
//
// Shared memory has 32 banks of 4 bytes. A tile stored row-major with rows of
// 128 bytes puts a column of it in one bank, so a warp reading a column
// conflicts 8 ways. The TMA unit and wgmma avoid that by storing tiles
// *swizzled*: inside each 16-byte chunk nothing moves, but the chunk index is
// XORed with the low bits of the row index. A `Swizzle` is that map on the
// element offsets of the memory axis `m` (TIRx's SwizzleLayout, and CuTe's
// Swizzle<swizzle_len, per_element, atom_len>):
//
//   per_element  p — low offset bits left unchanged (2^p elements = a chunk)
//   swizzle_len  s — bits in each XOR group (0 disables the swizzle)
//   atom_len     a — distance between the two groups, a >= s so that they
//                    do not overlap
//   swizzle_inner  — true: the higher group is XORed into the lower one,
//                    bits [p, p+s) ^= bits [p+a, p+a+s);
//                    false: the lower into the higher,
//                    bits [p+a, p+a+s) ^= bits [p, p+s).
//
//   inner:  y = x ^ ((x >> a) & innerMask)      innerMask = (2^s − 1) << p
//   outer:  y = x ^ ((x & innerMask) << a)      outerMask = innerMask << a
//
// Either map is its own inverse (the group it reads is not the one it
// writes), hence a permutation of the offsets. Bits at and above p + a + s
// never take part, so the pattern repeats every `period` = 2^(p+a+s)
// elements: swizzle(x + k·period) = swizzle(x) + k·period.
//
// Worked example (TIRx): Swizzle[0, 2, 3] over S[8, 8]; element (1, 2) is
// at affine offset 10 = 0b001'010, and 10 ^ ((10 >> 3) & 3) = 11.
//
// Hardware modes. On byte addresses the TMA / wgmma swizzles are
//   128B: bits [4, 7) ^= bits [7, 10)   (CUTLASS Swizzle<3, 4, 3>)
//    64B: bits [4, 6) ^= bits [7, 9)    (Swizzle<2, 4, 3>)
//    32B: bit 4       ^= bit 7          (Swizzle<1, 4, 3>)
// so for elements of b bytes (b = 1, 2, 4, 8, 16) they are the swizzles with
// per_element = log2(16 / b), swizzle_len = 3, 2, 1, atom_len = 3, inner;
// the period is 1024, 512, 256 bytes, and TMA and wgmma need the tile's
// shared base aligned to it.
//
// In a TileLayout the swizzle is applied to the memory coordinate last,
// after the shard, replica and offset terms (TIRx's ComposeLayout):
//   apply(x)[m] = swizzle(affine(x)[m]),
// and it is written as one more term: `S[...] + Swizzle[p, s, a]`, with
// `, outer` for swizzle_inner = false (see LayoutNotation.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef TIRX_LAYOUT_SWIZZLE_H
#define TIRX_LAYOUT_SWIZZLE_H

#include "llvm/ADT/Hashing.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <optional>

namespace mlir::tirx {

class Swizzle {
public:
  /// p + a + s may be at most this, so that the period fits in int64.
  static constexpr int64_t kMaxBits = 62;

  /// Builds and checks a swizzle: every count non-negative, atom_len >=
  /// swizzle_len, per_element + atom_len + swizzle_len <= kMaxBits.
  static llvm::Expected<Swizzle> get(int64_t perElement, int64_t swizzleLen,
                                     int64_t atomLen, bool swizzleInner = true);
  /// The TMA / wgmma swizzle of `modeBytes` (32, 64 or 128) for elements of
  /// `elementBytes` (1, 2, 4, 8 or 16) bytes; mode 0 is the identity.
  static llvm::Expected<Swizzle> getHardware(int64_t modeBytes,
                                             int64_t elementBytes);

  int64_t getPerElement() const { return perElement; }
  int64_t getSwizzleLen() const { return swizzleLen; }
  int64_t getAtomLen() const { return atomLen; }
  bool isSwizzleInner() const { return swizzleInner; }
  /// The bits XORed into (inner) or read from (outer): (2^s − 1) << p.
  int64_t getInnerMask() const;
  /// The other group: innerMask << a.
  int64_t getOuterMask() const;

  /// swizzle_len == 0: every offset maps to itself.
  bool isIdentity() const { return swizzleLen == 0; }
  /// Elements after which the pattern repeats: 2^(p+a+s).
  int64_t getPeriod() const {
    return int64_t(1) << (perElement + atomLen + swizzleLen);
  }

  /// The swizzled offset of `offset` (>= 0).
  int64_t apply(int64_t offset) const;

  /// 32, 64 or 128 when this is that TMA / wgmma mode for elements of
  /// `elementBytes` bytes, 0 for the identity, std::nullopt otherwise.
  std::optional<int64_t> getHardwareModeBytes(int64_t elementBytes) const;

  /// Whether every run of `count` consecutive offsets that starts at a
  /// multiple of `startMultiple` maps to `count` consecutive offsets, because
  /// it lies in one block of 2^per_element elements, which the swizzle moves
  /// as a whole: count <= gcd(startMultiple, 2^p). Conservative: a run that
  /// crosses blocks is contiguous only for some XOR values, so it says no.
  /// Both arguments must be positive.
  bool keepsRunContiguous(int64_t count, int64_t startMultiple) const;

  /// An upper bound of 1 + max swizzle(x) over x < `affineSpan`: the span
  /// itself when no such x has a bit in the group the swizzle reads,
  /// otherwise the span rounded up to a multiple of the lowest 2^k above
  /// every written bit. Exact for whole periods. nullopt on int64 overflow.
  std::optional<int64_t> getSpanBound(int64_t affineSpan) const;

  /// The swizzle of elements `factor` times narrower (unpack) or wider
  /// (pack): per_element grows or shrinks by log2(factor), which must be a
  /// power of two (and, for pack, at most 2^p).
  llvm::Expected<Swizzle> scaleElements(int64_t factor, bool narrower) const;

  /// `Swizzle[p, s, a]`, or `Swizzle[p, s, a, outer]`.
  void print(llvm::raw_ostream &os) const;

  bool operator==(const Swizzle &other) const {
    return perElement == other.perElement && swizzleLen == other.swizzleLen &&
           atomLen == other.atomLen && swizzleInner == other.swizzleInner;
  }
  bool operator!=(const Swizzle &other) const { return !(*this == other); }

private:
  Swizzle(int64_t perElement, int64_t swizzleLen, int64_t atomLen,
          bool swizzleInner)
      : perElement(perElement), swizzleLen(swizzleLen), atomLen(atomLen),
        swizzleInner(swizzleInner) {}

  int64_t perElement;
  int64_t swizzleLen;
  int64_t atomLen;
  bool swizzleInner;
};

llvm::hash_code hash_value(const Swizzle &swizzle);
inline llvm::raw_ostream &operator<<(llvm::raw_ostream &os,
                                     const Swizzle &swizzle) {
  swizzle.print(os);
  return os;
}

} // namespace mlir::tirx

#endif // TIRX_LAYOUT_SWIZZLE_H
