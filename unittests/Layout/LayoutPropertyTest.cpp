//===- LayoutPropertyTest.cpp - Exhaustive TileLayout invariants ----------===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//
//
// Every test states one invariant and checks it on every flat index of every
// layout of two systematic sweeps:
//
//   Shard sweep: 1..4 shard iters, every extent tuple in 1..8. An iter's
//   (stride, axis) comes from the 15 choices {0, 1, 2, 3, P} × {m, laneid,
//   warpid}, P being the product of the inner extents (the row-major stride).
//   1 and 2 iters take every combination of choices; 3 and 4 iters take the
//   row-major layout on m, one memory-only and a few mixed combinations per
//   extent tuple, picked by a fixed hash so that all choices occur.
//
//   Replica sweep: 1..3 shard iters with extents in 1..4 (two mixed choice
//   combinations per tuple), each combined with no replica, every single
//   replica iter of extent 2 or 3 from 8 (stride, axis) choices, 16 replica
//   pairs (unit extents included), and 4 offsets (none, m, warpid, laneid+m).
//
// The expected values are recomputed independently: shard digits come from
// an odometer (last iter fastest) instead of division, replica combinations
// from a second odometer.
//
//===----------------------------------------------------------------------===//

#include "TirX/Layout/LayoutViews.h"
#include "TirX/Layout/TileLayout.h"

#include "llvm/ADT/StringExtras.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <vector>

using namespace mlir::tirx;

namespace mlir::tirx {
// Lets gtest messages show layouts; found by ADL.
static std::ostream &operator<<(std::ostream &os, const TileLayout &layout) {
  return os << layout.toString();
}
} // namespace mlir::tirx

namespace {

//===----------------------------------------------------------------------===//
// Sweeps
//===----------------------------------------------------------------------===//

constexpr Axis kSweepAxes[] = {Axis::m, Axis::laneid, Axis::warpid};
constexpr unsigned kNumChoices = 15;

/// Iter k of `extents` with (stride, axis) choice `choice` in [0, 15).
Iter makeIter(llvm::ArrayRef<int64_t> extents, size_t k, unsigned choice) {
  int64_t inner = 1;
  for (size_t j = k + 1; j < extents.size(); ++j)
    inner *= extents[j];
  const int64_t strides[] = {0, 1, 2, 3, inner};
  return Iter{extents[k], strides[choice % 5], kSweepAxes[choice / 5]};
}

/// A fixed mixing function so that the sampled choices are spread evenly.
unsigned mix(uint64_t a, uint64_t b, uint64_t c) {
  uint64_t h = a * 0x9E3779B97F4A7C15ull ^
               (b + 0x632BE59BD9B4E019ull) * 0xBF58476D1CE4E5B9ull;
  h ^= (c + 1) * 0x94D049BB133111EBull;
  h ^= h >> 31;
  h *= 0xD6E8FEB86659FD93ull;
  h ^= h >> 29;
  return static_cast<unsigned>(h >> 7);
}

TileLayout build(llvm::ArrayRef<Iter> shard, llvm::ArrayRef<Iter> replica = {},
                 const PhysicalCoord &offset = {}) {
  llvm::Expected<TileLayout> layout = TileLayout::get(shard, replica, offset);
  if (!layout) {
    ADD_FAILURE() << "sweep layout rejected: "
                  << llvm::toString(layout.takeError());
    return *TileLayout::getRowMajor({1});
  }
  return *layout;
}

/// Calls fn on every extent tuple of length n in [1, maxExtent]^n.
template <typename Fn> void forEachExtents(size_t n, int64_t maxExtent, Fn fn) {
  llvm::SmallVector<int64_t, 4> extents(n, 1);
  while (true) {
    fn(llvm::ArrayRef<int64_t>(extents));
    size_t k = n;
    while (k > 0 && extents[k - 1] == maxExtent)
      extents[--k] = 1;
    if (k == 0)
      return;
    ++extents[k - 1];
  }
}

const std::vector<TileLayout> &shardSweep() {
  static const std::vector<TileLayout> layouts = [] {
    std::vector<TileLayout> result;
    llvm::SmallVector<Iter, 4> iters;
    for (size_t n = 1; n <= 4; ++n) {
      uint64_t tuple = 0;
      forEachExtents(n, 8, [&](llvm::ArrayRef<int64_t> extents) {
        ++tuple;
        iters.resize(n);
        if (n <= 2) {
          // Every combination of choices.
          unsigned total = n == 1 ? kNumChoices : kNumChoices * kNumChoices;
          for (unsigned c = 0; c < total; ++c) {
            iters[0] = makeIter(extents, 0, c % kNumChoices);
            if (n == 2)
              iters[1] = makeIter(extents, 1, c / kNumChoices);
            result.push_back(build(iters));
          }
          return;
        }
        // Row-major on m (choice 4), one memory-only, then mixed ones.
        for (size_t k = 0; k < n; ++k)
          iters[k] = makeIter(extents, k, 4);
        result.push_back(build(iters));
        for (size_t k = 0; k < n; ++k)
          iters[k] = makeIter(extents, k, mix(tuple, 0, k) % 5);
        result.push_back(build(iters));
        unsigned numMixed = n == 3 ? 6 : 1;
        for (unsigned p = 1; p <= numMixed; ++p) {
          for (size_t k = 0; k < n; ++k)
            iters[k] = makeIter(extents, k, mix(tuple, p, k) % kNumChoices);
          result.push_back(build(iters));
        }
      });
    }
    return result;
  }();
  return layouts;
}

const std::vector<TileLayout> &replicaSweep() {
  static const std::vector<TileLayout> layouts = [] {
    const std::pair<int64_t, Axis> replicaChoices[] = {
        {0, Axis::m},      {1, Axis::m},      {4, Axis::m},
        {0, Axis::laneid}, {1, Axis::laneid}, {8, Axis::laneid},
        {1, Axis::warpid}, {4, Axis::warpid}};
    llvm::SmallVector<llvm::SmallVector<Iter, 2>> replicas;
    replicas.emplace_back();
    for (int64_t extent : {2, 3})
      for (auto [stride, axis] : replicaChoices)
        replicas.push_back({Iter{extent, stride, axis}});
    for (unsigned p = 0; p < 16; ++p) {
      unsigned h = mix(p, 17, 0);
      auto [s0, a0] = replicaChoices[h % 8];
      auto [s1, a1] = replicaChoices[(h / 8) % 8];
      replicas.push_back({Iter{int64_t(1 + (h / 64) % 3), s0, a0},
                          Iter{int64_t(1 + (h / 192) % 3), s1, a1}});
    }
    PhysicalCoord offsets[4] = {};
    at(offsets[1], Axis::m) = 3;
    at(offsets[2], Axis::warpid) = 5;
    at(offsets[3], Axis::laneid) = 2;
    at(offsets[3], Axis::m) = 1;

    std::vector<TileLayout> result;
    llvm::SmallVector<Iter, 4> iters;
    for (size_t n = 1; n <= 3; ++n) {
      uint64_t tuple = 0;
      forEachExtents(n, 4, [&](llvm::ArrayRef<int64_t> extents) {
        ++tuple;
        iters.resize(n);
        for (unsigned p = 0; p < 2; ++p) {
          for (size_t k = 0; k < n; ++k)
            iters[k] =
                makeIter(extents, k, mix(tuple, p + 100 * n, k) % kNumChoices);
          for (const auto &replica : replicas)
            for (const PhysicalCoord &offset : offsets)
              result.push_back(build(iters, replica, offset));
        }
      });
    }
    return result;
  }();
  return layouts;
}

//===----------------------------------------------------------------------===//
// Independent recomputation
//===----------------------------------------------------------------------===//

/// Mixed-radix counter over iter extents, last digit fastest.
struct Odometer {
  explicit Odometer(llvm::ArrayRef<Iter> iters)
      : iters(iters), digits(iters.size(), 0) {}
  bool next() {
    for (size_t k = iters.size(); k-- > 0;) {
      if (++digits[k] < iters[k].extent)
        return true;
      digits[k] = 0;
    }
    return false;
  }
  llvm::ArrayRef<Iter> iters;
  llvm::SmallVector<int64_t, 4> digits;
};

PhysicalCoord expectedBase(const TileLayout &layout,
                           llvm::ArrayRef<int64_t> digits) {
  PhysicalCoord coord = layout.getOffset();
  llvm::ArrayRef<Iter> shard = layout.getShard();
  for (size_t k = 0; k < shard.size(); ++k)
    at(coord, shard[k].axis) += digits[k] * shard[k].stride;
  return coord;
}

/// Base plus every replica combination, replica odometer order.
std::vector<PhysicalCoord> expectedOwners(const TileLayout &layout,
                                          const PhysicalCoord &base) {
  std::vector<PhysicalCoord> owners;
  Odometer replica(layout.getReplica());
  do {
    PhysicalCoord coord = base;
    for (auto [iter, digit] : llvm::zip(layout.getReplica(), replica.digits))
      at(coord, iter.axis) += digit * iter.stride;
    owners.push_back(coord);
  } while (replica.next());
  return owners;
}

std::vector<PhysicalCoord> ownersOf(const TileLayout &layout, int64_t flat) {
  std::vector<PhysicalCoord> owners;
  layout.forEachOwner(flat,
                      [&](const PhysicalCoord &c) { owners.push_back(c); });
  return owners;
}

std::vector<PhysicalCoord> sorted(std::vector<PhysicalCoord> coords) {
  std::sort(coords.begin(), coords.end());
  return coords;
}

std::string str(const PhysicalCoord &coord) {
  std::string text = "{";
  for (unsigned a = 0; a < kNumAxes; ++a)
    if (coord[a] != 0)
      text += (getAxisName(static_cast<Axis>(a)) + "=" + llvm::Twine(coord[a]) +
               " ")
                  .str();
  return text + "}";
}

/// Stops a test after a few failures so that a broken invariant does not
/// print millions of lines.
struct FailureBudget {
  int left = 10;
};

#define CHECK_OR_REPORT(cond, budget, message)                                 \
  do {                                                                         \
    if (!(cond)) {                                                             \
      ADD_FAILURE() << message;                                                \
      if (--(budget).left <= 0)                                                \
        return;                                                                \
    }                                                                          \
  } while (false)

template <typename Fn> void forAllSweeps(Fn fn) {
  for (const TileLayout &layout : shardSweep())
    fn(layout);
  for (const TileLayout &layout : replicaSweep())
    fn(layout);
}

//===----------------------------------------------------------------------===//
// Invariants
//===----------------------------------------------------------------------===//

TEST(LayoutProperty, SweepsHaveTheAdvertisedSize) {
  // 120 + 64·225 + 512·8 + 4096·3 and 84·2·33·4.
  EXPECT_EQ(shardSweep().size(), 120u + 14400u + 4096u + 12288u);
  EXPECT_EQ(replicaSweep().size(), 84u * 2u * 33u * 4u);
}

TEST(LayoutProperty, ApplyEqualsOffsetPlusDigitTimesStrideSum) {
  FailureBudget budget;
  forAllSweeps([&](const TileLayout &layout) {
    Odometer odometer(layout.getShard());
    llvm::SmallVector<int64_t, 4> shape;
    for (const Iter &iter : layout.getShard())
      shape.push_back(iter.extent);
    int64_t flat = 0;
    do {
      PhysicalCoord expected = expectedBase(layout, odometer.digits);
      CHECK_OR_REPORT(layout.apply(flat) == expected, budget,
                      layout << " apply(" << flat
                             << ") = " << str(layout.apply(flat))
                             << ", expected " << str(expected));
      // Any logical shape of the same size gives the same map.
      CHECK_OR_REPORT(layout.apply(odometer.digits, shape) == expected, budget,
                      layout << " apply by coordinate at " << flat);
      ++flat;
    } while (odometer.next());
  });
}

TEST(LayoutProperty, SizeIsTheNumberOfFlatIndices) {
  FailureBudget budget;
  forAllSweeps([&](const TileLayout &layout) {
    Odometer odometer(layout.getShard());
    int64_t count = 1;
    while (odometer.next())
      ++count;
    CHECK_OR_REPORT(layout.size() == count, budget, layout);
    int64_t product = 1;
    for (unsigned a = 0; a < kNumAxes; ++a)
      product *= layout.size(static_cast<Axis>(a));
    CHECK_OR_REPORT(product == count, budget, layout << " per-axis sizes");
    Odometer replica(layout.getReplica());
    int64_t copies = 1;
    while (replica.next())
      ++copies;
    CHECK_OR_REPORT(layout.getNumReplicas() == copies, budget, layout);
  });
}

TEST(LayoutProperty, ForEachOwnerIsBasePlusEveryReplicaCombination) {
  FailureBudget budget;
  for (const TileLayout &layout : replicaSweep()) {
    for (int64_t flat = 0, e = layout.size(); flat < e; ++flat) {
      std::vector<PhysicalCoord> expected =
          expectedOwners(layout, layout.apply(flat));
      CHECK_OR_REPORT(ownersOf(layout, flat) == expected, budget,
                      layout << " owners of " << flat);
    }
  }
}

TEST(LayoutProperty, CanonicalizePreservesApplyOwnersAndSpanAndIsIdempotent) {
  FailureBudget budget;
  forAllSweeps([&](const TileLayout &layout) {
    TileLayout canonical = layout.canonicalize();
    CHECK_OR_REPORT(canonical.canonicalize() == canonical, budget,
                    layout << " -> " << canonical << " is not idempotent");
    CHECK_OR_REPORT(canonical.size() == layout.size() &&
                        canonical.getNumReplicas() == layout.getNumReplicas(),
                    budget, layout << " -> " << canonical << " size");
    for (unsigned a = 0; a < kNumAxes; ++a)
      CHECK_OR_REPORT(canonical.span(static_cast<Axis>(a)) ==
                          layout.span(static_cast<Axis>(a)),
                      budget, layout << " -> " << canonical << " span");
    bool replicated = layout.getNumReplicas() > 1;
    for (int64_t flat = 0, e = layout.size(); flat < e; ++flat) {
      CHECK_OR_REPORT(canonical.apply(flat) == layout.apply(flat), budget,
                      layout << " -> " << canonical << " differs at " << flat);
      if (replicated)
        CHECK_OR_REPORT(
            sorted(ownersOf(canonical, flat)) == sorted(ownersOf(layout, flat)),
            budget, layout << " -> " << canonical << " owners at " << flat);
    }
  });
}

TEST(LayoutProperty, CanonicalFormHasNoUnitOrFusableItersAndSortedReplicas) {
  FailureBudget budget;
  forAllSweeps([&](const TileLayout &layout) {
    TileLayout canonical = layout.canonicalize();
    llvm::ArrayRef<Iter> shard = canonical.getShard();
    if (shard.size() > 1)
      for (const Iter &iter : shard)
        CHECK_OR_REPORT(iter.extent > 1, budget, canonical << " unit iter");
    for (size_t k = 1; k < shard.size(); ++k)
      CHECK_OR_REPORT(
          !(shard[k - 1].axis == shard[k].axis &&
            shard[k].extent * shard[k].stride == shard[k - 1].stride),
          budget, canonical << " fusable at " << k);
    llvm::ArrayRef<Iter> replica = canonical.getReplica();
    for (size_t k = 0; k < replica.size(); ++k) {
      CHECK_OR_REPORT(replica[k].extent > 1, budget,
                      canonical << " unit replica");
      if (k > 0)
        CHECK_OR_REPORT(std::make_tuple(replica[k - 1].axis,
                                        replica[k - 1].stride,
                                        replica[k - 1].extent) <=
                            std::make_tuple(replica[k].axis, replica[k].stride,
                                            replica[k].extent),
                        budget, canonical << " replicas unsorted");
    }
    CHECK_OR_REPORT(canonical.getOffset() == layout.getOffset(), budget,
                    canonical << " offset changed");
  });
}

TEST(LayoutProperty, ParseOfPrintIsIdentityForLayoutAndCanonicalForm) {
  FailureBudget budget;
  forAllSweeps([&](const TileLayout &layout) {
    for (const TileLayout &l : {layout, layout.canonicalize()}) {
      std::string text = l.toString();
      llvm::Expected<TileLayout> parsed = TileLayout::parse(text);
      if (!parsed) {
        CHECK_OR_REPORT(false, budget,
                        text << ": " << llvm::toString(parsed.takeError()));
        continue;
      }
      CHECK_OR_REPORT(*parsed == l, budget, text << " reparsed as " << *parsed);
      CHECK_OR_REPORT(hash_value(*parsed) == hash_value(l), budget,
                      text << " hash differs after reparse");
    }
  });
}

TEST(LayoutProperty, SpanIsOnePlusTheLargestCoordinateOfAnyOwner) {
  // Strides and offsets are non-negative, so the bound is attained: for
  // every axis, span(a) == 1 + max over elements and replicas of coord[a],
  // and the smallest coordinate is the offset.
  FailureBudget budget;
  forAllSweeps([&](const TileLayout &layout) {
    PhysicalCoord largest{}, smallest;
    smallest.fill(INT64_MAX);
    for (int64_t flat = 0, e = layout.size(); flat < e; ++flat)
      layout.forEachOwner(flat, [&](const PhysicalCoord &coord) {
        for (unsigned a = 0; a < kNumAxes; ++a) {
          largest[a] = std::max(largest[a], coord[a]);
          smallest[a] = std::min(smallest[a], coord[a]);
        }
      });
    for (unsigned a = 0; a < kNumAxes; ++a) {
      Axis axis = static_cast<Axis>(a);
      CHECK_OR_REPORT(layout.span(axis) == largest[a] + 1, budget,
                      layout << " span(" << getAxisName(axis).str() << ") = "
                             << layout.span(axis) << ", max " << largest[a]);
      CHECK_OR_REPORT(smallest[a] == layout.getOffset()[a], budget,
                      layout << " min on " << getAxisName(axis).str());
    }
  });
}

TEST(LayoutProperty, StorageKeepsTheMemoryCoordinateOfEveryElement) {
  // Element e of the layout is element idx(e) of storage(), idx being e's
  // shard digits on m read as a mixed-radix number; storage() maps it to
  // the same m coordinate, with the same set of m replicas.
  FailureBudget budget;
  forAllSweeps([&](const TileLayout &layout) {
    TileLayout storage = layout.storage();
    CHECK_OR_REPORT(!storage.hasThreadAxes(), budget, storage);
    CHECK_OR_REPORT(storage.size() == layout.size(Axis::m), budget, storage);
    CHECK_OR_REPORT(storage.span(Axis::m) == layout.span(Axis::m), budget,
                    layout << " storage span " << storage);
    bool replicated = layout.getNumReplicas() > 1;
    Odometer odometer(layout.getShard());
    int64_t flat = 0;
    do {
      int64_t index = 0;
      for (auto [iter, digit] : llvm::zip(layout.getShard(), odometer.digits))
        if (iter.axis == Axis::m)
          index = index * iter.extent + digit;
      PhysicalCoord expected{};
      at(expected, Axis::m) = at(layout.apply(flat), Axis::m);
      CHECK_OR_REPORT(storage.apply(index) == expected, budget,
                      layout << " storage " << storage << " at " << flat);
      if (replicated) {
        std::vector<int64_t> slots, storageSlots;
        for (const PhysicalCoord &c : ownersOf(layout, flat))
          slots.push_back(at(c, Axis::m));
        for (const PhysicalCoord &c : ownersOf(storage, index))
          storageSlots.push_back(at(c, Axis::m));
        llvm::sort(slots);
        slots.erase(std::unique(slots.begin(), slots.end()), slots.end());
        llvm::sort(storageSlots);
        storageSlots.erase(
            std::unique(storageSlots.begin(), storageSlots.end()),
            storageSlots.end());
        CHECK_OR_REPORT(slots == storageSlots, budget,
                        layout << " storage replicas at " << flat);
      }
      ++flat;
    } while (odometer.next());
  });
}

TEST(LayoutProperty, ContiguousIffApplyIsFlatPlusOffsetForSingleCopyMemory) {
  FailureBudget budget;
  int numContiguous = 0, numOther = 0;
  forAllSweeps([&](const TileLayout &layout) {
    if (!layout.isMemoryOnly() || layout.getNumReplicas() != 1) {
      CHECK_OR_REPORT(!layout.isContiguous(), budget,
                      layout << " has threads or copies but is contiguous");
      return;
    }
    bool identity = true;
    for (int64_t flat = 0, e = layout.size(); flat < e && identity; ++flat)
      identity = at(layout.apply(flat), Axis::m) ==
                 flat + at(layout.getOffset(), Axis::m);
    CHECK_OR_REPORT(layout.isContiguous() == identity, budget,
                    layout << " isContiguous() = " << layout.isContiguous());
    ++(identity ? numContiguous : numOther);
  });
  EXPECT_GT(numContiguous, 1000);
  EXPECT_GT(numOther, 1000);
}

TEST(LayoutProperty, TrivialIffApplyIsIdentityOnMWithNoCopiesOrOffset) {
  // Exception by the spec's rule 1: a one-element layout whose first iter is
  // on a thread axis keeps that axis and is not trivial.
  FailureBudget budget;
  forAllSweeps([&](const TileLayout &layout) {
    bool identity =
        layout.getNumReplicas() == 1 &&
        llvm::all_of(layout.getOffset(), [](int64_t o) { return o == 0; }) &&
        !(layout.size() == 1 && layout.getShard()[0].axis != Axis::m);
    for (int64_t flat = 0, e = layout.size(); flat < e && identity; ++flat) {
      PhysicalCoord expected{};
      at(expected, Axis::m) = flat;
      identity = layout.apply(flat) == expected;
    }
    CHECK_OR_REPORT(layout.isTrivial() == identity, budget,
                    layout << " isTrivial() = " << layout.isTrivial());
  });
}

TEST(LayoutProperty, UnpackThenPackIsIdentity) {
  FailureBudget budget;
  forAllSweeps([&](const TileLayout &layout) {
    for (int64_t factor : {2, 3}) {
      llvm::Expected<TileLayout> narrow = layout.unpack(factor);
      if (!narrow) {
        CHECK_OR_REPORT(false, budget,
                        layout << ": " << llvm::toString(narrow.takeError()));
        continue;
      }
      llvm::Expected<TileLayout> wide = narrow->pack(factor);
      if (!wide) {
        CHECK_OR_REPORT(false, budget,
                        *narrow << ": " << llvm::toString(wide.takeError()));
        continue;
      }
      CHECK_OR_REPORT(*wide == layout, budget,
                      layout << " unpack/pack " << factor << " gives "
                             << *wide);
    }
  });
}

TEST(LayoutProperty, UnpackPutsSubElementKOfElementEAtSlotNTimesSlotPlusK) {
  // Same owner threads; slot s becomes n·s + k, for the base coordinate and
  // every replica. Factor 3 skips the 4-iter part of the shard sweep to save
  // time.
  FailureBudget budget;
  forAllSweeps([&](const TileLayout &layout) {
    for (int64_t factor : {2, 3}) {
      if (factor == 3 && layout.getShard().size() == 4)
        continue;
      TileLayout narrow = *layout.unpack(factor);
      CHECK_OR_REPORT(narrow.size() == factor * layout.size(), budget, narrow);
      bool replicated = layout.getNumReplicas() > 1;
      for (int64_t flat = 0, e = layout.size(); flat < e; ++flat) {
        std::vector<PhysicalCoord> owners;
        if (replicated)
          owners = ownersOf(layout, flat);
        PhysicalCoord base = layout.apply(flat);
        for (int64_t k = 0; k < factor; ++k) {
          PhysicalCoord expected = base;
          at(expected, Axis::m) = factor * at(base, Axis::m) + k;
          CHECK_OR_REPORT(narrow.apply(flat * factor + k) == expected, budget,
                          layout << " unpack(" << factor << ") at " << flat
                                 << "." << k);
          if (!replicated)
            continue;
          std::vector<PhysicalCoord> expectedOwners = owners;
          for (PhysicalCoord &c : expectedOwners)
            at(c, Axis::m) = factor * at(c, Axis::m) + k;
          CHECK_OR_REPORT(sorted(ownersOf(narrow, flat * factor + k)) ==
                              sorted(expectedOwners),
                          budget,
                          layout << " unpack(" << factor << ") owners at "
                                 << flat << "." << k);
        }
      }
    }
  });
}

TEST(LayoutProperty, PackSucceedsExactlyWhenAllowedAndUnpackRestoresApply) {
  // pack(2) needs the innermost shard iter on m with stride 1 and an even
  // extent, and every other memory stride and the m offset even; then
  // unpack(2) of the result maps every element like the original.
  FailureBudget budget;
  int numPacked = 0;
  forAllSweeps([&](const TileLayout &layout) {
    const Iter &inner = layout.getShard().back();
    bool allowed = inner.axis == Axis::m && inner.stride == 1 &&
                   inner.extent % 2 == 0 &&
                   at(layout.getOffset(), Axis::m) % 2 == 0;
    for (const Iter &iter : layout.getShard().drop_back())
      allowed &= iter.axis != Axis::m || iter.stride % 2 == 0;
    for (const Iter &iter : layout.getReplica())
      allowed &= iter.axis != Axis::m || iter.stride % 2 == 0;
    llvm::Expected<TileLayout> wide = layout.pack(2);
    CHECK_OR_REPORT(static_cast<bool>(wide) == allowed, budget,
                    layout << " pack(2) " << (wide ? "succeeded" : "failed"));
    if (!wide) {
      llvm::consumeError(wide.takeError());
      return;
    }
    ++numPacked;
    TileLayout again = *wide->unpack(2);
    CHECK_OR_REPORT(again.size() == layout.size(), budget, again);
    for (int64_t flat = 0, e = layout.size(); flat < e; ++flat)
      CHECK_OR_REPORT(again.apply(flat) == layout.apply(flat), budget,
                      layout << " pack/unpack differs at " << flat);
  });
  EXPECT_GT(numPacked, 1000);
}

TEST(LayoutProperty, ScopeFollowsTheAxesInUse) {
  FailureBudget budget;
  forAllSweeps([&](const TileLayout &layout) {
    llvm::SmallVector<Axis> axes = getViewThreadAxes(layout);
    bool lane = llvm::is_contained(axes, Axis::laneid);
    bool warp = llvm::is_contained(axes, Axis::warpid);
    std::pair<ExecScope, ExecScope> expected = {lane   ? ExecScope::thread
                                                : warp ? ExecScope::warp
                                                       : ExecScope::thread,
                                                warp   ? ExecScope::cta
                                                : lane ? ExecScope::warp
                                                       : ExecScope::thread};
    llvm::Expected<std::pair<ExecScope, ExecScope>> scope = layout.getScope();
    if (!scope) {
      CHECK_OR_REPORT(false, budget,
                      layout << ": " << llvm::toString(scope.takeError()));
      return;
    }
    CHECK_OR_REPORT(*scope == expected, budget, layout << " scope");
  });
}

TEST(LayoutProperty, ViewsPrintOneLinePerElementAndPerThread) {
  // On every 16th layout: the tensor view has size() lines after its header
  // and the thread view lists size()·replicas entries over distinct threads.
  FailureBudget budget;
  size_t index = 0;
  forAllSweeps([&](const TileLayout &layout) {
    if (index++ % 16 != 0)
      return;
    llvm::SmallVector<int64_t> shape = {layout.size()};
    std::string tensor, thread;
    llvm::raw_string_ostream tensorOs(tensor), threadOs(thread);
    printTensorView(tensorOs, layout, shape);
    printThreadView(threadOs, layout, shape);
    CHECK_OR_REPORT(int64_t(llvm::count(tensor, '\n')) == layout.size() + 1,
                    budget,
                    layout << " tensor view:\n"
                           << tensor);
    llvm::SmallVector<Axis> axes = getViewThreadAxes(layout);
    std::vector<std::vector<int64_t>> threads;
    for (int64_t flat = 0, e = layout.size(); flat < e; ++flat)
      layout.forEachOwner(flat, [&](const PhysicalCoord &c) {
        std::vector<int64_t> key;
        for (Axis axis : axes)
          key.push_back(at(c, axis));
        threads.push_back(key);
      });
    llvm::sort(threads);
    threads.erase(std::unique(threads.begin(), threads.end()), threads.end());
    CHECK_OR_REPORT(int64_t(llvm::count(thread, '\n')) ==
                        int64_t(threads.size()) + 1,
                    budget,
                    layout << " thread view:\n"
                           << thread);
    int64_t entries = 0;
    for (size_t pos = thread.find(" = ["); pos != std::string::npos;
         pos = thread.find(" = [", pos + 1))
      ++entries;
    CHECK_OR_REPORT(entries == layout.size() * layout.getNumReplicas(), budget,
                    layout << " thread view entries");
  });
}

TEST(LayoutProperty, ParserNeverCrashesOnMutatedNotation) {
  // Deleting, replacing or inserting one character anywhere in valid texts
  // gives a layout that round-trips or an error; never a crash.
  const char *seeds[] = {
      "S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1)] + R[2:4@warpid] + 5@warpid",
      "S[4, 8]",
      "S[(2,32,4):(1@warpid,1@laneid,1)]",
      "S[3 : 16] + R[(2, 2) : (1@tx, 0)] + 7 + 1@bz",
      "S[9223372036854775807 : 0] + 4611686018427387904",
  };
  const char alphabet[] = " ()[]:,@+-019SRmx";
  int numParsed = 0;
  FailureBudget budget;
  auto check = [&](const std::string &text) {
    llvm::Expected<TileLayout> layout = TileLayout::parse(text);
    if (!layout) {
      std::string message = llvm::toString(layout.takeError());
      CHECK_OR_REPORT(!message.empty() &&
                          message.find('\n') == std::string::npos,
                      budget, "bad message for '" << text << "'");
      return;
    }
    ++numParsed;
    llvm::Expected<TileLayout> again = TileLayout::parse(layout->toString());
    CHECK_OR_REPORT(again && *again == *layout, budget,
                    "'" << text << "' does not round-trip");
    if (!again)
      llvm::consumeError(again.takeError());
  };
  for (llvm::StringRef seed : seeds) {
    for (size_t i = 0; i <= seed.size(); ++i) {
      if (i < seed.size())
        check((seed.take_front(i) + seed.drop_front(i + 1)).str());
      for (char c : llvm::StringRef(alphabet)) {
        if (i < seed.size())
          check((seed.take_front(i) + llvm::Twine(c) + seed.drop_front(i + 1))
                    .str());
        check((seed.take_front(i) + llvm::Twine(c) + seed.drop_front(i)).str());
      }
    }
  }
  EXPECT_GT(numParsed, 100);
}

} // namespace
