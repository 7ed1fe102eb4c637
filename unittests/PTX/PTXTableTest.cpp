//===- PTXTableTest.cpp - Tests of the PTX instruction table -------------===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//
//
// Every spelling of the seed and of spec §3 parses with the right operands;
// every combination rule of §3 rejects at least one spelling with its reason;
// the table as a whole is consistent (canonical spellings round-trip, one
// entry per spelling, operand roles well formed); every typed modifier slot
// the rules can read is one some entry declares; random token soups never
// crash the parser.
//
//===----------------------------------------------------------------------===//

#include "TirX/Dialect/Tile/PTX/PTXTable.h"
#include "TirX/Dialect/Tile/PTX/PTXInstruction.h"
#include "TirX/Dialect/Tile/PTX/PTXRules.h"
#include "TirX/Layout/TileLayout.h"

#include "llvm/ADT/DenseSet.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "gtest/gtest.h"

#include <functional>
#include <random>

using namespace mlir::tirx::ptx;
using llvm::StringRef;

namespace {

using Kind = ElementClass::Kind;

Instruction parseOk(StringRef spelling,
                    std::optional<unsigned> numOperands = std::nullopt) {
  llvm::Expected<Instruction> inst = parseInstruction(spelling, numOperands);
  if (!inst) {
    ADD_FAILURE() << spelling.str() << ": " << llvm::toString(inst.takeError());
    return Instruction();
  }
  return std::move(*inst);
}

llvm::SmallVector<Instruction, 1>
parseFormsOk(StringRef spelling,
             std::optional<unsigned> numOperands = std::nullopt) {
  llvm::Expected<llvm::SmallVector<Instruction, 1>> forms =
      parseInstructionForms(spelling, numOperands);
  if (!forms) {
    ADD_FAILURE() << spelling.str() << ": "
                  << llvm::toString(forms.takeError());
    return {};
  }
  return std::move(*forms);
}

std::string parseError(StringRef spelling,
                       std::optional<unsigned> numOperands = std::nullopt) {
  llvm::Expected<Instruction> inst = parseInstruction(spelling, numOperands);
  if (inst) {
    ADD_FAILURE() << spelling.str() << " unexpectedly parsed as "
                  << inst->spelling;
    return "";
  }
  return llvm::toString(inst.takeError());
}

/// Checks one operand: name, role, memory, immediate, class, width, atom.
void expectOperand(const Instruction &inst, size_t index, StringRef name,
                   bool isDestination, bool isMemory, bool allowsImmediate,
                   Kind kind, unsigned bitWidth, unsigned atom = 1) {
  SCOPED_TRACE(inst.spelling + " operand " + std::to_string(index));
  ASSERT_LT(index, inst.operands.size());
  const OperandInfo &op = inst.operands[index];
  EXPECT_EQ(op.name, name.str());
  EXPECT_EQ(op.isDestination, isDestination);
  EXPECT_EQ(op.isMemory, isMemory);
  EXPECT_EQ(op.allowsImmediate, allowsImmediate);
  EXPECT_EQ(op.element.kind, kind);
  EXPECT_EQ(op.element.bitWidth, bitWidth);
  EXPECT_EQ(op.atom, atom);
}

//===----------------------------------------------------------------------===//
// Helpers: scalar kinds, element classes, memory spaces
//===----------------------------------------------------------------------===//

TEST(PTXHelpers, ScalarKinds) {
  EXPECT_EQ(getBitWidth(ScalarKind::u8), 8u);
  EXPECT_EQ(getBitWidth(ScalarKind::bf16), 16u);
  EXPECT_EQ(getBitWidth(ScalarKind::s32), 32u);
  EXPECT_EQ(getBitWidth(ScalarKind::f64), 64u);
  EXPECT_EQ(getScalarKindName(ScalarKind::bf16), "bf16");
  EXPECT_EQ(getScalarKindName(ScalarKind::u64), "u64");
  EXPECT_TRUE(isFloat(ScalarKind::f16));
  EXPECT_TRUE(isFloat(ScalarKind::f32));
  EXPECT_FALSE(isFloat(ScalarKind::s16));
  EXPECT_FALSE(isFloat(ScalarKind::u32));
}

TEST(PTXHelpers, ElementClasses) {
  // .b32 accepts any 32-bit type.
  Instruction mov = parseOk("mov.b32");
  const ElementClass &bits = mov.operands[0].element;
  EXPECT_EQ(bits.kind, Kind::Bits);
  EXPECT_TRUE(bits.accepts(ScalarKind::u32));
  EXPECT_TRUE(bits.accepts(ScalarKind::s32));
  EXPECT_TRUE(bits.accepts(ScalarKind::f32));
  EXPECT_FALSE(bits.accepts(ScalarKind::f16));
  EXPECT_EQ(bits.describe(), "a 32-bit type");

  // A typed token accepts exactly its type.
  Instruction add = parseOk("add.rn.f32");
  const ElementClass &exact = add.operands[1].element;
  EXPECT_EQ(exact.kind, Kind::Exact);
  EXPECT_EQ(exact.exact, ScalarKind::f32);
  EXPECT_TRUE(exact.accepts(ScalarKind::f32));
  EXPECT_FALSE(exact.accepts(ScalarKind::u32));
  EXPECT_EQ(exact.describe(), "f32");

  // Packed types travel in unsigned carriers.
  Instruction addHalf2 = parseOk("add.rn.f16x2");
  const ElementClass &half2 = addHalf2.operands[0].element;
  EXPECT_EQ(half2.kind, Kind::Carrier);
  EXPECT_EQ(half2.bitWidth, 32u);
  EXPECT_EQ(half2.packedType, "f16x2");
  EXPECT_TRUE(half2.accepts(ScalarKind::u32));
  EXPECT_FALSE(half2.accepts(ScalarKind::s32));
  EXPECT_FALSE(half2.accepts(ScalarKind::f32));
  EXPECT_EQ(half2.describe(), "u32 (carrier of f16x2)");
  Instruction addFloat2 = parseOk("add.rn.f32x2");
  const ElementClass &float2 = addFloat2.operands[2].element;
  EXPECT_EQ(float2.kind, Kind::Carrier);
  EXPECT_TRUE(float2.accepts(ScalarKind::u64));
  EXPECT_EQ(float2.describe(), "u64 (carrier of f32x2)");

  // Scalar 16-bit floats are a 16-bit register: uint16 views and f16/bf16
  // tensors both fit.
  Instruction cvt = parseOk("cvt.rn.f16.f32");
  const ElementClass &half = cvt.operands[0].element;
  EXPECT_EQ(half.kind, Kind::Bits);
  EXPECT_TRUE(half.accepts(ScalarKind::u16));
  EXPECT_TRUE(half.accepts(ScalarKind::f16));
  EXPECT_TRUE(half.accepts(ScalarKind::bf16));
  EXPECT_FALSE(half.accepts(ScalarKind::f32));
}

TEST(PTXHelpers, MemorySpaces) {
  EXPECT_EQ(parseOk("ld.global.b32").space, MemorySpace::Global);
  EXPECT_EQ(parseOk("ld.b32").space, MemorySpace::Generic);
  EXPECT_EQ(parseOk("ld.shared.b32").space, MemorySpace::Shared);
  EXPECT_EQ(parseOk("ld.shared::cta.b32").space, MemorySpace::Shared);
  EXPECT_EQ(parseOk("ld.shared::cluster.b32").space,
            MemorySpace::SharedCluster);
  EXPECT_EQ(parseOk("st.local.b32").space, MemorySpace::Local);
  EXPECT_EQ(parseOk("add.rn.f32").space, MemorySpace::None);
  EXPECT_EQ(getMemorySpaceName(MemorySpace::Global), "global");
  EXPECT_EQ(getMemorySpaceName(MemorySpace::Generic), "generic");
  EXPECT_EQ(getMemorySpaceName(MemorySpace::SharedCluster), "shared::cluster");
  EXPECT_EQ(getMemorySpaceName(MemorySpace::None), "");
}

TEST(PTXHelpers, HasModifier) {
  Instruction inst = parseOk("ld.global.L2::cache_hint.v4.b32");
  EXPECT_TRUE(inst.hasModifier("global"));
  EXPECT_TRUE(inst.hasModifier(".v4"));
  EXPECT_TRUE(inst.hasModifier("L2::cache_hint"));
  EXPECT_FALSE(inst.hasModifier("shared"));
  EXPECT_FALSE(inst.hasModifier("ld"));
  EXPECT_EQ(inst.family, "ld");
  EXPECT_EQ(inst.modifiers.size(), 4u);
}

TEST(PTXHelpers, FamilyNames) {
  std::vector<StringRef> expected = {
      "ld",       "st",      "mov",      "add",        "sub",      "mul",
      "mad",      "fma",     "div",      "rcp",        "sqrt",     "rsqrt",
      "min",      "max",     "cvt",      "ex2",        "lg2",      "abs",
      "neg",      "setp",    "selp",     "lop3",       "prmt",     "activemask",
      "shfl",     "vote",
      "redux",    "bar",     "mma",      "ldmatrix",   "stmatrix", "cp",
      "prefetch", "barrier", "mbarrier", "fence",      "elect",    "setmaxnreg",
      "wgmma",    "atom",    "red"};
  EXPECT_EQ(
      std::vector<StringRef>(getFamilyNames().begin(), getFamilyNames().end()),
      expected);
}

//===----------------------------------------------------------------------===//
// The seed
//===----------------------------------------------------------------------===//

TEST(PTXSeed, EverySeedSpellingParses) {
  for (StringRef spelling :
       {"ld.global.v4.b32", "st.global.v4.b16", "st.global.v4.b32",
        "fma.rn.f32", "max.f32", "cvt.rn.f16.f32", "cvt.rn.f16x2.f32",
        "add.rn.f32", "sub.rn.f32", "mul.rn.f32", "div.rn.f32",
        "rcp.approx.ftz.f32", "sqrt.rn.f32", "min.f32", "ex2.approx.ftz.f32",
        "lg2.approx.ftz.f32", "abs.f32", "neg.f32", "add.rn.f16x2"}) {
    Instruction inst = parseOk(spelling);
    EXPECT_EQ(inst.spelling, spelling.str());
    EXPECT_LE(inst.minSM, 90u) << spelling.str();
    EXPECT_LE(inst.minPTX, 80u) << spelling.str();
  }
}

TEST(PTXSeed, LoadStoreOperands) {
  Instruction ld = parseOk("ld.global.v4.b32");
  ASSERT_EQ(ld.operands.size(), 2u);
  expectOperand(ld, 0, "d", true, false, false, Kind::Bits, 32, 4);
  expectOperand(ld, 1, "addr", false, true, false, Kind::Bits, 32, 4);
  EXPECT_EQ(ld.space, MemorySpace::Global);
  EXPECT_EQ(ld.vectorBytes, 16u);

  Instruction st = parseOk("st.global.v4.b16");
  ASSERT_EQ(st.operands.size(), 2u);
  expectOperand(st, 0, "addr", true, true, false, Kind::Bits, 16, 4);
  expectOperand(st, 1, "a", false, false, false, Kind::Bits, 16, 4);
  EXPECT_EQ(st.vectorBytes, 8u);

  Instruction scalar = parseOk("ld.global.f32");
  expectOperand(scalar, 0, "d", true, false, false, Kind::Exact, 32, 1);
  EXPECT_EQ(scalar.vectorBytes, 4u);
  EXPECT_EQ(parseOk("ld.global.v2.b64").vectorBytes, 16u);
  EXPECT_EQ(parseOk("st.shared.v2.u8").vectorBytes, 2u);
  EXPECT_EQ(parseOk("ld.b128").vectorBytes, 16u);

  // The cache hint brings the u64 policy operand, which may be a constant.
  Instruction hinted = parseOk("ld.global.L2::cache_hint.v4.b32");
  ASSERT_EQ(hinted.operands.size(), 3u);
  expectOperand(hinted, 2, "policy", false, false, true, Kind::Exact, 64);
  EXPECT_EQ(hinted.operands[2].element.exact, ScalarKind::u64);
  Instruction hintedStore = parseOk("st.global.L2::cache_hint.b32");
  ASSERT_EQ(hintedStore.operands.size(), 3u);
  EXPECT_EQ(hintedStore.operands[2].name, "policy");
}

TEST(PTXSeed, ArithmeticOperands) {
  Instruction fma = parseOk("fma.rn.f32");
  ASSERT_EQ(fma.operands.size(), 4u);
  expectOperand(fma, 0, "d", true, false, false, Kind::Exact, 32);
  expectOperand(fma, 1, "a", false, false, true, Kind::Exact, 32);
  expectOperand(fma, 2, "b", false, false, true, Kind::Exact, 32);
  expectOperand(fma, 3, "c", false, false, true, Kind::Exact, 32);
  EXPECT_EQ(fma.space, MemorySpace::None);
  EXPECT_EQ(fma.vectorBytes, 0u);

  for (StringRef binary : {"add.rn.f32", "sub.rn.f32", "mul.rn.f32",
                           "div.rn.f32", "min.f32", "max.f32"}) {
    Instruction inst = parseOk(binary);
    ASSERT_EQ(inst.operands.size(), 3u) << binary.str();
    expectOperand(inst, 0, "d", true, false, false, Kind::Exact, 32);
    expectOperand(inst, 1, "a", false, false, true, Kind::Exact, 32);
    expectOperand(inst, 2, "b", false, false, true, Kind::Exact, 32);
  }
  for (StringRef unary :
       {"rcp.approx.ftz.f32", "sqrt.rn.f32", "ex2.approx.ftz.f32",
        "lg2.approx.ftz.f32", "abs.f32", "neg.f32", "rsqrt.approx.f64"}) {
    Instruction inst = parseOk(unary);
    ASSERT_EQ(inst.operands.size(), 2u) << unary.str();
    expectOperand(inst, 0, "d", true, false, false, Kind::Exact,
                  inst.hasModifier("f64") ? 64 : 32);
    expectOperand(inst, 1, "a", false, false, true, Kind::Exact,
                  inst.hasModifier("f64") ? 64 : 32);
  }

  Instruction half2 = parseOk("add.rn.f16x2");
  expectOperand(half2, 0, "d", true, false, false, Kind::Carrier, 32);
  expectOperand(half2, 1, "a", false, false, true, Kind::Carrier, 32);
  expectOperand(half2, 2, "b", false, false, true, Kind::Carrier, 32);
}

TEST(PTXSeed, ConversionOperands) {
  // The seed writes cvt.rn.f16.f32 into a uint16 view.
  Instruction cvt = parseOk("cvt.rn.f16.f32");
  ASSERT_EQ(cvt.operands.size(), 2u);
  expectOperand(cvt, 0, "d", true, false, false, Kind::Bits, 16);
  EXPECT_TRUE(cvt.operands[0].element.accepts(ScalarKind::u16));
  expectOperand(cvt, 1, "a", false, false, true, Kind::Exact, 32);

  // Packed: b32 carrier, then the f32 of the high half, then the low half.
  Instruction packed = parseOk("cvt.rn.f16x2.f32");
  ASSERT_EQ(packed.operands.size(), 3u);
  expectOperand(packed, 0, "d", true, false, false, Kind::Carrier, 32);
  EXPECT_EQ(packed.operands[0].element.packedType, "f16x2");
  expectOperand(packed, 1, "a", false, false, true, Kind::Exact, 32);
  expectOperand(packed, 2, "b", false, false, true, Kind::Exact, 32);

  // The inverse is exact and takes no rounding.
  Instruction widen = parseOk("cvt.f32.f16");
  expectOperand(widen, 0, "d", true, false, false, Kind::Exact, 32);
  expectOperand(widen, 1, "a", false, false, true, Kind::Bits, 16);

  Instruction toInt = parseOk("cvt.rzi.s32.f64");
  EXPECT_EQ(toInt.operands[0].element.exact, ScalarKind::s32);
  EXPECT_EQ(toInt.operands[1].element.exact, ScalarKind::f64);
}

//===----------------------------------------------------------------------===//
// Spec §3 spellings
//===----------------------------------------------------------------------===//

TEST(PTXSpec, EverySpecSpellingParses) {
  for (StringRef spelling :
       {// §2.5 / §3.1
        "ld.global.b32", "ld.shared.v4.b32", "st.shared.v4.b32",
        "ld.shared::cta.v2.f32", "st.shared::cluster.b64", "ld.local.v4.b32",
        "st.local.v2.b64", "ld.global.nc.v4.b32", "ld.global.cg.nc.b32",
        "ld.relaxed.gpu.global.b32", "ld.acquire.sys.b64",
        "st.release.cta.shared.b32", "st.relaxed.cluster.global.v2.u32",
        "ld.weak.global.b8", "ld.volatile.shared.s16",
        "ld.volatile.global.L2::64B.b32", "st.volatile.global.u64",
        "ld.global.ca.b32", "ld.global.cs.v2.f64", "ld.global.lu.u32",
        "ld.global.cv.s32", "st.global.wb.b32", "st.global.cg.b32",
        "st.global.cs.b16", "st.global.wt.v4.f32",
        "ld.global.L1::evict_last.b32", "ld.L1::no_allocate.b32",
        "st.global.L1::evict_first.v4.b32", "ld.global.L2::cache_hint.b32",
        "st.global.L2::cache_hint.v2.b32", "ld.global.L2::128B.v4.b32",
        "ld.global.L2::256B.b32", "ld.b128", "st.global.b128",
        "ld.global.v8.f32", "ld.v8.b32", "ld.global.v4.b64",
        "ld.global.L2::evict_last.v8.b32", "st.global.v8.u32",
        "st.global.L2::evict_first.v4.u64", "ld.u8", "ld.s8", "ld.u16",
        "ld.s64", "ld.f64",
        // §3.2
        "mov.b16", "mov.b32", "mov.b64", "mov.b128", "mov.u32", "mov.f32",
        "mov.s64",
        // §3.3
        "add.rn.f32", "add.rz.ftz.sat.f32", "add.f64", "add.rm.f64",
        "add.rn.f32x2", "add.ftz.f32x2", "sub.rp.f32x2", "mul.rn.f32x2",
        "add.rn.f32.f16", "add.rn.sat.f32.bf16", "sub.rz.f32.f16", "add.rn.f16",
        "add.ftz.sat.f16x2", "add.rn.bf16", "sub.bf16x2", "mul.rn.bf16x2",
        "mul.ftz.f16", "add.s32", "add.sat.s32", "add.u16x2", "sub.u64",
        "sub.sat.s32", "mul.lo.s32", "mul.hi.u32", "mul.wide.s32",
        "mul.wide.u16", "mul.lo.u64",
        // §3.4
        "div.approx.f32", "div.approx.ftz.f32", "div.full.f32",
        "div.full.ftz.f32", "div.rn.f32", "div.rz.ftz.f32", "div.rm.f64",
        "rcp.approx.f32", "rcp.rn.ftz.f32", "rcp.rp.f64", "rcp.approx.ftz.f64",
        "sqrt.approx.f32", "sqrt.approx.ftz.f32", "sqrt.rn.f64",
        "sqrt.rz.ftz.f32", "rsqrt.approx.f32", "rsqrt.approx.ftz.f32",
        "rsqrt.approx.f64", "rsqrt.approx.ftz.f64",
        // §3.5
        "min.f32", "max.ftz.NaN.f32", "min.xorsign.abs.f32",
        "max.ftz.NaN.xorsign.abs.f32", "min.f64", "max.f16", "max.ftz.f16x2",
        "min.NaN.xorsign.abs.f16", "max.bf16", "min.NaN.bf16x2",
        "max.xorsign.abs.bf16x2", "min.u16", "max.u32", "min.u64", "max.u16x2",
        "min.s16", "max.s64", "min.s16x2", "max.relu.s16x2", "min.s32",
        "max.relu.s32",
        // §3.6
        "fma.rn.f32", "fma.rz.ftz.sat.f32", "fma.rm.f64", "fma.rp.f32x2",
        "fma.rn.ftz.f32x2", "fma.rn.f32.f16", "fma.rz.sat.f32.bf16",
        "fma.rn.f16", "fma.rn.ftz.sat.f16x2", "fma.rn.relu.f16",
        "fma.rn.ftz.relu.f16x2", "fma.rn.oob.f16", "fma.rn.oob.relu.bf16x2",
        "fma.rn.bf16", "fma.rn.relu.bf16", "mad.rn.f32", "mad.rz.ftz.sat.f32",
        "mad.rn.f64", "mad.lo.s32", "mad.hi.sat.s32", "mad.wide.u32",
        // §3.7
        "cvt.rn.f16.f32", "cvt.rz.f16.f32", "cvt.rn.bf16.f32",
        "cvt.rn.relu.f16.f32", "cvt.rz.satfinite.bf16.f32",
        "cvt.rn.relu.satfinite.f16.f32", "cvt.f32.f16", "cvt.f32.bf16",
        "cvt.f64.f32", "cvt.rn.f32.f64", "cvt.rn.f16.bf16", "cvt.rz.bf16.f16",
        "cvt.rni.f32.f32", "cvt.rzi.f16.f16", "cvt.rni.bf16.bf16",
        "cvt.f32.f32", "cvt.ftz.f32.f32", "cvt.rni.s32.f32",
        "cvt.rzi.ftz.sat.u8.f32", "cvt.rpi.s64.f64", "cvt.rmi.u16.f16",
        "cvt.rn.f32.s32", "cvt.rz.f64.u64", "cvt.rn.f16.s16", "cvt.rn.bf16.s32",
        "cvt.s32.s16", "cvt.u64.u32", "cvt.sat.s8.s32", "cvt.sat.u32.s32",
        "cvt.sat.s32.u32", "cvt.u32.u32", "cvt.rn.sat.f32.f64",
        "cvt.rn.f16x2.f32", "cvt.rz.f16x2.f32", "cvt.rn.relu.f16x2.f32",
        "cvt.rn.satfinite.f16x2.f32", "cvt.rn.bf16x2.f32",
        "cvt.rz.relu.satfinite.bf16x2.f32", "cvt.rna.tf32.f32",
        "cvt.rna.satfinite.tf32.f32", "cvt.rn.tf32.f32", "cvt.rz.relu.tf32.f32",
        "cvt.rn.satfinite.relu.tf32.f32", "cvt.rn.satfinite.e4m3x2.f32",
        "cvt.rn.satfinite.relu.e5m2x2.f32", "cvt.rn.satfinite.e4m3x2.f16x2",
        "cvt.rn.f16x2.e4m3x2", "cvt.rn.relu.f16x2.e5m2x2",
        // §3.8
        "ex2.approx.f32", "ex2.approx.ftz.f32", "ex2.approx.f16",
        "ex2.approx.f16x2", "ex2.approx.ftz.bf16", "ex2.approx.ftz.bf16x2",
        "lg2.approx.f32", "lg2.approx.ftz.f32",
        // §3.9
        "abs.f32", "abs.ftz.f32", "abs.f64", "abs.f16", "abs.ftz.f16x2",
        "abs.bf16", "abs.bf16x2", "abs.s16", "abs.s32", "abs.s64", "neg.f32",
        "neg.ftz.f32", "neg.f64", "neg.ftz.f16", "neg.f16x2", "neg.bf16",
        "neg.bf16x2", "neg.s16", "neg.s32", "neg.s64"}) {
    Instruction inst = parseOk(spelling);
    EXPECT_EQ(inst.spelling, spelling.str());
  }
}

TEST(PTXSpec, RepresentativeOperands) {
  // Mixed precision: d and b are f32, a is the 16-bit source.
  Instruction mixed = parseOk("add.rn.f32.bf16");
  expectOperand(mixed, 0, "d", true, false, false, Kind::Exact, 32);
  expectOperand(mixed, 1, "a", false, false, true, Kind::Bits, 16);
  expectOperand(mixed, 2, "b", false, false, true, Kind::Exact, 32);
  Instruction mixedFma = parseOk("fma.rn.f32.f16");
  expectOperand(mixedFma, 1, "a", false, false, true, Kind::Bits, 16);
  expectOperand(mixedFma, 2, "b", false, false, true, Kind::Bits, 16);
  expectOperand(mixedFma, 3, "c", false, false, true, Kind::Exact, 32);

  // .wide doubles the destination (and mad's addend).
  Instruction wide = parseOk("mul.wide.s32");
  EXPECT_EQ(wide.operands[0].element.exact, ScalarKind::s64);
  EXPECT_EQ(wide.operands[1].element.exact, ScalarKind::s32);
  Instruction madWide = parseOk("mad.wide.u16");
  EXPECT_EQ(madWide.operands[0].element.exact, ScalarKind::u32);
  EXPECT_EQ(madWide.operands[3].element.exact, ScalarKind::u32);

  // Packed integer and bf16 forms use 32-bit carriers.
  Instruction relu = parseOk("max.relu.s16x2");
  EXPECT_EQ(relu.operands[0].element.packedType, "s16x2");
  Instruction bf16x2 = parseOk("mul.rn.bf16x2");
  EXPECT_EQ(bf16x2.operands[2].element.describe(), "u32 (carrier of bf16x2)");
  Instruction fp8 = parseOk("cvt.rn.satfinite.e4m3x2.f32");
  expectOperand(fp8, 0, "d", true, false, false, Kind::Carrier, 16);
  EXPECT_EQ(fp8.operands.size(), 3u);
  Instruction tf32 = parseOk("cvt.rna.tf32.f32");
  expectOperand(tf32, 0, "d", true, false, false, Kind::Bits, 32);

  // Two-input min/max take 3 operands, three-input 4.
  EXPECT_EQ(parseOk("min.u32").operands.size(), 3u);
  EXPECT_EQ(parseOk("max.NaN.abs.f32", 4).operands.size(), 4u);

  // mov: the scalar copy first, then its pack/unpack shapes.
  Instruction mov = parseOk("mov.b32");
  ASSERT_EQ(mov.operands.size(), 2u);
  expectOperand(mov, 0, "d", true, false, false, Kind::Bits, 32);
  expectOperand(mov, 1, "a", false, false, true, Kind::Bits, 32);
  llvm::SmallVector<Instruction, 1> forms = parseFormsOk("mov.b64", 2);
  ASSERT_EQ(forms.size(), 5u);
  EXPECT_EQ(forms[0].operands[1].atom, 1u);
  expectOperand(forms[1], 1, "a", false, false, false, Kind::Bits, 32, 2);
  expectOperand(forms[2], 0, "d", true, false, false, Kind::Bits, 32, 2);
  expectOperand(forms[3], 1, "a", false, false, false, Kind::Bits, 16, 4);
  expectOperand(forms[4], 0, "d", true, false, false, Kind::Bits, 16, 4);
  EXPECT_EQ(parseFormsOk("mov.b128").size(), 5u);
  EXPECT_EQ(parseFormsOk("mov.b16").size(), 1u);
  // Every other spelling names exactly one form.
  EXPECT_EQ(parseFormsOk("add.rn.f32").size(), 1u);
}

TEST(PTXSpec, CanonicalOrder) {
  EXPECT_EQ(parseOk("add.f32.rn").spelling, "add.rn.f32");
  EXPECT_EQ(parseOk("add.sat.ftz.rz.f32").spelling, "add.rz.ftz.sat.f32");
  EXPECT_EQ(parseOk("ld.v4.global.b32").spelling, "ld.global.v4.b32");
  EXPECT_EQ(parseOk("st.v4.global.b16").spelling, "st.global.v4.b16");
  EXPECT_EQ(parseOk("ld.L2::cache_hint.global.nc.b32").spelling,
            "ld.global.nc.L2::cache_hint.b32");
  EXPECT_EQ(parseOk("ld.gpu.global.acquire.b32").spelling,
            "ld.acquire.gpu.global.b32");
  EXPECT_EQ(parseOk("cvt.f16.rn.f32").spelling, "cvt.rn.f16.f32");
  EXPECT_EQ(parseOk("cvt.f16x2.relu.rn.f32").spelling, "cvt.rn.relu.f16x2.f32");
  EXPECT_EQ(parseOk("max.NaN.ftz.f32").spelling, "max.ftz.NaN.f32");
  EXPECT_EQ(parseOk("min.abs.xorsign.f32").spelling, "min.xorsign.abs.f32");
  EXPECT_EQ(parseOk("fma.relu.rn.f16").spelling, "fma.rn.relu.f16");
  EXPECT_EQ(parseOk("ex2.ftz.approx.f32").spelling, "ex2.approx.ftz.f32");
  EXPECT_EQ(parseOk("add.rn.f32.bf16").modifiers,
            (llvm::SmallVector<std::string, 4>{"rn", "f32", "bf16"}));
}

TEST(PTXSpec, MinMaxArity) {
  Instruction two = parseOk("max.f32", 3);
  EXPECT_EQ(two.operands.size(), 3u);
  EXPECT_EQ(two.minSM, 50u);
  Instruction three = parseOk("max.f32", 4);
  EXPECT_EQ(three.operands.size(), 4u);
  EXPECT_EQ(three.operands[3].name, "c");
  EXPECT_EQ(three.minSM, 100u);
  EXPECT_EQ(parseOk("min.ftz.NaN.f32", 4).minSM, 100u);
  // Without a count the two-input form comes first.
  EXPECT_EQ(parseOk("min.f32").operands.size(), 3u);
  // The stand-alone .abs exists only on the three-input line.
  EXPECT_EQ(parseOk("max.abs.f32").operands.size(), 4u);
  EXPECT_EQ(parseError("max.abs.f32", 3),
            "'max.abs.f32': .xorsign and .abs must appear together");
  EXPECT_EQ(parseError("max.xorsign.abs.f32", 4),
            "'max.xorsign.abs.f32' expects 3 operands, got 4");
  EXPECT_EQ(parseError("max.f16", 4), "'max.f16' expects 3 operands, got 4");
  EXPECT_EQ(parseError("max.f32", 5),
            "'max.f32' expects 3 or 4 operands, got 5");
  EXPECT_EQ(parseError("min.f32", 2),
            "'min.f32' expects 3 or 4 operands, got 2");
}

TEST(PTXSpec, Floors) {
  struct Case {
    const char *spelling;
    std::optional<unsigned> numOperands;
    unsigned minSM, minPTX;
  };
  for (const Case &c : std::initializer_list<Case>{
           {"add.rn.bf16", {}, 90, 78},
           {"mul.rn.bf16x2", {}, 90, 78},
           {"add.rn.f16", {}, 53, 42},
           {"fma.rn.bf16", {}, 80, 70},
           {"fma.rn.oob.f16", {}, 90, 81},
           {"ex2.approx.f16", {}, 75, 70},
           {"ex2.approx.ftz.bf16x2", {}, 90, 78},
           {"max.f32", 4, 100, 88},
           {"max.NaN.f32", {}, 80, 70},
           {"max.xorsign.abs.f32", {}, 86, 72},
           {"max.relu.s32", {}, 90, 80},
           {"max.u16x2", {}, 90, 80},
           {"add.rn.f32x2", {}, 100, 86},
           {"add.rn.f32.f16", {}, 100, 86},
           {"fma.rn.f32.bf16", {}, 100, 86},
           {"ld.global.v8.f32", {}, 100, 88},
           {"st.global.v4.b64", {}, 100, 88},
           {"ld.global.L2::256B.b32", {}, 80, 74},
           {"ld.global.L2::64B.b32", {}, 75, 74},
           {"ld.global.L2::cache_hint.b32", {}, 80, 74},
           {"ld.global.L1::evict_last.b32", {}, 70, 74},
           {"ld.relaxed.cluster.global.b32", {}, 90, 78},
           {"ld.acquire.gpu.b32", {}, 70, 60},
           {"ld.shared::cluster.b32", {}, 90, 78},
           {"ld.b128", {}, 70, 83},
           {"ld.relaxed.sys.b128", {}, 70, 84},
           {"cvt.rn.f16x2.f32", {}, 80, 70},
           {"cvt.rn.bf16.f32", {}, 80, 70},
           {"cvt.f32.bf16", {}, 80, 71},
           {"cvt.ftz.f32.bf16", {}, 90, 78},
           {"cvt.rn.bf16.f16", {}, 90, 78},
           {"cvt.rn.relu.f16.f32", {}, 80, 70},
           {"cvt.rn.satfinite.f16.f32", {}, 75, 81},
           {"cvt.rna.tf32.f32", {}, 80, 70},
           {"cvt.rna.satfinite.tf32.f32", {}, 80, 81},
           {"cvt.rn.tf32.f32", {}, 90, 78},
           {"cvt.rn.satfinite.tf32.f32", {}, 100, 86},
           {"cvt.rn.satfinite.e4m3x2.f32", {}, 89, 81},
           {"mov.b128", {}, 70, 83},
           {"fma.rn.f32", {}, 50, 20}}) {
    Instruction inst = parseOk(c.spelling, c.numOperands);
    EXPECT_EQ(inst.minSM, c.minSM) << c.spelling;
    EXPECT_EQ(inst.minPTX, c.minPTX) << c.spelling;
  }
}

//===----------------------------------------------------------------------===//
// Rejections: every rule of §3, plus the generic errors
//===----------------------------------------------------------------------===//

struct Rejection {
  const char *spelling;
  const char *reason; // a substring of the message
  std::optional<unsigned> numOperands = std::nullopt;
};

void expectRejections(std::initializer_list<Rejection> cases) {
  for (const Rejection &c : cases) {
    std::string message = parseError(c.spelling, c.numOperands);
    EXPECT_NE(message.find(c.reason), std::string::npos)
        << c.spelling << ": got \"" << message << "\", want \"" << c.reason
        << "\"";
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  }
}

TEST(PTXRejections, Generic) {
  EXPECT_EQ(parseError("foo.f32"),
            "'foo.f32': unknown instruction family 'foo'");
  EXPECT_EQ(parseError(""), "'': empty instruction spelling");
  EXPECT_EQ(parseError("add.rn f32"),
            "'add.rn f32': invalid character ' ' in instruction spelling");
  EXPECT_EQ(parseError("add.rn.f32;"),
            "'add.rn.f32;': invalid character ';' in instruction spelling");
  // A character that does not print is shown as '?', and escaped in the
  // quoted spelling (the message stays one line).
  EXPECT_EQ(parseError("add.rn.f32\t"),
            "'add.rn.f32\\x09': invalid character '?' in instruction spelling");
  EXPECT_EQ(parseError("add\n.f32"),
            "'add\\x0a.f32': invalid character '?' in instruction spelling");
  EXPECT_EQ(parseError("add.rn.f33"), "'add.rn.f33': unknown modifier .f33");
  EXPECT_EQ(parseError("fma.f32"), "'fma.f32': missing required rounding "
                                   "modifier (one of .rn, .rz, .rm, .rp)");
  EXPECT_EQ(parseError("add.rn.f32", 4),
            "'add.rn.f32' expects 3 operands, got 4");
  EXPECT_EQ(parseError("abs.f32", 3), "'abs.f32' expects 2 operands, got 3");
  EXPECT_EQ(parseError("ld.global.L2::cache_hint.b32", 2),
            "'ld.global.L2::cache_hint.b32' expects 3 operands, got 2");
  expectRejections({
      {"add..f32", "empty modifier"},
      {".add.f32", "empty modifier"},
      {"add.f32.", "empty modifier"},
      {"add.rn f32", "invalid character ' '"},
      {"add.rn.f32;", "invalid character ';'"},
      {"ADD.rn.f32", "unknown instruction family 'ADD'"},
      {"add.RN.f32", "unknown modifier .RN"},
      {"abs.rn.f32", "unknown modifier .rn"},
      {"add.rn.rz.f32", "conflicting rounding modifier: .rn and .rz"},
      {"add.rn.rn.f32", "repeated modifier .rn"},
      {"ld.global.shared.b32", "conflicting state space: .global and .shared"},
      {"add.rn", "missing required type (one of .f32, .f64, .f32x2, .f16"},
      {"ld.global", "missing required type (one of .b8, "},
      {"ld.global.v4", "missing required type"},
      {"ex2.f32", "missing required .approx"},
      {"rsqrt.f32", "missing required .approx"},
      {"div.f32", "missing required rounding modifier (one of .approx, "
                  ".full, .rn"},
      {"mul.u32", "missing required mode (one of .hi, .lo"},
      {"cvt.rn.e4m3x2.f32", "missing required .satfinite"},
      {"cvt.rn.f16x2", "missing required source type"},
      {"lg2.approx.f16", "unknown modifier .f16"},
      {"mov.f16", "unknown modifier .f16"},
      {"ex2.approx.ftz.f64", "unknown modifier .f64"},
  });
}

TEST(PTXRejections, LoadStore) {
  expectRejections({
      {"ld.relaxed.global.b32",
       ".relaxed requires a scope (one of .cta, .cluster, .gpu, .sys)"},
      {"ld.acquire.b32", ".acquire requires a scope"},
      {"st.release.global.b32", ".release requires a scope"},
      {"ld.gpu.global.b32", "a scope (.gpu) is only allowed with .relaxed or "
                            ".acquire"},
      {"ld.weak.cta.b32", "a scope (.cta) is only allowed"},
      {"ld.volatile.sys.global.b32", "a scope (.sys) is only allowed"},
      {"st.weak.gpu.b32", "only allowed with .relaxed or .release"},
      {"ld.acquire.gpu.local.b32", ".acquire is not allowed on .local"},
      {"st.relaxed.gpu.local.b32", ".relaxed is not allowed on .local"},
      {"ld.relaxed.gpu.global.cg.b32",
       "cache operator .cg is not allowed with .relaxed"},
      {"st.release.sys.global.wt.b32",
       "cache operator .wt is not allowed with .release"},
      {"ld.shared.nc.b32", ".nc requires .global"},
      {"ld.nc.b32", ".nc requires .global"},
      {"ld.weak.global.nc.b32", ".nc cannot be combined with .weak"},
      {"ld.relaxed.gpu.global.nc.b32", ".nc cannot be combined with .relaxed"},
      {"ld.global.lu.nc.b32", ".nc allows only the .ca, .cg and .cs"},
      {"ld.global.cg.L1::evict_last.b32",
       "cache operator .cg and eviction priority .L1::evict_last are "
       "mutually exclusive"},
      {"st.global.wb.L1::no_allocate.v2.b32", "mutually exclusive"},
      {"ld.global.cs.L2::evict_first.v8.b32",
       "cache operator .cs and eviction priority .L2::evict_first"},
      {"ld.shared.L1::evict_last.b32",
       "eviction priority .L1::evict_last requires .global or generic"},
      {"st.local.L1::evict_first.b32", "requires .global or generic"},
      {"ld.shared.L2::128B.b32",
       "prefetch size .L2::128B requires .global or generic addressing"},
      {"ld.local.L2::cache_hint.b32",
       ".L2::cache_hint requires .global or generic addressing"},
      {"st.shared::cta.L2::cache_hint.b32", ".L2::cache_hint requires"},
      {"ld.volatile.global.L2::cache_hint.b32",
       ".volatile cannot be combined with .L2::cache_hint"},
      {"ld.volatile.global.cg.b32", ".volatile cannot be combined with .cg"},
      {"ld.volatile.L1::evict_last.b32",
       ".volatile cannot be combined with .L1::evict_last"},
      {"st.volatile.global.wt.b32", ".volatile cannot be combined with .wt"},
      {"st.volatile.L1::no_allocate.b32",
       ".volatile cannot be combined with .L1::no_allocate"},
      {"ld.volatile.local.b32", ".volatile is not allowed on .local"},
      {"st.volatile.local.v2.b32", ".volatile is not allowed on .local"},
      {"ld.shared.v8.b32",
       "a 256-bit access requires .global or generic addressing"},
      {"st.local.v4.f64", "a 256-bit access requires .global or generic"},
      {"ld.global.v8.b64",
       "a 256-bit access is .v8 of a 32-bit type or .v4 of a 64-bit type"},
      {"ld.global.v8.b16", "a 256-bit access is .v8 of a 32-bit type"},
      {"ld.global.L2::evict_last.b32",
       "missing required vector width (one of .v4, .v8)"},
      {"ld.global.L2::evict_last.v4.b32", "a 256-bit access is"},
      {"ld.global.v2.b128", ".b128 is not valid here"},
      {"st.global.nc.b32", "unknown modifier .nc"},
      {"st.acquire.gpu.b32", "unknown modifier .acquire"},
      {"st.global.ca.b32", "unknown modifier .ca"},
      {"ld.global.wb.b32", "unknown modifier .wb"},
      {"st.global.L2::64B.b32", "unknown modifier .L2::64B"},
      {"ld.global.f16", "unknown modifier .f16"},
  });
}

TEST(PTXRejections, AddSubMul) {
  expectRejections({
      {"add.ftz.f64", ".ftz is not allowed on .f64"},
      {"mul.rn.ftz.f64", ".ftz is not allowed on .f64"},
      {"add.sat.f64", ".sat is only allowed on .f32, not .f64"},
      {"mul.rn.sat.f32x2", ".sat is only allowed on .f32, not .f32x2"},
      {"add.rn.ftz.f32.f16",
       "the mixed-precision line (.f32.f16) takes no .ftz"},
      {"sub.ftz.f32.bf16", "takes no .ftz"},
      {"add.rn.f64.f16",
       "the mixed-precision .f16 source requires .f32, not .f64"},
      {"add.rn.f32x2.bf16", "requires .f32, not .f32x2"},
      {"add.rn.f16.f32", ".f32 (type) must come before .f16 (source type)"},
      {"mul.rn.f32.f16", ".f16 is not valid here"},
      {"add.ftz.bf16", ".ftz is not allowed on .bf16"},
      {"sub.sat.bf16x2", ".sat is not allowed on .bf16x2"},
      {"mul.rn.ftz.sat.bf16", ".ftz is not allowed on .bf16"},
      {"add.rz.f16x2", ".f16x2 is not valid here"},
      // .f16 alone fits the mixed line, which then lacks its f32 type.
      {"add.rz.f16", "missing required type (one of .f32, .f64, .f32x2)"},
      {"add.sat.u32", ".sat is only allowed on .s32"},
      {"sub.sat.s64", ".sat is only allowed on .s32"},
      {"add.sat.s16x2", ".sat is only allowed on .s32"},
      {"sub.s16x2", "unknown modifier .s16x2"},
      {"mul.wide.u64", ".wide requires a 16- or 32-bit type, not .u64"},
      {"mad.wide.s64", ".wide requires a 16- or 32-bit type"},
      {"mul.lo.f32", ".f32 is not valid here (open slots: type)"},
  });
}

TEST(PTXRejections, FmaMad) {
  expectRejections({
      {"fma.f32", "missing required rounding modifier"},
      {"fma.sat.f16", "missing required .rn"},
      {"mad.f32", "missing required rounding modifier"},
      {"fma.rn.ftz.f64", ".ftz is not allowed on .f64"},
      {"fma.rn.sat.f32x2", ".sat is only allowed on .f32"},
      {"fma.rn.ftz.f32.f16",
       "the mixed-precision line (.f32.f16) takes no .ftz"},
      {"fma.rn.f64.bf16", "requires .f32, not .f64"},
      {"fma.rn.ftz.bf16", ".ftz is not allowed on .bf16"},
      {"fma.rn.sat.bf16x2", ".sat is not allowed on .bf16x2"},
      {"fma.rn.oob.ftz.f16", ".oob cannot be combined with .ftz"},
      {"fma.rn.oob.sat.f16x2", ".oob cannot be combined with .sat"},
      {"fma.rn.sat.relu.f16", ".sat and .relu are mutually exclusive"},
      {"fma.rz.f16x2", ".f16x2 is not valid here"},
      {"fma.rn.relu.f32", ".f32 is not valid here"},
      {"mad.lo.sat.s32", ".sat is only allowed on mad.hi.s32"},
      {"mad.hi.sat.u32", ".sat is only allowed on mad.hi.s32"},
      {"mad.rn.f32x2", "unknown modifier .f32x2"},
  });
}

TEST(PTXRejections, DivRcpSqrt) {
  expectRejections({
      {"div.approx.f64", ".approx is only allowed on .f32"},
      {"div.full.f64", ".full is only allowed on .f32"},
      {"div.rn.ftz.f64", ".ftz is not allowed on rounded .f64"},
      {"rcp.approx.f64",
       "the f64 approximation must be spelled rcp.approx.ftz.f64"},
      {"rcp.rn.ftz.f64", ".ftz is not allowed on rounded .f64"},
      {"rcp.full.f32", "unknown modifier .full"},
      {"sqrt.approx.f64", ".approx is only allowed on .f32"},
      {"sqrt.approx.ftz.f64", ".approx is only allowed on .f32"},
      {"sqrt.rn.ftz.f64", ".ftz is not allowed on .f64"},
      {"rsqrt.rn.f32", "unknown modifier .rn"},
  });
}

TEST(PTXRejections, MinMax) {
  EXPECT_EQ(parseError("max.relu.f32"),
            "'max.relu.f32': .relu is only allowed on s16x2 and s32");
  expectRejections({
      {"max.relu.u32", ".relu is only allowed on s16x2 and s32"},
      {"min.relu.s16", ".relu is only allowed on s16x2 and s32"},
      {"max.ftz.s32", ".ftz is not allowed on integer type .s32"},
      {"min.NaN.u16x2", ".NaN is not allowed on integer type .u16x2"},
      {"max.xorsign.abs.s64", ".xorsign is not allowed on integer type .s64"},
      {"min.NaN.f64", ".NaN is not allowed on .f64"},
      {"max.ftz.f64", ".ftz is not allowed on .f64"},
      {"max.xorsign.abs.f64", ".xorsign is not allowed on .f64"},
      {"max.ftz.bf16", ".ftz is not allowed on .bf16"},
      {"min.ftz.NaN.bf16x2", ".ftz is not allowed on .bf16x2"},
      {"max.xorsign.f32", ".xorsign and .abs must appear together"},
      {"min.abs.f16", ".xorsign and .abs must appear together"},
      {"max.xorsign.f32", ".xorsign and .abs must appear together", 4},
      {"max.NaN.f16", "expects 3 operands, got 4", 4},
      {"max.relu.f32", ".relu is only allowed on s16x2 and s32", 4},
  });
}

TEST(PTXRejections, Cvt) {
  expectRejections({
      {"cvt.s32.f32",
       "float-to-integer conversion requires an integer rounding modifier "
       "(one of .rni, .rzi, .rmi, .rpi)"},
      {"cvt.rn.u8.f16", "float-to-integer conversion requires"},
      {"cvt.rni.f32.s32",
       "integer rounding .rni is only allowed on float-to-integer and "
       "same-type float conversions"},
      {"cvt.rzi.f16.f32", "integer rounding .rzi is only allowed"},
      {"cvt.rni.bf16.f16", "integer rounding .rni is only allowed"},
      {"cvt.f32.s32",
       "integer-to-float conversion requires a rounding modifier (one of "
       ".rn, .rz, .rm, .rp)"},
      {"cvt.f16.f32",
       ".f32 to .f16 loses precision: requires a rounding modifier"},
      {"cvt.f32.f64", ".f64 to .f32 loses precision"},
      {"cvt.bf16.f16", ".f16 to .bf16 loses precision"},
      {"cvt.f16.bf16", ".bf16 to .f16 loses precision"},
      {"cvt.rn.f32.f16",
       ".f16 to .f32 is exact: rounding modifier .rn is not allowed"},
      {"cvt.rz.f64.f32", ".f32 to .f64 is exact"},
      {"cvt.rn.f32.f32", ".f32 to .f32 is exact"},
      {"cvt.rn.s32.s16",
       "integer-to-integer conversion takes no rounding modifier"},
      {"cvt.rni.u32.u32",
       "integer-to-integer conversion takes no rounding modifier"},
      {"cvt.rni.s32.u16", "integer rounding .rni is only allowed"},
      {"cvt.sat.s64.s32", ".s64 covers the range of .s32: .sat is not allowed"},
      {"cvt.sat.u32.u16", ".u32 covers the range of .u16"},
      {"cvt.sat.s32.s32", ".s32 covers the range of .s32"},
      {"cvt.rn.ftz.f16.f64",
       ".ftz requires .f32 as the source or destination type"},
      {"cvt.ftz.s32.s16", ".ftz requires .f32"},
      {"cvt.rn.relu.f32.f64",
       ".relu is only allowed on f32 to f16/bf16 conversions"},
      {"cvt.rn.satfinite.f16.f64", ".satfinite is only allowed on f32 to"},
      {"cvt.rm.relu.f16.f32", ".relu requires .rn or .rz"},
      {"cvt.rn.relu.ftz.f16.f32", ".relu cannot be combined with .ftz"},
      {"cvt.rz.satfinite.sat.bf16.f32",
       ".satfinite cannot be combined with .sat"},
      {"cvt.rn.sat.bf16.f32", ".sat is not supported with .bf16"},
      {"cvt.rzi.sat.s32.bf16", ".sat is not supported with .bf16"},
      {"cvt.rn.bf16.s8",
       "conversions between .bf16 and 8-bit integers are not supported"},
      {"cvt.rzi.u8.bf16", "conversions between .bf16 and 8-bit integers"},
      {"cvt.rna.relu.tf32.f32", ".relu is not allowed with .rna"},
      {"cvt.f16x2.f32", "missing required rounding modifier (one of .rn, .rz)"},
      {"cvt.rn.f32.f16x2",
       ".f16x2 (destination type) must come before .f32 (source type)"},
      {"cvt.rn.e4m3x2.f16x2", "missing required .satfinite"},
      {"cvt.rn.f32.e4m3x2", "must come before .f32"},
      {"cvt.rn.bf16x2.f32", "expects 3 operands, got 2", 2},
      {"cvt.rn.f16.f32", "expects 2 operands, got 3", 3},
  });
  // .rm is not a packed rounding mode: the scalar line takes .rm but not
  // .f16x2, the packed line takes .f16x2 but not .rm.
  std::string message = parseError("cvt.rm.f16x2.f32");
  EXPECT_NE(message.find(".f16x2 is not valid here"), std::string::npos)
      << message;
}

TEST(PTXRejections, Ex2Lg2AbsNeg) {
  expectRejections({
      {"ex2.approx.ftz.f16", ".ftz is not allowed on .f16"},
      {"ex2.approx.ftz.f16x2", ".ftz is not allowed on .f16x2"},
      {"ex2.approx.bf16", ".bf16 requires .ftz"},
      {"ex2.approx.bf16x2", ".bf16x2 requires .ftz"},
      {"lg2.approx.bf16", "unknown modifier .bf16"},
      {"lg2.f32", "missing required .approx"},
      {"ex2.rn.f32", "unknown modifier .rn"},
      {"abs.ftz.f64", ".ftz is not allowed on .f64"},
      {"abs.ftz.bf16", ".ftz is not allowed on .bf16"},
      {"abs.ftz.s32", ".ftz is not allowed on .s32"},
      {"neg.ftz.bf16x2", ".ftz is not allowed on .bf16x2"},
      {"neg.ftz.f64", ".ftz is not allowed on .f64"},
      {"abs.u32", "unknown modifier .u32"},
      {"neg.f16", "expects 2 operands, got 3", 3},
  });
}

//===----------------------------------------------------------------------===//
// Whole-table properties
//===----------------------------------------------------------------------===//

/// Calls `fn` on candidate spellings of `form`: the whole slot product when
/// small, a deterministic random sample otherwise.
void forEachCandidate(const FormInfo &form, unsigned sampleSize,
                      const std::function<void(const std::string &)> &fn) {
  double size = 1;
  for (const SlotInfo &slot : form.slots)
    size *= slot.tokens.size() + (slot.mandatory ? 0 : 1);
  std::vector<int> choice(form.slots.size());
  auto spelling = [&] {
    std::string text = form.family.str();
    for (size_t i = 0; i < form.slots.size(); ++i)
      if (choice[i] >= 0)
        text += "." + form.slots[i].tokens[choice[i]].str();
    return text;
  };
  if (size <= 25000) {
    std::function<void(size_t)> recurse = [&](size_t i) {
      if (i == form.slots.size())
        return fn(spelling());
      const SlotInfo &slot = form.slots[i];
      for (int t = slot.mandatory ? 0 : -1; t < int(slot.tokens.size()); ++t) {
        choice[i] = t;
        recurse(i + 1);
      }
    };
    return recurse(0);
  }
  std::mt19937 rng(std::hash<std::string>()(form.name.str()));
  for (unsigned n = 0; n < sampleSize; ++n) {
    // Few optional tokens on average, so that legal forms turn up.
    std::bernoulli_distribution spell(0.2);
    for (size_t i = 0; i < form.slots.size(); ++i) {
      const SlotInfo &slot = form.slots[i];
      choice[i] =
          !slot.mandatory && !spell(rng) ? -1 : int(rng() % slot.tokens.size());
    }
    fn(spelling());
  }
}

//===----------------------------------------------------------------------===//
// Collectives and predicates (issue 17)
//===----------------------------------------------------------------------===//

TEST(PTXCollectives, ExecutionKinds) {
  EXPECT_EQ(parseOk("fma.rn.f32").exec, ExecKind::Thread);
  EXPECT_FALSE(parseOk("fma.rn.f32").isVolatile);
  EXPECT_EQ(parseOk("shfl.sync.bfly.b32").exec, ExecKind::Warp);
  EXPECT_TRUE(parseOk("shfl.sync.bfly.b32").isVolatile);
  EXPECT_EQ(parseOk("vote.sync.ballot.b32").exec, ExecKind::Warp);
  EXPECT_EQ(parseOk("redux.sync.min.u32").exec, ExecKind::Warp);
  EXPECT_EQ(parseOk("bar.warp.sync").exec, ExecKind::Warp);
  EXPECT_EQ(parseOk("bar.sync").exec, ExecKind::Warp);
  EXPECT_EQ(parseOk("bar.arrive").exec, ExecKind::Warp);
  // Per thread, but its value depends on convergence.
  Instruction activemask = parseOk("activemask.b32");
  EXPECT_EQ(activemask.exec, ExecKind::Thread);
  EXPECT_TRUE(activemask.isVolatile);
  // barrier.cluster's `.aligned` lines are warp instructions, the others
  // per thread.
  EXPECT_EQ(parseOk("barrier.cluster.arrive").exec, ExecKind::Thread);
  EXPECT_EQ(parseOk("barrier.cluster.arrive.relaxed.aligned").exec,
            ExecKind::Warp);
  EXPECT_EQ(parseOk("barrier.cluster.wait.aligned").exec, ExecKind::Warp);
  EXPECT_TRUE(parseOk("barrier.cluster.wait").isVolatile);
  for (const FormInfo &form : getForms())
    EXPECT_EQ(form.exec == ExecKind::Thread,
              !llvm::is_contained({StringRef("shfl"), StringRef("vote"),
                                   StringRef("redux"), StringRef("bar"),
                                   StringRef("mma"), StringRef("ldmatrix"),
                                   StringRef("stmatrix"), StringRef("elect"),
                                   StringRef("setmaxnreg"), StringRef("wgmma")},
                                  form.family) &&
                  !form.name.ends_with(".aligned"))
        << form.name.str();
}

TEST(PTXCollectives, ShuffleOperands) {
  llvm::SmallVector<Instruction, 1> forms = parseFormsOk("shfl.sync.idx.b32");
  ASSERT_EQ(forms.size(), 2u);
  const Instruction &plain = forms[0], &withValid = forms[1];
  EXPECT_EQ(plain.formName, "shfl.sync");
  ASSERT_EQ(plain.operands.size(), 5u);
  expectOperand(plain, 0, "d", true, false, false, Kind::Bits, 32, 32);
  expectOperand(plain, 1, "a", false, false, false, Kind::Bits, 32, 32);
  expectOperand(plain, 2, "b", false, false, true, Kind::Bits, 32, 32);
  expectOperand(plain, 3, "c", false, false, true, Kind::Bits, 32, 1);
  expectOperand(plain, 4, "membermask", false, false, true, Kind::Bits, 32, 1);
  EXPECT_EQ(plain.operands[0].fragment, "S[(32) : (1@laneid)]");
  EXPECT_TRUE(plain.operands[3].fragment.empty());
  EXPECT_EQ(withValid.formName, "shfl.sync.pred");
  ASSERT_EQ(withValid.operands.size(), 6u);
  expectOperand(withValid, 1, "p", true, false, false, Kind::Exact, 1, 32);
  EXPECT_EQ(withValid.operands[1].element.exact, ScalarKind::pred);
  EXPECT_TRUE(withValid.operands[1].joinsPrevious);
  EXPECT_FALSE(withValid.operands[0].joinsPrevious);
  EXPECT_EQ(parseOk("shfl.sync.up.b32").minSM, 50u);
  EXPECT_EQ(parseOk("shfl.sync.up.b32").minPTX, 60u);
  EXPECT_EQ(parseError("shfl.sync.bfly.b32", 4),
            "'shfl.sync.bfly.b32' expects 5 or 6 operands, got 4");
  EXPECT_EQ(parseError("shfl.bfly.b32"),
            "'shfl.bfly.b32': missing required .sync");
  EXPECT_EQ(parseError("shfl.sync.bfly.f32"),
            "'shfl.sync.bfly.f32': unknown modifier .f32");
}

TEST(PTXCollectives, VotesAndReductions) {
  Instruction all = parseOk("vote.sync.all.pred");
  expectOperand(all, 0, "d", true, false, false, Kind::Exact, 1, 32);
  expectOperand(all, 1, "a", false, false, false, Kind::Exact, 1, 32);
  Instruction ballot = parseOk("vote.sync.ballot.b32");
  expectOperand(ballot, 0, "d", true, false, false, Kind::Bits, 32, 32);
  EXPECT_EQ(ballot.operands[1].element.exact, ScalarKind::pred);
  EXPECT_EQ(parseError("vote.sync.all.b32"),
            "'vote.sync.all.b32': .b32 is not valid here (open slots: type)");
  Instruction add = parseOk("redux.sync.add.s32");
  EXPECT_EQ(add.minSM, 80u);
  EXPECT_EQ(add.minPTX, 70u);
  expectOperand(add, 0, "d", true, false, false, Kind::Exact, 32, 32);
  expectOperand(parseOk("redux.sync.and.b32"), 1, "a", false, false, false,
                Kind::Bits, 32, 32);
  EXPECT_EQ(parseError("redux.sync.and.s32"),
            "'redux.sync.and.s32': .s32 is not valid here (open slots: "
            "type)");
}

TEST(PTXCollectives, Barriers) {
  EXPECT_EQ(parseOk("bar.sync", 1).formName, "bar.sync");
  EXPECT_EQ(parseOk("bar.sync", 2).formName, "bar.sync.count");
  EXPECT_EQ(parseOk("bar.arrive").operands.size(), 2u);
  EXPECT_EQ(parseOk("bar.warp.sync").operands.size(), 1u);
  EXPECT_EQ(parseError("bar.arrive", 1),
            "'bar.arrive' expects 2 operands, got 1");
}

TEST(PTXCollectives, MmaSync) {
  Instruction mma =
      parseOk("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32");
  EXPECT_EQ(mma.exec, ExecKind::Warp);
  EXPECT_EQ(mma.minSM, 80u);
  EXPECT_EQ(mma.minPTX, 70u);
  ASSERT_EQ(mma.operands.size(), 4u);
  expectOperand(mma, 0, "d", true, false, false, Kind::Exact, 32, 128);
  expectOperand(mma, 1, "a", false, false, false, Kind::Bits, 32, 128);
  expectOperand(mma, 2, "b", false, false, false, Kind::Bits, 32, 64);
  expectOperand(mma, 3, "c", false, false, false, Kind::Exact, 32, 128);
  EXPECT_EQ(mma.operands[0].atomShape, (llvm::SmallVector<int64_t, 2>{16, 8}));
  EXPECT_EQ(mma.operands[2].atomShape, (llvm::SmallVector<int64_t, 2>{8, 8}));
  EXPECT_EQ(mma.operands[0].fragment, mma.operands[3].fragment);
  EXPECT_TRUE(parseOk("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32")
                  .hasModifier("f16"));
  EXPECT_EQ(
      parseError("mma.sync.aligned.m16n8k16.row.col.f32.f16.bf16.f32"),
      "'mma.sync.aligned.m16n8k16.row.col.f32.f16.bf16.f32': A and B must "
      "have one type, got .f16 and .bf16");
  // The layouts are ordered slots: .col.row is A column-major, refused,
  // never silently read as .row.col.
  EXPECT_EQ(parseError("mma.sync.aligned.m16n8k16.col.row.f32.f16.f16.f32"),
            "'mma.sync.aligned.m16n8k16.col.row.f32.f16.f16.f32': m16n8k16 "
            "takes A row-major and B column-major (.row.col), got .col.row");
  EXPECT_EQ(parseError("mma.sync.aligned.m16n8k16.row.row.f32.f16.f16.f32"),
            "'mma.sync.aligned.m16n8k16.row.row.f32.f16.f16.f32': m16n8k16 "
            "takes A row-major and B column-major (.row.col), got .row.row");
  // m16n8k8: half of k16's A and B; bf16 needs sm_80, f16 sm_75.
  Instruction k8 = parseOk("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32");
  EXPECT_EQ(k8.minSM, 75u);
  EXPECT_EQ(k8.minPTX, 65u);
  EXPECT_EQ(k8.operands[1].atomShape, (llvm::SmallVector<int64_t, 2>{16, 4}));
  EXPECT_EQ(k8.operands[2].atomShape, (llvm::SmallVector<int64_t, 2>{8, 4}));
  EXPECT_EQ(parseOk("mma.sync.aligned.m16n8k8.row.col.f32.bf16.bf16.f32").minSM,
            80u);
  // f16 accumulators: C and D are 16 x 4 words of f16 pairs.
  Instruction f16 =
      parseOk("mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16");
  expectOperand(f16, 0, "d", true, false, false, Kind::Bits, 32, 64);
  EXPECT_EQ(f16.operands[0].atomShape, (llvm::SmallVector<int64_t, 2>{16, 4}));
  EXPECT_FALSE(static_cast<bool>(
      parseInstruction("mma.sync.aligned.m16n8k16.row.col.f16.bf16.bf16.f16")));
  EXPECT_EQ(parseError("mma.sync.aligned.m16n8k8.col.col.f32.f16.f16.f32"),
            "'mma.sync.aligned.m16n8k8.col.col.f32.f16.f16.f32': m16n8k8 "
            "takes A row-major and B column-major (.row.col), got .col.col");
  // tf32 (m16n8k8) and fp8 (m16n8k32) use k16's A and B fragments; the fp8
  // types may differ between A and B.
  Instruction tf32 =
      parseOk("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32");
  EXPECT_EQ(tf32.formName, "mma.m16n8k8.tf32");
  EXPECT_EQ(tf32.operands[1].fragment, mma.operands[1].fragment);
  EXPECT_EQ(tf32.operands[2].fragment, mma.operands[2].fragment);
  EXPECT_EQ(tf32.minSM, 80u);
  Instruction f8 =
      parseOk("mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e5m2.f32");
  EXPECT_EQ(f8.minSM, 89u);
  EXPECT_EQ(f8.minPTX, 84u);
  EXPECT_EQ(f8.operands[1].atomShape, (llvm::SmallVector<int64_t, 2>{16, 8}));
  EXPECT_EQ(parseError("mma.sync.aligned.m16n8k32.row.col.f32.e4m3.f16.f32"),
            "'mma.sync.aligned.m16n8k32.row.col.f32.e4m3.f16.f32': .f16 is "
            "not valid here (open slots: type of B, type of C)");
  EXPECT_FALSE(static_cast<bool>(
      parseInstruction("mma.sync.aligned.m16n8k8.row.col.f32.tf32.f16.f32")));
  // Per-thread operands keep a one-dimensional atom.
  EXPECT_EQ(parseOk("ld.global.v4.b32").operands[0].atomShape,
            (llvm::SmallVector<int64_t, 2>{4}));
}

TEST(PTXWgmma, MmaAsync) {
  llvm::SmallVector<Instruction, 1> forms =
      parseFormsOk("wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16");
  ASSERT_EQ(forms.size(), 2u);
  const Instruction &ss = forms[0], &rs = forms[1];
  EXPECT_EQ(ss.exec, ExecKind::Warpgroup);
  EXPECT_TRUE(ss.isVolatile);
  EXPECT_EQ(ss.minSM, 90u);
  EXPECT_EQ(ss.minPTX, 80u);
  EXPECT_TRUE(ss.archSpecific);
  ASSERT_EQ(ss.operands.size(), 8u);
  ASSERT_EQ(rs.operands.size(), 7u);
  // D: 64 x 128 f32, 64 registers per thread, one fragment per N.
  EXPECT_EQ(ss.operands[0].atomShape, (llvm::SmallVector<int64_t, 2>{64, 128}));
  EXPECT_EQ(ss.operands[0].fragment,
            "S[(4, 2, 8, 16, 4, 2) : (1@wid_in_wg, 2, 4@laneid, 4, 1@laneid, "
            "1)]");
  EXPECT_TRUE(ss.operands[0].alwaysVector);
  EXPECT_EQ(ss.operands[1].atomShape, (llvm::SmallVector<int64_t, 2>{64, 16}));
  EXPECT_EQ(ss.operands[1].space, MemorySpace::Shared);
  EXPECT_EQ(ss.operands[2].atomShape, (llvm::SmallVector<int64_t, 2>{128, 16}));
  EXPECT_EQ(ss.operands[3].element.kind, Kind::Exact);
  EXPECT_EQ(ss.operands[4].kind, "sign");
  EXPECT_EQ(ss.operands[7].kind, "bit");
  // A in registers: 64 x 8 b32 words.
  EXPECT_EQ(rs.operands[1].atomShape, (llvm::SmallVector<int64_t, 2>{64, 8}));
  EXPECT_FALSE(rs.operands[1].fragment.empty());
  EXPECT_EQ(parseOk("wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16", 8u)
                .operands[0]
                .atom,
            512u);
  EXPECT_EQ(parseError("wgmma.mma_async.sync.aligned.m64n12k16.f32.bf16.bf16"),
            "'wgmma.mma_async.sync.aligned.m64n12k16.f32.bf16.bf16': unknown "
            "modifier .m64n12k16");
  EXPECT_EQ(parseError("wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.f16"),
            "'wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.f16': A and B "
            "must have one type, got .bf16 and .f16");
}

TEST(PTXMatrix, LdmatrixStmatrix) {
  Instruction x4 = parseOk("ldmatrix.sync.aligned.m8n8.x4.shared.b16");
  EXPECT_EQ(x4.exec, ExecKind::Warp);
  EXPECT_EQ(x4.minSM, 75u);
  EXPECT_EQ(x4.space, MemorySpace::Shared);
  ASSERT_EQ(x4.operands.size(), 2u);
  expectOperand(x4, 0, "d", true, false, false, Kind::Bits, 32, 128);
  expectOperand(x4, 1, "addr", false, true, false, Kind::Bits, 32, 128);
  EXPECT_EQ(x4.operands[1].space, MemorySpace::Shared);
  EXPECT_EQ(x4.operands[0].atomShape, (llvm::SmallVector<int64_t, 2>{4, 8, 4}));
  EXPECT_NE(x4.operands[0].fragment, x4.operands[1].fragment);
  // The count is a slot of its own line: x1's atom is one matrix.
  EXPECT_EQ(parseOk("ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16")
                .operands[0]
                .atomShape,
            (llvm::SmallVector<int64_t, 2>{1, 8, 4}));
  EXPECT_EQ(parseOk("ldmatrix.sync.aligned.m8n8.x2.shared::cta.b16").minPTX,
            78u);
  Instruction st = parseOk("stmatrix.sync.aligned.m8n8.x2.trans.shared.b16");
  EXPECT_EQ(st.minSM, 90u);
  EXPECT_EQ(st.minPTX, 78u);
  expectOperand(st, 0, "addr", true, true, false, Kind::Bits, 32, 64);
  expectOperand(st, 1, "a", false, false, false, Kind::Bits, 32, 64);
  EXPECT_EQ(parseError("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b8"),
            "'ldmatrix.sync.aligned.m8n8.x4.trans.shared.b8': .m8n8 moves "
            "16-bit elements (.trans swaps them): the type must be .b16, got "
            ".b8");
  EXPECT_EQ(parseError("ldmatrix.sync.aligned.m16n16.x2.trans.shared.b8"),
            "'ldmatrix.sync.aligned.m16n16.x2.trans.shared.b8': .m16n16 "
            "(8-bit matrices) is an sm_100a form, which TirX does not target; "
            "use .m8n8 with .b16");
  EXPECT_FALSE(static_cast<bool>(
      parseInstruction("ldmatrix.sync.aligned.m8n8.x3.shared.b16")));
  // One line per count: a missing count names them all, as one modifier.
  EXPECT_EQ(parseError("ldmatrix.sync.aligned.m8n8.shared.b16"),
            "'ldmatrix.sync.aligned.m8n8.shared.b16': missing required "
            "matrix count (one of .x1, .x2, .x4)");
  EXPECT_FALSE(static_cast<bool>(
      parseInstruction("ldmatrix.sync.aligned.m8n8.x4.global.b16")));
}

TEST(PTXAsync, CpAsync) {
  // Two state spaces: the destination's and the source's.
  Instruction ca = parseOk("cp.async.ca.shared.global", 3);
  EXPECT_EQ(ca.exec, ExecKind::Thread);
  EXPECT_EQ(ca.minSM, 80u);
  EXPECT_EQ(ca.operands[0].space, MemorySpace::Shared);
  EXPECT_EQ(ca.operands[1].space, MemorySpace::Global);
  EXPECT_TRUE(ca.operands[0].isDestination && ca.operands[0].isMemory);
  EXPECT_EQ(ca.operands[0].element.kind, Kind::Any);
  // The atom is the cp-size immediate's bytes, resolved by the verifier.
  EXPECT_EQ(ca.operands[0].atom, 0u);
  EXPECT_EQ(ca.operands[0].chunkOperand, 2);
  EXPECT_EQ(ca.operands[2].kind, "chunk");
  EXPECT_EQ(parseOk("cp.async.cg.shared.global", 3).operands[2].kind,
            "chunk16");
  // Zero fill: src-size; an L2 cache hint adds the policy.
  Instruction zfill = parseOk("cp.async.cg.shared.global", 4);
  EXPECT_EQ(zfill.formName, "cp.async.cg.zfill");
  EXPECT_EQ(zfill.operands[3].kind, "srcsize");
  EXPECT_EQ(parseOk("cp.async.cg.shared.global.L2::cache_hint", 4).formName,
            "cp.async.cg");
  EXPECT_EQ(parseOk("cp.async.ca.shared.global.L2::128B", 3).spelling,
            "cp.async.ca.shared.global.L2::128B");
  EXPECT_EQ(parseOk("cp.async.ca.shared::cta.global", 3).minPTX, 78u);
  EXPECT_FALSE(
      static_cast<bool>(parseInstruction("cp.async.ca.global.shared")));
  EXPECT_FALSE(
      static_cast<bool>(parseInstruction("cp.async.cs.shared.global")));
  EXPECT_EQ(parseError("cp.async.shared.global", 3),
            "'cp.async.shared.global': missing required cache operator (one "
            "of .ca, .cg)");
  // Completion.
  Instruction commit = parseOk("cp.async.commit_group", 0);
  EXPECT_TRUE(commit.isVolatile);
  Instruction wait = parseOk("cp.async.wait_group", 1);
  EXPECT_TRUE(wait.isVolatile);
  EXPECT_EQ(wait.operands[0].kind, "groups");
  EXPECT_TRUE(wait.operands[0].allowsImmediate);
  EXPECT_EQ(parseOk("cp.async.wait_all", 0).operands.size(), 0u);
  EXPECT_EQ(parseError("cp.async.wait_group", 0),
            "'cp.async.wait_group' expects 1 operand, got 0");
}

TEST(PTXSync, ClusterBarrierAndMulticastLoad) {
  // barrier.cluster: no operands; .relaxed needs PTX 8.0.
  Instruction arrive = parseOk("barrier.cluster.arrive", 0);
  EXPECT_EQ(arrive.minSM, 90u);
  EXPECT_EQ(arrive.minPTX, 78u);
  EXPECT_EQ(parseOk("barrier.cluster.arrive.relaxed.aligned", 0).minPTX, 80u);
  EXPECT_EQ(parseOk("barrier.cluster.wait", 0).minPTX, 78u);
  // The multicast TMA load: a 16-bit ctaMask after the mbarrier, the cache
  // policy last.
  Instruction multicast =
      parseOk("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::"
              "complete_tx::bytes.multicast::cluster.L2::cache_hint",
              5);
  EXPECT_EQ(multicast.formName, "cp.async.bulk.tensor.load.multicast");
  EXPECT_EQ(multicast.minSM, 90u);
  EXPECT_EQ(multicast.minPTX, 80u);
  ASSERT_EQ(multicast.operands.size(), 5u);
  EXPECT_EQ(multicast.operands[3].name, "ctaMask");
  EXPECT_FALSE(multicast.operands[3].isMemory);
  EXPECT_EQ(multicast.operands[4].name, "policy");
  EXPECT_EQ(parseOk("cp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::"
                    "complete_tx::bytes.multicast::cluster",
                    4)
                .formName,
            "cp.async.bulk.tensor.load.multicast");
}

TEST(PTXSync, Mbarrier) {
  Instruction init = parseOk("mbarrier.init.shared::cta.b64", 2);
  EXPECT_EQ(init.exec, ExecKind::Thread);
  EXPECT_TRUE(init.isVolatile);
  EXPECT_EQ(init.minSM, 80u);
  EXPECT_EQ(init.minPTX, 78u);
  EXPECT_TRUE(init.operands[0].isMemory && init.operands[0].isDestination);
  EXPECT_EQ(init.operands[0].space, MemorySpace::Shared);
  EXPECT_EQ(init.vectorBytes, 8u);
  EXPECT_EQ(init.operands[1].kind, "arrivals");
  EXPECT_EQ(parseOk("mbarrier.init.shared.b64", 2).minPTX, 70u);
  // arrive: a state destination, the sink, or a state and a count (sm_90).
  Instruction arrive = parseOk("mbarrier.arrive.shared.b64", 2);
  EXPECT_EQ(arrive.hidden, HiddenDestination::None);
  EXPECT_TRUE(arrive.operands[0].isDestination);
  EXPECT_FALSE(arrive.operands[0].isMemory);
  Instruction sink = parseOk("mbarrier.arrive.shared.b64", 1);
  EXPECT_EQ(sink.formName, "mbarrier.arrive.sink");
  EXPECT_EQ(sink.hidden, HiddenDestination::Sink);
  EXPECT_EQ(sink.minPTX, 71u);
  Instruction count = parseOk("mbarrier.arrive.shared.b64", 3);
  EXPECT_EQ(count.minSM, 90u);
  EXPECT_EQ(count.minPTX, 78u);
  // Two lines of two operands: `state, [addr]` and `_, [addr], count`.
  auto twoOperands = parseInstructionForms("mbarrier.arrive.shared.b64", 2);
  ASSERT_TRUE(static_cast<bool>(twoOperands));
  ASSERT_EQ(twoOperands->size(), 2u);
  EXPECT_EQ((*twoOperands)[0].formName, "mbarrier.arrive");
  EXPECT_EQ((*twoOperands)[1].formName, "mbarrier.arrive.sink.count");
  EXPECT_EQ((*twoOperands)[1].hidden, HiddenDestination::Sink);
  EXPECT_TRUE((*twoOperands)[1].operands[0].isMemory);
  EXPECT_EQ((*twoOperands)[1].minSM, 90u);
  Instruction release =
      parseOk("mbarrier.arrive.release.cta.shared::cta.b64", 2);
  EXPECT_EQ(release.minSM, 90u);
  EXPECT_EQ(release.minPTX, 80u);
  EXPECT_EQ(parseError("mbarrier.arrive.release.shared.b64", 2),
            "'mbarrier.arrive.release.shared.b64': .release requires a scope "
            "(one of .cta, .cluster)");
  EXPECT_EQ(parseError("mbarrier.arrive.cta.shared.b64", 2),
            "'mbarrier.arrive.cta.shared.b64': a scope (.cta) requires the "
            "memory-ordering qualifier (.release)");
  EXPECT_FALSE(static_cast<bool>(
      parseInstruction("mbarrier.arrive.acquire.cta.shared.b64")));
  // expect_tx.
  Instruction tx =
      parseOk("mbarrier.arrive.expect_tx.release.cta.shared::cta.b64", 2);
  EXPECT_EQ(tx.hidden, HiddenDestination::Sink);
  EXPECT_EQ(tx.operands[1].kind, "txcount");
  EXPECT_EQ(tx.minPTX, 80u);
  EXPECT_EQ(parseOk("mbarrier.expect_tx.relaxed.cta.shared::cta.b64", 2)
                .operands[1]
                .kind,
            "txcount");
  EXPECT_EQ(parseError("mbarrier.expect_tx.cta.shared::cta.b64", 2),
            "'mbarrier.expect_tx.cta.shared::cta.b64': a scope (.cta) "
            "requires the memory-ordering qualifier (.relaxed)");
  // An arrival on another CTA's barrier: the operand is this CTA's copy,
  // mapped to the rank of operand 1 (mapa); the sink state, a rank rule.
  Instruction remote =
      parseOk("mbarrier.arrive.release.cluster.shared::cluster.b64", 2);
  EXPECT_EQ(remote.hidden, HiddenDestination::Sink);
  EXPECT_EQ(remote.space, MemorySpace::SharedCluster);
  EXPECT_EQ(remote.operands[0].remoteOperand, 1);
  EXPECT_EQ(remote.operands[1].kind, "rank");
  EXPECT_EQ(remote.operands[1].remoteOperand, -1);
  EXPECT_EQ(remote.minSM, 90u);
  EXPECT_EQ(remote.minPTX, 80u);
  EXPECT_EQ(release.operands[1].remoteOperand, -1);
  EXPECT_FALSE(static_cast<bool>(
      parseInstruction("mbarrier.arrive.release.cta.shared::cluster.b64")));
  // Waits: one try into a predicate, or try_wait's retry loop.
  Instruction once = parseOk("mbarrier.try_wait.parity.shared::cta.b64", 3);
  EXPECT_EQ(once.operands[0].element.exact, ScalarKind::pred);
  EXPECT_FALSE(once.operands[1].isDestination);
  EXPECT_EQ(once.operands[2].kind, "parity");
  Instruction loop = parseOk("mbarrier.try_wait.parity.shared::cta.b64", 2);
  EXPECT_EQ(loop.hidden, HiddenDestination::RetryUntilTrue);
  EXPECT_TRUE(loop.operands[0].isMemory);
  EXPECT_EQ(parseOk("mbarrier.test_wait.parity.shared.b64", 3).minPTX, 71u);
  EXPECT_EQ(parseError("mbarrier.test_wait.parity.shared.b64", 2),
            "'mbarrier.test_wait.parity.shared.b64' expects 3 operands, got "
            "2");
  EXPECT_EQ(parseError("mbarrier.try_wait.shared::cta.b64", 2),
            "'mbarrier.try_wait.shared::cta.b64': missing required .parity");
  EXPECT_EQ(parseOk("mbarrier.inval.shared.b64", 1).operands.size(), 1u);
  EXPECT_FALSE(static_cast<bool>(parseInstruction("mbarrier.init.b64")));
}

TEST(PTXSync, FencesElectAndWarpgroups) {
  for (StringRef spelling :
       {"fence.proxy.async", "fence.proxy.async.shared::cta",
        "fence.proxy.async.global", "fence.mbarrier_init.release.cluster"}) {
    Instruction fence = parseOk(spelling, 0);
    EXPECT_TRUE(fence.isVolatile);
    EXPECT_EQ(fence.minPTX, 80u);
    EXPECT_EQ(fence.space, MemorySpace::None);
  }
  EXPECT_EQ(parseOk("fence.proxy.tensormap::generic.release.gpu", 0).minPTX,
            83u);
  EXPECT_FALSE(static_cast<bool>(
      parseInstruction("fence.proxy.tensormap::generic.acquire.gpu")));
  EXPECT_FALSE(static_cast<bool>(parseInstruction("fence.proxy.async.local")));
  // elect.sync d|p, membermask; `_|p`.
  Instruction elect = parseOk("elect.sync", 3);
  EXPECT_EQ(elect.exec, ExecKind::Warp);
  EXPECT_EQ(elect.operands[0].fragment, "S[(32) : (1@laneid)]");
  EXPECT_TRUE(elect.operands[1].joinsPrevious);
  EXPECT_EQ(elect.operands[2].kind, "mask");
  Instruction electSink = parseOk("elect.sync", 2);
  EXPECT_EQ(electSink.hidden, HiddenDestination::Sink);
  EXPECT_TRUE(electSink.operands[0].joinsPrevious);
  // sm_90a only.
  Instruction setmaxnreg = parseOk("setmaxnreg.inc.sync.aligned.u32", 1);
  EXPECT_EQ(setmaxnreg.exec, ExecKind::Warpgroup);
  EXPECT_TRUE(setmaxnreg.archSpecific);
  EXPECT_EQ(setmaxnreg.operands[0].kind, "maxnreg");
  EXPECT_EQ(parseError("setmaxnreg.sync.aligned.u32", 1),
            "'setmaxnreg.sync.aligned.u32': missing required action (one of "
            ".inc, .dec)");
  for (StringRef spelling :
       {"wgmma.fence.sync.aligned", "wgmma.commit_group.sync.aligned"}) {
    Instruction wgmma = parseOk(spelling, 0);
    EXPECT_TRUE(wgmma.archSpecific);
    EXPECT_EQ(wgmma.exec, ExecKind::Warpgroup);
  }
  EXPECT_EQ(parseOk("wgmma.wait_group.sync.aligned", 1).operands[0].kind,
            "groups");
  EXPECT_FALSE(static_cast<bool>(parseInstruction("wgmma.fence.aligned")));
  // prefetch.tensormap: a TMA box, sm_90 / PTX 8.0, generic addressing
  // only (docs/hopper.md).
  Instruction prefetch = parseOk("prefetch.tensormap", 1);
  EXPECT_EQ(prefetch.formName, "prefetch.tensormap");
  EXPECT_EQ(prefetch.operands[0].bulkRole, BulkTensorRole::TensorMap);
  EXPECT_EQ(prefetch.minSM, 90u);
  EXPECT_EQ(prefetch.minPTX, 80u);
  EXPECT_FALSE(prefetch.archSpecific);
  EXPECT_FALSE(static_cast<bool>(parseInstruction("prefetch.param.tensormap")));
  EXPECT_FALSE(static_cast<bool>(parseInstruction("prefetch.const.tensormap")));
  // The bulk async-groups: sm_90, not arch-specific.
  Instruction bulk = parseOk("cp.async.bulk.commit_group", 0);
  EXPECT_FALSE(bulk.archSpecific);
  EXPECT_EQ(bulk.minSM, 90u);
  EXPECT_EQ(parseOk("cp.async.bulk.wait_group.read", 1).operands[0].kind,
            "groups");
  EXPECT_FALSE(static_cast<bool>(parseInstruction("cp.async.wait_group.read")));
  // Only arch-specific forms say so.
  EXPECT_FALSE(parseOk("mbarrier.arrive.shared.b64", 2).archSpecific);
}

TEST(PTXAtomics, AtomAndRed) {
  // atom: d, [a], b; the memory operand is written (and read); the
  // destination and b have the type.
  Instruction add = parseOk("atom.global.add.u32", 3);
  EXPECT_EQ(add.exec, ExecKind::Thread);
  EXPECT_FALSE(add.isVolatile);
  EXPECT_TRUE(add.operands[0].isDestination);
  EXPECT_FALSE(add.operands[0].isMemory);
  EXPECT_TRUE(add.operands[1].isMemory && add.operands[1].isDestination);
  EXPECT_EQ(add.operands[1].space, MemorySpace::Global);
  EXPECT_EQ(add.operands[2].element.exact, ScalarKind::u32);
  EXPECT_TRUE(add.operands[2].allowsImmediate);
  EXPECT_EQ(add.minSM, 50u);
  Instruction cas = parseOk("atom.shared.cas.b64", 4);
  EXPECT_EQ(cas.formName, "atom.cas");
  EXPECT_EQ(cas.operands[1].space, MemorySpace::Shared);
  EXPECT_EQ(cas.operands[3].element.bitWidth, 64u);
  // red: [a], b.
  Instruction red = parseOk("red.release.gpu.global.add.u32", 2);
  EXPECT_TRUE(red.operands[0].isMemory && red.operands[0].isDestination);
  EXPECT_EQ(red.minSM, 70u);
  EXPECT_EQ(red.minPTX, 60u);
  // Floors: an ordering sm_70 / PTX 6.0, a scope sm_60, .cluster sm_90,
  // f64 add sm_60.
  EXPECT_EQ(parseOk("atom.acq_rel.gpu.global.inc.u32", 3).minSM, 70u);
  EXPECT_EQ(parseOk("atom.sys.global.exch.b32", 3).minSM, 60u);
  Instruction cluster = parseOk("atom.cluster.shared::cluster.max.s64", 3);
  EXPECT_EQ(cluster.minSM, 90u);
  EXPECT_EQ(cluster.minPTX, 78u);
  EXPECT_EQ(parseOk("atom.global.add.f64", 3).minSM, 60u);
  // Every operation with a type ptxas takes.
  for (StringRef spelling :
       {"atom.global.and.b32", "atom.or.b64", "atom.shared.xor.b32",
        "atom.global.exch.b64", "atom.global.add.s32", "atom.global.add.u64",
        "atom.global.add.f32", "atom.global.dec.u32", "atom.global.min.s32",
        "atom.global.max.u64", "atom.relaxed.cta.global.min.s64",
        "atom.acquire.global.add.u32", "atom.release.sys.global.add.u32",
        "red.global.inc.u32", "red.relaxed.cluster.global.min.u32",
        "red.shared.and.b32"})
    EXPECT_TRUE(static_cast<bool>(parseInstruction(spelling)))
        << spelling.str();
  // ptxas's type table, in its words; orderings and operations by family.
  expectRejections({
      {"atom.global.inc.s32", ".inc takes .u32, got .s32", 3},
      {"atom.global.inc.u64", ".inc takes .u32, got .u64", 3},
      {"atom.global.exch.u32", ".exch takes .b32 or .b64, got .u32", 3},
      {"atom.global.and.u32", ".and takes .b32 or .b64, got .u32", 3},
      {"atom.global.add.s64",
       ".add takes .u32, .s32, .u64, .f32 or .f64, got .s64", 3},
      {"atom.global.add.b32",
       ".add takes .u32, .s32, .u64, .f32 or .f64, got .b32", 3},
      {"atom.global.min.b32", ".min takes .u32, .s32, .u64 or .s64, got .b32",
       3},
      {"red.global.dec.s32", ".dec takes .u32, got .s32", 2},
      {"atom.global.cas.u32",
       ".u32 is not valid here (open slots: "
       "memory-ordering qualifier, scope, type)",
       4},
      {"red.global.cas.b32", "unknown modifier .cas", 2},
      {"red.global.exch.b32", "unknown modifier .exch", 2},
      {"red.acquire.global.add.u32", "unknown modifier .acquire", 2},
      {"atom.local.add.u32", "unknown modifier .local", 3},
      {"atom.global.add.u32", "expects 3 operands, got 2", 2},
  });
}

TEST(PTXPredicates, SetpAndSelp) {
  Instruction setp = parseOk("setp.lt.s32");
  expectOperand(setp, 0, "d", true, false, false, Kind::Exact, 1);
  expectOperand(setp, 1, "a", false, false, true, Kind::Exact, 32);
  EXPECT_EQ(parseOk("setp.ftz.gtu.f32").spelling, "setp.gtu.ftz.f32");
  Instruction selp = parseOk("selp.f64");
  expectOperand(selp, 3, "c", false, false, false, Kind::Exact, 1);
  EXPECT_EQ(parseError("setp.le.b16"),
            "'setp.le.b16': .le is not allowed on .b16 (bit types compare "
            "only with .eq and .ne)");
  EXPECT_EQ(parseError("setp.hs.s64"),
            "'setp.hs.s64': .hs compares unsigned integers, but the type is "
            ".s64");
  EXPECT_EQ(parseError("setp.num.u32"),
            "'setp.num.u32': .num compares floats, but the type is .u32");
  EXPECT_EQ(parseError("setp.eq.ftz.s32"),
            "'setp.eq.ftz.s32': .ftz is not allowed on .s32");
  EXPECT_TRUE(ElementClass({Kind::Exact, 1, ScalarKind::pred, ""})
                  .accepts(ScalarKind::pred));
  EXPECT_FALSE(ElementClass({Kind::Bits, 32, ScalarKind::u8, ""})
                   .accepts(ScalarKind::pred));
  EXPECT_EQ(getScalarKindName(ScalarKind::pred), "pred");
}

TEST(PTXTable, FragmentsParse) {
  ASSERT_FALSE(getFragments().empty());
  for (const FragmentInfo &fragment : getFragments()) {
    SCOPED_TRACE(fragment.name.str());
    llvm::Expected<mlir::tirx::TileLayout> layout =
        mlir::tirx::TileLayout::parse(fragment.layout);
    ASSERT_TRUE(static_cast<bool>(layout))
        << llvm::toString(layout.takeError());
    EXPECT_EQ(layout->size(), static_cast<int64_t>(fragment.getAtom()));
    EXPECT_FALSE(fragment.getShape().empty()) << fragment.shape.str();
    // A fragment maps each atom element to a distinct (lane, register).
    llvm::DenseSet<std::pair<int64_t, int64_t>> seen;
    for (int64_t index = 0; index < layout->size(); ++index) {
      mlir::tirx::PhysicalCoord owner = layout->apply(index);
      // The thread of the warp (the warpgroup for wgmma's fragments).
      int64_t lane = mlir::tirx::getFlatThreadId(owner);
      EXPECT_LT(lane, StringRef(fragment.name).starts_with("wgmma") ? 128 : 32);
      EXPECT_TRUE(seen.insert({lane, at(owner, mlir::tirx::Axis::m)}).second);
    }
  }
}

TEST(PTXTable, FormsAreWellFormed) {
  llvm::StringSet<> names;
  for (const FormInfo &form : getForms()) {
    EXPECT_TRUE(names.insert(form.name).second) << form.name.str();
    EXPECT_TRUE(llvm::is_contained(getFamilyNames(), form.family));
    EXPECT_GE(form.minSM, 50u);
    EXPECT_GE(form.minPTX, 20u);
    for (const SlotInfo &slot : form.slots)
      EXPECT_FALSE(slot.tokens.empty()) << form.name.str();
  }
  EXPECT_EQ(getForms().size(), 122u);
  EXPECT_EQ(getFamilyNames().size(), 41u);
}

// Rules read modifiers as `m[Slot::name]`: a slot a rule names is a `Slot`,
// generated from PTXTable.def's PTX_SLOT list, or the rule does not compile;
// the loader refuses an entry slot the list lacks. What only a run can
// check: every listed slot is declared by some entry, so no rule reads a
// slot that no spelling can fill.
TEST(PTXTable, EverySlotARuleCanReadIsDeclared) {
  llvm::StringSet<> declared;
  for (const FormInfo &form : getForms())
    for (const SlotInfo &slot : form.slots) {
      EXPECT_TRUE(getSlotByName(slot.name).has_value())
          << form.name.str() << ": slot '" << slot.name.str()
          << "' is not listed by PTX_SLOT";
      declared.insert(slot.name);
    }
  llvm::StringSet<> listed;
  for (unsigned index = 0; index < kNumSlots; ++index) {
    auto slot = static_cast<Slot>(index);
    StringRef name = getSlotName(slot);
    EXPECT_TRUE(listed.insert(name).second) << name.str();
    EXPECT_EQ(getSlotByName(name), std::optional<Slot>(slot)) << name.str();
    EXPECT_TRUE(declared.contains(name))
        << "PTX_SLOT lists '" << name.str()
        << "', but no PTXTable.def entry declares it";
  }
  EXPECT_EQ(listed.size(), declared.size());
  EXPECT_FALSE(getSlotByName("sta").has_value());
}

TEST(PTXTable, EveryLegalFormIsConsistent) {
  unsigned accepted = 0;
  for (const FormInfo &form : getForms()) {
    unsigned acceptedHere = 0;
    forEachCandidate(form, 20000, [&](const std::string &candidate) {
      llvm::Expected<llvm::SmallVector<Instruction, 1>> forms =
          parseInstructionForms(candidate);
      if (!forms) {
        std::string message = llvm::toString(forms.takeError());
        EXPECT_EQ(message.rfind("'" + candidate + "'", 0), 0u) << message;
        return;
      }
      ++acceptedHere;
      for (const Instruction &inst : *forms) {
        SCOPED_TRACE(inst.spelling);
        // Slot order is canonical: the candidate is already in it.
        EXPECT_EQ(inst.spelling, candidate);
        EXPECT_EQ(inst.family, form.family.str());
        EXPECT_GE(inst.minSM, 50u);
        EXPECT_GE(inst.minPTX, 20u);
        // Exactly one entry takes the spelling at its operand count,
        // except for mov's shapes.
        llvm::Expected<llvm::SmallVector<Instruction, 1>> same =
            parseInstructionForms(inst.spelling, inst.operands.size());
        if (!same) {
          ADD_FAILURE() << llvm::toString(same.takeError());
          return;
        }
        // mbarrier.arrive's `state, [addr]` and `_, [addr], count` too
        // (FormSelection picks by which operand is in memory).
        if (inst.family != "mov" && inst.family != "mbarrier") {
          EXPECT_EQ(same->size(), 1u);
        }
        // Operand roles. cp.async's completion forms have none.
        bool isCompletion = inst.family == "cp" && inst.operands.size() <= 1;
        if (isCompletion) {
          EXPECT_TRUE(inst.isVolatile);
          return;
        }
        // The synchronization families: volatile, at most one mbarrier
        // operand (8 shared bytes), never arch-specific below sm_90.
        // (wgmma.mma_async is checked below, with the matrix families.)
        if (llvm::is_contained({StringRef("barrier"), StringRef("mbarrier"),
                                StringRef("fence"), StringRef("elect"),
                                StringRef("setmaxnreg"), StringRef("wgmma")},
                               inst.family) &&
            inst.formName.rfind("wgmma.mma_async", 0) != 0) {
          EXPECT_TRUE(inst.isVolatile);
          EXPECT_TRUE(!inst.archSpecific || inst.minSM == 90u);
          unsigned memory = 0;
          for (const OperandInfo &op : inst.operands)
            memory += op.isMemory;
          EXPECT_EQ(memory, inst.family == "mbarrier" ? 1u : 0u);
          if (memory) {
            // A barrier of this CTA, or of another CTA of the cluster
            // (through mapa: the operand is this CTA's copy).
            bool remote =
                llvm::any_of(inst.operands, [](const OperandInfo &op) {
                  return op.remoteOperand >= 0;
                });
            EXPECT_EQ(inst.space, remote ? MemorySpace::SharedCluster
                                         : MemorySpace::Shared);
            EXPECT_EQ(inst.vectorBytes, 8u);
          }
          return;
        }
        ASSERT_FALSE(inst.operands.empty());
        // TMA: one map and one box image, a whole operand each; loads also
        // write their mbarrier (a shared 64-bit word). A tensor-map prefetch
        // and a box prefetched into L2 read the map only.
        if (inst.family == "prefetch" || inst.hasModifier("prefetch")) {
          // The map, then a cache policy with .L2::cache_hint.
          ASSERT_EQ(inst.operands.size(),
                    inst.hasModifier("L2::cache_hint") ? 2u : 1u);
          EXPECT_EQ(inst.operands[0].bulkRole, BulkTensorRole::TensorMap);
          EXPECT_TRUE(inst.operands[0].isMemory &&
                      !inst.operands[0].isDestination);
          EXPECT_TRUE(inst.isVolatile);
          EXPECT_GE(inst.minSM, 90u);
          return;
        }
        if (llvm::any_of(inst.operands, [](const OperandInfo &op) {
              return op.bulkRole != BulkTensorRole::None;
            })) {
          bool isLoad = inst.operands[0].bulkRole == BulkTensorRole::BoxImage;
          const OperandInfo &box = inst.operands[isLoad ? 0 : 1];
          const OperandInfo &map = inst.operands[isLoad ? 1 : 0];
          EXPECT_EQ(box.bulkRole, BulkTensorRole::BoxImage);
          EXPECT_EQ(map.bulkRole, BulkTensorRole::TensorMap);
          EXPECT_TRUE(box.isMemory && map.isMemory &&
                      inst.operands[0].isDestination);
          EXPECT_EQ(map.space, MemorySpace::Global);
          EXPECT_NE(box.space, MemorySpace::Global);
          EXPECT_EQ(box.element.kind, Kind::Any);
          if (isLoad) {
            EXPECT_EQ(inst.operands[2].element.bitWidth, 64u);
            EXPECT_EQ(inst.operands[2].space, box.space);
          }
          EXPECT_GE(inst.minSM, 90u);
          return;
        }
        // Barriers write nothing; shfl's second line also writes `p`.
        bool isBarrier = inst.family == "bar";
        // atom writes d and [a].
        bool isAtomic = inst.family == "atom" || inst.family == "red";
        unsigned expectedDestinations =
            isBarrier                                                    ? 0
            : inst.formName == "shfl.sync.pred" || inst.family == "atom" ? 2
                                                                         : 1;
        EXPECT_EQ(inst.operands.front().isDestination, !isBarrier);
        bool isMemory = inst.family == "ld" || inst.family == "st";
        bool isMatrixMove =
            inst.family == "ldmatrix" || inst.family == "stmatrix";
        bool isCopy = inst.family == "cp";
        bool isWgmma = inst.family == "wgmma";
        EXPECT_EQ(inst.space != MemorySpace::None,
                  isMemory || isMatrixMove || isCopy || isWgmma || isAtomic);
        unsigned destinations = 0, memory = 0;
        for (const OperandInfo &op : inst.operands) {
          destinations += op.isDestination;
          memory += op.isMemory;
          EXPECT_FALSE(op.isDestination && op.allowsImmediate);
          EXPECT_FALSE(op.isMemory && op.allowsImmediate);
          // A copy's memory atoms are its chunk, resolved by the verifier.
          if (op.chunkOperand >= 0) {
            EXPECT_EQ(op.atom, 0u);
            EXPECT_EQ(op.element.kind, Kind::Any);
            continue;
          }
          EXPECT_GE(op.atom, 1u);
          EXPECT_GT(op.element.bitWidth, 0u);
        }
        EXPECT_EQ(destinations, expectedDestinations);
        if (isWgmma) {
          // D, then A (shared or registers), B from shared memory.
          bool sharedA = inst.operands.size() == 8;
          EXPECT_EQ(memory, sharedA ? 2u : 1u);
          EXPECT_TRUE(inst.operands[0].isReadWrite);
          EXPECT_EQ(inst.operands[0].atomShape[0], 64);
          EXPECT_EQ(inst.operands[1].descriptor,
                    sharedA ? DescriptorMatrix::A : DescriptorMatrix::None);
          EXPECT_EQ(inst.operands[2].descriptor, DescriptorMatrix::B);
          EXPECT_EQ(inst.operands[2].space, MemorySpace::Shared);
          // B is (N, 16), D (64, N).
          EXPECT_EQ(inst.operands[2].atomShape,
                    (llvm::SmallVector<int64_t, 2>{
                        inst.operands[0].atomShape[1], 16}));
          EXPECT_TRUE(inst.archSpecific);
          EXPECT_EQ(inst.vectorBytes, 0u);
          return;
        }
        EXPECT_EQ(memory, isCopy                                 ? 2u
                          : isMemory || isMatrixMove || isAtomic ? 1u
                                                                 : 0u);
        if (isAtomic) {
          // One element of the type at [a]; the rest are registers of it.
          const OperandInfo &mem = inst.operands[inst.family == "atom"];
          EXPECT_TRUE(mem.isMemory && mem.isDestination);
          EXPECT_EQ(mem.atom, 1u);
          EXPECT_EQ(inst.vectorBytes, mem.element.bitWidth / 8);
          for (const OperandInfo &op : inst.operands)
            EXPECT_EQ(op.element.bitWidth, mem.element.bitWidth);
        } else if (isMatrixMove) {
          // Shared rows and registers: one fragment shape, two maps.
          const OperandInfo &mem = inst.operands[inst.family == "ldmatrix"];
          const OperandInfo &reg = inst.operands[inst.family == "stmatrix"];
          EXPECT_EQ(mem.space, MemorySpace::Shared);
          EXPECT_EQ(mem.atomShape, reg.atomShape);
          EXPECT_NE(mem.fragment, reg.fragment);
        } else if (isCopy) {
          EXPECT_EQ(inst.operands[0].space, MemorySpace::Shared);
          EXPECT_EQ(inst.operands[1].space, MemorySpace::Global);
          EXPECT_EQ(inst.vectorBytes, 0u);
        } else if (isMemory) {
          const OperandInfo &mem =
              inst.family == "ld" ? inst.operands[1] : inst.operands[0];
          const OperandInfo &reg =
              inst.family == "ld" ? inst.operands[0] : inst.operands[1];
          EXPECT_TRUE(mem.isMemory);
          EXPECT_EQ(mem.atom, reg.atom);
          EXPECT_EQ(inst.vectorBytes, mem.atom * mem.element.bitWidth / 8);
          EXPECT_EQ(inst.operands.size(),
                    inst.hasModifier("L2::cache_hint") ? 3u : 2u);
        } else {
          EXPECT_EQ(inst.vectorBytes, 0u);
        }
      }
    });
    EXPECT_GT(acceptedHere, 0u) << form.name.str();
    accepted += acceptedHere;
  }
  EXPECT_GT(accepted, 5000u);
}

bool isTypeToken(StringRef token) {
  return llvm::is_contained({"b8",  "b16", "b32",   "b64",    "b128",
                             "u8",  "u16", "u32",   "u64",    "s8",
                             "s16", "s32", "s64",   "f16",    "bf16",
                             "f32", "f64", "f16x2", "bf16x2", "f32x2"},
                            token);
}

TEST(PTXTable, RandomTokenSoupsNeverCrash) {
  // Tokens of every family, plus near misses and junk.
  std::vector<std::string> pool = {
      "",     "x",      "L2::", "::",    "rn:",  "v0",
      "v16",  "b7",     "f8",   "f16x4", "s8x4", "u8x4",
      "pred", "e2m1x2", "rs",   "rna",   "mmio", "unified"};
  llvm::StringSet<> seen;
  for (const FormInfo &form : getForms())
    for (const SlotInfo &slot : form.slots)
      for (StringRef token : slot.tokens)
        if (seen.insert(token).second)
          pool.push_back(token.str());
  std::vector<std::string> families(getFamilyNames().begin(),
                                    getFamilyNames().end());
  families.push_back("nop");
  families.push_back("");
  std::mt19937 rng(20240611);
  unsigned accepted = 0;
  for (unsigned n = 0; n < 30000; ++n) {
    std::string spelling = families[rng() % families.size()];
    unsigned length = rng() % 9;
    for (unsigned i = 0; i < length; ++i)
      spelling += (rng() % 50  ? "."
                   : rng() % 2 ? ".."
                               : " ") +
                  pool[rng() % pool.size()];
    std::optional<unsigned> numOperands;
    if (rng() % 2)
      numOperands = rng() % 6;
    llvm::Expected<llvm::SmallVector<Instruction, 1>> forms =
        parseInstructionForms(spelling, numOperands);
    if (!forms) {
      std::string message = llvm::toString(forms.takeError());
      EXPECT_EQ(message.rfind("'" + spelling + "'", 0), 0u) << message;
      EXPECT_EQ(message.find('\n'), std::string::npos);
      continue;
    }
    ++accepted;
    // Accepted soups canonicalize to a fixed point.
    for (const Instruction &inst : *forms) {
      Instruction again = parseOk(inst.spelling, inst.operands.size());
      EXPECT_EQ(again.spelling, inst.spelling);
      if (numOperands) {
        EXPECT_EQ(inst.operands.size(), *numOperands);
      }
    }
  }
  // Shuffled legal spellings must also be accepted (order is free except
  // among type tokens).
  for (StringRef legal :
       {"ld.global.nc.L1::evict_last.L2::cache_hint.L2::256B.v4.b32",
        "st.relaxed.gpu.global.L1::no_allocate.L2::cache_hint.v2.b64",
        "fma.rn.ftz.sat.f32", "min.ftz.NaN.xorsign.abs.f16x2",
        "cvt.rn.relu.satfinite.bf16x2.f32", "cvt.rzi.ftz.sat.s8.f32"}) {
    llvm::SmallVector<StringRef, 8> tokens;
    legal.split(tokens, '.');
    for (unsigned n = 0; n < 50; ++n) {
      std::shuffle(tokens.begin() + 1, tokens.end(), rng);
      // Keep the type tokens in their relative order.
      llvm::SmallVector<StringRef, 8> canonical;
      legal.split(canonical, '.');
      llvm::SmallVector<StringRef, 2> types;
      for (StringRef token : canonical)
        if (isTypeToken(token))
          types.push_back(token);
      size_t next = 0;
      for (StringRef &token : tokens)
        if (&token != &tokens.front() && isTypeToken(token))
          token = types[next++];
      std::string spelling = llvm::join(tokens, ".");
      EXPECT_EQ(parseOk(spelling).spelling, legal.str()) << spelling;
    }
  }
  EXPECT_GT(accepted, 0u);
}

} // namespace
