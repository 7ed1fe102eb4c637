//===- FamilyModuleTest.cpp - The family modules against the table --------===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//

#include "TirX/Dialect/Tile/Families/FamilyModule.h"
#include "TirX/Dialect/Tile/PTX/PTXTable.h"

#include "gtest/gtest.h"

#include <set>

using namespace mlir::tirx::ptx;

namespace {

Instruction parseOk(llvm::StringRef spelling, unsigned operands) {
  llvm::Expected<Instruction> inst = parseInstruction(spelling, operands);
  EXPECT_TRUE(static_cast<bool>(inst)) << spelling.str();
  if (!inst) {
    llvm::consumeError(inst.takeError());
    return Instruction();
  }
  return *inst;
}

/// The check of `instruction`'s operand at `position` with `immediate`.
std::optional<std::string> check(const Instruction &instruction,
                                 unsigned position,
                                 std::optional<int64_t> immediate,
                                 std::optional<int64_t> other = std::nullopt) {
  const OperandKind *kind = getOperandKind(instruction, position);
  EXPECT_NE(kind, nullptr);
  if (!kind)
    return "no kind";
  auto getImmediate = [&](unsigned at) {
    return at == position ? immediate : other;
  };
  OperandValue value{instruction,          position,          immediate,
                     getImmediate,
                     /*blockThreads=*/128, /*inKernel=*/true,
                     /*clusterCTAs=*/2};
  return kind->checkValue(value);
}

// Every operand word of the table is a kind exactly one module declares (the
// registry's first use checks it, and would stop the process otherwise), and
// every declared kind is used by some entry.
TEST(FamilyModule, EveryOperandWordIsADeclaredKind) {
  std::set<std::string> used;
  for (const Form &form : getTable().forms)
    for (const OperandSpec &operand : form.operands)
      if (!operand.kind.empty())
        used.insert(operand.kind.str());
  std::set<std::string> declared;
  for (unsigned id = 0; id < kNumFamilyModules; ++id) {
    const FamilyModule &module =
        getFamilyModule(static_cast<FamilyModuleId>(id));
    EXPECT_FALSE(module.name.empty());
    for (const OperandKind &kind : module.operandKinds) {
      EXPECT_TRUE(declared.insert(kind.word.str()).second) << kind.word.str();
      EXPECT_NE(kind.checkValue, nullptr) << kind.word.str();
    }
  }
  EXPECT_EQ(used, declared);
}

// Every form names its module, and the instruction carries it.
TEST(FamilyModule, FormsCarryTheirModule) {
  EXPECT_EQ(getFamilyModule(parseOk("shfl.sync.bfly.b32", 5)).name, "warp");
  EXPECT_EQ(getFamilyModule(parseOk("bar.sync", 1)).name, "barrier");
  EXPECT_EQ(getFamilyModule(parseOk("add.f32", 3)).name, "scalar");
  EXPECT_EQ(getFamilyModule(
                parseOk("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32", 4))
                .name,
            "mma");
  EXPECT_EQ(getFamilyModule(parseOk("cp.async.wait_group", 1)).name, "cpasync");
  EXPECT_EQ(getFamilyModule(parseOk("cp.async.bulk.wait_group.read", 1)).name,
            "tma");
  EXPECT_EQ(getFamilyModule(parseOk("prefetch.tensormap", 1)).name, "prefetch");
  EXPECT_TRUE(
      getFamilyModule(parseOk("prefetch.tensormap", 1)).readsTensorMapItself);
}

// Modifiers are read by slot, not by position.
TEST(FamilyModule, ModifiersBySlot) {
  Instruction redux = parseOk("redux.sync.min.u32", 3);
  EXPECT_EQ(redux.getModifier(Slot::op), "min");
  EXPECT_EQ(redux.getModifier(Slot::type), "u32");
  EXPECT_EQ(redux.getModifier(Slot::rnd), "");
  EXPECT_EQ(parseOk("shfl.sync.up.b32", 5).getModifier(Slot::mode), "up");
}

TEST(FamilyModule, OperandKindChecks) {
  Instruction shfl = parseOk("shfl.sync.bfly.b32", 5);
  EXPECT_EQ(check(shfl, 4, -1), std::nullopt);
  EXPECT_EQ(check(shfl, 4, 0xffff),
            "membermask 0x0000ffff leaves lanes out, but every lane of the "
            "warp executes a tile.apply; use -1 : i32 (0xffffffff)");
  EXPECT_NE(check(shfl, 4, std::nullopt), std::nullopt);

  Instruction bar = parseOk("bar.sync", 2);
  EXPECT_EQ(check(bar, 0, 15), std::nullopt);
  EXPECT_EQ(check(bar, 0, 16),
            "barrier 16 does not exist (a CTA has barriers 0 to 15)");
  EXPECT_EQ(check(bar, 1, 96), std::nullopt);
  EXPECT_EQ(check(bar, 1, 48), "a named barrier counts whole warps: 48 "
                               "threads is not a positive multiple of 32");
  EXPECT_EQ(check(bar, 1, 256),
            "256 threads can never arrive: the block has 128");

  Instruction wait = parseOk("mbarrier.try_wait.parity.shared::cta.b64", 3);
  EXPECT_EQ(check(wait, 2, 1), std::nullopt);
  EXPECT_EQ(check(wait, 2, 2),
            "a phase parity is 0 (even phases) or 1 (odd), got 2");
  EXPECT_EQ(check(wait, 2, std::nullopt), std::nullopt);

  Instruction zfill = parseOk("cp.async.ca.shared.global", 4);
  EXPECT_EQ(check(zfill, 3, 8, /*chunk=*/8), std::nullopt);
  EXPECT_EQ(check(zfill, 3, 12, /*chunk=*/8),
            "the source size 12 must be 0 to the 8-byte chunk (the rest of "
            "the chunk is zero-filled)");
  EXPECT_EQ(check(zfill, 2, 12), "cp.async copies 4, 8 or 16 bytes, got 12");

  Instruction setmaxnreg = parseOk("setmaxnreg.inc.sync.aligned.u32", 1);
  EXPECT_EQ(check(setmaxnreg, 0, 240), std::nullopt);
  EXPECT_EQ(check(setmaxnreg, 0, 250),
            "a register count is 24 to 256 and a multiple of 8, got 250");
  EXPECT_TRUE(getOperandKind(setmaxnreg, 0)->isRegisterLimit);
}

// lop3 is the family added with the modules: its truth table is an operand
// kind of the scalar module, encoded in the instruction.
TEST(FamilyModule, Lop3TruthTable) {
  Instruction lop3 = parseOk("lop3.b32", 5);
  EXPECT_EQ(lop3.spelling, "lop3.b32");
  EXPECT_EQ(lop3.minSM, 50u);
  EXPECT_EQ(lop3.minPTX, 43u);
  EXPECT_EQ(getFamilyModule(lop3).name, "scalar");
  const OperandKind *lut = getOperandKind(lop3, 4);
  ASSERT_NE(lut, nullptr);
  EXPECT_TRUE(lut->isEncodedInInstruction);
  EXPECT_EQ(getOperandKind(lop3, 3), nullptr);
  EXPECT_EQ(check(lop3, 4, 0xe8), std::nullopt);
  EXPECT_EQ(check(lop3, 4, 256),
            "a truth table of three inputs is 0 to 255 (one bit per "
            "combination of their bits), got 256");
  EXPECT_EQ(check(lop3, 4, std::nullopt),
            "must be an immediate (0 to 255 : i32): PTX encodes the truth "
            "table in the instruction");
  EXPECT_EQ(parseOk("prmt.b32.f4e", 4).spelling, "prmt.b32.f4e");
  EXPECT_EQ(parseOk("prmt.b32", 4).getModifier(Slot::mode), "");
}

TEST(FamilyModule, MmaRepeatsAreStructured) {
  const FamilyModule &mma = getFamilyModule(FamilyModuleId::mma);
  ASSERT_NE(mma.getMatrixRepeats, nullptr);
  int64_t d[] = {3, 2, 4}, a[] = {3, 2, 5};
  std::optional<MmaRepeats> repeats = mma.getMatrixRepeats(d, a);
  ASSERT_TRUE(repeats.has_value());
  EXPECT_EQ(repeats->getD(), (llvm::SmallVector<int64_t>{3, 2, 4}));
  EXPECT_EQ(repeats->getA(), (llvm::SmallVector<int64_t>{3, 2, 5}));
  EXPECT_EQ(repeats->getB(), (llvm::SmallVector<int64_t>{3, 4, 5}));
  int64_t flat[] = {6};
  EXPECT_FALSE(mma.getMatrixRepeats(flat, flat).has_value());
  EXPECT_EQ(getFamilyModule(FamilyModuleId::wgmma).getMatrixRepeats, nullptr);
}

} // namespace
