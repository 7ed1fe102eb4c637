//===- TileLayoutTest.cpp - TileLayout semantics and views ----------------===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//
//
// The spec's worked numbers, construction errors, scope chains, the derived
// layouts, and the views printed by tirx-layout.
//
//===----------------------------------------------------------------------===//

#include "TirX/Layout/TileLayout.h"
#include "TirX/Layout/LayoutViews.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/raw_ostream.h"

#include "LayoutTestHelpers.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <climits>
#include <map>
#include <set>

using namespace mlir::tirx;
using namespace mlir::tirx::layouttest;

namespace {

PhysicalCoord coordOf(std::initializer_list<std::pair<Axis, int64_t>> items) {
  PhysicalCoord coord{};
  for (auto [axis, value] : items)
    at(coord, axis) = value;
  return coord;
}

std::vector<PhysicalCoord> ownersOf(const TileLayout &layout, int64_t flat) {
  std::vector<PhysicalCoord> owners;
  layout.forEachOwner(flat,
                      [&](const PhysicalCoord &c) { owners.push_back(c); });
  return owners;
}

//===----------------------------------------------------------------------===//
// Spec worked numbers
//===----------------------------------------------------------------------===//

// Spec §1.4: element (i, j) of shape (8, 16) lives in lane 4i + (⌊j/2⌋ mod 4)
// of warps {⌊j/8⌋ + 5, ⌊j/8⌋ + 9}, slot j mod 2.
TEST(TileLayoutSpec, Section14WorkedExampleForEveryElement) {
  TileLayout layout = parseOk("S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1)] + "
                              "R[2:4@warpid] + 5@warpid");
  ASSERT_EQ(layout.size(), 128);
  ASSERT_EQ(layout.getNumReplicas(), 2);
  for (int64_t i = 0; i < 8; ++i) {
    for (int64_t j = 0; j < 16; ++j) {
      int64_t lane = 4 * i + (j / 2) % 4, slot = j % 2, warp = j / 8 + 5;
      PhysicalCoord base = layout.apply({i, j}, {8, 16});
      EXPECT_EQ(base, coordOf({{Axis::laneid, lane},
                               {Axis::warpid, warp},
                               {Axis::m, slot}}))
          << "(" << i << ", " << j << ")";
      std::vector<PhysicalCoord> owners = ownersOf(layout, i * 16 + j);
      std::vector<PhysicalCoord> expected = {
          coordOf(
              {{Axis::laneid, lane}, {Axis::warpid, warp}, {Axis::m, slot}}),
          coordOf({{Axis::laneid, lane},
                   {Axis::warpid, warp + 4},
                   {Axis::m, slot}})};
      EXPECT_EQ(owners, expected) << "(" << i << ", " << j << ")";
    }
  }
  // The confirmed numbers: (7, 15) → lane 31, warps {6, 10}, slot 1.
  std::vector<PhysicalCoord> owners = ownersOf(layout, 7 * 16 + 15);
  ASSERT_EQ(owners.size(), 2u);
  EXPECT_EQ(at(owners[0], Axis::laneid), 31);
  EXPECT_EQ(at(owners[0], Axis::warpid), 6);
  EXPECT_EQ(at(owners[1], Axis::warpid), 10);
  EXPECT_EQ(at(owners[1], Axis::laneid), 31);
  EXPECT_EQ(at(owners[0], Axis::m), 1);
  EXPECT_EQ(at(owners[1], Axis::m), 1);
}

TEST(TileLayoutSpec, Section14FragmentLaneAndSlot) {
  TileLayout layout = parseOk("S[(32,4):(1@laneid,1)]");
  PhysicalCoord c = layout.apply({3, 2}, {32, 4});
  EXPECT_EQ(c, coordOf({{Axis::laneid, 3}, {Axis::m, 2}}));
  EXPECT_EQ(layout.apply(3 * 4 + 2), c);
}

TEST(TileLayoutSpec, Section12DefaultStridesAreRowMajor) {
  TileLayout layout = parseOk("S[4, 8]");
  EXPECT_EQ(at(layout.apply({1, 2}, {4, 8}), Axis::m), 10);
  EXPECT_EQ(layout, parseOk("S[(4,8):(8,1)]"));
  EXPECT_EQ(layout, *TileLayout::getRowMajor({4, 8}));
}

TEST(TileLayoutSpec, Section18SpanIsTheLocalAllocation) {
  TileLayout layout = parseOk("S[(3,4):(16,2)]");
  EXPECT_EQ(layout.span(Axis::m), 39);
  EXPECT_EQ(at(layout.apply({2, 3}, {3, 4}), Axis::m), 38);
  // Layouts with gaps: 4 values at slots 0, 2, 4, 6 of an 8-slot footprint.
  TileLayout gaps = parseOk("S[(4,1):(2,1)]");
  EXPECT_EQ(gaps.span(Axis::m), 7);
  for (int64_t i = 0; i < 4; ++i)
    EXPECT_EQ(at(gaps.apply({i, 0}, {4, 1}), Axis::m), 2 * i);
}

TEST(TileLayoutSpec, StorageDropsThreadIters) {
  TileLayout layout = parseOk("S[(2,32,4):(1@warpid,1@laneid,1)]");
  TileLayout storage = layout.storage();
  EXPECT_EQ(storage, parseOk("S[4 : 1]"));
  EXPECT_EQ(storage.span(Axis::m), 4);
  EXPECT_FALSE(storage.hasThreadAxes());
  // Thread replicas and offsets go, memory ones stay.
  EXPECT_EQ(parseOk("S[(32, 2, 3):(1@laneid, 8, 2)] + R[(2, 2):(1@warpid, 1)] "
                    "+ 3@warpid + 7")
                .storage(),
            parseOk("S[(2, 3):(8, 2)] + R[2 : 1] + 7"));
  // No memory iter at all: one slot.
  EXPECT_EQ(parseOk("S[32 : 1@laneid]").storage(), parseOk("S[1 : 1]"));
}

// The affine_relu register layout: 64 threads each holding 4 slots, and the
// thread (w, l) covers elements 128w + 4l .. 128w + 4l + 3 of A (spec §2.5).
TEST(TileLayoutSpec, AffineReluLayoutIs64ThreadsBy4Slots) {
  TileLayout layout = parseOk("S[(2,32,4):(1@warpid,1@laneid,1)]");
  ASSERT_EQ(layout.size(), 256);
  std::map<int64_t, std::set<int64_t>> slotsByThread;
  for (int64_t flat = 0; flat < 256; ++flat) {
    PhysicalCoord c = layout.apply(flat);
    slotsByThread[getFlatThreadId(c)].insert(at(c, Axis::m));
    EXPECT_EQ(128 * at(c, Axis::warpid) + 4 * at(c, Axis::laneid) +
                  at(c, Axis::m),
              flat);
  }
  EXPECT_EQ(slotsByThread.size(), 64u);
  for (auto &[thread, slots] : slotsByThread) {
    EXPECT_GE(thread, 0);
    EXPECT_LT(thread, 64);
    EXPECT_EQ(slots, (std::set<int64_t>{0, 1, 2, 3}));
  }
  EXPECT_EQ(layout.span(Axis::m), 4);
  EXPECT_EQ(layout.span(Axis::laneid), 32);
  EXPECT_EQ(layout.span(Axis::warpid), 2);
  EXPECT_EQ(*layout.getScope(),
            std::make_pair(ExecScope::thread, ExecScope::cta));
}

//===----------------------------------------------------------------------===//
// Axes, scopes and small accessors
//===----------------------------------------------------------------------===//

TEST(TileLayoutAxes, NamesRoundTrip) {
  for (unsigned a = 0; a < kNumAxes; ++a) {
    Axis axis = static_cast<Axis>(a);
    EXPECT_EQ(parseAxisName(getAxisName(axis)), axis);
    EXPECT_EQ(isThreadAxis(axis), axis != Axis::m);
  }
  EXPECT_EQ(getAxisName(Axis::wid_in_wg), "wid_in_wg");
  EXPECT_FALSE(parseAxisName("lane"));
  EXPECT_FALSE(parseAxisName(""));
  EXPECT_TRUE(isBlockAxis(Axis::by));
  EXPECT_FALSE(isBlockAxis(Axis::tx));
  for (ExecScope scope :
       {ExecScope::thread, ExecScope::warp, ExecScope::warpgroup,
        ExecScope::cta, ExecScope::grid})
    EXPECT_EQ(parseExecScopeName(getExecScopeName(scope)), scope);
  EXPECT_FALSE(parseExecScopeName("block"));
  EXPECT_EQ(getAxisScopeEdge(Axis::tid_in_wg),
            std::make_pair(ExecScope::thread, ExecScope::warpgroup));
  EXPECT_EQ(getAxisScopeEdge(Axis::bz),
            std::make_pair(ExecScope::cta, ExecScope::grid));
}

TEST(TileLayoutAxes, FlatThreadId) {
  EXPECT_EQ(getFlatThreadId(coordOf({{Axis::laneid, 5}, {Axis::warpid, 3}})),
            101);
  EXPECT_EQ(getFlatThreadId(coordOf({{Axis::tid_in_wg, 5}, {Axis::wgid, 2}})),
            261);
  EXPECT_EQ(getFlatThreadId(coordOf(
                {{Axis::laneid, 1}, {Axis::wid_in_wg, 2}, {Axis::wgid, 1}})),
            193);
  EXPECT_EQ(getFlatThreadId(coordOf({{Axis::tx, 77}, {Axis::m, 9}})), 77);
}

TEST(TileLayoutAccessors, SizesAndFlags) {
  TileLayout layout = parseOk("S[(2,32,4):(1@warpid,1@laneid,1)] + "
                              "R[(3, 2):(0@wgid, 8)]");
  EXPECT_EQ(layout.size(), 256);
  EXPECT_EQ(layout.size(Axis::laneid), 32);
  EXPECT_EQ(layout.size(Axis::m), 4);
  EXPECT_EQ(layout.size(Axis::tx), 1);
  EXPECT_EQ(layout.getNumReplicas(), 6);
  EXPECT_EQ(layout.span(Axis::m), 4 + 8);
  EXPECT_EQ(layout.span(Axis::wgid), 1);
  EXPECT_TRUE(layout.hasThreadAxes());
  EXPECT_FALSE(layout.isMemoryOnly());
  EXPECT_FALSE(parseOk("S[4 : 1] + R[2 : 4]").hasThreadAxes());
  EXPECT_TRUE(parseOk("S[4 : 1] + R[2 : 0@laneid]").hasThreadAxes());
  EXPECT_TRUE(parseOk("S[4 : 1] + 1@tx").hasThreadAxes());
  EXPECT_EQ(ownersOf(layout, 5).size(), 6u);
}

TEST(TileLayoutAccessors, HashFollowsEquality) {
  TileLayout a = parseOk("S[(2,4):(4@laneid,1)] + R[2 : 1@warpid] + 3");
  TileLayout b = parseOk("S[(2, 4) : (4@laneid, 1)] + 3 + R[2:1@warpid]");
  EXPECT_EQ(a, b);
  EXPECT_EQ(hash_value(a), hash_value(b));
  llvm::DenseSet<llvm::hash_code> hashes;
  for (llvm::StringRef text :
       {"S[8 : 1]", "S[8 : 2]", "S[8 : 1@laneid]", "S[(2,4):(4,1)]",
        "S[8 : 1] + R[2 : 1]", "S[8 : 1] + 1", "S[8 : 1] + 1@warpid"})
    hashes.insert(hash_value(parseOk(text)));
  EXPECT_EQ(hashes.size(), 7u);
  EXPECT_EQ(hash_value(Iter{4, 1, Axis::m}), hash_value(Iter{4, 1, Axis::m}));
  EXPECT_NE(hash_value(Iter{4, 1, Axis::m}),
            hash_value(Iter{4, 1, Axis::laneid}));
}

//===----------------------------------------------------------------------===//
// Construction errors
//===----------------------------------------------------------------------===//

TEST(TileLayoutGet, RejectsInvalidIters) {
  PhysicalCoord zero{};
  EXPECT_EQ(errorOf(TileLayout::get({}, {}, zero)),
            "layout has no shard iters; a layout needs at least one");
  // A replica alone is not a layout either.
  EXPECT_EQ(errorOf(TileLayout::get({}, {{2, 1, Axis::warpid}}, zero)),
            "layout has no shard iters; a layout needs at least one");
  EXPECT_EQ(
      errorOf(TileLayout::get({{4, 1, Axis::m}, {0, 1, Axis::m}}, {}, zero)),
      "shard iter 1 has extent 0; extents must be positive");
  EXPECT_EQ(errorOf(TileLayout::get({{-3, 1, Axis::m}}, {}, zero)),
            "shard iter 0 has extent -3; extents must be positive");
  EXPECT_EQ(errorOf(TileLayout::get({{4, -1, Axis::laneid}}, {}, zero)),
            "shard iter 0 has stride -1@laneid; strides must be non-negative");
  EXPECT_EQ(
      errorOf(TileLayout::get({{4, 1, Axis::m}},
                              {{2, 1, Axis::m}, {0, 1, Axis::warpid}}, zero)),
      "replica iter 1 has extent 0; extents must be positive");
  EXPECT_EQ(
      errorOf(TileLayout::get({{4, 1, Axis::m}}, {{2, -4, Axis::m}}, zero)),
      "replica iter 0 has stride -4; strides must be non-negative");
  EXPECT_EQ(errorOf(TileLayout::get({{4, 1, Axis::m}}, {},
                                    coordOf({{Axis::warpid, -1}}))),
            "offset on warpid is -1; offsets must be non-negative");
  EXPECT_NE(errorOf(TileLayout::get({{4, 1, static_cast<Axis>(200)}}, {}, zero))
                .find("invalid axis"),
            std::string::npos);
}

TEST(TileLayoutGet, RejectsInt64Overflow) {
  PhysicalCoord zero{};
  const int64_t big = int64_t(1) << 62;
  EXPECT_NE(
      errorOf(TileLayout::get({{big, 1, Axis::m}, {4, 1, Axis::m}}, {}, zero))
          .find("layout size overflows int64"),
      std::string::npos);
  EXPECT_NE(errorOf(TileLayout::get({{3, big, Axis::m}}, {}, zero))
                .find("span on axis m overflows int64"),
            std::string::npos);
  EXPECT_NE(errorOf(TileLayout::get({{2, INT64_MAX, Axis::laneid}}, {}, zero))
                .find("span on axis laneid overflows int64"),
            std::string::npos);
  // (e−1)·s alone overflows.
  EXPECT_NE(errorOf(TileLayout::get({{big, big, Axis::m}}, {}, zero))
                .find("span on axis m overflows int64"),
            std::string::npos);
  // Shard and replica footprints only overflow together.
  EXPECT_NE(errorOf(TileLayout::get({{2, big, Axis::warpid}},
                                    {{3, big, Axis::warpid}}, zero))
                .find("span on axis warpid overflows int64"),
            std::string::npos);
  EXPECT_EQ(errorOf(TileLayout::get(
                {{4, 1, Axis::m}}, {{big, 0, Axis::m}, {2, 0, Axis::m}}, zero)),
            "replica count overflows int64 (product of the replica extents)");
  EXPECT_NE(errorOf(TileLayout::get({{4, 1, Axis::m}}, {},
                                    coordOf({{Axis::m, INT64_MAX}})))
                .find("span on axis m overflows int64"),
            std::string::npos);
  // The largest representable span is fine.
  EXPECT_EQ(errorOf(TileLayout::get({{2, INT64_MAX - 1, Axis::m}}, {}, zero)),
            "<success>");
}

TEST(TileLayoutGet, RowMajor) {
  EXPECT_EQ(*TileLayout::getRowMajor({2, 3, 4}),
            parseOk("S[(2, 3, 4) : (12, 4, 1)]"));
  EXPECT_EQ(*TileLayout::getRowMajor({7}), parseOk("S[7 : 1]"));
  EXPECT_EQ(*TileLayout::getRowMajor({}), parseOk("S[1 : 1]"));
  EXPECT_EQ(errorOf(TileLayout::getRowMajor({4, 0})),
            "shape dimension 1 is 0; extents must be positive");
  EXPECT_NE(errorOf(TileLayout::getRowMajor({int64_t(1) << 62, 2, 2}))
                .find("layout size overflows int64"),
            std::string::npos);
  EXPECT_NE(errorOf(TileLayout::getRowMajor({2, int64_t(1) << 62, 4}))
                .find("layout size overflows int64"),
            std::string::npos);
}

//===----------------------------------------------------------------------===//
// Scope chain
//===----------------------------------------------------------------------===//

std::string scopeOf(llvm::StringRef text) {
  llvm::Expected<std::pair<ExecScope, ExecScope>> scope =
      parseOk(text).getScope();
  if (!scope)
    return llvm::toString(scope.takeError());
  return (getExecScopeName(scope->first) + "," +
          getExecScopeName(scope->second))
      .str();
}

TEST(TileLayoutScope, ChainsGiveTheirEnds) {
  EXPECT_EQ(scopeOf("S[4, 8]"), "thread,thread");
  EXPECT_EQ(scopeOf("S[4 : 1] + R[2 : 3]"), "thread,thread");
  EXPECT_EQ(scopeOf("S[(32, 4) : (1@laneid, 1)]"), "thread,warp");
  EXPECT_EQ(scopeOf("S[(2,32,4):(1@warpid,1@laneid,1)]"), "thread,cta");
  EXPECT_EQ(scopeOf("S[(2,4,32):(1@wgid,1@wid_in_wg,1@laneid)]"), "thread,cta");
  EXPECT_EQ(scopeOf("S[(2,128):(1@wgid,1@tid_in_wg)]"), "thread,cta");
  EXPECT_EQ(scopeOf("S[(4,32):(1@wid_in_wg,1@laneid)]"), "thread,warpgroup");
  EXPECT_EQ(scopeOf("S[256 : 1@tx]"), "thread,cta");
  EXPECT_EQ(scopeOf("S[(2,2) : (1@bx, 1@by)]"), "cta,grid");
  EXPECT_EQ(scopeOf("S[(2,4,32):(1@bx,1@warpid,1@laneid)]"), "thread,grid");
  // Replica iters and nonzero offsets count as uses of their axis.
  EXPECT_EQ(scopeOf("S[32 : 1@laneid] + R[4 : 1@warpid]"), "thread,cta");
  EXPECT_EQ(scopeOf("S[4 : 1] + 3@warpid"), "warp,cta");
  EXPECT_EQ(scopeOf("S[4 : 1] + 0@warpid"), "thread,thread");
}

TEST(TileLayoutScope, ConflictingScopes) {
  EXPECT_EQ(scopeOf("S[(32, 8) : (1@laneid, 32@tx)]"),
            "conflicting scopes: laneid maps thread to warp but tx maps it "
            "to cta");
  EXPECT_EQ(scopeOf("S[(4, 2) : (1@wid_in_wg, 1@warpid)]"),
            "conflicting scopes: warpid maps warp to cta but wid_in_wg maps "
            "it to warpgroup");
  EXPECT_NE(scopeOf("S[(4, 2) : (1@tid_in_wg, 1@laneid)] + R[2 : 1@tx]")
                .find("conflicting scopes: laneid maps thread to warp but "
                      "tid_in_wg maps it to warpgroup"),
            std::string::npos);
}

TEST(TileLayoutScope, DisconnectedChains) {
  EXPECT_EQ(scopeOf("S[(2, 32) : (1@wgid, 1@laneid)]"),
            "disconnected scope chain: laneid (thread -> warp), wgid "
            "(warpgroup -> cta) do not form a single chain from thread "
            "outward");
  // Two edges into cta from different subscopes.
  EXPECT_NE(scopeOf("S[(2, 4) : (1@wgid, 1@warpid)]")
                .find("disconnected scope chain: warpid (warp -> cta), wgid "
                      "(warpgroup -> cta)"),
            std::string::npos);
  EXPECT_NE(
      scopeOf("S[(2, 32) : (1@bx, 1@laneid)]").find("disconnected scope chain"),
      std::string::npos);
}

//===----------------------------------------------------------------------===//
// Canonicalization and flags
//===----------------------------------------------------------------------===//

TEST(TileLayoutCanonicalize, Examples) {
  auto canon = [](llvm::StringRef text) {
    return parseOk(text).canonicalize().toString();
  };
  EXPECT_EQ(canon("S[4, 8]"), "S[32 : 1]");
  EXPECT_EQ(canon("S[(1, 4, 1) : (5, 1, 7)]"), "S[4 : 1]");
  EXPECT_EQ(canon("S[(1, 1) : (3@laneid, 5)]"), "S[1 : 1@laneid]");
  EXPECT_EQ(canon("S[(2, 4) : (4@laneid, 1@laneid)]"), "S[8 : 1@laneid]");
  EXPECT_EQ(canon("S[(2, 32, 4) : (1@warpid, 1@laneid, 1)]"),
            "S[(2, 32, 4) : (1@warpid, 1@laneid, 1)]");
  // Fusion needs the same axis and an exact continuation.
  EXPECT_EQ(canon("S[(2, 4) : (4@laneid, 1)]"), "S[(2, 4) : (4@laneid, 1)]");
  EXPECT_EQ(canon("S[(4, 8) : (9, 1)]"), "S[(4, 8) : (9, 1)]");
  EXPECT_EQ(canon("S[(2, 3) : (0, 0)]"), "S[6 : 0]");
  // Fusion across a dropped unit iter and through a chain of three.
  EXPECT_EQ(canon("S[(2, 1, 3, 4) : (12, 99@warpid, 4, 1)]"), "S[24 : 1]");
  // Replicas: unit ones dropped, the rest sorted by (axis, stride, extent).
  EXPECT_EQ(canon("S[4 : 1] + R[(2, 1, 2, 3) : (1, 5, 4@laneid, 1@laneid)]"),
            "S[4 : 1] + R[(3, 2, 2) : (1@laneid, 4@laneid, 1)]");
  EXPECT_EQ(canon("S[4 : 1] + R[1 : 1@warpid] + 2@warpid + 0@laneid"),
            "S[4 : 1] + 2@warpid");
}

TEST(TileLayoutFlags, TrivialAndContiguous) {
  EXPECT_TRUE(parseOk("S[4, 8]").isTrivial());
  EXPECT_TRUE(parseOk("S[1 : 5]").isTrivial());
  EXPECT_TRUE(parseOk("S[(4, 1, 8) : (8, 3, 1)]").isTrivial());
  EXPECT_FALSE(parseOk("S[(4, 8) : (1, 4)]").isTrivial());
  EXPECT_FALSE(parseOk("S[8 : 1] + 2").isTrivial());
  EXPECT_FALSE(parseOk("S[8 : 1] + R[2 : 0]").isTrivial());
  EXPECT_FALSE(parseOk("S[8 : 1@laneid]").isTrivial());

  EXPECT_TRUE(parseOk("S[4, 8]").isContiguous());
  EXPECT_TRUE(parseOk("S[(4, 1, 8) : (8, 99, 1)]").isContiguous());
  EXPECT_TRUE(parseOk("S[4, 8] + 17").isContiguous());
  EXPECT_FALSE(parseOk("S[(4, 8) : (9, 1)]").isContiguous());
  EXPECT_FALSE(parseOk("S[(4, 8) : (1, 4)]").isContiguous());
  EXPECT_FALSE(parseOk("S[(4, 8) : (8@laneid, 1)]").isContiguous());
  EXPECT_FALSE(parseOk("S[4, 8] + 1@laneid").isContiguous());
  EXPECT_FALSE(parseOk("S[4, 8] + R[2 : 32]").isContiguous());
}

//===----------------------------------------------------------------------===//
// pack / unpack
//===----------------------------------------------------------------------===//

TEST(TileLayoutPack, Examples) {
  TileLayout wide = parseOk("S[(4, 8) : (8, 1)]");
  TileLayout narrow = *wide.unpack(2);
  EXPECT_EQ(narrow, parseOk("S[(4, 8, 2) : (16, 2, 1)]"));
  EXPECT_EQ(*narrow.pack(2), wide);
  EXPECT_EQ(*wide.pack(2), parseOk("S[(4, 4) : (4, 1)]"));
  EXPECT_EQ(*wide.pack(8), parseOk("S[4 : 1]"));
  EXPECT_EQ(*parseOk("S[2 : 1]").pack(2), parseOk("S[1 : 1]"));
  EXPECT_EQ(*wide.unpack(1), wide);
  EXPECT_EQ(*wide.pack(1), wide);

  // Thread strides stay: every sub-element keeps its owner.
  TileLayout regs = parseOk("S[(2,32,4):(1@warpid,1@laneid,1)] + "
                            "R[2 : 4@warpid] + 3 + 1@warpid");
  EXPECT_EQ(*regs.unpack(2), parseOk("S[(2,32,4,2):(1@warpid,1@laneid,2,1)] + "
                                     "R[2 : 4@warpid] + 6 + 1@warpid"));
  EXPECT_EQ(*regs.unpack(2)->pack(2), regs);
  EXPECT_EQ(*parseOk("S[(2,32,4):(1@warpid,1@laneid,1)]").pack(2),
            parseOk("S[(2,32,2):(1@warpid,1@laneid,1)]"));
  EXPECT_EQ(*parseOk("S[8 : 1] + R[2 : 4]").unpack(3),
            parseOk("S[(8, 3) : (3, 1)] + R[2 : 12]"));
}

TEST(TileLayoutPack, Errors) {
  EXPECT_EQ(errorOf(parseOk("S[8 : 1]").unpack(0)),
            "unpack factor must be positive, got 0");
  EXPECT_EQ(errorOf(parseOk("S[8 : 1]").pack(-2)),
            "pack factor must be positive, got -2");
  // The innermost shard iter: on a thread axis, strided, or too short.
  EXPECT_EQ(errorOf(parseOk("S[(4, 8) : (1, 1@laneid)]").pack(2)),
            "cannot pack by 2: the innermost shard iter has extent 8 and "
            "stride 1@laneid; "
            "it must be on m with stride 1 and an extent divisible by 2");
  EXPECT_EQ(errorOf(parseOk("S[8 : 2]").pack(2)),
            "cannot pack by 2: the innermost shard iter has extent 8 and "
            "stride 2; "
            "it must be on m with stride 1 and an extent divisible by 2");
  EXPECT_EQ(errorOf(parseOk("S[6 : 1]").pack(4)),
            "cannot pack by 4: the innermost shard iter has extent 6 and "
            "stride 1; "
            "it must be on m with stride 1 and an extent divisible by 4");
  // The other memory strides must divide by the factor.
  EXPECT_EQ(errorOf(parseOk("S[(4, 8) : (9, 1)]").pack(2)),
            "cannot pack by 2: shard iter 0 has stride 9 "
            "on m, not divisible by 2");
  EXPECT_EQ(errorOf(parseOk("S[8 : 1] + R[2 : 3]").pack(2)),
            "cannot pack by 2: replica iter 0 has stride 3 "
            "on m, not divisible by 2");
  EXPECT_EQ(errorOf(parseOk("S[8 : 1] + 3").pack(2)),
            "cannot pack by 2: offset on m is 3, not divisible by 2");
  // unpack scales the memory strides and the offset on m.
  EXPECT_EQ(errorOf(parseOk("S[2 : 4611686018427387904]").unpack(4)),
            "unpack by 4 overflows int64 (memory strides or offset)");
  EXPECT_EQ(errorOf(parseOk("S[4 : 1] + R[2 : 4611686018427387904]").unpack(2)),
            "unpack by 2 overflows int64 (memory strides or offset)");
  EXPECT_EQ(errorOf(parseOk("S[4 : 1] + 4611686018427387904").unpack(2)),
            "unpack by 2 overflows int64 (memory strides or offset)");
  EXPECT_NE(errorOf(parseOk("S[(4, 4) : (2305843009213693952, 1)]").unpack(2))
                .find("overflows int64"),
            std::string::npos);
}

//===----------------------------------------------------------------------===//
// Views
//===----------------------------------------------------------------------===//

std::string tensorView(const TileLayout &layout,
                       llvm::ArrayRef<int64_t> shape) {
  std::string text;
  llvm::raw_string_ostream os(text);
  printTensorView(os, layout, shape);
  return text;
}

std::string threadView(const TileLayout &layout,
                       llvm::ArrayRef<int64_t> shape) {
  std::string text;
  llvm::raw_string_ostream os(text);
  printThreadView(os, layout, shape);
  return text;
}

TEST(LayoutViews, TensorViewListsEveryOwner) {
  TileLayout layout =
      parseOk("S[(2, 2, 2) : (1@warpid, 1@laneid, 1)] + R[2 : 2@warpid]");
  EXPECT_EQ(tensorView(layout, {2, 4}),
            "tensor view of S[(2, 2, 2) : (1@warpid, 1@laneid, 1)] + "
            "R[2 : 2@warpid] over shape (2, 4): 8 elements\n"
            "[0, 0] -> warpid=0 laneid=0 slot 0 | warpid=2 laneid=0 slot 0\n"
            "[0, 1] -> warpid=0 laneid=0 slot 1 | warpid=2 laneid=0 slot 1\n"
            "[0, 2] -> warpid=0 laneid=1 slot 0 | warpid=2 laneid=1 slot 0\n"
            "[0, 3] -> warpid=0 laneid=1 slot 1 | warpid=2 laneid=1 slot 1\n"
            "[1, 0] -> warpid=1 laneid=0 slot 0 | warpid=3 laneid=0 slot 0\n"
            "[1, 1] -> warpid=1 laneid=0 slot 1 | warpid=3 laneid=0 slot 1\n"
            "[1, 2] -> warpid=1 laneid=1 slot 0 | warpid=3 laneid=1 slot 0\n"
            "[1, 3] -> warpid=1 laneid=1 slot 1 | warpid=3 laneid=1 slot 1\n");
  EXPECT_EQ(tensorView(parseOk("S[2, 2] + 4"), {4}),
            "tensor view of S[(2, 2) : (2, 1)] + 4 over shape (4): 4 "
            "elements\n"
            "[0] -> slot 4\n[1] -> slot 5\n[2] -> slot 6\n[3] -> slot 7\n");
}

TEST(LayoutViews, ThreadViewGroupsByThread) {
  TileLayout layout = parseOk("S[(2, 2, 2) : (1@warpid, 1@laneid, 1)]");
  EXPECT_EQ(threadView(layout, {2, 2, 2}),
            "thread view: 4 threads x 2 slots\n"
            "warpid=0 laneid=0: slot 0 = [0, 0, 0], slot 1 = [0, 0, 1]\n"
            "warpid=0 laneid=1: slot 0 = [0, 1, 0], slot 1 = [0, 1, 1]\n"
            "warpid=1 laneid=0: slot 0 = [1, 0, 0], slot 1 = [1, 0, 1]\n"
            "warpid=1 laneid=1: slot 0 = [1, 1, 0], slot 1 = [1, 1, 1]\n");
  // Slots are sorted per thread even when the layout interleaves them.
  EXPECT_EQ(threadView(parseOk("S[(2, 2) : (1, 1@laneid)]"), {4}),
            "thread view: 2 threads x 2 slots\n"
            "laneid=0: slot 0 = [0], slot 1 = [2]\n"
            "laneid=1: slot 0 = [1], slot 1 = [3]\n");
  // Overlapping lanes hold different counts.
  EXPECT_EQ(threadView(parseOk("S[(2, 2) : (1@laneid, 1@laneid)]"), {2, 2}),
            "thread view: 3 threads, 1 to 2 slots each\n"
            "laneid=0: slot 0 = [0, 0]\n"
            "laneid=1: slot 0 = [0, 1], slot 0 = [1, 0]\n"
            "laneid=2: slot 0 = [1, 1]\n");
  EXPECT_EQ(threadView(parseOk("S[3 : 2]"), {3}),
            "thread view: no thread axes; one line for all threads, 3 slots\n"
            "(all threads): slot 0 = [0], slot 2 = [1], slot 4 = [2]\n");
  EXPECT_EQ(threadView(parseOk("S[1 : 1@tx] + 3@tx + 1@bz"), {}),
            "thread view: 1 thread x 1 slot\n"
            "bz=1 tx=3: slot 0 = []\n");
}

TEST(LayoutViews, ShapeChecks) {
  TileLayout layout = parseOk("S[(2,32,4):(1@warpid,1@laneid,1)]");
  EXPECT_EQ(errorOf(checkViewShape(layout, {2, 32, 4})), "<success>");
  EXPECT_EQ(errorOf(checkViewShape(layout, {256})), "<success>");
  EXPECT_EQ(errorOf(checkViewShape(layout, {2, 32, 5})),
            "shape (2, 32, 5) has 320 elements but the layout has 256");
  EXPECT_EQ(errorOf(checkViewShape(layout, {-2, -128})),
            "shape dimension 0 is -2; dimensions must be positive");
  EXPECT_EQ(
      errorOf(checkViewShape(layout, {1 << 20, 1 << 20, 1 << 20, 1 << 20})),
      "shape element count overflows int64");
  EXPECT_EQ(errorOf(checkViewShape(parseOk("S[1 : 1]"), {})), "<success>");

  TileLayout huge = parseOk("S[(2048, 1024) : (1@tx, 1)]");
  EXPECT_EQ(errorOf(checkViewShape(huge, {2048, 1024})), "<success>");
  EXPECT_EQ(errorOf(checkViewPrintable(huge, {2048, 1024})),
            "too many elements to print (2097152 > 1048576)");
  EXPECT_EQ(tensorView(huge, {2048, 1024}), "");
  EXPECT_EQ(threadView(huge, {2048, 1024}), "");
  TileLayout copies = parseOk("S[1024 : 1] + R[(1024, 2) : (1@tx, 0)]");
  EXPECT_EQ(errorOf(checkViewPrintable(copies, {1024})),
            "too many element copies to print (1024 elements x 2048 replicas "
            "> 1048576)");
}

TEST(LayoutViews, ViewThreadAxesAreOutermostFirst) {
  auto names = [](llvm::StringRef text) {
    std::string out;
    for (Axis axis : getViewThreadAxes(parseOk(text)))
      out += getAxisName(axis).str() + " ";
    return out;
  };
  EXPECT_EQ(names("S[(2,32,4):(1@laneid,1@warpid,1)]"), "warpid laneid ");
  EXPECT_EQ(names("S[(2,4,32):(1@wgid,1@wid_in_wg,1@laneid)]"),
            "wgid wid_in_wg laneid ");
  EXPECT_EQ(names("S[(2,2,2,2):(1@bx,1@by,1@bz,1@tx)]"), "bz by bx tx ");
  EXPECT_EQ(names("S[4 : 1] + R[2 : 1@tid_in_wg] + 1@wgid"), "wgid tid_in_wg ");
  EXPECT_EQ(names("S[4 : 1]"), "");
}

} // namespace
