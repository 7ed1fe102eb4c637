//===- LayoutAlgebraTest.cpp - The layout algebra against its definitions -===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//
//
// Each operation is checked against its definition on every element of
// systematic sweeps of small layouts, recomputing the expected owners from
// TileLayout::apply/forEachOwner alone, and against CuTe's documented
// examples (translated from CuTe's column-major order to the notation's
// row-major one: the iters reversed). Where an operation must succeed (its
// divisibility conditions hold, written here independently), failures fail.
//
//===----------------------------------------------------------------------===//

#include "LayoutTestHelpers.h"

#include "TirX/Layout/LayoutAlgebra.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <set>
#include <vector>

using namespace mlir::tirx;
using namespace mlir::tirx::layouttest;

namespace {

using Owners = std::vector<PhysicalCoord>;

/// Every physical coordinate that holds element `flat` of `layout`, sorted.
Owners ownersOf(const TileLayout &layout, int64_t flat) {
  Owners owners;
  layout.forEachOwner(flat,
                      [&](const PhysicalCoord &c) { owners.push_back(c); });
  llvm::sort(owners);
  return owners;
}

/// The value of an index layout.
int64_t indexAt(const TileLayout &index, int64_t flat) {
  return at(index.apply(flat), Axis::m);
}

PhysicalCoord minus(PhysicalCoord lhs, const PhysicalCoord &rhs) {
  for (unsigned a = 0; a < kNumAxes; ++a)
    lhs[a] -= rhs[a];
  return lhs;
}

PhysicalCoord plus(PhysicalCoord lhs, const PhysicalCoord &rhs) {
  for (unsigned a = 0; a < kNumAxes; ++a)
    lhs[a] += rhs[a];
  return lhs;
}

TileLayout make(llvm::ArrayRef<Iter> shard, llvm::ArrayRef<Iter> replica = {},
                const PhysicalCoord &offset = {},
                std::optional<Swizzle> swizzle = std::nullopt) {
  llvm::Expected<TileLayout> layout =
      TileLayout::get(shard, replica, offset, swizzle);
  if (!layout) {
    ADD_FAILURE() << llvm::toString(layout.takeError());
    return *TileLayout::getRowMajor({1});
  }
  return *layout;
}

/// `expected`'s canonical text, for comparing with a result's.
std::string canonical(llvm::StringRef expected) {
  return parseOk(expected).toString();
}

template <typename T> T valueOf(llvm::Expected<T> value) {
  if (!value) {
    ADD_FAILURE() << llvm::toString(value.takeError());
    std::abort();
  }
  return std::move(*value);
}

/// Outer layouts: 1..3 iters, extents in {2, 3, 4, 6}, each stride from
/// {0, 1, 2, row-major, 5} on m or laneid; with a replica, an offset or a
/// swizzle for some.
std::vector<TileLayout> outerSweep() {
  std::vector<TileLayout> result;
  const int64_t extentChoices[] = {2, 3, 4, 6};
  const Axis axes[] = {Axis::m, Axis::laneid};
  unsigned seed = 0;
  for (size_t n = 1; n <= 3; ++n) {
    size_t tuples = 1;
    for (size_t i = 0; i < n; ++i)
      tuples *= 4;
    for (size_t t = 0; t < tuples; ++t) {
      llvm::SmallVector<int64_t, 3> extents;
      for (size_t i = 0, rest = t; i < n; ++i, rest /= 4)
        extents.push_back(extentChoices[rest % 4]);
      unsigned variants = n == 1 ? 10 : n == 2 ? 12 : 3;
      for (unsigned v = 0; v < variants; ++v, ++seed) {
        llvm::SmallVector<Iter, 3> shard;
        int64_t inner = 1;
        llvm::SmallVector<Iter, 3> reversed;
        for (size_t i = n; i-- > 0;) {
          unsigned choice = (seed * 7 + i * 3 + v) % 10;
          const int64_t strides[] = {0, 1, 2, inner, 5};
          reversed.push_back(
              {extents[i], strides[choice % 5], axes[choice / 5]});
          inner *= extents[i];
        }
        shard.assign(reversed.rbegin(), reversed.rend());
        switch (seed % 5) {
        case 0:
          result.push_back(make(shard, {{2, 1, Axis::warpid}}));
          break;
        case 1: {
          PhysicalCoord offset{};
          at(offset, Axis::m) = 3;
          at(offset, Axis::warpid) = 1;
          result.push_back(make(shard, {}, offset));
          break;
        }
        default:
          result.push_back(make(shard));
        }
      }
    }
  }
  result.push_back(
      make({{8, 8, Axis::m}, {8, 1, Axis::m}}, {}, {}, *Swizzle::get(0, 2, 3)));
  return result;
}

/// Index layouts of one iter: extents 1..8, strides 0..12.
std::vector<TileLayout> singleIterIndexSweep() {
  std::vector<TileLayout> result;
  for (int64_t extent = 1; extent <= 8; ++extent)
    for (int64_t stride = 0; stride <= 12; ++stride)
      result.push_back(make({{extent, stride, Axis::m}}));
  return result;
}

/// Index layouts of two iters: extents 1..4, strides in {0, 1, 2, 3, 4, 6}.
std::vector<TileLayout> twoIterIndexSweep() {
  std::vector<TileLayout> result;
  const int64_t strides[] = {0, 1, 2, 3, 4, 6};
  for (int64_t e0 = 1; e0 <= 4; ++e0)
    for (int64_t s0 : strides)
      for (int64_t e1 = 1; e1 <= 4; ++e1)
        for (int64_t s1 : strides)
          result.push_back(make({{e0, s0, Axis::m}, {e1, s1, Axis::m}}));
  return result;
}

/// Whether compose(outer, inner) must exist: every inner iter is aligned to
/// the coalesced outer iters (its stride and stride * extent are products
/// of the fastest outer extents, or fall in the slowest iter), and no two
/// inner iters cover the same outer iter but the slowest.
bool mustCompose(const TileLayout &outer, const TileLayout &inner) {
  llvm::SmallVector<int64_t, 4> extents; // fastest first
  TileLayout coalesced = outer.canonicalize();
  for (const Iter &iter : llvm::reverse(coalesced.getShard()))
    if (iter.extent > 1)
      extents.push_back(iter.extent);
  // The boundary index a value is, or -1; n - 1 for a value in the last iter.
  auto boundary = [&](int64_t value) -> int {
    int64_t product = 1;
    for (size_t k = 0; k < extents.size(); ++k) {
      if (value == product)
        return k;
      if (k + 1 == extents.size())
        return value % product == 0 ? k : -1;
      product *= extents[k];
    }
    return value == product ? static_cast<int>(extents.size()) : -1;
  };
  std::vector<bool> covered(extents.size(), false);
  for (const Iter &iter : inner.getShard()) {
    if (iter.extent == 1 || iter.stride == 0)
      continue;
    int from = boundary(iter.stride), to = boundary(iter.stride * iter.extent);
    if (from < 0 || to < 0)
      return false;
    for (int k = from; k < to && k + 1 < static_cast<int>(extents.size());
         ++k) {
      if (covered[k])
        return false;
      covered[k] = true;
    }
  }
  return true;
}

//===----------------------------------------------------------------------===//
// compose
//===----------------------------------------------------------------------===//

void expectComposition(const TileLayout &outer, const TileLayout &inner,
                       const TileLayout &result) {
  ASSERT_EQ(result.size(), inner.size());
  ASSERT_EQ(result.getNumReplicas(), outer.getNumReplicas());
  for (int64_t i = 0; i < inner.size(); ++i)
    ASSERT_EQ(ownersOf(result, i), ownersOf(outer, indexAt(inner, i)))
        << "outer " << outer.toString() << " inner " << inner.toString()
        << " result " << result.toString() << " element " << i;
}

TEST(LayoutAlgebra, ComposeIsOuterAfterInnerOnEveryElement) {
  int64_t checked = 0;
  std::vector<TileLayout> inners = singleIterIndexSweep();
  llvm::append_range(inners, twoIterIndexSweep());
  for (const TileLayout &outer : outerSweep()) {
    for (const TileLayout &inner : inners) {
      if (inner.span(Axis::m) > outer.size())
        continue; // reaches past the outer layout: an error, tested below
      llvm::Expected<TileLayout> result = compose(outer, inner);
      bool mustSucceed = mustCompose(outer, inner);
      if (!result) {
        std::string message = llvm::toString(result.takeError());
        EXPECT_FALSE(mustSucceed)
            << outer.toString() << " o " << inner.toString() << ": " << message;
        EXPECT_TRUE(message.find("unevenly") != std::string::npos ||
                    message.find("carry") != std::string::npos)
            << message;
        continue;
      }
      expectComposition(outer, inner, *result);
      ++checked;
    }
  }
  EXPECT_GT(checked, 50000);
}

TEST(LayoutAlgebra, ComposeOfOneIterOuterAlwaysExists) {
  for (int64_t size = 1; size <= 24; ++size)
    for (const TileLayout &inner : singleIterIndexSweep()) {
      if (inner.span(Axis::m) > size)
        continue;
      TileLayout outer = make({{size, 3, Axis::laneid}});
      expectComposition(outer, inner, valueOf(compose(outer, inner)));
    }
}

TEST(LayoutAlgebra, ComposeCuteExamples) {
  // CuTe: (6,2):(8,2) o (4,3):(3,1) = ((2,2),3):((24,2),8).
  EXPECT_EQ(valueOf(compose(parseOk("S[(2, 6) : (2, 8)]"),
                            parseOk("S[(3, 4) : (1, 3)]")))
                .toString(),
            canonical("S[(3, 2, 2) : (8, 2, 24)]"));
  // CuTe: 20:2 o (5,4):(4,1) = (5,4):(8,2).
  EXPECT_EQ(
      valueOf(compose(parseOk("S[20 : 2]"), parseOk("S[(4, 5) : (1, 4)]")))
          .toString(),
      canonical("S[(4, 5) : (2, 8)]"));
  // CuTe: (10,2):(16,4) o (5,4):(1,5) = (5,(2,2)):(16,(80,4)).
  EXPECT_EQ(valueOf(compose(parseOk("S[(2, 10) : (4, 16)]"),
                            parseOk("S[(4, 5) : (5, 1)]")))
                .toString(),
            canonical("S[(2, 2, 5) : (4, 80, 16)]"));
}

TEST(LayoutAlgebra, ComposeKeepsReplicasOffsetAndSwizzle) {
  TileLayout outer =
      parseOk("S[(8, 8) : (8, 1)] + R[2 : 4@warpid] + 1@warpid + "
              "Swizzle[0, 2, 3]");
  TileLayout inner = parseOk("S[(4, 8) : (16, 1)]"); // every other row
  TileLayout result = valueOf(compose(outer, inner));
  EXPECT_EQ(result.toString(),
            canonical("S[(4, 8) : (16, 1)] + R[2 : 4@warpid] + 1@warpid + "
                      "Swizzle[0, 2, 3]"));
  expectComposition(outer, inner, result);
}

TEST(LayoutAlgebra, ComposeErrors) {
  TileLayout outer = parseOk("S[(2, 3) : (1, 2)]");
  EXPECT_EQ(errorOf(compose(outer, parseOk("S[2 : 1@laneid]"))),
            "compose: the inner layout S[2 : 1@laneid] is not an index "
            "layout (every iter on m, no replica, offset or swizzle)");
  EXPECT_EQ(errorOf(compose(outer, parseOk("S[2 : 1] + 1"))),
            "compose: the inner layout S[2 : 1] + 1 is not an index layout "
            "(every iter on m, no replica, offset or swizzle)");
  EXPECT_EQ(errorOf(compose(outer, parseOk("S[4 : 2]"))),
            "compose: the inner layout S[4 : 2] reaches index 6, past the "
            "last index 5 of S[(2, 3) : (1, 2)]");
  EXPECT_EQ(errorOf(compose(outer, parseOk("S[2 : 2]"))),
            "compose: inner stride 2 splits the outer iter 3:2 unevenly (2 "
            "elements into it, neither a divisor nor a multiple of 3)");
  EXPECT_EQ(errorOf(compose(outer, parseOk("S[2 : 3]"))), "<success>");
  EXPECT_EQ(errorOf(compose(parseOk("S[(2, 4) : (1@laneid, 1)]"),
                            parseOk("S[(2, 2) : (2, 2)]"))),
            "compose: inner iters overlap in the outer iter 4:1: their "
            "indices add up past its extent and carry into the next iter, "
            "which no layout expresses");
  EXPECT_EQ(
      errorOf(compose(parseOk("S[(3, 4) : (1, 3)]"), parseOk("S[6 : 1]"))),
      "compose: inner iter 6:1 splits the outer iter 4:3 unevenly (6 "
      "elements left, neither a divisor nor a multiple of 4)");
}

//===----------------------------------------------------------------------===//
// complement
//===----------------------------------------------------------------------===//

/// Whether every element of a one-axis layout has its own value.
bool isInjective(const TileLayout &layout, Axis axis) {
  std::set<int64_t> seen;
  for (int64_t i = 0; i < layout.size(); ++i)
    if (!seen.insert(at(layout.apply(i), axis)).second)
      return false;
  return true;
}

/// CuTe's condition, independently: by increasing stride, each stride is a
/// multiple of the footprint (extent * stride) of the one before.
bool isComplementable(const TileLayout &layout) {
  std::vector<std::pair<int64_t, int64_t>> modes;
  for (const Iter &iter : layout.getShard())
    if (iter.extent > 1 && iter.stride > 0)
      modes.push_back({iter.stride, iter.extent});
  llvm::sort(modes);
  int64_t footprint = 1;
  for (auto [stride, extent] : modes) {
    if (stride % footprint != 0)
      return false;
    footprint = stride * extent;
  }
  return true;
}

TEST(LayoutAlgebra, ComplementFillsEveryHoleOnce) {
  int64_t checked = 0;
  for (Axis axis : {Axis::m, Axis::laneid}) {
    for (int64_t e0 = 1; e0 <= 4; ++e0)
      for (int64_t s0 = 0; s0 <= 12; ++s0)
        for (int64_t e1 = 1; e1 <= 4; ++e1)
          for (int64_t s1 = 0; s1 <= 12; s1 += 1 + (s1 > 4)) {
            TileLayout layout = make({{e0, s0, axis}, {e1, s1, axis}});
            std::set<int64_t> valuesOfA;
            int64_t footprint = 1; // of the iters that move
            for (int64_t i = 0; i < layout.size(); ++i)
              valuesOfA.insert(at(layout.apply(i), axis));
            for (const Iter &iter : layout.getShard())
              if (iter.extent > 1 && iter.stride > 0)
                footprint = std::max(footprint, iter.extent * iter.stride);
            for (int64_t target : {1, 5, 16, 24, 40}) {
              llvm::Expected<TileLayout> rest = complement(layout, target);
              EXPECT_EQ(static_cast<bool>(rest), isComplementable(layout))
                  << layout.toString();
              if (!rest) {
                llvm::consumeError(rest.takeError());
                continue;
              }
              // [rest, layout] over A's distinct values is one-to-one onto
              // [0, footprint * ceil(target / footprint)).
              std::set<int64_t> values;
              for (int64_t r = 0; r < rest->size(); ++r)
                for (int64_t value : valuesOfA)
                  values.insert(at(rest->apply(r), axis) + value);
              int64_t image = static_cast<int64_t>(values.size());
              EXPECT_EQ(image,
                        rest->size() * static_cast<int64_t>(valuesOfA.size()))
                  << layout.toString() << " " << rest->toString();
              EXPECT_EQ(*values.rbegin(), image - 1)
                  << layout.toString() << " " << rest->toString();
              EXPECT_EQ(image,
                        footprint * ((target + footprint - 1) / footprint))
                  << layout.toString() << " " << rest->toString();
              ++checked;
            }
          }
  }
  EXPECT_GT(checked, 3000);
}

TEST(LayoutAlgebra, ComplementCuteExamples) {
  // CuTe: complement(4:1, 24) = 6:4; complement(6:4, 24) = 4:1;
  // complement((4,6):(1,4), 24) = 1:0; complement((2,2):(1,6), 24) =
  // (3,2):(2,12); complement((2,4):(1,6), 8) = 3:2.
  EXPECT_EQ(valueOf(complement(parseOk("S[4 : 1]"), 24)).toString(),
            canonical("S[6 : 4]"));
  EXPECT_EQ(valueOf(complement(parseOk("S[6 : 4]"), 24)).toString(),
            canonical("S[4 : 1]"));
  EXPECT_EQ(valueOf(complement(parseOk("S[(6, 4) : (4, 1)]"), 24)).size(), 1);
  EXPECT_EQ(valueOf(complement(parseOk("S[(2, 2) : (6, 1)]"), 24)).toString(),
            canonical("S[(2, 3) : (12, 2)]"));
  EXPECT_EQ(valueOf(complement(parseOk("S[(4, 2) : (6, 1)]"), 8)).toString(),
            canonical("S[3 : 2]"));
  // Thread axes: the warps a 2-warp layout leaves free in 8.
  EXPECT_EQ(valueOf(complement(parseOk("S[2 : 2@warpid]"), 8)).toString(),
            canonical("S[(2, 2) : (4@warpid, 1@warpid)]"));
}

TEST(LayoutAlgebra, ComplementErrors) {
  EXPECT_EQ(errorOf(complement(parseOk("S[4 : 1]"), 0)),
            "complement: the target size must be at least 1, got 0");
  EXPECT_EQ(errorOf(complement(parseOk("S[(2, 4) : (1@laneid, 1)]"), 8)),
            "complement: S[(2, 4) : (1@laneid, 1)] is on several axes "
            "(laneid and m); it must be on one");
  EXPECT_EQ(errorOf(complement(parseOk("S[(2, 3) : (2, 1)]"), 8)),
            "complement: iters 3:1 and 2:2 overlap on m: the layout is not "
            "one-to-one there");
  EXPECT_EQ(errorOf(complement(parseOk("S[(2, 2) : (3, 2)]"), 8)),
            "complement: iters 2:2 and 2:3 overlap on m: the layout is not "
            "one-to-one there");
  EXPECT_EQ(errorOf(complement(parseOk("S[(2, 2) : (5, 1)]"), 8)),
            "complement: the gap below iter 2:5 is no whole number of the 2 "
            "positions the faster iters cover on m");
  EXPECT_EQ(errorOf(complement(parseOk("S[2 : 4611686018427387904]"), 8)),
            "complement: a footprint overflows int64");
  EXPECT_EQ(errorOf(complement(parseOk("S[4 : 1] + R[2 : 4]"), 8)),
            "complement: the layout S[4 : 1] + R[2 : 4] must have no "
            "replica, offset or swizzle");
}

//===----------------------------------------------------------------------===//
// coalesce and right inverse
//===----------------------------------------------------------------------===//

TEST(LayoutAlgebra, CoalesceKeepsTheFunctionWithFewestIters) {
  TileLayout layout = parseOk("S[(2, 1, 4, 2) : (8, 5, 2, 1)]");
  TileLayout result = coalesce(layout);
  EXPECT_EQ(result.toString(), canonical("S[16 : 1]"));
  EXPECT_EQ(result.getShard().size(), 1u);
  for (int64_t i = 0; i < layout.size(); ++i)
    EXPECT_EQ(result.apply(i), layout.apply(i));
}

TEST(LayoutAlgebra, RightInverseUndoesTheLayout) {
  int64_t bijections = 0;
  for (Axis axis : {Axis::m, Axis::laneid})
    for (int64_t e0 = 1; e0 <= 4; ++e0)
      for (int64_t s0 = 0; s0 <= 9; ++s0)
        for (int64_t e1 = 1; e1 <= 4; ++e1)
          for (int64_t s1 = 0; s1 <= 9; ++s1)
            for (int64_t e2 : {1, 2, 3}) {
              TileLayout layout =
                  make({{e0, s0, axis}, {e1, s1, axis}, {e2, 1, axis}});
              TileLayout inverse = valueOf(rightInverse(layout));
              ASSERT_TRUE(inverse.isMemoryOnly());
              for (int64_t j = 0; j < inverse.size(); ++j)
                ASSERT_EQ(at(layout.apply(indexAt(inverse, j)), axis), j)
                    << layout.toString() << " " << inverse.toString();
              if (!isInjective(layout, axis))
                continue;
              // The largest k with [0, k) among the layout's values.
              std::set<int64_t> values;
              for (int64_t i = 0; i < layout.size(); ++i)
                values.insert(at(layout.apply(i), axis));
              int64_t k = 0;
              while (values.count(k))
                ++k;
              EXPECT_EQ(inverse.size(), k)
                  << layout.toString() << " " << inverse.toString();
              bijections += k == layout.size();
            }
  EXPECT_GT(bijections, 100);
}

TEST(LayoutAlgebra, RightInverseExamples) {
  // The transpose's inverse is the transpose.
  EXPECT_EQ(valueOf(rightInverse(parseOk("S[(4, 8) : (1, 4)]"))).toString(),
            canonical("S[(8, 4) : (1, 8)]"));
  // A warp's lanes of the mma C fragment: which element each lane holds.
  EXPECT_EQ(valueOf(rightInverse(parseOk("S[(8, 4) : (4@laneid, 1@laneid)]")))
                .toString(),
            canonical("S[32 : 1]"));
  EXPECT_EQ(valueOf(rightInverse(parseOk("S[(4, 2) : (3, 1)]"))).toString(),
            canonical("S[2 : 1]"));
  EXPECT_EQ(errorOf(rightInverse(parseOk("S[(2, 4) : (1@laneid, 1)]"))),
            "right inverse: S[(2, 4) : (1@laneid, 1)] is on several axes "
            "(laneid and m); it must be on one");
  EXPECT_EQ(errorOf(rightInverse(parseOk("S[4 : 1] + 2"))),
            "right inverse: the layout S[4 : 1] + 2 must have no replica, "
            "offset or swizzle");
}

//===----------------------------------------------------------------------===//
// logical product and divide
//===----------------------------------------------------------------------===//

/// [B', A]: every copy is A moved by the copy's base, and no two copies
/// share an owner when neither A's owners nor B's values repeat.
void expectProduct(const TileLayout &a, const TileLayout &b,
                   const TileLayout &product) {
  ASSERT_EQ(product.size(), a.size() * b.size());
  std::set<PhysicalCoord> seen;
  bool distinct = true;
  // Copy ib sits at the complement of a's iters on each axis, at b(ib).
  std::array<std::optional<TileLayout>, kNumAxes> places;
  for (const Iter &iter : b.getShard()) {
    llvm::SmallVector<Iter, 8> onAxis;
    for (llvm::ArrayRef<Iter> iters : {a.getShard(), a.getReplica()})
      for (const Iter &own : iters)
        if (own.axis == iter.axis && own.extent > 1 && own.stride > 0)
          onAxis.push_back(own);
    if (onAxis.empty())
      continue; // the identity
    TileLayout ofA = make(onAxis);
    places[static_cast<unsigned>(iter.axis)] =
        valueOf(complement(ofA, b.span(iter.axis) * (ofA.span(iter.axis) + 1)));
  }
  for (int64_t ib = 0; ib < b.size(); ++ib) {
    PhysicalCoord shift = minus(product.apply(ib * a.size()), a.apply(0));
    PhysicalCoord expectedShift = b.apply(ib);
    for (unsigned axis = 0; axis < kNumAxes; ++axis)
      if (places[axis])
        expectedShift[axis] =
            at(places[axis]->apply(expectedShift[axis]), Axis(axis));
    ASSERT_EQ(shift, expectedShift) << a.toString() << " x " << b.toString();
    for (int64_t ia = 0; ia < a.size(); ++ia) {
      Owners expected = ownersOf(a, ia);
      for (PhysicalCoord &owner : expected)
        owner = plus(owner, shift);
      ASSERT_EQ(ownersOf(product, ib * a.size() + ia), expected)
          << a.toString() << " x " << b.toString();
      for (const PhysicalCoord &owner : expected)
        distinct &= seen.insert(owner).second;
    }
  }
  std::set<PhysicalCoord> ownersOfA;
  bool aDistinct = true;
  for (int64_t ia = 0; ia < a.size(); ++ia)
    for (const PhysicalCoord &owner : ownersOf(a, ia))
      aDistinct &= ownersOfA.insert(owner).second;
  std::set<PhysicalCoord> valuesOfB;
  bool bDistinct = true;
  for (int64_t ib = 0; ib < b.size(); ++ib)
    bDistinct &= valuesOfB.insert(b.apply(ib)).second;
  if (aDistinct && bDistinct)
    EXPECT_TRUE(distinct) << a.toString() << " x " << b.toString() << " = "
                          << product.toString();
}

TEST(LayoutAlgebra, LogicalProductRepeatsWithoutOverlap) {
  std::vector<TileLayout> arrangements;
  for (Axis axis : {Axis::m, Axis::laneid, Axis::warpid})
    for (int64_t e0 = 1; e0 <= 3; ++e0)
      for (int64_t s0 = 0; s0 <= 3; ++s0) {
        arrangements.push_back(make({{e0, s0, axis}}));
        arrangements.push_back(make({{e0, s0, axis}, {2, 1, Axis::m}}));
      }
  int64_t checked = 0;
  for (const TileLayout &a : outerSweep())
    for (const TileLayout &b : arrangements) {
      llvm::Expected<TileLayout> product = logicalProduct(a, b);
      if (!product) {
        llvm::consumeError(product.takeError());
        continue; // A's iters on an axis of B overlap or leave uneven gaps
      }
      expectProduct(a, b, *product);
      ++checked;
    }
  EXPECT_GT(checked, 2000);
}

TEST(LayoutAlgebra, LogicalProductExamples) {
  // CuTe: logical_product((2,2):(4,1), 6:1) = ((2,2),(2,3)):((4,1),(2,8)).
  EXPECT_EQ(valueOf(logicalProduct(parseOk("S[(2, 2) : (1, 4)]"),
                                   parseOk("S[6 : 1]")))
                .toString(),
            canonical("S[(3, 2, 2, 2) : (8, 2, 1, 4)]"));
  // A warp's mma C fragment on 4 warps: the warps are a new axis.
  EXPECT_EQ(
      valueOf(logicalProduct(
                  parseOk("S[(2, 8, 4, 2) : (2, 4@laneid, 1@laneid, 1)]"),
                  parseOk("S[4 : 1@warpid]")))
          .toString(),
      canonical("S[(4, 2, 8, 4, 2) : (1@warpid, 2, 4@laneid, 1@laneid, 1)]"));
  // Copies skip a replica's warps.
  EXPECT_EQ(
      valueOf(logicalProduct(parseOk("S[32 : 1@laneid] + R[2 : 1@warpid]"),
                             parseOk("S[2 : 1@warpid]")))
          .toString(),
      canonical("S[(2, 32) : (2@warpid, 1@laneid)] + R[2 : 1@warpid]"));
  EXPECT_EQ(
      errorOf(logicalProduct(parseOk("S[4 : 1]"), parseOk("S[2 : 1] + 1"))),
      "logical product: the arrangement S[2 : 1] + 1 must have no "
      "replica, offset or swizzle");
  EXPECT_EQ(errorOf(logicalProduct(parseOk("S[2 : 1]"),
                                   parseOk("S[2 : 4611686018427387904]"))),
            "logical product: a stride overflows int64");
  EXPECT_EQ(errorOf(logicalProduct(parseOk("S[(2, 3) : (2, 1)]"),
                                   parseOk("S[2 : 1]"))),
            "logical product: iters 3:1 and 2:2 overlap on m: the layout is "
            "not one-to-one there");
}

TEST(LayoutAlgebra, LogicalDivideGroupsTilesFirst) {
  int64_t checked = 0;
  for (const TileLayout &a : outerSweep())
    for (const TileLayout &tiler : singleIterIndexSweep()) {
      llvm::Expected<TileLayout> divided = logicalDivide(a, tiler);
      if (!divided) {
        llvm::consumeError(divided.takeError());
        continue;
      }
      // Definition: element t * size(T) + p is a's element rest(t) + T(p).
      TileLayout rest = valueOf(complement(tiler, a.size()));
      ASSERT_EQ(divided->size(), a.size());
      std::set<int64_t> visited;
      for (int64_t t = 0; t < rest.size(); ++t)
        for (int64_t p = 0; p < tiler.size(); ++p) {
          int64_t index = indexAt(rest, t) + indexAt(tiler, p);
          visited.insert(index);
          ASSERT_EQ(ownersOf(*divided, t * tiler.size() + p),
                    ownersOf(a, index))
              << a.toString() << " / " << tiler.toString();
        }
      EXPECT_EQ(static_cast<int64_t>(visited.size()), a.size());
      ++checked;
    }
  EXPECT_GT(checked, 1000);
}

TEST(LayoutAlgebra, LogicalDivideExamples) {
  // CuTe: logical_divide((4,2,3):(2,1,8), 4:2) = ((2,2),(2,3)):((4,1),(2,8)).
  EXPECT_EQ(valueOf(logicalDivide(parseOk("S[(3, 2, 4) : (8, 1, 2)]"),
                                  parseOk("S[4 : 2]")))
                .toString(),
            canonical("S[(3, 2, 2, 2) : (8, 2, 1, 4)]"));
  EXPECT_EQ(errorOf(logicalDivide(parseOk("S[8 : 1]"),
                                  parseOk("S[(2, 2) : (1, 1)]"))),
            "logical divide: the tiler S[(2, 2) : (1, 1)] has no complement: "
            "complement: iters 2:1 and 2:1 overlap on m: the layout is not "
            "one-to-one there");
  EXPECT_EQ(errorOf(logicalDivide(parseOk("S[6 : 1]"), parseOk("S[4 : 1]"))),
            "logical divide: tiles S[4 : 1] do not divide the 6 elements of "
            "S[6 : 1]");
  EXPECT_EQ(
      errorOf(logicalDivide(parseOk("S[6 : 1]"), parseOk("S[2 : 1@laneid]"))),
      "logical divide: the tiler S[2 : 1@laneid] is not an index layout "
      "(every iter on m, no replica, offset or swizzle)");
}

//===----------------------------------------------------------------------===//
// By-mode forms
//===----------------------------------------------------------------------===//

/// Row-major coordinates of `flat` in `shape`.
llvm::SmallVector<int64_t, 4> coordOf(int64_t flat,
                                      llvm::ArrayRef<int64_t> shape) {
  llvm::SmallVector<int64_t, 4> coord(shape.size());
  for (size_t d = shape.size(); d-- > 0;) {
    coord[d] = flat % shape[d];
    flat /= shape[d];
  }
  return coord;
}

int64_t flatOf(llvm::ArrayRef<int64_t> coord, llvm::ArrayRef<int64_t> shape) {
  int64_t flat = 0;
  for (size_t d = 0; d < shape.size(); ++d)
    flat = flat * shape[d] + coord[d];
  return flat;
}

void expectTileProduct(const TileLayout &a, llvm::ArrayRef<int64_t> shapeA,
                       const TileLayout &b, llvm::ArrayRef<int64_t> shapeB,
                       bool raked) {
  ShapedLayout result = valueOf(raked ? rakedProduct(a, shapeA, b, shapeB)
                                      : blockedProduct(a, shapeA, b, shapeB));
  TileLayout product = valueOf(logicalProduct(a, b));
  ASSERT_EQ(result.shape.size(), shapeA.size());
  for (int64_t ia = 0; ia < a.size(); ++ia)
    for (int64_t ib = 0; ib < b.size(); ++ib) {
      auto ca = coordOf(ia, shapeA), cb = coordOf(ib, shapeB);
      llvm::SmallVector<int64_t, 4> coord;
      for (size_t d = 0; d < shapeA.size(); ++d) {
        EXPECT_EQ(result.shape[d], shapeA[d] * shapeB[d]);
        coord.push_back(raked ? ca[d] * shapeB[d] + cb[d]
                              : cb[d] * shapeA[d] + ca[d]);
      }
      ASSERT_EQ(ownersOf(result.layout, flatOf(coord, result.shape)),
                ownersOf(product, ib * a.size() + ia))
          << (raked ? "raked " : "blocked ") << a.toString() << " x "
          << b.toString();
    }
}

TEST(LayoutAlgebra, BlockedAndRakedProductsPlaceEveryCopy) {
  TileLayout mmaC = parseOk("S[(2, 8, 4, 2) : (2, 4@laneid, 1@laneid, 1)]");
  for (bool raked : {false, true}) {
    expectTileProduct(mmaC, {16, 8},
                      parseOk("S[(2, 2) : (2@warpid, 1@warpid)]"), {2, 2},
                      raked);
    expectTileProduct(mmaC, {16, 8}, parseOk("S[(2, 3) : (3, 1)]"), {2, 3},
                      raked);
    expectTileProduct(parseOk("S[(2, 3) : (1, 2)]"), {2, 3},
                      parseOk("S[(2, 2) : (1, 2)]"), {2, 2}, raked);
    expectTileProduct(parseOk("S[(4, 4) : (1@laneid, 4@laneid)]"), {4, 4},
                      parseOk("S[(2, 2) : (1, 2)]"), {2, 2}, raked);
  }
}

TEST(LayoutAlgebra, BlockedProductBuildsTheWgmmaAccumulator) {
  // wgmma's m64nNk16 D fragment is its m64n8 atom repeated N / 8 times along
  // the columns, each repeat in the next 4 registers (PTXTable.def).
  TileLayout atom =
      parseOk("S[(4, 2, 8, 4, 2) : (1@wid_in_wg, 2, 4@laneid, 1@laneid, 1)]");
  ShapedLayout d256 =
      valueOf(blockedProduct(atom, {64, 8}, parseOk("S[(1, 32)]"), {1, 32}));
  EXPECT_EQ(d256.shape, (llvm::SmallVector<int64_t, 4>{64, 256}));
  EXPECT_EQ(d256.layout.toString(),
            canonical("S[(4, 2, 8, 32, 4, 2) : (1@wid_in_wg, 2, 4@laneid, 4, "
                      "1@laneid, 1)]"));
}

TEST(LayoutAlgebra, TileProductErrors) {
  TileLayout a = parseOk("S[(2, 3)]");
  EXPECT_EQ(errorOf(blockedProduct(a, {2, 3}, parseOk("S[2]"), {2})),
            "blocked product: shapes (2, 3) and (2) differ in rank");
  EXPECT_EQ(errorOf(rakedProduct(a, {3, 3}, parseOk("S[2]"), {2, 1})),
            "raked product: shape (3, 3) has 9 elements, the layout 6");
  EXPECT_EQ(errorOf(blockedProduct(a, {2, 3}, parseOk("S[2]"), {0, 1})),
            "blocked product: shape (0, 1) must have dims >= 1");
}

TEST(LayoutAlgebra, ZippedDivideListsTileNumberThenPosition) {
  for (const char *text :
       {"S[(8, 12)]", "S[(8, 12) : (1, 8)]",
        "S[(4, 2, 12) : (1@warpid, 12, 1)] + Swizzle[0, 1, 2]",
        "S[(2, 4, 12) : (1@laneid, 2@laneid, 1)] + R[2 : 1@warpid]"}) {
    TileLayout a = parseOk(text);
    for (auto tile :
         {std::array<int64_t, 2>{2, 3}, std::array<int64_t, 2>{4, 4},
          std::array<int64_t, 2>{8, 1}, std::array<int64_t, 2>{1, 12}}) {
      ShapedLayout result = valueOf(zippedDivide(a, {8, 12}, tile));
      ASSERT_EQ(result.shape,
                (llvm::SmallVector<int64_t, 4>{8 / tile[0], 12 / tile[1],
                                               tile[0], tile[1]}));
      for (int64_t i = 0; i < a.size(); ++i) {
        auto c = coordOf(i, result.shape);
        int64_t row = c[0] * tile[0] + c[2], col = c[1] * tile[1] + c[3];
        ASSERT_EQ(ownersOf(result.layout, i), ownersOf(a, row * 12 + col))
            << text << " tile " << tile[0] << "x" << tile[1];
      }
    }
  }
  EXPECT_EQ(
      errorOf(zippedDivide(parseOk("S[(8, 12)]"), {8, 12}, {3, 4})),
      "zipped divide: tile (3, 4) does not divide shape (8, 12) (mode 0)");
  EXPECT_EQ(errorOf(zippedDivide(parseOk("S[(8, 12)]"), {8, 12}, {4})),
            "zipped divide: tile (4) and shape (8, 12) differ in rank");
}

} // namespace
