//===- ScalarSemanticsTest.cpp - Tests of the scalar PTX semantics --------===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//
//
// Expected bit patterns are derived from the PTX ISA by hand (noted where the
// derivation is not obvious), never from the implementation: rounding cases
// that differ between modes, .ftz and subnormals, .sat, the NaN rules,
// signed zeros of min/max, cvt saturation, packed operand order, prmt's
// modes, lop3's truth table, unordered setp, integer .hi/.wide. Every
// PTX_FORM line of the scalar module has tests, and every spelling the table
// accepts for it executes.
//
//===----------------------------------------------------------------------===//

#include "TirX/Interpreter/InstructionSemantics.h"

#include "TirX/Dialect/Tile/PTX/PTXInstruction.h"
#include "TirX/Dialect/Tile/PTX/PTXTable.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "gtest/gtest.h"

#include <functional>
#include <initializer_list>

using namespace mlir::tirx;
using namespace mlir::tirx::interp;
using llvm::StringRef;

namespace {

// f32 bit patterns.
constexpr uint64_t kOne = 0x3f800000, kTwo = 0x40000000, kHalf = 0x3f000000;
constexpr uint64_t kMinusOne = 0xbf800000, kMinusTwo = 0xc0000000;
constexpr uint64_t kThree = 0x40400000;
constexpr uint64_t kInf = 0x7f800000, kMinusInf = 0xff800000;
constexpr uint64_t kNaN = 0x7fffffff; // the canonical f32 NaN
constexpr uint64_t kQuietNaN = 0x7fc00001, kNegativeNaN = 0xffc00000;
constexpr uint64_t kZero = 0, kMinusZero = 0x80000000;
constexpr uint64_t kMinSubnormal = 0x00000001;
constexpr uint64_t kMinusMinSubnormal = 0x80000001;
// 1 + 2^-23 (one ulp above 1), 0.75 ulp of 1 (1.5 * 2^-24).
constexpr uint64_t kOnePlusUlp = 0x3f800001, kThreeQuarterUlp = 0x33c00000;
// f64.
constexpr uint64_t kOne64 = 0x3ff0000000000000, kTwo64 = 0x4000000000000000;
constexpr uint64_t kThree64 = 0x4008000000000000;
constexpr uint64_t kNaN64 = 0x7fffffffffffffff;
// f16 / bf16.
constexpr uint64_t kOneH = 0x3c00, kTwoH = 0x4000, kMinusOneH = 0xbc00;
constexpr uint64_t kOneB = 0x3f80, kTwoB = 0x4000;

std::string hex(uint64_t value) { return "0x" + llvm::utohexstr(value); }

/// Every operand of `instruction` with one atom: sources from `sources`
/// (in order, `words` per atom), destinations empty.
llvm::SmallVector<OperandAtom, 4>
makeOperands(const ptx::Instruction &instruction,
             llvm::ArrayRef<std::vector<uint64_t>> sources) {
  llvm::SmallVector<OperandAtom, 4> operands;
  size_t next = 0;
  for (const ptx::OperandInfo &info : instruction.operands) {
    OperandAtom atom;
    atom.bitWidth = info.element.bitWidth;
    if (!info.isDestination && next < sources.size()) {
      atom.elements.assign(sources[next].begin(), sources[next].end());
      ++next;
    }
    operands.push_back(std::move(atom));
  }
  return operands;
}

/// Runs the form `formName` of `spelling` (the first form when empty) on
/// sources given as whole atoms; returns the destination's words.
std::vector<uint64_t> execAtoms(StringRef spelling,
                                std::vector<std::vector<uint64_t>> sources,
                                StringRef formName = "") {
  auto forms = ptx::parseInstructionForms(spelling, sources.size() + 1);
  if (!forms) {
    ADD_FAILURE() << spelling.str() << ": "
                  << llvm::toString(forms.takeError());
    return {};
  }
  const ptx::Instruction *instruction = &forms->front();
  for (const ptx::Instruction &form : *forms)
    if (form.formName == formName)
      instruction = &form;
  if (!formName.empty() && instruction->formName != formName) {
    ADD_FAILURE() << spelling.str() << " has no form " << formName.str();
    return {};
  }
  llvm::SmallVector<OperandAtom, 4> operands =
      makeOperands(*instruction, sources);
  if (llvm::Error error = executeScalarInstruction(*instruction, operands)) {
    ADD_FAILURE() << llvm::toString(std::move(error));
    return {};
  }
  const OperandAtom &d = operands.front();
  return std::vector<uint64_t>(d.elements.begin(), d.elements.end());
}

/// Runs `spelling` with one element per source; returns d's element, hex.
std::string exec(StringRef spelling, std::initializer_list<uint64_t> sources) {
  std::vector<std::vector<uint64_t>> atoms;
  for (uint64_t source : sources)
    atoms.push_back({source});
  std::vector<uint64_t> result = execAtoms(spelling, atoms);
  return result.size() == 1 ? hex(result.front()) : "<no result>";
}

#define EXPECT_BITS(spelling, sources, expected)                               \
  EXPECT_EQ(exec(spelling, std::initializer_list<uint64_t> sources),           \
            hex(expected))                                                     \
      << (spelling)

//===----------------------------------------------------------------------===//
// mov
//===----------------------------------------------------------------------===//

TEST(ScalarSemantics, MovCopiesBits) {
  EXPECT_BITS("mov.b32", ({0x12345678}), 0x12345678);
  EXPECT_BITS("mov.u16", ({0xbeef}), 0xbeef);
  EXPECT_BITS("mov.s64", ({0x8000000000000001}), 0x8000000000000001);
  // A copy keeps NaN payloads.
  EXPECT_BITS("mov.f32", ({kQuietNaN}), kQuietNaN);
  EXPECT_BITS("mov.f64", ({0x7ff8000000000123}), 0x7ff8000000000123);
  // b128: two words, low first.
  EXPECT_EQ(execAtoms("mov.b128", {{0x1111, 0x2222}}, "mov"),
            (std::vector<uint64_t>{0x1111, 0x2222}));
}

TEST(ScalarSemantics, MovPackPutsTheFirstElementLowest) {
  // PTX: mov.b32 d, {a, b} is d = a | b << 16.
  EXPECT_EQ(execAtoms("mov.b32", {{0x1234, 0xabcd}}, "mov.pack.2xb16"),
            (std::vector<uint64_t>{0xabcd1234}));
  EXPECT_EQ(execAtoms("mov.b32", {{0xabcd1234}}, "mov.unpack.2xb16"),
            (std::vector<uint64_t>{0x1234, 0xabcd}));
  EXPECT_EQ(execAtoms("mov.b64", {{0x11111111, 0x22222222}}, "mov.pack.2xb32"),
            (std::vector<uint64_t>{0x2222222211111111}));
  EXPECT_EQ(execAtoms("mov.b64", {{0x2222222211111111}}, "mov.unpack.2xb32"),
            (std::vector<uint64_t>{0x11111111, 0x22222222}));
  EXPECT_EQ(execAtoms("mov.b64", {{1, 2, 3, 4}}, "mov.pack.4xb16"),
            (std::vector<uint64_t>{0x0004000300020001}));
  EXPECT_EQ(execAtoms("mov.b64", {{0x0004000300020001}}, "mov.unpack.4xb16"),
            (std::vector<uint64_t>{1, 2, 3, 4}));
  EXPECT_EQ(execAtoms("mov.b128", {{0xaa, 0xbb}}, "mov.pack.2xb64"),
            (std::vector<uint64_t>{0xaa, 0xbb}));
  EXPECT_EQ(execAtoms("mov.b128", {{0xaa, 0xbb}}, "mov.unpack.2xb64"),
            (std::vector<uint64_t>{0xaa, 0xbb}));
  EXPECT_EQ(execAtoms("mov.b128", {{1, 2, 3, 4}}, "mov.pack.4xb32"),
            (std::vector<uint64_t>{0x0000000200000001, 0x0000000400000003}));
  EXPECT_EQ(execAtoms("mov.b128", {{0x0000000200000001, 0x0000000400000003}},
                      "mov.unpack.4xb32"),
            (std::vector<uint64_t>{1, 2, 3, 4}));
}

//===----------------------------------------------------------------------===//
// add / sub / mul: float
//===----------------------------------------------------------------------===//

TEST(ScalarSemantics, AddRoundsInTheSpelledMode) {
  // 1 + 0.75 ulp: nearest and up give 1 + ulp, zero and down give 1.
  EXPECT_BITS("add.rn.f32", ({kOne, kThreeQuarterUlp}), kOnePlusUlp);
  EXPECT_BITS("add.f32", ({kOne, kThreeQuarterUlp}), kOnePlusUlp);
  EXPECT_BITS("add.rz.f32", ({kOne, kThreeQuarterUlp}), kOne);
  EXPECT_BITS("add.rm.f32", ({kOne, kThreeQuarterUlp}), kOne);
  EXPECT_BITS("add.rp.f32", ({kOne, kThreeQuarterUlp}), kOnePlusUlp);
  // Negated: toward zero and up give -1, down and nearest -(1 + ulp).
  EXPECT_BITS("add.rn.f32", ({kMinusOne, 0xb3c00000}), 0xbf800001);
  EXPECT_BITS("add.rz.f32", ({kMinusOne, 0xb3c00000}), kMinusOne);
  EXPECT_BITS("add.rm.f32", ({kMinusOne, 0xb3c00000}), 0xbf800001);
  EXPECT_BITS("add.rp.f32", ({kMinusOne, 0xb3c00000}), kMinusOne);
  // Ties go to even: 1 + 0.5 ulp is 1.
  EXPECT_BITS("add.rn.f32", ({kOne, 0x33800000}), kOne);
  // f64: 1 + 0.75 ulp (1.5 * 2^-53).
  EXPECT_BITS("add.rn.f64", ({kOne64, 0x3ca8000000000000}), 0x3ff0000000000001);
  EXPECT_BITS("add.rz.f64", ({kOne64, 0x3ca8000000000000}), kOne64);
  EXPECT_BITS("add.rm.f64", ({kOne64, 0x3ca8000000000000}), kOne64);
  EXPECT_BITS("add.rp.f64", ({kOne64, 0x3ca8000000000000}), 0x3ff0000000000001);
}

TEST(ScalarSemantics, AddFlushesSubnormalsWithFtz) {
  EXPECT_BITS("add.f32", ({kMinSubnormal, kMinSubnormal}), 0x2);
  EXPECT_BITS("add.ftz.f32", ({kMinSubnormal, kMinSubnormal}), kZero);
  // (2^-126 + 2^-149) - 2^-126 = 2^-149: kept, or flushed keeping its sign.
  EXPECT_BITS("add.f32", ({0x00800001, 0x80800000}), kMinSubnormal);
  EXPECT_BITS("add.ftz.f32", ({0x00800001, 0x80800000}), kZero);
  EXPECT_BITS("add.ftz.f32", ({0x80800001, 0x00800000}), kMinusZero);
}

TEST(ScalarSemantics, AddSaturatesAndCanonicalizesNaN) {
  EXPECT_BITS("add.sat.f32", ({kOne, kHalf}), kOne);
  EXPECT_BITS("add.sat.f32", ({kMinusOne, kHalf}), kZero);
  EXPECT_BITS("add.sat.f32", ({kInf, kMinusInf}), kZero);
  EXPECT_BITS("add.rz.sat.f32", ({kHalf, kHalf}), kOne);
  EXPECT_BITS("add.f32", ({kQuietNaN, kOne}), kNaN);
  EXPECT_BITS("add.f32", ({kNegativeNaN, kOne}), kNaN);
  EXPECT_BITS("add.f32", ({kInf, kMinusInf}), kNaN);
  // f64 propagates NaN payloads (measured on sm_90, the numerics suite's
  // golden): quieted, b before a; div a before b; a created NaN is
  // negative.
  EXPECT_BITS("add.rn.f64", ({0x7ff8000000000123, kOne64}), 0x7ff8000000000123);
  EXPECT_BITS("add.rn.f64", ({0x7ff8000000000123, 0x7ff8000000000000}),
              0x7ff8000000000000);
  EXPECT_BITS("mul.rz.f64", ({0x7ff58373321d6aaf, 0x5e6d359d13f49fc4}),
              0x7ffd8373321d6aaf);
  EXPECT_BITS("div.rz.f64", ({0x7ff8000000000123, 0x7ff8000000000000}),
              0x7ff8000000000123);
  EXPECT_BITS("add.rn.f64", ({0x7ff0000000000000, 0xfff0000000000000}),
              0xfff8000000000000);
  EXPECT_BITS("sqrt.rn.f64", ({0xbff0000000000000}), 0xfff8000000000000);
  EXPECT_BITS("neg.f64", ({0x7ff6a6f1a2742fb9}), 0x7ffea6f1a2742fb9);
  EXPECT_BITS("max.f64", ({0x7ff8000000000123, 0x7ff8000000000000}),
              0x7ff8000000000000);
}

TEST(ScalarSemantics, AddPackedAndMixed) {
  // f32x2: lane 0 is the low word.
  EXPECT_BITS("add.rn.f32x2", ({0x400000003f800000, 0x7fc000013f000000}),
              0x7fffffff3fc00000);
  EXPECT_BITS("add.rz.ftz.f32x2", ({0x0000000100000001, 0}), 0);
  // Mixed precision: a is f16/bf16, widened exactly.
  EXPECT_BITS("add.rn.f32.f16", ({kOneH, kThreeQuarterUlp}), kOnePlusUlp);
  EXPECT_BITS("add.rz.f32.f16", ({kOneH, kThreeQuarterUlp}), kOne);
  EXPECT_BITS("add.rn.sat.f32.bf16", ({kOneB, kOne}), kOne);
  EXPECT_BITS("add.f32.bf16", ({kOneB, kOne}), kTwo);
}

TEST(ScalarSemantics, AddHalf) {
  // 1 + 0.75 ulp of f16 (1.5 * 2^-11 = 0x1200) rounds up.
  EXPECT_BITS("add.rn.f16", ({kOneH, 0x1200}), 0x3c01);
  EXPECT_BITS("add.f16", ({0x7c01, kOneH}), 0x7fff);
  EXPECT_BITS("add.f16", ({0x0001, 0x0001}), 0x0002);
  EXPECT_BITS("add.ftz.f16", ({0x0001, 0x0001}), 0);
  EXPECT_BITS("add.sat.f16", ({kOneH, kOneH}), kOneH);
  EXPECT_BITS("add.rn.ftz.sat.f16x2", ({0x3c00bc00, 0x3c000001}), 0x3c000000);
  EXPECT_BITS("add.f16x2", ({0x3c004000, 0x3c003c00}), 0x40004200);
  // bf16: 1 + 0.75 ulp (1.5 * 2^-8 = 0x3bc0) rounds up.
  EXPECT_BITS("add.rn.bf16", ({kOneB, 0x3bc0}), 0x3f81);
  EXPECT_BITS("add.bf16", ({0x7f81, kOneB}), 0x7fff);
  EXPECT_BITS("add.rn.bf16x2", ({0x3f804000, 0x3f803f80}), 0x40004040);
}

TEST(ScalarSemantics, SubSignOfZeroFollowsTheRounding) {
  EXPECT_BITS("sub.rn.f32", ({kOne, kOne}), kZero);
  EXPECT_BITS("sub.rm.f32", ({kOne, kOne}), kMinusZero);
  EXPECT_BITS("sub.rz.ftz.f32", ({kMinSubnormal, kZero}), kZero);
  EXPECT_BITS("sub.sat.f32", ({kOne, kTwo}), kZero);
  EXPECT_BITS("sub.rp.f64", ({kOne64, kOne64}), 0);
  EXPECT_BITS("sub.rm.f64", ({kOne64, kOne64}), 0x8000000000000000);
  EXPECT_BITS("sub.rn.f32x2", ({0x4000000040400000, 0x3f8000003f800000}),
              0x3f80000040000000);
  EXPECT_BITS("sub.rn.f32.bf16", ({kTwoB, kOne}), kOne);
  EXPECT_BITS("sub.f32.f16", ({kOneH, kTwo}), kMinusOne);
  EXPECT_BITS("sub.rn.f16", ({kOneH, kOneH}), 0);
  EXPECT_BITS("sub.ftz.f16x2", ({0x00013c00, 0x00000000}), 0x00003c00);
  EXPECT_BITS("sub.sat.f16", ({kOneH, kTwoH}), 0);
  EXPECT_BITS("sub.bf16", ({kTwoB, kOneB}), kOneB);
  EXPECT_BITS("sub.rn.bf16x2", ({0x40004000, 0x3f803f80}), 0x3f803f80);
}

TEST(ScalarSemantics, MulRoundsInTheSpelledMode) {
  // 1.5 * (1 + ulp) = 1.5 + 1.5 ulp: a tie, to even 1.5 + 2 ulp.
  EXPECT_BITS("mul.rn.f32", ({0x3fc00000, kOnePlusUlp}), 0x3fc00002);
  EXPECT_BITS("mul.rz.f32", ({0x3fc00000, kOnePlusUlp}), 0x3fc00001);
  EXPECT_BITS("mul.rm.f32", ({0x3fc00000, kOnePlusUlp}), 0x3fc00001);
  EXPECT_BITS("mul.rp.f32", ({0x3fc00000, kOnePlusUlp}), 0x3fc00002);
  EXPECT_BITS("mul.rn.f64", ({0x3ff8000000000000, 0x3ff0000000000001}),
              0x3ff8000000000002);
  EXPECT_BITS("mul.rz.f64", ({0x3ff8000000000000, 0x3ff0000000000001}),
              0x3ff8000000000001);
  // 2^-126 * 0.5 = 2^-127, a subnormal (0x00400000), flushed with .ftz.
  EXPECT_BITS("mul.f32", ({0x00800000, kHalf}), 0x00400000);
  EXPECT_BITS("mul.ftz.f32", ({0x00800000, kHalf}), kZero);
  EXPECT_BITS("mul.sat.f32", ({kTwo, 0x3f400000}), kOne);
  EXPECT_BITS("mul.rn.f32x2", ({0x4000000040000000, 0x3f0000007f800000}),
              0x3f8000007f800000);
  EXPECT_BITS("mul.f32", ({kInf, kZero}), kNaN);
}

TEST(ScalarSemantics, MulHalf) {
  // 1.5 * (1 + 2^-10): the same tie in f16, to 0x3e02; in bf16 to 0x3fc2.
  EXPECT_BITS("mul.rn.f16", ({0x3e00, 0x3c01}), 0x3e02);
  EXPECT_BITS("mul.rn.bf16", ({0x3fc0, 0x3f81}), 0x3fc2);
  // 2^-14 * 0.5 = 2^-15 (f16 subnormal 0x0200).
  EXPECT_BITS("mul.f16", ({0x0400, 0x3800}), 0x0200);
  EXPECT_BITS("mul.ftz.f16", ({0x0400, 0x3800}), 0);
  EXPECT_BITS("mul.sat.f16x2", ({0x40004000, 0x4000b800}), 0x3c000000);
  EXPECT_BITS("mul.bf16x2", ({0x40003f80, 0x40007fc0}), 0x40807fff);
}

//===----------------------------------------------------------------------===//
// add / sub / mul / mad: integer
//===----------------------------------------------------------------------===//

TEST(ScalarSemantics, IntegerAddSubWrapOrSaturate) {
  EXPECT_BITS("add.u32", ({0xffffffff, 2}), 1);
  EXPECT_BITS("add.s32", ({0x7fffffff, 1}), 0x80000000);
  EXPECT_BITS("add.sat.s32", ({0x7fffffff, 1}), 0x7fffffff);
  EXPECT_BITS("add.sat.s32", ({0x80000000, 0xffffffff}), 0x80000000);
  EXPECT_BITS("add.u16", ({0xffff, 1}), 0);
  EXPECT_BITS("add.s64", ({0xffffffffffffffff, 2}), 1);
  // Lanes do not carry into each other.
  EXPECT_BITS("add.u16x2", ({0xffff0001, 0x00010001}), 0x00000002);
  EXPECT_BITS("add.s16x2", ({0x7fff8000, 0x00010001}), 0x80008001);
  EXPECT_BITS("sub.u32", ({0, 1}), 0xffffffff);
  EXPECT_BITS("sub.s16", ({0x8000, 1}), 0x7fff);
  EXPECT_BITS("sub.sat.s32", ({0x80000000, 1}), 0x80000000);
  EXPECT_BITS("sub.sat.s32", ({0x7fffffff, 0xffffffff}), 0x7fffffff);
  EXPECT_BITS("sub.u64", ({0, 1}), 0xffffffffffffffff);
}

TEST(ScalarSemantics, IntegerMulHiLoWide) {
  EXPECT_BITS("mul.lo.u32", ({0x10000, 0x10000}), 0);
  EXPECT_BITS("mul.hi.u32", ({0x10000, 0x10000}), 1);
  EXPECT_BITS("mul.hi.u32", ({0xffffffff, 2}), 1);
  EXPECT_BITS("mul.hi.s32", ({0xffffffff, 2}), 0xffffffff);
  EXPECT_BITS("mul.lo.s16", ({0x7fff, 2}), 0xfffe);
  // (2^64 - 1)^2 = 2^128 - 2^65 + 1.
  EXPECT_BITS("mul.hi.u64", ({~0ULL, ~0ULL}), 0xfffffffffffffffe);
  EXPECT_BITS("mul.lo.u64", ({~0ULL, ~0ULL}), 1);
  EXPECT_BITS("mul.hi.s64", ({~0ULL, ~0ULL}), 0);
  EXPECT_BITS("mul.wide.u16", ({0xffff, 0xffff}), 0xfffe0001);
  EXPECT_BITS("mul.wide.s16", ({0xffff, 2}), 0xfffffffe);
  EXPECT_BITS("mul.wide.s32", ({0x80000000, 0x80000000}), 0x4000000000000000);
  EXPECT_BITS("mul.wide.u32", ({0xffffffff, 0xffffffff}), 0xfffffffe00000001);
}

TEST(ScalarSemantics, IntegerMad) {
  EXPECT_BITS("mad.lo.s32", ({3, 4, 5}), 17);
  EXPECT_BITS("mad.lo.u32", ({0xffffffff, 2, 3}), 1);
  EXPECT_BITS("mad.hi.u32", ({0x80000000, 4, 5}), 7);
  // hi((2^31 - 1)^2) = 0x3fffffff; + 0x7fffffff overflows.
  EXPECT_BITS("mad.hi.s32", ({0x7fffffff, 0x7fffffff, 0x7fffffff}), 0xbffffffe);
  EXPECT_BITS("mad.hi.sat.s32", ({0x7fffffff, 0x7fffffff, 0x7fffffff}),
              0x7fffffff);
  // hi(-2^31 * (2^31 - 1)) = -2^30; + -2^31 underflows.
  EXPECT_BITS("mad.hi.sat.s32", ({0x80000000, 0x7fffffff, 0x80000000}),
              0x80000000);
  EXPECT_BITS("mad.lo.s16", ({0xffff, 0xffff, 1}), 2);
  EXPECT_BITS("mad.hi.u64", ({~0ULL, ~0ULL, 2}), 0);
  EXPECT_BITS("mad.wide.u32", ({0xffffffff, 0xffffffff, 0x1fffffffe}),
              0xffffffffffffffff);
  EXPECT_BITS("mad.wide.s16", ({0xffff, 2, 16}), 14);
}

//===----------------------------------------------------------------------===//
// mad / fma: float
//===----------------------------------------------------------------------===//

TEST(ScalarSemantics, FmaRoundsOnce) {
  // (1 + 2^-12)^2 - 1 = 2^-11 + 2^-24 exactly; rounding the product first
  // (a tie, to even) would give 2^-11 (0x3a000000).
  EXPECT_BITS("fma.rn.f32", ({0x3f800800, 0x3f800800, kMinusOne}), 0x3a000400);
  EXPECT_BITS("mad.rn.f32", ({0x3f800800, 0x3f800800, kMinusOne}), 0x3a000400);
  // (1 + 2^-27)^2 - 1 = 2^-26 + 2^-54.
  EXPECT_BITS("fma.rn.f64",
              ({0x3ff0000002000000, 0x3ff0000002000000, 0xbff0000000000000}),
              0x3e50000001000000);
  EXPECT_BITS("mad.rn.f64",
              ({0x3ff0000002000000, 0x3ff0000002000000, 0xbff0000000000000}),
              0x3e50000001000000);
  // 1.5 * (1 + ulp) + 0: the tie of MulRoundsInTheSpelledMode.
  EXPECT_BITS("fma.rz.f32", ({0x3fc00000, kOnePlusUlp, kZero}), 0x3fc00001);
  EXPECT_BITS("fma.rm.f32", ({0x3fc00000, kOnePlusUlp, kZero}), 0x3fc00001);
  EXPECT_BITS("fma.rp.f32", ({0x3fc00000, kOnePlusUlp, kZero}), 0x3fc00002);
  EXPECT_BITS("mad.rm.f32", ({0x3fc00000, kOnePlusUlp, kZero}), 0x3fc00001);
  EXPECT_BITS("mad.rp.f32", ({0x3fc00000, kOnePlusUlp, kZero}), 0x3fc00002);
  EXPECT_BITS("fma.rz.f64", ({0x3ff8000000000000, 0x3ff0000000000001, 0}),
              0x3ff8000000000001);
}

TEST(ScalarSemantics, FmaModifiers) {
  EXPECT_BITS("fma.rn.f32", ({0x00800000, kHalf, kZero}), 0x00400000);
  EXPECT_BITS("fma.rn.ftz.f32", ({0x00800000, kHalf, kZero}), kZero);
  EXPECT_BITS("mad.rn.ftz.f32", ({kMinSubnormal, kOne, kOne}), kOne);
  EXPECT_BITS("fma.rn.sat.f32", ({kTwo, kTwo, kOne}), kOne);
  EXPECT_BITS("mad.rz.sat.f32", ({kTwo, kMinusTwo, kOne}), kZero);
  EXPECT_BITS("fma.rn.f32", ({kInf, kZero, kOne}), kNaN);
  EXPECT_BITS("fma.rn.f32x2",
              ({0x3f8000003f800000, 0x4000000040400000, 0x3f8000003f800000}),
              0x4040000040800000);
  // Mixed: a and b widen exactly; 1.5 * (1 + 2^-10) = 1.5 + 1.5 * 2^-10.
  EXPECT_BITS("fma.rn.f32.f16", ({0x3e00, 0x3c01, kZero}), 0x3fc03000);
  EXPECT_BITS("fma.rn.f32.bf16", ({0x3fc0, 0x3f81, kZero}), 0x3fc18000);
  EXPECT_BITS("fma.rz.sat.f32.f16", ({kTwoH, kTwoH, kZero}), kOne);
}

TEST(ScalarSemantics, FmaHalf) {
  // (1 + 2^-6)^2 - 1 = 2^-5 + 2^-12, exact in f16 (0x2808).
  EXPECT_BITS("fma.rn.f16", ({0x3c10, 0x3c10, kMinusOneH}), 0x2808);
  EXPECT_BITS("fma.rn.sat.f16", ({kOneH, kOneH, kOneH}), kOneH);
  EXPECT_BITS("fma.rn.f16", ({0x0001, kOneH, 0}), 0x0001);
  EXPECT_BITS("fma.rn.ftz.f16", ({0x0001, kOneH, 0}), 0);
  EXPECT_BITS("fma.rn.ftz.sat.f16x2", ({0x3c000001, 0x40003c00, 0}),
              0x3c000000);
  // .relu: -1.5 becomes 0, NaN stays (canonical).
  EXPECT_BITS("fma.rn.relu.f16", ({kOneH, 0xc000, 0x3800}), 0);
  EXPECT_BITS("fma.rn.relu.f16", ({0x7e01, kOneH, kOneH}), 0x7fff);
  EXPECT_BITS("fma.rn.relu.bf16x2", ({0x3f80bf80, 0x3f803f80, 0}), 0x3f800000);
  // -0.0 becomes +0.0 too (measured on sm_90).
  EXPECT_BITS("fma.rn.relu.bf16x2", ({0x00008000, 0, 0x00008000}), 0);
  // .oob: an out-of-bounds NaN operand (0x7fff) gives +0.
  EXPECT_BITS("fma.rn.oob.f16", ({0x7fff, kOneH, kOneH}), 0);
  EXPECT_BITS("fma.rn.oob.f16", ({kOneH, kOneH, kOneH}), kTwoH);
  EXPECT_BITS("fma.rn.oob.relu.bf16", ({kOneB, 0xbf80, 0x7fff}), 0);
  EXPECT_BITS("fma.rn.oob.f16x2", ({0x7fff3c00, 0x3c003c00, 0x3c003c00}),
              0x00004000);
  EXPECT_BITS("fma.rn.bf16", ({kOneB, kOneB, kOneB}), kTwoB);
  EXPECT_BITS("fma.rn.f16x2", ({0x3c004000, 0x40004000, 0xbc000000}),
              0x3c004400);
}

//===----------------------------------------------------------------------===//
// div / rcp / sqrt / rsqrt
//===----------------------------------------------------------------------===//

TEST(ScalarSemantics, DivRounded) {
  // 1/3 = 0.0101...b: nearest and up round up, zero and down truncate.
  EXPECT_BITS("div.rn.f32", ({kOne, kThree}), 0x3eaaaaab);
  EXPECT_BITS("div.rz.f32", ({kOne, kThree}), 0x3eaaaaaa);
  EXPECT_BITS("div.rm.f32", ({kOne, kThree}), 0x3eaaaaaa);
  EXPECT_BITS("div.rp.f32", ({kOne, kThree}), 0x3eaaaaab);
  EXPECT_BITS("div.rm.f32", ({kMinusOne, kThree}), 0xbeaaaaab);
  EXPECT_BITS("div.rz.f32", ({kMinusOne, kThree}), 0xbeaaaaaa);
  EXPECT_BITS("div.rn.f64", ({kOne64, kThree64}), 0x3fd5555555555555);
  EXPECT_BITS("div.rz.f64", ({kOne64, kThree64}), 0x3fd5555555555555);
  EXPECT_BITS("div.rm.f64", ({kOne64, kThree64}), 0x3fd5555555555555);
  EXPECT_BITS("div.rp.f64", ({kOne64, kThree64}), 0x3fd5555555555556);
  EXPECT_BITS("div.rn.f32", ({kMinSubnormal, kOne}), kMinSubnormal);
  EXPECT_BITS("div.rn.ftz.f32", ({kMinSubnormal, kOne}), kZero);
  EXPECT_BITS("div.rn.f32", ({kZero, kZero}), kNaN);
  EXPECT_BITS("div.rn.f32", ({kOne, kMinusZero}), kMinusInf);
}

TEST(ScalarSemantics, DivApproximate) {
  EXPECT_BITS("div.approx.f32", ({kOne, 0x40800000}), 0x3e800000);
  EXPECT_BITS("div.approx.f32", ({kOne, kThree}), 0x3eaaaaab);
  // The ISA: for 2^126 < |b| < 2^128, a finite gives 0, a infinite NaN.
  EXPECT_BITS("div.approx.f32", ({kOne, 0x7f000000}), kZero);
  EXPECT_BITS("div.approx.f32", ({kMinusOne, 0x7f000000}), kMinusZero);
  EXPECT_BITS("div.approx.f32", ({kInf, 0x7f000000}), kNaN);
  EXPECT_BITS("div.approx.ftz.f32", ({kMinSubnormal, kOne}), kZero);
  // div.full covers the range: 1 / 2^127 = 2^-127 (subnormal).
  EXPECT_BITS("div.full.f32", ({kOne, 0x7f000000}), 0x00400000);
  EXPECT_BITS("div.full.ftz.f32", ({kOne, 0x7f000000}), kZero);
}

TEST(ScalarSemantics, Rcp) {
  EXPECT_BITS("rcp.rn.f32", ({kThree}), 0x3eaaaaab);
  EXPECT_BITS("rcp.rz.f32", ({kThree}), 0x3eaaaaaa);
  EXPECT_BITS("rcp.rm.ftz.f32", ({kThree}), 0x3eaaaaaa);
  EXPECT_BITS("rcp.rp.f32", ({kThree}), 0x3eaaaaab);
  EXPECT_BITS("rcp.rn.ftz.f32", ({kMinSubnormal}), kInf);
  EXPECT_BITS("rcp.rn.f64", ({kThree64}), 0x3fd5555555555555);
  EXPECT_BITS("rcp.rp.f64", ({kThree64}), 0x3fd5555555555556);
  EXPECT_BITS("rcp.approx.f32", ({0x40800000}), 0x3e800000);
  EXPECT_BITS("rcp.approx.f32", ({kMinusZero}), kMinusInf);
  // 1 / 2^127 = 2^-127: subnormal, flushed with .ftz.
  EXPECT_BITS("rcp.approx.f32", ({0x7f000000}), 0x00400000);
  EXPECT_BITS("rcp.approx.ftz.f32", ({0x7f000000}), kZero);
  // The f64 approximation reads a's high 32 bits and writes d's.
  EXPECT_BITS("rcp.approx.ftz.f64", ({kTwo64}), 0x3fe0000000000000);
  EXPECT_BITS("rcp.approx.ftz.f64", ({kThree64}), 0x3fd5555500000000);
  EXPECT_BITS("rcp.approx.ftz.f64", ({0x4008000012345678}), 0x3fd5555500000000);
  EXPECT_BITS("rcp.approx.ftz.f64", ({0x0000000000000001}), 0x7ff0000000000000);
}

TEST(ScalarSemantics, Sqrt) {
  // sqrt(2) = 1.6a09e667f3bcc908...h.
  EXPECT_BITS("sqrt.rn.f32", ({kTwo}), 0x3fb504f3);
  EXPECT_BITS("sqrt.rz.f32", ({kTwo}), 0x3fb504f3);
  EXPECT_BITS("sqrt.rm.f32", ({kTwo}), 0x3fb504f3);
  EXPECT_BITS("sqrt.rp.f32", ({kTwo}), 0x3fb504f4);
  EXPECT_BITS("sqrt.rn.f64", ({kTwo64}), 0x3ff6a09e667f3bcd);
  EXPECT_BITS("sqrt.rz.f64", ({kTwo64}), 0x3ff6a09e667f3bcc);
  EXPECT_BITS("sqrt.rm.f64", ({kTwo64}), 0x3ff6a09e667f3bcc);
  EXPECT_BITS("sqrt.rp.f64", ({kTwo64}), 0x3ff6a09e667f3bcd);
  EXPECT_BITS("sqrt.rn.f32", ({0x40800000}), kTwo);
  EXPECT_BITS("sqrt.rp.f32", ({0x40800000}), kTwo);
  EXPECT_BITS("sqrt.rn.f32", ({kMinusOne}), kNaN);
  EXPECT_BITS("sqrt.rn.f32", ({kMinusZero}), kMinusZero);
  EXPECT_BITS("sqrt.rn.f32", ({kInf}), kInf);
  // sqrt(2^-149) = 2^-75 sqrt(2).
  EXPECT_BITS("sqrt.rn.f32", ({kMinSubnormal}), 0x1a3504f3);
  EXPECT_BITS("sqrt.rn.ftz.f32", ({kMinSubnormal}), kZero);
  EXPECT_BITS("sqrt.approx.f32", ({0x40800000}), kTwo);
  EXPECT_BITS("sqrt.approx.f32", ({kMinusZero}), kMinusZero);
  EXPECT_BITS("sqrt.approx.ftz.f32", ({kMinSubnormal}), kZero);
}

TEST(ScalarSemantics, Rsqrt) {
  EXPECT_BITS("rsqrt.approx.f32", ({0x40800000}), kHalf);
  EXPECT_BITS("rsqrt.approx.f32", ({kZero}), kInf);
  EXPECT_BITS("rsqrt.approx.f32", ({kMinusZero}), kMinusInf);
  EXPECT_BITS("rsqrt.approx.f32", ({kMinusOne}), kNaN);
  // 1 / sqrt(2^-149) = 2^74 sqrt(2), or +inf once the input is flushed.
  EXPECT_BITS("rsqrt.approx.f32", ({kMinSubnormal}), 0x64b504f3);
  EXPECT_BITS("rsqrt.approx.ftz.f32", ({kMinSubnormal}), kInf);
  EXPECT_BITS("rsqrt.approx.f64", ({0x4010000000000000}), 0x3fe0000000000000);
  EXPECT_BITS("rsqrt.approx.ftz.f64", ({0x1}), 0x7ff0000000000000);
}

//===----------------------------------------------------------------------===//
// min / max
//===----------------------------------------------------------------------===//

TEST(ScalarSemantics, MinMaxNaNAndSignedZeros) {
  EXPECT_BITS("min.f32", ({kOne, kTwo}), kOne);
  EXPECT_BITS("max.f32", ({kOne, kTwo}), kTwo);
  EXPECT_BITS("min.f32", ({kQuietNaN, kTwo}), kTwo);
  EXPECT_BITS("max.f32", ({kTwo, kQuietNaN}), kTwo);
  EXPECT_BITS("min.f32", ({kQuietNaN, kNegativeNaN}), kNaN);
  EXPECT_BITS("min.NaN.f32", ({kQuietNaN, kTwo}), kNaN);
  EXPECT_BITS("max.NaN.f32", ({kTwo, kQuietNaN}), kNaN);
  EXPECT_BITS("min.f32", ({kMinusZero, kZero}), kMinusZero);
  EXPECT_BITS("min.f32", ({kZero, kMinusZero}), kMinusZero);
  EXPECT_BITS("max.f32", ({kMinusZero, kZero}), kZero);
  EXPECT_BITS("max.f32", ({kZero, kMinusZero}), kZero);
  // .ftz: the subnormals become -0 and +0.
  EXPECT_BITS("min.f32", ({kMinusMinSubnormal, kMinSubnormal}),
              kMinusMinSubnormal);
  EXPECT_BITS("min.ftz.f32", ({kMinusMinSubnormal, kMinSubnormal}), kMinusZero);
  EXPECT_BITS("max.ftz.NaN.f32", ({kMinusMinSubnormal, kMinSubnormal}), kZero);
  EXPECT_BITS("min.f64", ({0x7ff8000000000001, kTwo64}), kTwo64);
  EXPECT_BITS("max.f64", ({0x8000000000000000, 0}), 0);
}

TEST(ScalarSemantics, MinMaxXorsignAbs) {
  // |min| = 2 with sign 1 ^ 0.
  EXPECT_BITS("min.xorsign.abs.f32", ({kMinusTwo, kThree}), kMinusTwo);
  EXPECT_BITS("max.xorsign.abs.f32", ({kMinusTwo, kThree}), 0xc0400000);
  EXPECT_BITS("max.xorsign.abs.f32", ({kMinusTwo, 0xc0400000}), kThree);
  // A NaN loses, but its sign still counts.
  EXPECT_BITS("min.xorsign.abs.f32", ({0x7fc00000, kMinusTwo}), kMinusTwo);
  EXPECT_BITS("min.xorsign.abs.f32", ({kNegativeNaN, kMinusTwo}), kTwo);
  EXPECT_BITS("min.NaN.xorsign.abs.f32", ({kNegativeNaN, kMinusTwo}), kNaN);
  EXPECT_BITS("min.ftz.xorsign.abs.f32", ({kMinusMinSubnormal, kOne}),
              kMinusZero);
  EXPECT_BITS("max.xorsign.abs.f16", ({0xc000, 0x3c00}), 0xc000);
  EXPECT_BITS("min.xorsign.abs.bf16x2", ({0xc0003f80, 0x3f80bf80}), 0xbf80bf80);
}

TEST(ScalarSemantics, MinMaxHalf) {
  // Lane-wise: the high lane's 1.0 wins, the low lane's NaN loses to 3.0.
  EXPECT_BITS("min.f16x2", ({0x3c007e00, 0x40004200}), 0x3c004200);
  EXPECT_BITS("max.NaN.f16x2", ({0x3c007e00, 0x40004200}), 0x40007fff);
  EXPECT_BITS("min.f16", ({0x7e00, 0x7c01}), 0x7fff);
  EXPECT_BITS("min.ftz.f16", ({0x8001, 0x0001}), 0x8000);
  EXPECT_BITS("max.ftz.f16x2", ({0x80010001, 0x00000000}), 0x00000000);
  EXPECT_BITS("max.bf16", ({0x8000, 0x0000}), 0x0000);
  EXPECT_BITS("min.NaN.bf16", ({0x7fc1, kOneB}), 0x7fff);
  EXPECT_BITS("max.bf16x2", ({0x7fc13f80, 0x40004000}), 0x40004000);
}

TEST(ScalarSemantics, MinMaxInteger) {
  EXPECT_BITS("min.u32", ({0xffffffff, 1}), 1);
  EXPECT_BITS("min.s32", ({0xffffffff, 1}), 0xffffffff);
  EXPECT_BITS("max.u16", ({0x8000, 0x7fff}), 0x8000);
  EXPECT_BITS("max.s16", ({0x8000, 0x7fff}), 0x7fff);
  EXPECT_BITS("max.s64", ({0x8000000000000000, 0}), 0);
  EXPECT_BITS("min.u64", ({0x8000000000000000, 0}), 0);
  EXPECT_BITS("min.u16x2", ({0x0001ffff, 0xffff0002}), 0x00010002);
  EXPECT_BITS("min.s16x2", ({0x0001ffff, 0xffff0002}), 0xffffffff);
  EXPECT_BITS("max.u16x2", ({0x0001ffff, 0xffff0002}), 0xffffffff);
  EXPECT_BITS("max.s16x2", ({0x0001ffff, 0xffff0002}), 0x00010002);
  EXPECT_BITS("max.relu.s32", ({0xfffffffb, 0xfffffffd}), 0);
  EXPECT_BITS("min.relu.s32", ({5, 3}), 3);
  EXPECT_BITS("max.relu.s16x2", ({0xfffb0007, 0xfffd0002}), 0x00000007);
  EXPECT_BITS("min.relu.s16x2", ({0xfffb0007, 0x00050002}), 0x00000002);
}

TEST(ScalarSemantics, MinMaxThreeInputs) {
  EXPECT_BITS("min.f32", ({kThree, kOne, kTwo}), kOne);
  EXPECT_BITS("max.f32", ({kThree, kOne, kTwo}), kThree);
  EXPECT_BITS("min.f32", ({kQuietNaN, kTwo, kThree}), kTwo);
  EXPECT_BITS("max.f32", ({kQuietNaN, kQuietNaN, kQuietNaN}), kNaN);
  EXPECT_BITS("min.NaN.f32", ({kOne, kTwo, kQuietNaN}), kNaN);
  EXPECT_BITS("min.abs.f32", ({0xc0400000, kTwo, kMinusOne}), kOne);
  EXPECT_BITS("max.abs.f32", ({0xc0400000, kTwo, kMinusOne}), kThree);
  EXPECT_BITS("min.f32", ({kZero, kMinusZero, kOne}), kMinusZero);
  EXPECT_BITS("max.ftz.f32", ({kMinusMinSubnormal, kMinusZero, kMinusOne}),
              kMinusZero);
  EXPECT_BITS("max.NaN.abs.f32", ({kMinusTwo, kOne, kZero}), kTwo);
}

//===----------------------------------------------------------------------===//
// cvt
//===----------------------------------------------------------------------===//

TEST(ScalarSemantics, CvtIntToInt) {
  // Narrowing truncates; .sat clamps.
  EXPECT_BITS("cvt.u8.u32", ({0x1ff}), 0xff);
  EXPECT_BITS("cvt.u8.u32", ({0x100}), 0x00);
  EXPECT_BITS("cvt.sat.u8.u32", ({0x100}), 0xff);
  EXPECT_BITS("cvt.s16.s32", ({0x18000}), 0x8000);
  EXPECT_BITS("cvt.sat.s16.s32", ({0x18000}), 0x7fff);
  EXPECT_BITS("cvt.sat.s8.s32", ({0xffff0000}), 0x80);
  EXPECT_BITS("cvt.sat.u32.s32", ({0xffffffff}), 0);
  EXPECT_BITS("cvt.sat.s32.u32", ({0xffffffff}), 0x7fffffff);
  EXPECT_BITS("cvt.sat.u64.s64", ({~0ULL}), 0);
  EXPECT_BITS("cvt.sat.s32.s64", ({0x8000000000000000}), 0x80000000);
  // Widening extends by the source's signedness.
  EXPECT_BITS("cvt.s32.s8", ({0x80}), 0xffffff80);
  EXPECT_BITS("cvt.u32.s8", ({0x80}), 0xffffff80);
  EXPECT_BITS("cvt.s32.u8", ({0x80}), 0x80);
  EXPECT_BITS("cvt.u64.s16", ({0x8000}), 0xffffffffffff8000);
  EXPECT_BITS("cvt.s32.s32", ({0x80000000}), 0x80000000);
}

TEST(ScalarSemantics, CvtFloatToInt) {
  EXPECT_BITS("cvt.rni.s32.f32", ({0x40200000}), 2); // 2.5, ties to even
  EXPECT_BITS("cvt.rni.s32.f32", ({0x40600000}), 4); // 3.5
  EXPECT_BITS("cvt.rni.s32.f32", ({0xc0200000}), 0xfffffffe);
  EXPECT_BITS("cvt.rzi.s32.f32", ({0xc02ccccd}), 0xfffffffe); // -2.7
  EXPECT_BITS("cvt.rmi.s32.f32", ({0xc0133333}), 0xfffffffd); // -2.3
  EXPECT_BITS("cvt.rpi.s32.f32", ({0x40066666}), 3);          // 2.1
  // NaN converts to 0; out-of-range values clamp, .sat or not.
  EXPECT_BITS("cvt.rzi.s32.f32", ({kQuietNaN}), 0);
  EXPECT_BITS("cvt.rni.u8.f32", ({kNaN}), 0);
  EXPECT_BITS("cvt.rzi.s32.f32", ({0x4f32d05e}), 0x7fffffff); // 3e9
  EXPECT_BITS("cvt.rzi.s32.f32", ({kMinusInf}), 0x80000000);
  EXPECT_BITS("cvt.rzi.u32.f32", ({kMinusOne}), 0);
  EXPECT_BITS("cvt.rni.u32.f32", ({0xbf000000}), 0);       // -0.5 rounds to -0
  EXPECT_BITS("cvt.rzi.u8.f32", ({0x43960000}), 0xff);     // 300
  EXPECT_BITS("cvt.rni.sat.s8.f32", ({0xc3480000}), 0x80); // -200
  EXPECT_BITS("cvt.rzi.u64.f64", ({0x46293e5939a08cea}), ~0ULL); // 1e30
  EXPECT_BITS("cvt.rzi.s64.f64", ({0xc6293e5939a08cea}), 0x8000000000000000);
  EXPECT_BITS("cvt.rzi.s64.f64", ({0x43e0000000000000}), 0x7fffffffffffffff);
  EXPECT_BITS("cvt.rni.s64.f32", ({0xdf000000}), 0x8000000000000000);
  // .ftz flushes a subnormal source first: -2^-149 rounds down to -1, -0 to
  // 0.
  EXPECT_BITS("cvt.rmi.s32.f32", ({kMinusMinSubnormal}), 0xffffffff);
  EXPECT_BITS("cvt.rmi.ftz.s32.f32", ({kMinusMinSubnormal}), 0);
  EXPECT_BITS("cvt.rpi.s32.f32", ({kMinSubnormal}), 1);
  EXPECT_BITS("cvt.rpi.ftz.s32.f32", ({kMinSubnormal}), 0);
  EXPECT_BITS("cvt.rni.s32.f16", ({0x4100}), 2);           // 2.5
  EXPECT_BITS("cvt.rzi.s32.bf16", ({0xc02d}), 0xfffffffe); // -2.703125
  EXPECT_BITS("cvt.rzi.u16.f16", ({0x7c00}), 0xffff);
  EXPECT_BITS("cvt.rmi.s16.f64", ({0xbfe0000000000000}), 0xffff); // -0.5
}

TEST(ScalarSemantics, CvtIntToFloat) {
  // 2^24 + 1: a tie, to even 2^24; up to 2^24 + 2.
  EXPECT_BITS("cvt.rn.f32.s32", ({0x01000001}), 0x4b800000);
  EXPECT_BITS("cvt.rz.f32.s32", ({0x01000001}), 0x4b800000);
  EXPECT_BITS("cvt.rp.f32.s32", ({0x01000001}), 0x4b800001);
  EXPECT_BITS("cvt.rm.f32.s32", ({0xfeffffff}), 0xcb800001);
  EXPECT_BITS("cvt.rz.f32.u32", ({0xffffffff}), 0x4f7fffff);
  EXPECT_BITS("cvt.rn.f32.u32", ({0xffffffff}), 0x4f800000);
  EXPECT_BITS("cvt.rn.f32.s32", ({0xffffffff}), kMinusOne);
  EXPECT_BITS("cvt.rn.f16.s32", ({70000}), 0x7c00);
  EXPECT_BITS("cvt.rz.f16.u32", ({70000}), 0x7bff);
  EXPECT_BITS("cvt.rn.f16.u8", ({255}), 0x5bf8);
  EXPECT_BITS("cvt.rn.bf16.s32", ({257}), 0x4380);
  EXPECT_BITS("cvt.rp.bf16.s32", ({257}), 0x4381);
  EXPECT_BITS("cvt.rn.f64.s64", ({0x20000000000001}), 0x4340000000000000);
  EXPECT_BITS("cvt.rp.f64.s64", ({0x20000000000001}), 0x4340000000000001);
  EXPECT_BITS("cvt.rn.f64.u64", ({~0ULL}), 0x43f0000000000000);
  EXPECT_BITS("cvt.rn.sat.f32.s32", ({5}), kOne);
  EXPECT_BITS("cvt.rn.sat.f32.s32", ({0xfffffffb}), kZero);
  EXPECT_BITS("cvt.rn.ftz.f32.u16", ({3}), kThree);
}

TEST(ScalarSemantics, CvtFloatToFloatRounding) {
  // f32 -> f16: 1 + 2^-11 is a tie (to even 1.0, up 1 + 2^-10); 1 + 3 * 2^-12
  // is 0.75 ulp.
  EXPECT_BITS("cvt.rn.f16.f32", ({0x3f801000}), kOneH);
  EXPECT_BITS("cvt.rp.f16.f32", ({0x3f801000}), 0x3c01);
  EXPECT_BITS("cvt.rn.f16.f32", ({0x3f801800}), 0x3c01);
  EXPECT_BITS("cvt.rz.f16.f32", ({0x3f801800}), kOneH);
  EXPECT_BITS("cvt.rm.f16.f32", ({0x3f801800}), kOneH);
  EXPECT_BITS("cvt.rm.f16.f32", ({0xbf801800}), 0xbc01);
  EXPECT_BITS("cvt.rn.f16.f32", ({0x47c35000}), 0x7c00); // 1e5
  EXPECT_BITS("cvt.rz.f16.f32", ({0x47c35000}), 0x7bff);
  EXPECT_BITS("cvt.rn.f16.f32", ({kQuietNaN}), 0x7fff);
  // f16's subnormals are not f32's: .ftz leaves them.
  EXPECT_BITS("cvt.rn.f16.f32", ({0x33800000}), 0x0001); // 2^-24
  EXPECT_BITS("cvt.rn.ftz.f16.f32", ({0x33800000}), 0x0001);
  EXPECT_BITS("cvt.rn.ftz.f16.f32", ({0x807fffff}), 0x8000);
  // f32 -> bf16.
  EXPECT_BITS("cvt.rn.bf16.f32", ({0x3f808000}), kOneB);
  EXPECT_BITS("cvt.rn.bf16.f32", ({0x3f818000}), 0x3f82);
  EXPECT_BITS("cvt.rz.bf16.f32", ({0x3f81ffff}), 0x3f81);
  EXPECT_BITS("cvt.rp.bf16.f32", ({0x3f800001}), 0x3f81);
  EXPECT_BITS("cvt.rn.bf16.f32", ({kNegativeNaN}), 0x7fff);
  // f64 -> f32: 1 + 2^-24 is a tie.
  EXPECT_BITS("cvt.rn.f32.f64", ({0x3ff0000001000000}), kOne);
  EXPECT_BITS("cvt.rp.f32.f64", ({0x3ff0000001000000}), kOnePlusUlp);
  EXPECT_BITS("cvt.rn.f32.f64", ({0x3730000000000000}), 0x00000200); // 2^-140
  EXPECT_BITS("cvt.rn.ftz.f32.f64", ({0x3730000000000000}), kZero);
  // A NaN keeps its sign and the payload's high bits, quieted (measured).
  EXPECT_BITS("cvt.rn.f32.f64", ({0x7ff8000000000123}), 0x7fc00000);
  EXPECT_BITS("cvt.rn.f32.f64", ({0x7ff2fe62e6afef49}), 0x7fd7f317);
  // f16 <-> bf16 lose precision both ways.
  EXPECT_BITS("cvt.rn.bf16.f16", ({0x3c01}), kOneB);
  EXPECT_BITS("cvt.rp.bf16.f16", ({0x3c01}), 0x3f81);
  EXPECT_BITS("cvt.rn.f16.bf16", ({0x3f81}), 0x3c08);
  EXPECT_BITS("cvt.rn.f16.bf16", ({0x5015}), 0x7c00); // 1e10
  EXPECT_BITS("cvt.rz.f16.bf16", ({0x5015}), 0x7bff);
  EXPECT_BITS("cvt.rn.f16.f64", ({0x3ff0000000000001}), kOneH);
  EXPECT_BITS("cvt.rn.bf16.f64", ({0xbff0000000000000}), 0xbf80);
}

TEST(ScalarSemantics, CvtWidening) {
  EXPECT_BITS("cvt.f32.f16", ({0x0001}), 0x33800000);
  EXPECT_BITS("cvt.f32.f16", ({0x7e01}), kNaN);
  EXPECT_BITS("cvt.ftz.f32.f16", ({0x8001}), 0xb3800000);
  EXPECT_BITS("cvt.f32.bf16", ({0x3f81}), 0x3f810000);
  EXPECT_BITS("cvt.f32.bf16", ({0x0001}), 0x00010000);
  EXPECT_BITS("cvt.ftz.f32.bf16", ({0x0001}), kZero);
  EXPECT_BITS("cvt.f64.f32", ({0x3fc00000}), 0x3ff8000000000000);
  EXPECT_BITS("cvt.f64.f32", ({kMinSubnormal}), 0x36a0000000000000);
  EXPECT_BITS("cvt.ftz.f64.f32", ({kMinSubnormal}), 0);
  EXPECT_BITS("cvt.f64.f16", ({0xfc00}), 0xfff0000000000000);
  // NaNs widen with their payloads (measured for f32 and bf16 to f32 and
  // f64); bf16 to f32 is a shift, a signaling NaN stays one.
  EXPECT_BITS("cvt.f64.bf16", ({0x7fc1}), 0x7ff8200000000000);
  EXPECT_BITS("cvt.f64.f32", ({0x7f800001}), 0x7ff8000020000000);
  EXPECT_BITS("cvt.f64.f32", ({0xffddcd2a}), 0xfffbb9a540000000);
  EXPECT_BITS("cvt.f32.bf16", ({0x7f8a}), 0x7f8a0000);
  EXPECT_BITS("cvt.rni.u32.f64", ({0x7ff8000000000000}), 0x80000000);
}

TEST(ScalarSemantics, CvtSameTypeRoundsToInteger) {
  EXPECT_BITS("cvt.rni.f32.f32", ({0x40200000}), kTwo);
  EXPECT_BITS("cvt.rzi.f32.f32", ({0xc02ccccd}), kMinusTwo);
  EXPECT_BITS("cvt.rmi.f32.f32", ({0xbf000000}), kMinusOne);
  EXPECT_BITS("cvt.rpi.f32.f32", ({0xbf000000}), kMinusZero);
  EXPECT_BITS("cvt.rpi.ftz.f32.f32", ({kMinSubnormal}), kZero);
  EXPECT_BITS("cvt.rpi.f32.f32", ({kMinSubnormal}), kOne);
  EXPECT_BITS("cvt.rni.sat.f32.f32", ({0x40200000}), kOne);
  EXPECT_BITS("cvt.rni.f16.f16", ({0x4100}), kTwoH);
  EXPECT_BITS("cvt.rmi.bf16.bf16", ({0xbfc0}), 0xc000);
  EXPECT_BITS("cvt.rzi.f64.f64", ({0xc005333333333333}), 0xc000000000000000);
  // Without a rounding: a copy but for .ftz and .sat.
  EXPECT_BITS("cvt.f32.f32", ({kOnePlusUlp}), kOnePlusUlp);
  EXPECT_BITS("cvt.ftz.f32.f32", ({kMinSubnormal}), kZero);
  EXPECT_BITS("cvt.sat.f32.f32", ({kTwo}), kOne);
  EXPECT_BITS("cvt.sat.f32.f32", ({kQuietNaN}), kZero);
  EXPECT_BITS("cvt.sat.f64.f64", ({0xbff0000000000000}), 0);
}

TEST(ScalarSemantics, CvtSaturationToFloat) {
  EXPECT_BITS("cvt.rn.sat.f16.f32", ({0xc0400000}), 0);
  EXPECT_BITS("cvt.rn.sat.f16.f32", ({kQuietNaN}), 0);
  EXPECT_BITS("cvt.rn.sat.f16.f32", ({kTwo}), kOneH);
  EXPECT_BITS("cvt.rn.ftz.sat.f32.f64", ({0x3fe0000000000000}), kHalf);
  // .satfinite: beyond the largest finite f16 (65504, 0x7bff) clamps.
  EXPECT_BITS("cvt.rn.satfinite.f16.f32", ({0x47c35000}), 0x7bff);
  EXPECT_BITS("cvt.rn.satfinite.f16.f32", ({kMinusInf}), 0xfbff);
  EXPECT_BITS("cvt.rn.satfinite.f16.f32", ({kQuietNaN}), 0x7fff);
  EXPECT_BITS("cvt.rz.satfinite.bf16.f32", ({kInf}), 0x7f7f);
  // .relu: negatives become +0; NaN stays NaN.
  EXPECT_BITS("cvt.rn.relu.f16.f32", ({kMinusOne}), 0);
  EXPECT_BITS("cvt.rn.relu.f16.f32", ({kTwo}), kTwoH);
  EXPECT_BITS("cvt.rn.relu.f16.f32", ({kQuietNaN}), 0x7fff);
  EXPECT_BITS("cvt.rz.relu.bf16.f32", ({0xbf800001}), 0);
  EXPECT_BITS("cvt.rn.relu.satfinite.f16.f32", ({0xc7c35000}), 0);
  EXPECT_BITS("cvt.rn.relu.satfinite.bf16.f32", ({kInf}), 0x7f7f);
}

TEST(ScalarSemantics, CvtPackedPutsAInTheUpperHalf) {
  EXPECT_BITS("cvt.rn.f16x2.f32", ({kOne, kTwo}), 0x3c004000);
  EXPECT_BITS("cvt.rn.bf16x2.f32", ({kOne, kTwo}), 0x3f804000);
  EXPECT_BITS("cvt.rz.bf16x2.f32", ({0x3f81ffff, 0xbf81ffff}), 0x3f81bf81);
  EXPECT_BITS("cvt.rn.f16x2.f32", ({0x3f801800, 0x3f801000}), 0x3c013c00);
  EXPECT_BITS("cvt.rz.f16x2.f32", ({0x3f801800, 0x47c35000}), 0x3c007bff);
  EXPECT_BITS("cvt.rn.relu.f16x2.f32", ({kMinusOne, kQuietNaN}), 0x00007fff);
  EXPECT_BITS("cvt.rn.satfinite.f16x2.f32", ({0x47c35000, kMinusInf}),
              0x7bfffbff);
  EXPECT_BITS("cvt.rn.relu.satfinite.bf16x2.f32", ({kInf, kMinusTwo}),
              0x7f7f0000);
}

TEST(ScalarSemantics, CvtTf32) {
  // tf32 keeps 10 fraction bits; 1 + 2^-11 is a tie: away gives 1 + 2^-10.
  EXPECT_BITS("cvt.rna.tf32.f32", ({0x3f801000}), 0x3f802000);
  EXPECT_BITS("cvt.rn.tf32.f32", ({0x3f801000}), 0x3f800000);
  EXPECT_BITS("cvt.rn.tf32.f32", ({0x3f803000}), 0x3f804000);
  EXPECT_BITS("cvt.rna.tf32.f32", ({0x3f800fff}), 0x3f800000);
  EXPECT_BITS("cvt.rz.tf32.f32", ({0x3f801fff}), 0x3f800000);
  EXPECT_BITS("cvt.rna.tf32.f32", ({0xbf801000}), 0xbf802000);
  // Rounding above the largest tf32 (0x7f7fe000) overflows unless
  // .satfinite.
  EXPECT_BITS("cvt.rna.tf32.f32", ({0x7f7ff000}), kInf);
  EXPECT_BITS("cvt.rna.satfinite.tf32.f32", ({0x7f7ff000}), 0x7f7fe000);
  EXPECT_BITS("cvt.rna.satfinite.tf32.f32", ({kMinusInf}), 0xff7fe000);
  EXPECT_BITS("cvt.rz.relu.tf32.f32", ({kMinusOne}), 0);
  EXPECT_BITS("cvt.rn.satfinite.relu.tf32.f32", ({kInf}), 0x7f7fe000);
  // A NaN keeps its high 19 bits; .satfinite takes a tf32 ulp off an
  // all-ones exponent (measured).
  EXPECT_BITS("cvt.rna.tf32.f32", ({kQuietNaN}), 0x7fc00000);
  EXPECT_BITS("cvt.rna.tf32.f32", ({0xff9f7787}), 0xff9f6000);
  EXPECT_BITS("cvt.rna.satfinite.tf32.f32", ({kQuietNaN}), 0x7fbfe000);
  EXPECT_BITS("cvt.rna.satfinite.tf32.f32", ({0x7f800001}), 0x7f7fe000);
}

TEST(ScalarSemantics, CvtFp8) {
  // e4m3: 1.0 = 0x38, -2.0 = 0xc0, largest 448 = 0x7e, NaN 0x7f; a is the
  // upper byte.
  EXPECT_BITS("cvt.rn.satfinite.e4m3x2.f32", ({kOne, kMinusTwo}), 0x38c0);
  EXPECT_BITS("cvt.rn.satfinite.e4m3x2.f32", ({0x447a0000, kMinusInf}),
              0x7efe); // 1000, -inf
  EXPECT_BITS("cvt.rn.satfinite.e4m3x2.f32", ({kQuietNaN, 0x3b000000}),
              0x7f01); // NaN, 2^-9 (the smallest subnormal)
  // Ties to even: 1.0625 -> 1.0, 1.1875 -> 1.25.
  EXPECT_BITS("cvt.rn.satfinite.e4m3x2.f32", ({0x3f880000, 0x3f980000}),
              0x383a);
  EXPECT_BITS("cvt.rn.satfinite.relu.e4m3x2.f32", ({kMinusOne, kHalf}), 0x0030);
  // e5m2: 1.0 = 0x3c, largest 57344 = 0x7b.
  EXPECT_BITS("cvt.rn.satfinite.e5m2x2.f32", ({kOne, kMinusInf}), 0x3cfb);
  EXPECT_BITS("cvt.rn.satfinite.e5m2x2.f32", ({kNegativeNaN, 0x49742400}),
              0x7f7b); // NaN, 1e6
  EXPECT_BITS("cvt.rn.satfinite.relu.e5m2x2.f32", ({kMinusTwo, kTwo}), 0x0040);
  // From f16x2: the upper half into the upper byte.
  EXPECT_BITS("cvt.rn.satfinite.e4m3x2.f16x2", ({0x3c00c000}), 0x38c0);
  EXPECT_BITS("cvt.rn.satfinite.e4m3x2.f16x2", ({0x7c00fc00}), 0x7efe);
  EXPECT_BITS("cvt.rn.satfinite.e5m2x2.f16x2", ({0x3c013d00}), 0x3c3d);
  EXPECT_BITS("cvt.rn.satfinite.relu.e5m2x2.f16x2", ({0xbc007e00}), 0x007f);
  // Back to f16x2: exact.
  EXPECT_BITS("cvt.rn.f16x2.e4m3x2", ({0x38c0}), 0x3c00c000);
  EXPECT_BITS("cvt.rn.f16x2.e4m3x2", ({0x7f01}), 0x7fff1800);
  EXPECT_BITS("cvt.rn.relu.f16x2.e4m3x2", ({0xc038}), 0x00003c00);
  EXPECT_BITS("cvt.rn.f16x2.e5m2x2", ({0x3cc0}), 0x3c00c000);
  EXPECT_BITS("cvt.rn.f16x2.e5m2x2", ({0x7b7c}), 0x7b007c00);
}

//===----------------------------------------------------------------------===//
// ex2 / lg2 / abs / neg
//===----------------------------------------------------------------------===//

TEST(ScalarSemantics, Ex2Lg2) {
  EXPECT_BITS("ex2.approx.f32", ({kOne}), kTwo);
  EXPECT_BITS("ex2.approx.f32", ({kZero}), kOne);
  EXPECT_BITS("ex2.approx.f32", ({kMinusInf}), kZero);
  EXPECT_BITS("ex2.approx.f32", ({kInf}), kInf);
  EXPECT_BITS("ex2.approx.f32", ({kQuietNaN}), kNaN);
  // 2^-130 is subnormal (0x00080000), flushed with .ftz.
  EXPECT_BITS("ex2.approx.f32", ({0xc3020000}), 0x00080000);
  EXPECT_BITS("ex2.approx.ftz.f32", ({0xc3020000}), kZero);
  EXPECT_BITS("ex2.approx.f16", ({kOneH}), kTwoH);
  EXPECT_BITS("ex2.approx.f16", ({0xce00}), 0x0001); // 2^-24
  EXPECT_BITS("ex2.approx.f16x2", ({0x3c00bc00}), 0x40003800);
  EXPECT_BITS("ex2.approx.ftz.bf16", ({kOneB}), kTwoB);
  EXPECT_BITS("ex2.approx.ftz.bf16x2", ({0x3f80bf80}), 0x40003f00);
  EXPECT_BITS("ex2.approx.ftz.bf16", ({0xc302}), 0); // 2^-130
  EXPECT_BITS("lg2.approx.f32", ({0x41000000}), kThree);
  EXPECT_BITS("lg2.approx.f32", ({kZero}), kMinusInf);
  EXPECT_BITS("lg2.approx.f32", ({kMinusOne}), kNaN);
  EXPECT_BITS("lg2.approx.f32", ({kInf}), kInf);
  EXPECT_BITS("lg2.approx.f32", ({kMinSubnormal}), 0xc3150000); // -149
  EXPECT_BITS("lg2.approx.ftz.f32", ({kMinSubnormal}), kMinusInf);
}

TEST(ScalarSemantics, AbsNeg) {
  EXPECT_BITS("abs.f32", ({kMinusTwo}), kTwo);
  EXPECT_BITS("abs.f32", ({kMinusZero}), kZero);
  EXPECT_BITS("neg.f32", ({kTwo}), kMinusTwo);
  EXPECT_BITS("neg.f32", ({kZero}), kMinusZero);
  EXPECT_BITS("neg.f32", ({kMinSubnormal}), kMinusMinSubnormal);
  EXPECT_BITS("neg.ftz.f32", ({kMinSubnormal}), kMinusZero);
  EXPECT_BITS("abs.ftz.f32", ({kMinusMinSubnormal}), kZero);
  EXPECT_BITS("abs.f32", ({kNegativeNaN}), kNaN);
  EXPECT_BITS("neg.f32", ({kQuietNaN}), kNaN);
  EXPECT_BITS("abs.f64", ({0xc000000000000000}), kTwo64);
  EXPECT_BITS("neg.f64", ({kOne64}), 0xbff0000000000000);
  EXPECT_BITS("abs.f16", ({kMinusOneH}), kOneH);
  EXPECT_BITS("abs.ftz.f16", ({0x8001}), 0);
  EXPECT_BITS("neg.ftz.f16", ({0x0001}), 0x8000);
  EXPECT_BITS("neg.f16x2", ({0x3c00bc00}), 0xbc003c00);
  EXPECT_BITS("abs.ftz.f16x2", ({0xbc008001}), 0x3c000000);
  EXPECT_BITS("abs.bf16", ({0xbf80}), kOneB);
  EXPECT_BITS("neg.bf16x2", ({0x3f807fc1}), 0xbf807fff);
  EXPECT_BITS("abs.s32", ({0xfffffffb}), 5);
  EXPECT_BITS("abs.s32", ({0x80000000}), 0x80000000);
  EXPECT_BITS("abs.s16", ({0x8001}), 0x7fff);
  EXPECT_BITS("neg.s16", ({0x8000}), 0x8000);
  EXPECT_BITS("neg.s64", ({1}), ~0ULL);
  EXPECT_BITS("abs.s64", ({~0ULL}), 1);
  EXPECT_BITS("neg.s32", ({5}), 0xfffffffb);
}

//===----------------------------------------------------------------------===//
// setp / selp / lop3 / prmt
//===----------------------------------------------------------------------===//

TEST(ScalarSemantics, SetpFloatOrderedAndUnordered) {
  // Ordered comparisons are false on NaN, unordered ones true.
  EXPECT_BITS("setp.lt.f32", ({kOne, kTwo}), 1);
  EXPECT_BITS("setp.lt.f32", ({kQuietNaN, kTwo}), 0);
  EXPECT_BITS("setp.ltu.f32", ({kQuietNaN, kTwo}), 1);
  EXPECT_BITS("setp.ltu.f32", ({kThree, kTwo}), 0);
  EXPECT_BITS("setp.eq.f32", ({kMinusZero, kZero}), 1);
  EXPECT_BITS("setp.equ.f32", ({kQuietNaN, kQuietNaN}), 1);
  EXPECT_BITS("setp.eq.f32", ({kQuietNaN, kQuietNaN}), 0);
  EXPECT_BITS("setp.ne.f32", ({kQuietNaN, kOne}), 0);
  EXPECT_BITS("setp.neu.f32", ({kQuietNaN, kOne}), 1);
  EXPECT_BITS("setp.neu.f32", ({kOne, kOne}), 0);
  EXPECT_BITS("setp.le.f32", ({kTwo, kTwo}), 1);
  EXPECT_BITS("setp.leu.f32", ({kThree, kTwo}), 0);
  EXPECT_BITS("setp.gt.f32", ({kThree, kTwo}), 1);
  EXPECT_BITS("setp.gtu.f32", ({kOne, kQuietNaN}), 1);
  EXPECT_BITS("setp.ge.f32", ({kOne, kQuietNaN}), 0);
  EXPECT_BITS("setp.geu.f32", ({kOne, kTwo}), 0);
  EXPECT_BITS("setp.num.f32", ({kOne, kTwo}), 1);
  EXPECT_BITS("setp.num.f32", ({kQuietNaN, kTwo}), 0);
  EXPECT_BITS("setp.nan.f32", ({kOne, kQuietNaN}), 1);
  EXPECT_BITS("setp.nan.f64", ({kOne64, kTwo64}), 0);
  EXPECT_BITS("setp.gt.f64", ({kTwo64, kOne64}), 1);
  // .ftz compares subnormals as zeros.
  EXPECT_BITS("setp.eq.f32", ({kMinSubnormal, kZero}), 0);
  EXPECT_BITS("setp.eq.ftz.f32", ({kMinSubnormal, kZero}), 1);
  EXPECT_BITS("setp.lt.ftz.f32", ({kMinusMinSubnormal, kZero}), 0);
}

TEST(ScalarSemantics, SetpInteger) {
  EXPECT_BITS("setp.lt.s32", ({0xffffffff, 1}), 1);
  EXPECT_BITS("setp.lt.u32", ({0xffffffff, 1}), 0);
  EXPECT_BITS("setp.lo.u32", ({1, 0xffffffff}), 1);
  EXPECT_BITS("setp.ls.u64", ({5, 5}), 1);
  EXPECT_BITS("setp.hi.u16", ({0x8000, 0x7fff}), 1);
  EXPECT_BITS("setp.hs.u32", ({4, 5}), 0);
  EXPECT_BITS("setp.lt.s16", ({0x8000, 0x7fff}), 1);
  EXPECT_BITS("setp.gt.s64", ({0, ~0ULL}), 1);
  EXPECT_BITS("setp.ge.u16", ({0xffff, 0xffff}), 1);
  EXPECT_BITS("setp.le.s32", ({0x80000000, 0x7fffffff}), 1);
  EXPECT_BITS("setp.eq.b32", ({0x7fc00000, 0x7fc00000}), 1);
  EXPECT_BITS("setp.ne.b16", ({1, 2}), 1);
  EXPECT_BITS("setp.eq.b64", ({1, 2}), 0);
}

TEST(ScalarSemantics, Selp) {
  EXPECT_BITS("selp.b32", ({0xaaaa, 0xbbbb, 1}), 0xaaaa);
  EXPECT_BITS("selp.b32", ({0xaaaa, 0xbbbb, 0}), 0xbbbb);
  EXPECT_BITS("selp.f32", ({kQuietNaN, kOne, 1}), kQuietNaN);
  EXPECT_BITS("selp.u16", ({1, 2, 0}), 2);
  EXPECT_BITS("selp.s64", ({~0ULL, 0, 1}), ~0ULL);
  EXPECT_BITS("selp.f64", ({kOne64, kTwo64, 0}), kTwo64);
}

TEST(ScalarSemantics, Lop3AppliesTheTruthTable) {
  // On the tables of a, b and c (0xF0, 0xCC, 0xAA) any function gives its
  // own truth table.
  EXPECT_BITS("lop3.b32", ({0xf0f0f0f0, 0xcccccccc, 0xaaaaaaaa, 0xe4}),
              0xe4e4e4e4);
  EXPECT_BITS("lop3.b32", ({0xf0f0f0f0, 0xcccccccc, 0xaaaaaaaa, 0x96}),
              0x96969696);
  // (a & b) | (~a & c) is 0xF0 & 0xCC | 0x0F & 0xAA = 0xCA.
  EXPECT_BITS("lop3.b32", ({0x12345678, 0xffff0000, 0x0000ffff, 0xca}),
              0x1234a987);
  // c ? a : b is 0xAA & 0xF0 | 0x55 & 0xCC = 0xE4.
  EXPECT_BITS("lop3.b32", ({0x12345678, 0x9abcdef0, 0xffff0000, 0xe4}),
              0x1234def0);
  EXPECT_BITS("lop3.b32", ({0x0f0f0f0f, 0x00ff00ff, 0x0000ffff, 0x96}),
              0x0ff0f00f); // a ^ b ^ c
  EXPECT_BITS("lop3.b32", ({0x12345678, 0, 0xffffffff, 0xf0}), 0x12345678);
  EXPECT_BITS("lop3.b32", ({0x12345678, 0, 0xffffffff, 0xaa}), 0xffffffff);
  EXPECT_BITS("lop3.b32", ({0x12345678, 0xffffffff, 0xffffffff, 0x80}),
              0x12345678);                                         // a & b & c
  EXPECT_BITS("lop3.b32", ({0x12345678, 0, 0, 0x01}), 0xedcba987); // ~(a|b|c)
}

TEST(ScalarSemantics, PrmtDefaultMode) {
  // {b, a}: byte i of this pair is 0x11 * i.
  constexpr uint64_t a = 0x33221100, b = 0x77665544;
  EXPECT_BITS("prmt.b32", ({a, b, 0x3210}), a);
  EXPECT_BITS("prmt.b32", ({a, b, 0x7654}), b);
  EXPECT_BITS("prmt.b32", ({a, b, 0x0123}), 0x00112233);
  EXPECT_BITS("prmt.b32", ({a, b, 0xffff4567}), 0x44556677);
  // Bit 3 of a selector replicates the byte's sign: byte 0 is 0x80.
  EXPECT_BITS("prmt.b32", ({0x33221180, b, 0x0008}), 0x808080ff);
  EXPECT_BITS("prmt.b32", ({0x33221180, b, 0x000f}), 0x80808000);
}

TEST(ScalarSemantics, PrmtModes) {
  constexpr uint64_t a = 0x33221100, b = 0x77665544;
  // The ISA's table, d.b3 d.b2 d.b1 d.b0 per c[1:0].
  struct Case {
    const char *spelling;
    uint64_t expected[4];
  } cases[] = {
      {"prmt.b32.f4e", {0x33221100, 0x44332211, 0x55443322, 0x66554433}},
      {"prmt.b32.b4e", {0x55667700, 0x66770011, 0x77001122, 0x00112233}},
      {"prmt.b32.rc8", {0x00000000, 0x11111111, 0x22222222, 0x33333333}},
      {"prmt.b32.ecl", {0x33221100, 0x33221111, 0x33222222, 0x33333333}},
      {"prmt.b32.ecr", {0x00000000, 0x11111100, 0x22221100, 0x33221100}},
      {"prmt.b32.rc16", {0x11001100, 0x33223322, 0x11001100, 0x33223322}},
  };
  for (const Case &test : cases)
    for (uint64_t c = 0; c < 4; ++c) {
      EXPECT_BITS(test.spelling, ({a, b, c}), test.expected[c]);
      // Only c[1:0] counts.
      EXPECT_BITS(test.spelling, ({a, b, 0xfffffff8 | c}), test.expected[c]);
    }
}

//===----------------------------------------------------------------------===//
// The whole module
//===----------------------------------------------------------------------===//

TEST(ScalarSemantics, FailsNamingTheSpelling) {
  llvm::Expected<ptx::Instruction> add = ptx::parseInstruction("add.rn.f32");
  ASSERT_TRUE(static_cast<bool>(add));
  llvm::SmallVector<OperandAtom, 4> tooFew(2);
  std::string message = llvm::toString(executeScalarInstruction(*add, tooFew));
  EXPECT_NE(message.find("'add.rn.f32'"), std::string::npos) << message;

  llvm::Expected<ptx::Instruction> load =
      ptx::parseInstruction("ld.global.b32");
  ASSERT_TRUE(static_cast<bool>(load));
  llvm::SmallVector<OperandAtom, 4> operands = makeOperands(*load, {{0}});
  message = llvm::toString(executeScalarInstruction(*load, operands));
  EXPECT_NE(message.find("'ld.global.b32'"), std::string::npos) << message;
}

/// Calls `visit` with every spelling the slots of `form` can make.
void forEachSpelling(const ptx::FormInfo &form,
                     const std::function<void(StringRef)> &visit) {
  std::function<void(size_t, std::string)> extend = [&](size_t slot,
                                                        std::string prefix) {
    if (slot == form.slots.size())
      return visit(prefix);
    const ptx::SlotInfo &info = form.slots[slot];
    if (!info.mandatory)
      extend(slot + 1, prefix);
    for (StringRef token : info.tokens)
      extend(slot + 1, prefix + "." + token.str());
  };
  extend(0, form.family.str());
}

// Every spelling the table accepts for a scalar form executes, on a few
// input patterns, without "not modelled"; every scalar form has tests above.
TEST(ScalarSemantics, EveryAcceptedSpellingExecutes) {
  const llvm::StringSet<> tested = {"mov",
                                    "mov.pack.2xb16",
                                    "mov.unpack.2xb16",
                                    "mov.pack.2xb32",
                                    "mov.unpack.2xb32",
                                    "mov.pack.4xb16",
                                    "mov.unpack.4xb16",
                                    "mov.pack.2xb64",
                                    "mov.unpack.2xb64",
                                    "mov.pack.4xb32",
                                    "mov.unpack.4xb32",
                                    "add.float",
                                    "add.half",
                                    "add.int",
                                    "sub.float",
                                    "sub.half",
                                    "sub.int",
                                    "mul.float",
                                    "mul.half",
                                    "mul.int",
                                    "mul.wide",
                                    "mad.float",
                                    "mad.int",
                                    "mad.wide",
                                    "fma.float",
                                    "fma.half",
                                    "div.float",
                                    "rcp.float",
                                    "sqrt.float",
                                    "rsqrt.float",
                                    "min",
                                    "min.three",
                                    "max",
                                    "max.three",
                                    "cvt",
                                    "cvt.packed",
                                    "cvt.tf32",
                                    "cvt.f8x2.f32",
                                    "cvt.f8x2.f16x2",
                                    "cvt.f16x2.f8x2",
                                    "ex2",
                                    "lg2",
                                    "abs",
                                    "neg",
                                    "setp",
                                    "selp",
                                    "lop3",
                                    "prmt"};
  const uint64_t patterns[] = {0, ~0ULL, 0x3f8000003c003c00ULL,
                               0x0000000100000001ULL, 0x7fc00001c0490fdbULL};
  llvm::StringSet<> executed;
  for (const ptx::Form &form : ptx::getTable().forms) {
    if (form.raw->module != ptx::FamilyModuleId::scalar)
      continue;
    StringRef name = form.raw->name;
    EXPECT_TRUE(tested.contains(name)) << name.str() << " has no tests";
    const ptx::FormInfo *info = nullptr;
    for (const ptx::FormInfo &candidate : ptx::getForms())
      if (candidate.name == name)
        info = &candidate;
    ASSERT_NE(info, nullptr) << name.str();
    forEachSpelling(*info, [&](StringRef spelling) {
      auto forms = ptx::parseInstructionForms(spelling);
      if (!forms) {
        llvm::consumeError(forms.takeError());
        return;
      }
      for (const ptx::Instruction &instruction : *forms) {
        if (instruction.formName != name)
          continue;
        executed.insert(name);
        for (uint64_t pattern : patterns) {
          std::vector<std::vector<uint64_t>> sources;
          for (const ptx::OperandInfo &operand : instruction.operands) {
            if (operand.isDestination)
              continue;
            unsigned words = (operand.element.bitWidth + 63) / 64;
            uint64_t mask = operand.element.bitWidth >= 64
                                ? ~0ULL
                                : (1ULL << operand.element.bitWidth) - 1;
            sources.emplace_back(size_t(operand.atom) * words, pattern & mask);
          }
          llvm::SmallVector<OperandAtom, 4> operands =
              makeOperands(instruction, sources);
          if (llvm::Error error =
                  executeScalarInstruction(instruction, operands)) {
            ADD_FAILURE() << llvm::toString(std::move(error));
            return;
          }
          const ptx::OperandInfo &d = instruction.operands.front();
          unsigned words = (d.element.bitWidth + 63) / 64;
          EXPECT_EQ(operands.front().elements.size(), size_t(d.atom) * words)
              << instruction.spelling;
          if (d.element.bitWidth < 64)
            for (uint64_t word : operands.front().elements)
              EXPECT_EQ(word >> d.element.bitWidth, 0u) << instruction.spelling;
        }
      }
    });
    EXPECT_TRUE(executed.contains(name)) << name.str() << " never parsed";
  }
  EXPECT_EQ(executed.size(), tested.size());
}

} // namespace
