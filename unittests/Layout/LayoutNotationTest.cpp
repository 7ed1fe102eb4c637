//===- LayoutNotationTest.cpp - Parsing and printing the notation ---------===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//

#include "TirX/Layout/TileLayout.h"

#include "gtest/gtest.h"

#include <climits>

using namespace mlir::tirx;

namespace {

std::string parseErrorOf(llvm::StringRef text) {
  llvm::Expected<TileLayout> layout = TileLayout::parse(text);
  if (layout)
    return "<success: " + layout->toString() + ">";
  return llvm::toString(layout.takeError());
}

std::string printed(llvm::StringRef text) {
  llvm::Expected<TileLayout> layout = TileLayout::parse(text);
  if (!layout)
    return "<error: " + llvm::toString(layout.takeError()) + ">";
  return layout->toString();
}

#define EXPECT_PARSE_ERROR(text, message)                                      \
  EXPECT_EQ(parseErrorOf(text), message) << "input: " << (text)

#define EXPECT_PARSE_ERROR_CONTAINS(text, fragment)                            \
  EXPECT_NE(parseErrorOf(text).find(fragment), std::string::npos)              \
      << "input: " << (text) << "\nerror: " << parseErrorOf(text)

//===----------------------------------------------------------------------===//
// Accepted syntax
//===----------------------------------------------------------------------===//

TEST(LayoutNotationParse, StructureOfAFullLayout) {
  llvm::Expected<LayoutNotation> notation = parseLayoutNotation(
      "S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1)] + R[2:4@warpid] + "
      "5@warpid + -2 + 1@warpid");
  ASSERT_TRUE(static_cast<bool>(notation))
      << llvm::toString(notation.takeError());
  ASSERT_TRUE(notation->shard.has_value());
  EXPECT_EQ(notation->shard->extents, (llvm::SmallVector<int64_t>{8, 2, 4, 2}));
  ASSERT_EQ(notation->shard->strides.size(), 4u);
  EXPECT_EQ(notation->shard->strides[0].value, 4);
  EXPECT_EQ(notation->shard->strides[0].axis, Axis::laneid);
  EXPECT_EQ(notation->shard->strides[3].axis, Axis::m);
  ASSERT_TRUE(notation->replica.has_value());
  EXPECT_EQ(notation->replica->extents, (llvm::SmallVector<int64_t>{2}));
  EXPECT_EQ(notation->replica->strides[0].axis, Axis::warpid);
  ASSERT_EQ(notation->offsets.size(), 3u);
  EXPECT_EQ(notation->offsets[1].value, -2);
  EXPECT_EQ(notation->offsets[1].axis, Axis::m);
}

TEST(LayoutNotationParse, DefaultStridesAndBareLists) {
  llvm::Expected<LayoutNotation> notation = parseLayoutNotation("S[4, 8]");
  ASSERT_TRUE(static_cast<bool>(notation));
  EXPECT_EQ(notation->shard->extents, (llvm::SmallVector<int64_t>{4, 8}));
  EXPECT_TRUE(notation->shard->strides.empty());
  EXPECT_FALSE(notation->replica.has_value());
  EXPECT_EQ(printed("S[4, 8]"), "S[(4, 8) : (8, 1)]");
  EXPECT_EQ(printed("S[(4, 8)]"), "S[(4, 8) : (8, 1)]");
  EXPECT_EQ(printed("S[4, 8 : 1, 4]"), "S[(4, 8) : (1, 4)]");
  EXPECT_EQ(printed("S[8]"), "S[8 : 1]");
  EXPECT_EQ(printed("S[(2, 3, 4)] + R[2, 3]"),
            "S[(2, 3, 4) : (12, 4, 1)] + R[(2, 3) : (3, 1)]");
}

TEST(LayoutNotationParse, WhitespaceAnywhere) {
  const char *compact = "S[(2,32):(1@warpid,1)]+R[2:4@warpid]+5@warpid+3";
  const char *spaced = "  S [ ( 2 , 32 ) : ( 1 @ warpid , 1 ) ]\t+\nR [ 2 : "
                       "4 @warpid ] + 5@ warpid +  3  ";
  EXPECT_EQ(printed(compact), printed(spaced));
  EXPECT_EQ(printed(compact),
            "S[(2, 32) : (1@warpid, 1)] + R[2 : 4@warpid] + 5@warpid + 3");
  EXPECT_EQ(printed("S[4:1@laneid]"), printed("S[4 : 1 @ laneid]"));
}

TEST(LayoutNotationParse, OffsetsAccumulatePerAxis) {
  EXPECT_EQ(printed("S[4 : 1] + 2@warpid + 3 + 3@warpid + 4"),
            "S[4 : 1] + 5@warpid + 7");
  EXPECT_EQ(printed("S[4 : 1] + 3@warpid + -3@warpid"), "S[4 : 1]");
  EXPECT_EQ(printed("S[4 : 1] + 5 + -2"), "S[4 : 1] + 3");
  EXPECT_EQ(printed("S[4 : 1] + 2@m"), "S[4 : 1] + 2");
  // Printed in Axis order, m last and bare.
  EXPECT_EQ(printed("S[4 : 1] + 3 + 1@bz + 5@warpid + 1@laneid"),
            "S[4 : 1] + 1@laneid + 5@warpid + 1@bz + 3");
}

TEST(LayoutNotationParse, TermsInAnyOrder) {
  EXPECT_EQ(printed("5@warpid + R[2 : 4@warpid] + S[32 : 1@laneid]"),
            "S[32 : 1@laneid] + R[2 : 4@warpid] + 5@warpid");
}

TEST(LayoutNotationParse, Int64Limits) {
  llvm::Expected<LayoutNotation> notation =
      parseLayoutNotation("S[9223372036854775807 : -9223372036854775808]");
  ASSERT_TRUE(static_cast<bool>(notation));
  EXPECT_EQ(notation->shard->extents[0], INT64_MAX);
  EXPECT_EQ(notation->shard->strides[0].value, INT64_MIN);
  EXPECT_EQ(printed("S[2 : 4611686018427387904]"),
            "S[2 : 4611686018427387904]");
  EXPECT_EQ(printed("S[1 : 0] + 9223372036854775806"),
            "S[1 : 0] + 9223372036854775806");
}

TEST(LayoutNotationPrint, CanonicalSpelling) {
  EXPECT_EQ(printed("S[(2,32,4):(1@warpid,1@laneid,1)]"),
            "S[(2, 32, 4) : (1@warpid, 1@laneid, 1)]");
  EXPECT_EQ(printed("S[(8):(4@laneid)]"), "S[8 : 4@laneid]");
  EXPECT_EQ(printed("S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1)] + "
                    "R[2:4@warpid] + 5@warpid"),
            "S[(8, 2, 4, 2) : (4@laneid, 1@warpid, 1@laneid, 1)] + "
            "R[2 : 4@warpid] + 5@warpid");
  EXPECT_EQ(printed("S[1 : 0] + R[(2, 3) : (0@tx, 1@bx)]"),
            "S[1 : 0] + R[(2, 3) : (0@tx, 1@bx)]");
  // print() and toString() agree.
  TileLayout layout = *TileLayout::parse("S[4 : 1] + R[2 : 1@wgid]");
  std::string text;
  llvm::raw_string_ostream os(text);
  os << layout;
  EXPECT_EQ(text, layout.toString());
}

//===----------------------------------------------------------------------===//
// Syntax errors (parseLayoutNotation): "column N: reason"
//===----------------------------------------------------------------------===//

TEST(LayoutNotationErrors, EmptyAndMisplacedTerms) {
  EXPECT_PARSE_ERROR("", "column 1: empty layout; expected 'S[...]'");
  EXPECT_PARSE_ERROR("   ", "column 4: empty layout; expected 'S[...]'");
  EXPECT_PARSE_ERROR(
      "X[4]", "column 1: "
              "expected 'S[', 'R[', 'Swizzle[' or an integer offset, found "
              "'X'");
  EXPECT_PARSE_ERROR(
      "s[4]", "column 1: "
              "expected 'S[', 'R[', 'Swizzle[' or an integer offset, found "
              "'s'");
  EXPECT_PARSE_ERROR(
      "Shard[4]",
      "column 1: "
      "expected 'S[', 'R[', 'Swizzle[' or an integer offset, found 'Shard'");
  EXPECT_PARSE_ERROR(
      "S[4] +",
      "column 7: "
      "expected 'S[', 'R[', 'Swizzle[' or an integer offset, found end of "
      "layout");
  EXPECT_PARSE_ERROR(
      "S[4] + [2]",
      "column 8: "
      "expected 'S[', 'R[', 'Swizzle[' or an integer offset, found '['");
  EXPECT_PARSE_ERROR("S[4] R[2]",
                     "column 6: expected '+' or end of layout, found 'R'");
  EXPECT_PARSE_ERROR("S[4] + 3 4",
                     "column 10: expected '+' or end of layout, found '4'");
  EXPECT_PARSE_ERROR("S[4] + S[2]", "column 8: second shard term; a layout "
                                    "has exactly one S[...]");
  EXPECT_PARSE_ERROR("S[4] + R[2] + 1 + R[2]",
                     "column 19: "
                     "second replica term; a layout has at most one R[...]");
}

TEST(LayoutNotationErrors, BracketTerms) {
  EXPECT_PARSE_ERROR("S(4)", "column 2: expected '[', found '('");
  EXPECT_PARSE_ERROR("S", "column 2: expected '[', found end of layout");
  EXPECT_PARSE_ERROR("S[]", "column 3: expected an extent, found ']'");
  EXPECT_PARSE_ERROR("S[()]", "column 4: expected an extent, found ')'");
  EXPECT_PARSE_ERROR("S[4",
                     "column 4: expected ',', ':' or ']', found end of layout");
  EXPECT_PARSE_ERROR("S[4 : 1",
                     "column 8: expected ',' or ']', found end of layout");
  EXPECT_PARSE_ERROR("S[4 : 1 2]", "column 9: expected ',' or ']', found '2'");
  EXPECT_PARSE_ERROR("S[(4, 8]", "column 8: expected ',' or ')', found ']'");
  EXPECT_PARSE_ERROR("S[(4, 8) : (1, 2]",
                     "column 17: expected ',' or ')', found ']'");
  EXPECT_PARSE_ERROR("S[(4, 8), 2]",
                     "column 9: expected ',', ':' or ']', found ','");
  EXPECT_PARSE_ERROR("S[4, ]", "column 6: expected an extent, found ']'");
  EXPECT_PARSE_ERROR("S[4 : ]", "column 7: expected a stride, found ']'");
  EXPECT_PARSE_ERROR("S[4 :: 1]", "column 6: expected a stride, found ':'");
  EXPECT_PARSE_ERROR(
      "S[4@laneid]",
      "column 4: "
      "extents take no axis; write strides like '4@laneid' after ':'");
  EXPECT_PARSE_ERROR(
      "S[(2, 4 @ warpid)]",
      "column 9: "
      "extents take no axis; write strides like '4@laneid' after ':'");
}

TEST(LayoutNotationErrors, IntegersAndAxes) {
  EXPECT_PARSE_ERROR("S[4 : 1@foo]",
                     "column 9: unknown axis 'foo'; expected one of laneid, "
                     "warpid, wgid, wid_in_wg, tid_in_wg, tx, bx, by, bz, m");
  EXPECT_PARSE_ERROR_CONTAINS("S[4] + 2@lane", "column 10: unknown axis "
                                               "'lane'");
  EXPECT_PARSE_ERROR("S[4 : 1@]",
                     "column 9: expected an axis name after '@', found ']'");
  EXPECT_PARSE_ERROR("S[4] + 3@",
                     "column 10: expected an axis name after '@', found end "
                     "of layout");
  EXPECT_PARSE_ERROR("S[4] + -", "column 8: expected an offset, found '-'");
  EXPECT_PARSE_ERROR("S[- x]", "column 3: expected an extent, found '-'");
  EXPECT_PARSE_ERROR("S[4x]", "column 4: unexpected 'x' after integer");
  EXPECT_PARSE_ERROR("S[4 : 2laneid]",
                     "column 8: unexpected 'laneid' after integer");
  EXPECT_PARSE_ERROR("S[99999999999999999999]",
                     "column 3: integer '99999999999999999999' "
                     "does not fit in int64");
  EXPECT_PARSE_ERROR("S[9223372036854775808]",
                     "column 3: integer '9223372036854775808' does not fit "
                     "in int64");
  EXPECT_PARSE_ERROR("S[4 : -9223372036854775809]",
                     "column 7: integer '-9223372036854775809' does not fit "
                     "in int64");
  EXPECT_PARSE_ERROR("S[4] + 100000000000000000000@warpid",
                     "column 8: integer '100000000000000000000' does not fit "
                     "in int64");
  EXPECT_PARSE_ERROR("S[4 : 1.5]", "column 8: expected ',' or ']', found "
                                   "'.'");
}

//===----------------------------------------------------------------------===//
// Semantic errors (TileLayout::get of a notation)
//===----------------------------------------------------------------------===//

TEST(LayoutNotationGet, MissingShardAndCountMismatch) {
  EXPECT_PARSE_ERROR("R[2 : 1@warpid]",
                     "layout has no shard term; expected 'S[...]'");
  EXPECT_PARSE_ERROR("3@warpid + 4",
                     "layout has no shard term; expected 'S[...]'");
  EXPECT_PARSE_ERROR("S[(4, 8) : (1)]", "shard term S[...] has 2 extents but 1 "
                                        "strides; give one stride per extent");
  EXPECT_PARSE_ERROR("S[4 : (1, 2)]",
                     "shard term S[...] has 1 extents but 2 strides; "
                     "give one stride per extent");
  EXPECT_PARSE_ERROR(
      "S[4] + R[(2, 2) : (1@warpid, 1, 1)]",
      "replica term R[...] has 2 extents but 3 strides; give one stride "
      "per extent");
  LayoutNotation badAxis = *parseLayoutNotation("S[4]");
  badAxis.offsets.push_back({1, static_cast<Axis>(200)});
  EXPECT_EQ(llvm::toString(TileLayout::get(badAxis).takeError()),
            "offset has an invalid axis");
  Iter badIter{4, 1, static_cast<Axis>(200)};
  EXPECT_EQ(llvm::toString(TileLayout::get({badIter}, {}, {}).takeError()),
            "shard iter 0 has an invalid axis");
  LayoutNotation empty;
  empty.shard.emplace();
  EXPECT_EQ(llvm::toString(TileLayout::get(empty).takeError()),
            "shard term S[...] has no extents");
}

TEST(LayoutNotationGet, SignsOfValues) {
  EXPECT_PARSE_ERROR("S[(4, 0)]",
                     "shard iter 1 has extent 0; extents must be positive");
  EXPECT_PARSE_ERROR("S[-4 : 1]",
                     "shard iter 0 has extent -4; extents must be positive");
  EXPECT_PARSE_ERROR("S[(2, 3) : (0, -1)]",
                     "shard iter 1 has stride -1; strides must be "
                     "non-negative");
  EXPECT_PARSE_ERROR("S[(2, 3) : (-3@laneid, 1)]",
                     "shard iter 0 has stride -3@laneid; strides must be "
                     "non-negative");
  EXPECT_PARSE_ERROR("S[4] + R[(2, 0)]",
                     "replica iter 1 has extent 0; extents must be positive");
  EXPECT_PARSE_ERROR("S[4] + R[2 : -1@warpid]",
                     "replica iter 0 has stride -1@warpid; strides must be "
                     "non-negative");
  EXPECT_PARSE_ERROR("S[4] + -1@warpid",
                     "offset on warpid is -1; offsets must be non-negative");
  EXPECT_PARSE_ERROR("S[4] + 2 + -3",
                     "offset on m is -1; offsets must be non-negative");
}

TEST(LayoutNotationGet, Int64Overflow) {
  EXPECT_PARSE_ERROR(
      "S[(4611686018427387904, 4)]",
      "layout size overflows int64 (product of the shard extents)");
  // The default stride of iter 0 overflows before the size does.
  EXPECT_PARSE_ERROR(
      "S[(2, 4611686018427387904, 4)]",
      "layout size overflows int64 (product of the shard extents)");
  EXPECT_PARSE_ERROR_CONTAINS("S[(65536, 65536, 65536, 65536) : (0, 0, 0, 0)]",
                              "layout size overflows int64");
  EXPECT_PARSE_ERROR("S[3 : 4611686018427387904]",
                     "span on axis m overflows int64");
  EXPECT_PARSE_ERROR("S[2 : 9223372036854775807]",
                     "span on axis m overflows int64");
  EXPECT_PARSE_ERROR("S[(2, 2) : (9223372036854775807@laneid, 1)]",
                     "span on axis laneid overflows int64");
  EXPECT_PARSE_ERROR("S[4 : 1] + R[2 : 9223372036854775807@warpid]",
                     "span on axis warpid overflows int64");
  EXPECT_PARSE_ERROR("S[4 : 1] + 9223372036854775807",
                     "span on axis m overflows int64");
  EXPECT_PARSE_ERROR("S[4] + 9223372036854775807 + 1",
                     "offsets on m overflow int64");
  EXPECT_PARSE_ERROR("S[4] + -9223372036854775808@tx + -1@tx",
                     "offsets on tx overflow int64");
  // Explicit strides: TileLayout::get multiplies the extents.
  EXPECT_PARSE_ERROR(
      "S[4] + R[(4611686018427387904, 4) : (0, 0)]",
      "replica count overflows int64 (product of the replica extents)");
  // Default strides: building them multiplies the extents first.
  EXPECT_PARSE_ERROR(
      "S[4] + R[(4, 4611686018427387904, 2)]",
      "replica count overflows int64 (product of the replica extents)");
}

} // namespace
