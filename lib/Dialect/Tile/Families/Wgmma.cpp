//===- Wgmma.cpp - The wgmma family module --------------------------------===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//
//
// wgmma (docs/wgmma.md). Declares the operand kinds `sign` (imm-scale-a/b:
// 1 or -1) and `bit` (imm-trans-a/b: 0 or 1), immediates PTX encodes in the
// instruction. To the race proof, mma_async reads its shared operands in
// groups that commit_group closes and wait_group retires.
//
//===----------------------------------------------------------------------===//

#include "Modules.h"

using namespace mlir::tirx::ptx;

static std::optional<std::string> checkEncoded(const OperandValue &value,
                                               bool sign) {
  if (!value.immediate)
    return families::formatMessage(
        "must be an immediate (", sign ? "1 or -1" : "0 or 1",
        " : i32): PTX encodes it in the instruction");
  int64_t given = *value.immediate;
  if (sign ? given != 1 && given != -1 : given != 0 && given != 1)
    return families::formatMessage(sign ? "scales by 1 or -1"
                                        : "is 0 or 1 (transpose or not)",
                                   ", got ", given);
  return std::nullopt;
}

static std::optional<std::string> checkUnitSign(const OperandValue &value) {
  return checkEncoded(value, /*sign=*/true);
}

static std::optional<std::string> checkZeroOne(const OperandValue &value) {
  return checkEncoded(value, /*sign=*/false);
}

/// mma_async reads its shared operands until the wait_group that retires
/// its group (the race proof's asynchronous access).
static AsyncGroupEvent getAsyncGroupEvent(const Instruction &instruction) {
  if (llvm::StringRef(instruction.formName).starts_with("wgmma.mma_async"))
    return AsyncGroupEvent::Copy;
  if (instruction.formName == "wgmma.wait_group")
    return AsyncGroupEvent::WaitGroup;
  if (instruction.hasModifier("commit_group"))
    return AsyncGroupEvent::Commit;
  return AsyncGroupEvent::None;
}

const FamilyModule &families::wgmmaModule() {
  static const OperandKind kinds[] = {
      {"sign", checkUnitSign, /*isEncodedInInstruction=*/true},
      {"bit", checkZeroOne, /*isEncodedInInstruction=*/true}};
  static const FamilyModule module = [] {
    FamilyModule wgmma{/*name=*/"wgmma", kinds};
    wgmma.getAsyncGroupEvent = ::getAsyncGroupEvent;
    return wgmma;
  }();
  return module;
}
