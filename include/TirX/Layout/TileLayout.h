//===- TileLayout.h - Distribution of a tile over threads and slots -*- C++
//-*-===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//
//
// THE LAYOUT MATH (read this first)
// =================================
//
// A TileLayout says where every element of a tile lives. "Where" is a
// *physical coordinate*: one integer per axis. Axes are either thread axes
// (laneid, warpid, wgid, wid_in_wg, tid_in_wg, tx, bx, by, bz), which name the
// thread that holds the element, or the memory axis `m`, which is an element
// offset: into global/shared memory, or into the owning thread's private
// register storage (a "slot") for a `local` tile.
//
// A layout has three parts:
//   shard   — an ordered list of iters (extent, stride, axis). The product of
//             the extents is the number of distinct elements (`size()`).
//   replica — iters that enumerate *copies* of every element; they consume no
//             logical index.
//   offset  — a constant added per axis.
//
// Forward map (`apply`). For a logical coordinate x over a logical shape S
// (any shape with Π S = size(): a layout is rank-agnostic):
//   1. flatten row-major:   flat = Σ_d x_d · Π_{e>d} S_e
//   2. split flat across the shard extents, LAST iter fastest:
//        c_{n-1} = flat mod e_{n-1}; flat /= e_{n-1}; ...; c_0 = flat
//   3. accumulate per axis: D[a] = Σ_{k : a_k = a} c_k · s_k
//   4. add the offset:      D[a] += O[a]
//   5. replicas: every combination r_t ∈ [0, e_t) of the replica iters adds
//      r_t · s_t to axis a_t. `apply` returns the base coordinate (no
//      replica); `forEachOwner` enumerates base + every replica combination.
//
// Worked example (spec §1.4): S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1)]
// + R[2:4@warpid] + 5@warpid on shape (8,16). Element (7,15): flat = 127,
// c = (7,1,3,1); laneid = 7·4 + 3 = 31, warpid = 1 + 5 = 6 (+ replica 4 → 10),
// m = 1. So lane 31 of warps {6,10} holds it in slot 1.
//
// Derived quantities:
//   size(a)  = Π extents of shard iters on axis a
//   span(a)  = 1 + Σ (e−1)·s over shard *and* replica iters on a, + O[a].
//              For a local tile, span(m) is the per-thread allocation:
//              S[(3,4):(16,2)] spans 39 slots and element [2,3] is slot 38.
//   storage()= the layout with every thread-axis iter and offset removed: the
//              per-thread view of a distributed register tile.
//   unpack(n)= view each element as n narrower ones: every stride on m
//              (shard and replica) and the m offset ×n, then append
//              Iter(n, 1, m); thread strides stay, so sub-element k of an
//              element in slot s sits at slot n·s + k of the same threads.
//              pack(n) is the inverse and needs the innermost shard iter on m
//              with stride 1 and extent % n == 0, and the other m strides and
//              the m offset divisible by n.
//
// Scope chain (spec §1.7): each thread axis is an edge subscope → scope
// (laneid: thread→warp, warpid: warp→cta, wgid: warpgroup→cta, wid_in_wg:
// warp→warpgroup, tid_in_wg: thread→warpgroup, tx: thread→cta, bx/by/bz:
// cta→grid). The edges of a well-formed layout agree (one scope per
// subscope) and form a single chain; its ends are the layout's scope pair.
//
// Swizzle (optional, Swizzle.h): an XOR permutation of the memory axis,
// applied last: apply(x)[m] = swizzle(Σ ... + O[m]) (replicas included), so
// that shared tiles can be stored as TMA / wgmma store them. A swizzled
// layout's span(m) is Swizzle::getSpanBound of the affine span; derived
// layouts keep the swizzle (unpack/pack rescale its per_element).
//
// Strides are non-negative (0 broadcasts); extents are positive. All
// quantities are checked for int64 overflow when a layout is built, so every
// accessor below is total.
//
//===----------------------------------------------------------------------===//

#ifndef TIRX_LAYOUT_TILELAYOUT_H
#define TIRX_LAYOUT_TILELAYOUT_H

#include "TirX/Layout/Swizzle.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/Hashing.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>

namespace mlir::tirx {

//===----------------------------------------------------------------------===//
// Axes and execution scopes
//===----------------------------------------------------------------------===//

/// The axes a physical coordinate has. `m` is the memory axis.
enum class Axis : uint8_t {
  laneid,
  warpid,
  wgid,
  wid_in_wg,
  tid_in_wg,
  tx,
  bx,
  by,
  bz,
  m
};
constexpr unsigned kNumAxes = 10;

llvm::StringRef getAxisName(Axis axis);
std::optional<Axis> parseAxisName(llvm::StringRef name);
/// A stride as the notation writes it: `4` on m, `1@laneid` on other axes.
std::string formatStride(int64_t stride, Axis axis);
/// All axes but `m`.
bool isThreadAxis(Axis axis);
/// bx, by, bz.
bool isBlockAxis(Axis axis);

/// Levels of the execution hierarchy, innermost first.
enum class ExecScope : uint8_t { thread, warp, warpgroup, cta, grid };
llvm::StringRef getExecScopeName(ExecScope scope);
std::optional<ExecScope> parseExecScopeName(llvm::StringRef name);

/// The (subscope, scope) edge of a thread axis, e.g. laneid → (thread, warp).
/// Precondition: isThreadAxis(axis).
std::pair<ExecScope, ExecScope> getAxisScopeEdge(Axis axis);

/// A physical coordinate: one integer per axis, indexed by `Axis`.
using PhysicalCoord = std::array<int64_t, kNumAxes>;

inline int64_t &at(PhysicalCoord &coord, Axis axis) {
  return coord[static_cast<unsigned>(axis)];
}
inline int64_t at(const PhysicalCoord &coord, Axis axis) {
  return coord[static_cast<unsigned>(axis)];
}

/// The flat id of the thread a coordinate names inside its CTA:
/// tx + tid_in_wg + 32·wid_in_wg + 128·wgid + laneid + 32·warpid.
int64_t getFlatThreadId(const PhysicalCoord &coord);

//===----------------------------------------------------------------------===//
// Iter and notation
//===----------------------------------------------------------------------===//

struct Iter {
  int64_t extent;
  int64_t stride;
  Axis axis;

  bool operator==(const Iter &other) const {
    return extent == other.extent && stride == other.stride &&
           axis == other.axis;
  }
  bool operator!=(const Iter &other) const { return !(*this == other); }
};
llvm::hash_code hash_value(const Iter &iter);

/// A stride as written: `4` (on m) or `4@laneid`.
struct NotationStride {
  int64_t value;
  Axis axis;
};

/// One `S[...]` or `R[...]` term as written. No strides means row-major
/// contiguous strides on `m`.
struct NotationTerm {
  llvm::SmallVector<int64_t> extents;
  llvm::SmallVector<NotationStride> strides;
};

/// A `Swizzle[per_element, swizzle_len, atom_len(, inner|outer)?]` term as
/// written.
struct NotationSwizzle {
  int64_t perElement = 0;
  int64_t swizzleLen = 0;
  int64_t atomLen = 0;
  bool swizzleInner = true;
};

/// A layout as written in the seed's notation, before any check:
///   S[dims : strides] + R[dims : strides] + k@axis + k ... + Swizzle[p, s, a]
struct LayoutNotation {
  std::optional<NotationTerm> shard;
  std::optional<NotationTerm> replica;
  llvm::SmallVector<NotationStride> offsets; // accumulate per axis
  std::optional<NotationSwizzle> swizzle;
};

/// Parses the notation text. Errors read "column N: <reason>" (1-based).
llvm::Expected<LayoutNotation> parseLayoutNotation(llvm::StringRef text);

//===----------------------------------------------------------------------===//
// TileLayout
//===----------------------------------------------------------------------===//

class TileLayout {
public:
  /// Builds and checks a layout: at least one shard iter, extents > 0,
  /// strides and offsets >= 0, size and span fit in int64. An identity
  /// swizzle (swizzle_len 0) is dropped: the layout is not swizzled.
  static llvm::Expected<TileLayout>
  get(llvm::ArrayRef<Iter> shard, llvm::ArrayRef<Iter> replica,
      const PhysicalCoord &offset,
      std::optional<Swizzle> swizzle = std::nullopt);
  /// Builds from the written notation: row-major default strides, offsets
  /// summed per axis, mismatched extent/stride counts rejected.
  static llvm::Expected<TileLayout> get(const LayoutNotation &notation);
  /// parseLayoutNotation + get.
  static llvm::Expected<TileLayout> parse(llvm::StringRef text);
  /// S[(e0, e1, ...) : (Π e>0, ..., 1)] on m.
  static llvm::Expected<TileLayout> getRowMajor(llvm::ArrayRef<int64_t> shape);

  llvm::ArrayRef<Iter> getShard() const { return shard; }
  llvm::ArrayRef<Iter> getReplica() const { return replica; }
  const PhysicalCoord &getOffset() const { return offset; }
  /// The XOR swizzle of the memory axis, if any (never an identity one).
  const std::optional<Swizzle> &getSwizzle() const { return swizzle; }
  bool isSwizzled() const { return swizzle.has_value(); }
  /// The layout without its swizzle: shard, replica and offset only.
  TileLayout getAffinePart() const;
  /// The TMA / wgmma swizzle mode for elements of `elementBytes` bytes: 0
  /// when not swizzled, 32/64/128 for a hardware swizzle, std::nullopt for a
  /// swizzle that is no hardware mode.
  std::optional<int64_t> getSwizzleModeBytes(int64_t elementBytes) const;

  /// Number of distinct elements (Π shard extents).
  int64_t size() const;
  /// Π extents of the shard iters on `axis`.
  int64_t size(Axis axis) const;
  /// Physical footprint on `axis` (see the header comment; swizzled: an
  /// upper bound on m, Swizzle::getSpanBound).
  int64_t span(Axis axis) const;
  /// Number of copies of each element (Π replica extents).
  int64_t getNumReplicas() const;

  /// Base physical coordinate of the element with row-major flat index
  /// `flatIndex` (0 <= flatIndex < size()).
  PhysicalCoord apply(int64_t flatIndex) const;
  /// Base physical coordinate of `coord` in a logical `shape` with
  /// Π shape == size().
  PhysicalCoord apply(llvm::ArrayRef<int64_t> coord,
                      llvm::ArrayRef<int64_t> shape) const;
  /// Calls `fn` on the base coordinate plus every replica combination.
  void forEachOwner(int64_t flatIndex,
                    llvm::function_ref<void(const PhysicalCoord &)> fn) const;

  /// Any iter (shard or replica) or nonzero offset on a thread axis.
  bool hasThreadAxes() const;
  /// Every shard and replica iter and every nonzero offset is on `m`.
  bool isMemoryOnly() const { return !hasThreadAxes(); }
  /// Canonical form is a single stride-1 iter on m, no replica, no offset,
  /// no swizzle.
  bool isTrivial() const;
  /// Memory-only, no copies (getNumReplicas() == 1), row-major contiguous
  /// strides (unit extents may carry any stride), not swizzled; the offset
  /// is ignored.
  bool isContiguous() const;

  /// Canonical form (spec §1.6, steps 1, 2, 4, 5): drop unit shard iters
  /// (keeping one, on the first iter's axis with stride 1, if all are unit),
  /// drop zero offsets, fuse adjacent shard iters on the same axis when
  /// inner.extent · inner.stride == outer.stride, drop unit replica iters and
  /// sort the rest by (axis, stride, extent); the swizzle stays. apply(),
  /// the owners of every element and span() of the result equal those of
  /// `*this`.
  TileLayout canonicalize() const;
  /// The per-thread storage layout: thread-axis iters and offsets removed,
  /// the swizzle kept
  /// (`S[1 : 1]` if no shard iter on m remains).
  TileLayout storage() const;
  /// Narrower-element view (see the header comment).
  llvm::Expected<TileLayout> unpack(int64_t factor) const;
  /// Wider-element view (see the header comment).
  llvm::Expected<TileLayout> pack(int64_t factor) const;

  /// The scope pair (innermost, outermost) of the thread axes, or an error
  /// "conflicting scopes ..." / "disconnected scope chain ...". A memory-only
  /// layout has scope (thread, thread).
  llvm::Expected<std::pair<ExecScope, ExecScope>> getScope() const;

  /// Prints the canonical notation, e.g.
  /// `S[(2, 32, 4) : (1@warpid, 1@laneid, 1)] + R[2 : 4@warpid] + 5@warpid`,
  /// followed by ` + Swizzle[p, s, a]` when swizzled.
  /// parse(print()) == *this.
  void print(llvm::raw_ostream &os) const;
  std::string toString() const;

  bool operator==(const TileLayout &other) const {
    return shard == other.shard && replica == other.replica &&
           offset == other.offset && swizzle == other.swizzle;
  }
  bool operator!=(const TileLayout &other) const { return !(*this == other); }

private:
  TileLayout() = default;

  llvm::SmallVector<Iter, 4> shard;
  llvm::SmallVector<Iter, 2> replica;
  PhysicalCoord offset{};
  std::optional<Swizzle> swizzle;
};

llvm::hash_code hash_value(const TileLayout &layout);
inline llvm::raw_ostream &operator<<(llvm::raw_ostream &os,
                                     const TileLayout &layout) {
  layout.print(os);
  return os;
}

} // namespace mlir::tirx

#endif // TIRX_LAYOUT_TILELAYOUT_H
