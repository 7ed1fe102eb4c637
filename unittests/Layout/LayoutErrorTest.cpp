//===- LayoutErrorTest.cpp - Errors of grouping and region restriction ----===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//
//
// groupByShape and restrictLayout report why a layout cannot be viewed over a
// shape or restricted to a region. tirx.region reaches them with shapes the
// op verifier has already checked, so some of these errors are only reachable
// through the library.
//
//===----------------------------------------------------------------------===//

#include "TirX/Layout/LayoutGrouping.h"
#include "TirX/Layout/LayoutRegion.h"
#include "TirX/Layout/TileLayout.h"

#include "LayoutTestHelpers.h"

#include "gtest/gtest.h"

using namespace mlir::tirx;
using namespace mlir::tirx::layouttest;

namespace {

//===----------------------------------------------------------------------===//
// groupByShape
//===----------------------------------------------------------------------===//

TEST(LayoutGroupingErrors, ShapeLargerThanLayout) {
  // Dimension 1 splits the one iter (8, 1) into (4, 1) and (2, 4); dimension
  // 0 needs 4 but only the 2 of (2, 4) are left.
  EXPECT_EQ(errorOf(groupByShape(parseOk("S[8 : 1]"), {4, 4})),
            "the layout has fewer elements than the shape at dimension 0");
  // The innermost dimension already runs out.
  EXPECT_EQ(errorOf(groupByShape(parseOk("S[(2, 1) : (1, 1)]"), {2, 4})),
            "the layout has fewer elements than the shape at dimension 1");
}

TEST(LayoutGroupingErrors, ShapeSmallerThanLayout) {
  EXPECT_EQ(errorOf(groupByShape(parseOk("S[8 : 1]"), {2, 2})),
            "the layout has more elements than the shape");
  EXPECT_EQ(errorOf(groupByShape(parseOk("S[(2, 32) : (1@warpid, 1)]"), {32})),
            "the layout has more elements than the shape");
  // Unit iters are dropped: they never count as left over.
  EXPECT_EQ(errorOf(groupByShape(parseOk("S[(1, 8, 1) : (1, 1, 1)]"), {8})),
            "<success>");
}

//===----------------------------------------------------------------------===//
// restrictLayout
//===----------------------------------------------------------------------===//

TEST(LayoutRegionErrors, RankMismatch) {
  TileLayout layout = parseOk("S[(4, 8) : (8, 1)]");
  EXPECT_EQ(errorOf(restrictLayout(layout, {4, 8}, {0}, {4, 8})),
            "region has 1 offsets and 2 sizes for a rank-2 tensor");
  EXPECT_EQ(errorOf(restrictLayout(layout, {4, 8}, {0, 0}, {4, 8, 1})),
            "region has 2 offsets and 3 sizes for a rank-2 tensor");
}

TEST(LayoutRegionErrors, NotASubRangeOfOneIter) {
  // Over shape (8), S[(2, 4) : (4, 1)] is one dimension of two iters. A
  // range of 4 must be a whole row of the inner iter (start a multiple of 4).
  TileLayout layout = parseOk("S[(2, 4) : (4, 1)]");
  EXPECT_EQ(errorOf(restrictLayout(layout, {8}, {2}, {4})),
            "dimension 0: region [2, 2 + 4) "
            "is not a sub-range of one layout iter, so it has no tile layout");
  // A range of 3 is neither a sub-range of the inner iter nor whole rows.
  EXPECT_EQ(errorOf(restrictLayout(layout, {8}, {2}, {3})),
            "dimension 0: region [2, 2 + 3) "
            "is not a sub-range of one layout iter, so it has no tile layout");
  // The error names the dimension.
  EXPECT_EQ(errorOf(restrictLayout(parseOk("S[(2, 2, 4) : (8, 4, 1)]"), {2, 8},
                                   {0, 2}, {1, 4})),
            "dimension 1: region [2, 2 + 4) "
            "is not a sub-range of one layout iter, so it has no tile layout");

  // The aligned row [4, 8) is the inner iter moved by 4 slots.
  llvm::Expected<LayoutRegion> row = restrictLayout(layout, {8}, {4}, {4});
  ASSERT_TRUE(static_cast<bool>(row)) << llvm::toString(row.takeError());
  EXPECT_EQ(row->layout, parseOk("S[4 : 1] + 4"));
  EXPECT_TRUE(row->dynamicIters.empty());
}

} // namespace
