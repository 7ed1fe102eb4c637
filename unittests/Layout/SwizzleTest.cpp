//===- SwizzleTest.cpp - Swizzled layouts against the hardware ------------===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//
//
// The reference below is written from the PTX ISA / CUDA tensor-map
// description of the TMA and wgmma swizzles on *byte* addresses, not from
// Swizzle.h: every test compares the layout library with it exhaustively.
//
//===----------------------------------------------------------------------===//

#include "LayoutTestHelpers.h"

#include "TirX/Layout/LayoutGrouping.h"
#include "TirX/Layout/LayoutRegion.h"
#include "TirX/Layout/Swizzle.h"

#include "llvm/ADT/SmallVector.h"

#include <set>
#include <string>

using namespace mlir::tirx;
using namespace mlir::tirx::layouttest;

namespace {

/// The hardware swizzle of a shared-memory byte address: bits [4, 4+n) ^=
/// bits [7, 7+n) with n = 3, 2, 1 for 128B, 64B, 32B (CUTLASS Swizzle<n,4,3>).
int64_t hardwareSwizzle(int64_t byteAddress, int64_t modeBytes) {
  int64_t groupBits = modeBytes == 128 ? 3 : modeBytes == 64 ? 2 : 1;
  int64_t rowBits = (byteAddress >> 7) & ((int64_t(1) << groupBits) - 1);
  return byteAddress ^ (rowBits << 4);
}

constexpr int64_t kModes[] = {32, 64, 128};
constexpr int64_t kElementBytes[] = {1, 2, 4, 8};
constexpr int64_t kPeriods = 4; // periods checked per case

int64_t log2(int64_t value) {
  int64_t bits = 0;
  while ((int64_t(1) << bits) < value)
    ++bits;
  return bits;
}

/// The layout `S[n] + Swizzle[...]` of the mode, as a user writes it.
std::string hardwareLayoutText(int64_t modeBytes, int64_t elementBytes,
                               int64_t numElements) {
  int64_t perElement = log2(16 / elementBytes);
  int64_t swizzleLen = modeBytes == 128 ? 3 : modeBytes == 64 ? 2 : 1;
  return "S[" + std::to_string(numElements) + "] + Swizzle[" +
         std::to_string(perElement) + ", " + std::to_string(swizzleLen) +
         ", 3]";
}

//===----------------------------------------------------------------------===//
// Exhaustive comparison with the hardware
//===----------------------------------------------------------------------===//

TEST(SwizzleHardware, EveryByteOfEveryElementMatchesTheHardwareSwizzle) {
  for (int64_t mode : kModes)
    for (int64_t bytes : kElementBytes) {
      SCOPED_TRACE("mode " + std::to_string(mode) + "B, " +
                   std::to_string(bytes) + "-byte elements");
      int64_t periodBytes = mode * 8;
      int64_t numElements = kPeriods * periodBytes / bytes;
      TileLayout layout = parseOk(hardwareLayoutText(mode, bytes, numElements));
      for (int64_t x = 0; x < numElements; ++x) {
        int64_t physical = at(layout.apply(x), Axis::m);
        for (int64_t byte = 0; byte < bytes; ++byte)
          ASSERT_EQ(physical * bytes + byte,
                    hardwareSwizzle(x * bytes + byte, mode))
              << "element " << x << " byte " << byte;
      }
    }
}

TEST(SwizzleHardware, TwoDimensionalTileOfRowsMatchesTheHardware) {
  // A (rows, mode / b) tile, one swizzle row per tile row, as TMA fills it.
  for (int64_t mode : kModes)
    for (int64_t bytes : kElementBytes) {
      int64_t columns = mode / bytes, rows = 8 * kPeriods;
      TileLayout layout = parseOk("S[" + std::to_string(rows) + ", " +
                                  std::to_string(columns) + "] + " +
                                  hardwareLayoutText(mode, bytes, 1)
                                      .substr(std::string("S[1] + ").size()));
      for (int64_t r = 0; r < rows; ++r)
        for (int64_t c = 0; c < columns; ++c)
          ASSERT_EQ(at(layout.apply({r, c}, {rows, columns}), Axis::m) * bytes,
                    hardwareSwizzle((r * columns + c) * bytes, mode))
              << "mode " << mode << " bytes " << bytes << " at " << r << ", "
              << c;
    }
}

TEST(SwizzleHardware, GetHardwareEqualsTheWrittenParameters) {
  for (int64_t mode : kModes)
    for (int64_t bytes : kElementBytes) {
      llvm::Expected<Swizzle> swizzle = Swizzle::getHardware(mode, bytes);
      ASSERT_TRUE(static_cast<bool>(swizzle)) << errorOf(std::move(swizzle));
      TileLayout layout = parseOk(hardwareLayoutText(mode, bytes, 64));
      EXPECT_EQ(*layout.getSwizzle(), *swizzle);
      for (int64_t x = 0; x < kPeriods * mode * 8 / bytes; ++x)
        ASSERT_EQ(swizzle->apply(x) * bytes, hardwareSwizzle(x * bytes, mode));
    }
  llvm::Expected<Swizzle> none = Swizzle::getHardware(0, 2);
  ASSERT_TRUE(static_cast<bool>(none));
  EXPECT_TRUE(none->isIdentity());
}

TEST(SwizzleHardware, ModeQueryNamesTheModeForItsElementSizeOnly) {
  for (int64_t mode : kModes)
    for (int64_t bytes : kElementBytes) {
      TileLayout layout = parseOk(hardwareLayoutText(mode, bytes, 64));
      for (int64_t other : {1, 2, 4, 8, 16, 3, 0}) {
        std::optional<int64_t> got = layout.getSwizzleModeBytes(other);
        if (other == bytes)
          EXPECT_EQ(got, mode);
        else
          EXPECT_EQ(got, std::nullopt) << "mode " << mode << " bytes " << bytes
                                       << " asked for " << other;
      }
    }
  EXPECT_EQ(parseOk("S[64]").getSwizzleModeBytes(2), 0);
  // Not hardware: atom_len 2, outer, or swizzle_len 4.
  EXPECT_EQ(parseOk("S[64] + Swizzle[3, 2, 2]").getSwizzleModeBytes(2),
            std::nullopt);
  EXPECT_EQ(parseOk("S[64] + Swizzle[3, 3, 3, outer]").getSwizzleModeBytes(2),
            std::nullopt);
  EXPECT_EQ(parseOk("S[64] + Swizzle[3, 4, 4]").getSwizzleModeBytes(2),
            std::nullopt);
}

TEST(SwizzleHardware, PeriodIsTheHardwareRepeatInElements) {
  for (int64_t mode : kModes)
    for (int64_t bytes : kElementBytes) {
      TileLayout layout = parseOk(hardwareLayoutText(mode, bytes, 64));
      int64_t period = layout.getSwizzle()->getPeriod();
      EXPECT_EQ(period * bytes, mode * 8);
      // The hardware pattern repeats there and not before.
      for (int64_t x = 0; x < period; ++x)
        ASSERT_EQ(layout.getSwizzle()->apply(x + 3 * period),
                  layout.getSwizzle()->apply(x) + 3 * period);
      bool repeatsEarlier = true;
      for (int64_t x = 0; x < period / 2; ++x)
        repeatsEarlier &= hardwareSwizzle((x + period / 2) * bytes, mode) ==
                          hardwareSwizzle(x * bytes, mode) + period / 2 * bytes;
      EXPECT_FALSE(repeatsEarlier);
    }
}

TEST(SwizzleHardware, ContiguousRunsAreThoseInsideOneSixteenByteChunk) {
  for (int64_t mode : kModes)
    for (int64_t bytes : kElementBytes) {
      Swizzle swizzle =
          *parseOk(hardwareLayoutText(mode, bytes, 64)).getSwizzle();
      int64_t chunk = 16 / bytes, period = swizzle.getPeriod();
      for (int64_t count = 1; count <= 2 * chunk; ++count)
        for (int64_t multiple = 1; multiple <= 2 * chunk; ++multiple) {
          // Expected: every start that is a multiple lies with its run in one
          // chunk (the hardware moves chunks as a whole).
          bool inOneChunk = true, contiguous = true;
          for (int64_t start = 0; start + count <= 2 * period;
               start += multiple) {
            inOneChunk &= start / chunk == (start + count - 1) / chunk;
            for (int64_t i = 1; i < count; ++i)
              contiguous &= hardwareSwizzle((start + i) * bytes, mode) ==
                            hardwareSwizzle(start * bytes, mode) + i * bytes;
          }
          ASSERT_EQ(swizzle.keepsRunContiguous(count, multiple), inOneChunk)
              << "mode " << mode << " bytes " << bytes << " count " << count
              << " multiple " << multiple;
          // Soundness: a yes is a contiguous run in the hardware.
          if (inOneChunk)
            ASSERT_TRUE(contiguous);
        }
    }
}

//===----------------------------------------------------------------------===//
// The map and the layout around it
//===----------------------------------------------------------------------===//

TEST(SwizzleMap, TIRxExampleOffsetTenBecomesEleven) {
  TileLayout layout = parseOk("S[8, 8] + Swizzle[0, 2, 3]");
  EXPECT_EQ(at(layout.apply({1, 2}, {8, 8}), Axis::m), 11);
  EXPECT_EQ(layout.getSwizzle()->getInnerMask(), 3);
  EXPECT_EQ(layout.getSwizzle()->getOuterMask(), 24);
}

TEST(SwizzleMap, EverySwizzleIsAPeriodicPermutationAndItsOwnInverse) {
  for (int64_t p = 0; p <= 3; ++p)
    for (int64_t s = 1; s <= 3; ++s)
      for (int64_t a = s; a <= 4; ++a)
        for (bool inner : {true, false}) {
          Swizzle swizzle = *Swizzle::get(p, s, a, inner);
          int64_t period = swizzle.getPeriod();
          ASSERT_EQ(period, int64_t(1) << (p + s + a));
          std::set<int64_t> seen;
          for (int64_t x = 0; x < 2 * period; ++x) {
            int64_t y = swizzle.apply(x);
            ASSERT_EQ(swizzle.apply(y), x);
            ASSERT_EQ(y / period, x / period); // stays in its period
            ASSERT_EQ(y % (int64_t(1) << p), x % (int64_t(1) << p));
            seen.insert(y);
          }
          ASSERT_EQ(static_cast<int64_t>(seen.size()), 2 * period);
        }
}

TEST(SwizzleMap, OuterXorsTheLowGroupIntoTheHighOne) {
  Swizzle swizzle = *Swizzle::get(1, 2, 3, /*swizzleInner=*/false);
  // x = 0b00'000'01'0: bits [1, 3) = 1 go to bits [4, 6).
  EXPECT_EQ(swizzle.apply(0b10), 0b10010);
  EXPECT_EQ(parseOk("S[64] + Swizzle[1, 2, 3, outer]").apply(2)[9], 0b10010);
}

TEST(SwizzleMap, AppliesAfterTheOffsetAndToEveryReplica) {
  // Offset 8 makes element 2 affine 10 → 11.
  TileLayout layout = parseOk("S[8] + 8 + Swizzle[0, 2, 3]");
  EXPECT_EQ(at(layout.apply(2), Axis::m), 11);
  // Replica on m: copies at affine 2 and 10 → 2 and 11.
  TileLayout replicated = parseOk("S[4 : 1] + R[2 : 8] + Swizzle[0, 2, 3]");
  llvm::SmallVector<int64_t> owners;
  replicated.forEachOwner(2, [&](const PhysicalCoord &coord) {
    owners.push_back(at(coord, Axis::m));
  });
  EXPECT_EQ(owners, (llvm::SmallVector<int64_t>{2, 11}));
}

TEST(SwizzleMap, SpanIsAnUpperBoundExactOnWholePeriods) {
  for (llvm::StringRef text :
       {"S[64] + Swizzle[0, 2, 3]", "S[5] + Swizzle[0, 2, 3]",
        "S[9] + Swizzle[0, 2, 3]", "S[3] + Swizzle[1, 2, 3, outer]",
        "S[40] + Swizzle[0, 2, 3, outer]",
        "S[(3, 8) : (16, 1)] + Swizzle[1, 1, 2]",
        "S[64, 64] + Swizzle[3, 3, 3]"}) {
    TileLayout layout = parseOk(text);
    int64_t maximum = 0;
    for (int64_t x = 0; x < layout.size(); ++x)
      maximum = std::max(maximum, at(layout.apply(x), Axis::m));
    EXPECT_GE(layout.span(Axis::m), maximum + 1) << text.str();
  }
  EXPECT_EQ(parseOk("S[64, 64] + Swizzle[3, 3, 3]").span(Axis::m), 4096);
  // Below the group it reads (bit 3), the swizzle moves nothing.
  EXPECT_EQ(parseOk("S[5] + Swizzle[0, 2, 3]").span(Axis::m), 5);
  EXPECT_EQ(parseOk("S[9] + Swizzle[0, 2, 3]").span(Axis::m), 12);
  EXPECT_EQ(parseOk("S[2] + Swizzle[1, 2, 3, outer]").span(Axis::m), 2);
  EXPECT_EQ(parseOk("S[3] + Swizzle[1, 2, 3, outer]").span(Axis::m), 64);
}

TEST(SwizzleMap, DerivedLayoutsKeepTheSwizzle) {
  TileLayout layout = parseOk("S[(1, 16, 8) : (7, 8, 1)] + Swizzle[1, 2, 3]");
  EXPECT_TRUE(layout.isSwizzled());
  EXPECT_FALSE(layout.isTrivial());
  EXPECT_FALSE(layout.isContiguous());
  EXPECT_EQ(layout.canonicalize().toString(), "S[128 : 1] + Swizzle[1, 2, 3]");
  EXPECT_EQ(layout.storage().getSwizzle(), layout.getSwizzle());
  EXPECT_FALSE(layout.getAffinePart().isSwizzled());
  for (int64_t x = 0; x < layout.size(); ++x)
    ASSERT_EQ(layout.canonicalize().apply(x), layout.apply(x));
}

TEST(SwizzleMap, UnpackAndPackRescalePerElement) {
  TileLayout layout = parseOk("S[16, 16] + Swizzle[2, 2, 3]");
  for (int64_t factor : {2, 4, 8}) {
    TileLayout narrow = *layout.unpack(factor);
    EXPECT_EQ(narrow.getSwizzle()->getPerElement(), 2 + log2(factor));
    for (int64_t x = 0; x < layout.size(); ++x)
      for (int64_t k = 0; k < factor; ++k)
        ASSERT_EQ(at(narrow.apply(x * factor + k), Axis::m),
                  at(layout.apply(x), Axis::m) * factor + k);
    EXPECT_EQ(*narrow.pack(factor), layout);
  }
  TileLayout wide = *layout.pack(4);
  EXPECT_EQ(wide.getSwizzle()->getPerElement(), 0);
  for (int64_t x = 0; x < wide.size(); ++x)
    ASSERT_EQ(at(wide.apply(x), Axis::m) * 4, at(layout.apply(x * 4), Axis::m));
}

TEST(SwizzleMap, RegionsKeepThePhysicalCoordinates) {
  TileLayout layout = parseOk("S[4, 64, 64] + Swizzle[3, 3, 3]");
  llvm::Expected<LayoutRegion> region =
      restrictLayout(layout, {4, 64, 64}, {2, 8, 0}, {1, 8, 64});
  ASSERT_TRUE(static_cast<bool>(region)) << errorOf(std::move(region));
  EXPECT_EQ(region->layout.getSwizzle(), layout.getSwizzle());
  for (int64_t r = 0; r < 8; ++r)
    for (int64_t c = 0; c < 64; ++c)
      ASSERT_EQ(region->layout.apply({0, r, c}, {1, 8, 64}),
                layout.apply({2, 8 + r, c}, {4, 64, 64}));
}

//===----------------------------------------------------------------------===//
// Notation
//===----------------------------------------------------------------------===//

TEST(SwizzleNotation, PrintsCanonicallyAndRoundTrips) {
  struct Case {
    const char *text, *printed;
  } cases[] = {
      {"S[8, 8] + Swizzle[0, 2, 3]", "S[(8, 8) : (8, 1)] + Swizzle[0, 2, 3]"},
      {"Swizzle[3,3,3]+S[64]", "S[64 : 1] + Swizzle[3, 3, 3]"},
      {"S[64] + Swizzle[3, 3, 3, inner]", "S[64 : 1] + Swizzle[3, 3, 3]"},
      {"S[64] + Swizzle[1, 2, 3, outer] + 128",
       "S[64 : 1] + 128 + Swizzle[1, 2, 3, outer]"},
      {"S[64] + Swizzle[1, 0, 3]", "S[64 : 1]"}, // swizzle_len 0: none
      {"S[(2, 32) : (1@warpid, 1)] + Swizzle[0, 1, 1]",
       "S[(2, 32) : (1@warpid, 1)] + Swizzle[0, 1, 1]"},
  };
  for (const Case &c : cases) {
    TileLayout layout = parseOk(c.text);
    EXPECT_EQ(layout.toString(), c.printed) << c.text;
    EXPECT_EQ(parseOk(layout.toString()), layout) << c.text;
    EXPECT_EQ(hash_value(parseOk(layout.toString())), hash_value(layout));
  }
  EXPECT_NE(parseOk("S[64] + Swizzle[1, 2, 3]"),
            parseOk("S[64] + Swizzle[1, 2, 3, outer]"));
  EXPECT_NE(parseOk("S[64] + Swizzle[1, 2, 3]"), parseOk("S[64]"));
}

TEST(SwizzleNotation, EveryParameterErrorHasAReason) {
  EXPECT_EQ(errorOf(TileLayout::parse("S[64] + Swizzle[-1, 2, 3]")),
            "swizzle per_element is -1; it must be non-negative");
  EXPECT_EQ(errorOf(TileLayout::parse("S[64] + Swizzle[0, -2, 3]")),
            "swizzle swizzle_len is -2; it must be non-negative");
  EXPECT_EQ(errorOf(TileLayout::parse("S[64] + Swizzle[0, 0, -3]")),
            "swizzle atom_len is -3; it must be non-negative");
  EXPECT_EQ(errorOf(TileLayout::parse("S[64] + Swizzle[0, 3, 2]")),
            "swizzle atom_len 2 is less than swizzle_len 3; the two XOR "
            "groups would overlap");
  EXPECT_EQ(errorOf(TileLayout::parse("S[64] + Swizzle[40, 10, 20]")),
            "swizzle per_element + atom_len + swizzle_len must be at most 62 "
            "(the period 2^(p+a+s) must fit in int64), got 40 + 20 + 10");
  EXPECT_EQ(errorOf(Swizzle::get(63, 0, 0)),
            "swizzle per_element + atom_len + swizzle_len must be at most 62 "
            "(the period 2^(p+a+s) must fit in int64), got 63 + 0 + 0");
  EXPECT_EQ(
      errorOf(TileLayout::parse("S[64] + Swizzle[0, 1, 1] + Swizzle[0, 1, 1]")),
      "column 28: second swizzle term; a layout has at most one Swizzle[...]");
  EXPECT_EQ(errorOf(TileLayout::parse("S[64] + Swizzle[0, 1, 1, sideways]")),
            "column 26: expected 'inner' or 'outer', found 'sideways'");
  EXPECT_EQ(errorOf(TileLayout::parse("S[64] + Swizzle[0, 1]")),
            "column 21: expected ',', found ']'");
  EXPECT_EQ(errorOf(TileLayout::parse("S[64] + Swizzle[0, 1, x]")),
            "column 23: expected the swizzle's atom_len, found 'x'");
  EXPECT_EQ(errorOf(TileLayout::parse("S[64] + Swizzle[0, 1, 1")),
            "column 24: expected ',' or ']', found end of layout");
  EXPECT_EQ(errorOf(TileLayout::parse("S[64] + Swizzle(0, 1, 1)")),
            "column 16: expected '[', found '('");
  // Affine span INT64_MAX; its swizzle rounds it up to a multiple of 2.
  EXPECT_EQ(
      errorOf(TileLayout::parse("S[4611686018427387904 : 1] + "
                                "4611686018427387903 + Swizzle[0, 1, 1]")),
      "span on axis m overflows int64 once rounded up to the swizzle's "
      "blocks");
}

TEST(SwizzleErrors, HardwareConstructorAndElementViews) {
  EXPECT_EQ(errorOf(Swizzle::getHardware(48, 2)),
            "swizzle mode 48 bytes is not a hardware mode; expected 0, 32, 64 "
            "or 128");
  EXPECT_EQ(errorOf(Swizzle::getHardware(128, 3)),
            "element size 3 bytes has no hardware swizzle; expected 1, 2, 4, "
            "8 or 16 bytes");
  TileLayout layout = parseOk("S[16, 16] + Swizzle[1, 2, 3]");
  EXPECT_EQ(errorOf(layout.unpack(3)),
            "cannot unpack a swizzled layout by 3: the swizzle acts on bits, "
            "so the factor must be a power of two");
  EXPECT_EQ(errorOf(layout.pack(4)),
            "cannot pack a swizzled layout by 4: a wide element would "
            "straddle the swizzle's 2-element blocks (per_element 1)");
  EXPECT_EQ(errorOf(parseOk("S[16, 12] + Swizzle[1, 2, 3]").pack(3)),
            "cannot pack a swizzled layout by 3: the swizzle acts on bits, so "
            "the factor must be a power of two");
}

//===----------------------------------------------------------------------===//
// Address classes of repeats (getRepeatAddressClasses): one address register
// per class and group reaches its repeats at constant immediate offsets.
//===----------------------------------------------------------------------===//

/// Checks the classes against the definition: within a class, every group's
/// offset of each repeat element is its class head's plus group 0's
/// distance (>= 0), and a repeat heads a class only when no earlier head
/// has such a distance to it.
void expectClassesHold(const TileLayout &layout, int64_t numElements,
                       int64_t perGroup, int64_t perRepeat,
                       llvm::ArrayRef<int64_t> classes) {
  auto offsetOf = [&](int64_t flat) { return at(layout.apply(flat), Axis::m); };
  auto constantDistance = [&](int64_t from, int64_t to) {
    int64_t distance = offsetOf(to * perRepeat) - offsetOf(from * perRepeat);
    for (int64_t group = 0; group * perGroup < numElements; ++group)
      for (int64_t pos = 0; pos < perRepeat; ++pos) {
        int64_t base = group * perGroup + pos;
        if (offsetOf(base + to * perRepeat) -
                offsetOf(base + from * perRepeat) !=
            distance)
          return false;
      }
    return distance >= 0;
  };
  std::set<int64_t> heads;
  for (int64_t repeat = 0; repeat < perGroup / perRepeat; ++repeat) {
    int64_t head = classes[repeat];
    ASSERT_LE(head, repeat);
    if (head == repeat) {
      for (int64_t other : heads)
        EXPECT_FALSE(constantDistance(other, repeat))
            << "repeat " << repeat << " could join class " << other;
      heads.insert(repeat);
      continue;
    }
    EXPECT_TRUE(heads.count(head)) << "repeat " << repeat;
    EXPECT_TRUE(constantDistance(head, repeat)) << "repeat " << repeat;
  }
}

TEST(RepeatAddressClasses, AffineIsOneClass) {
  // 32 lanes x 8 repeats of 4 words, rows of 32 words.
  TileLayout layout = parseOk("S[(32, 8, 4) : (32, 4, 1)]");
  llvm::SmallVector<int64_t> classes =
      getRepeatAddressClasses(layout, 1024, 32, 4);
  EXPECT_EQ(classes, llvm::SmallVector<int64_t>(8, 0));
}

TEST(RepeatAddressClasses, SwizzleAlikeInEveryGroupIsOneClass) {
  // Lane 4 row + c holds chunk c of row `row` in 2 stages a period apart:
  // the XOR depends on the row only, the same in both of a lane's repeats.
  TileLayout layout =
      parseOk("S[(8, 4, 2, 4) : (32, 4, 256, 1)] + Swizzle[2, 3, 3]");
  llvm::SmallVector<int64_t> classes =
      getRepeatAddressClasses(layout, 256, 8, 4);
  EXPECT_EQ(classes, llvm::SmallVector<int64_t>(2, 0));
  expectClassesHold(layout, 256, 8, 4, classes);
}

TEST(RepeatAddressClasses, OneClassPerChunkOfARowSwizzle) {
  // Lane l stores row l of two 32-row halves, chunk by chunk: chunk j of row
  // l lands in chunk j ^ (l % 8), so each chunk j is a class, and the halves
  // (32 rows = 4 periods apart) share it.
  TileLayout layout =
      parseOk("S[(32, 2, 8, 4) : (32, 1024, 4, 1)] + Swizzle[2, 3, 3]");
  llvm::SmallVector<int64_t> classes =
      getRepeatAddressClasses(layout, 2048, 64, 4);
  EXPECT_EQ(classes, (llvm::SmallVector<int64_t>{0, 1, 2, 3, 4, 5, 6, 7, 0, 1,
                                                 2, 3, 4, 5, 6, 7}));
  expectClassesHold(layout, 2048, 64, 4, classes);
}

TEST(RepeatAddressClasses, ExhaustiveOverHardwareSwizzles) {
  // Every TMA swizzle of 4-byte words, a lane per row (8 rows per period or
  // more), 1 to 4 words per repeat: the classes hold their definition.
  for (int64_t mode : {1, 2, 3}) {
    int64_t rowWords = 4 << mode; // the swizzle's row: 32, 64, 128 bytes
    for (int64_t perRepeat : {1, 2, 4}) {
      int64_t repeats = rowWords / perRepeat;
      std::string notation = "S[(16, " + std::to_string(repeats) + ", " +
                             std::to_string(perRepeat) + ") : (" +
                             std::to_string(rowWords) + ", " +
                             std::to_string(perRepeat) + ", 1)] + Swizzle[2, " +
                             std::to_string(mode) + ", 3]";
      TileLayout layout = parseOk(notation);
      llvm::SmallVector<int64_t> classes =
          getRepeatAddressClasses(layout, 16 * rowWords, rowWords, perRepeat);
      SCOPED_TRACE(notation);
      expectClassesHold(layout, 16 * rowWords, rowWords, perRepeat, classes);
    }
  }
}

} // namespace
