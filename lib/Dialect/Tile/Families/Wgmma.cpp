//===- Wgmma.cpp - The wgmma family module --------------------------------===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//
//
// wgmma (docs/wgmma.md). Declares the operand kinds `sign` (imm-scale-a/b:
// 1 or -1) and `bit` (imm-trans-a/b: 0 or 1), immediates PTX encodes in the
// instruction.
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

static llvm::StringRef getRaceProofGap(const Instruction &) {
  return "wgmma reads its shared operands until "
         "wgmma.wait_group, which the race proof does not "
         "model yet";
}

const FamilyModule &families::wgmmaModule() {
  static const OperandKind kinds[] = {
      {"sign", checkUnitSign, /*isEncodedInInstruction=*/true},
      {"bit", checkZeroOne, /*isEncodedInInstruction=*/true}};
  static const FamilyModule module = [] {
    FamilyModule wgmma{/*name=*/"wgmma", kinds};
    wgmma.getRaceProofGap = ::getRaceProofGap;
    return wgmma;
  }();
  return module;
}
