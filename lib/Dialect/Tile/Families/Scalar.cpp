//===- Scalar.cpp - The scalar family module ------------------------------===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//
//
// Per-thread arithmetic, logic, conversions and moves: the table says what
// they are, but for the `lut` operand kind: lop3's truth table, which PTX
// encodes in the instruction.
//
//===----------------------------------------------------------------------===//

#include "Modules.h"

using namespace mlir::tirx::ptx;

/// A truth table of three inputs: one bit per combination of their bits.
static constexpr int64_t kMaxTruthTable = 255;

static std::optional<std::string> checkTruthTable(const OperandValue &value) {
  if (!value.immediate)
    return families::formatMessage(
        "must be an immediate (0 to ", kMaxTruthTable,
        " : i32): PTX encodes the truth table in the instruction");
  if (*value.immediate < 0 || *value.immediate > kMaxTruthTable)
    return families::formatMessage(
        "a truth table of three inputs is 0 to ", kMaxTruthTable,
        " (one bit per combination of their bits), got ", *value.immediate);
  return std::nullopt;
}

const FamilyModule &families::scalarModule() {
  static const OperandKind kinds[] = {
      {"lut", checkTruthTable, /*isEncodedInInstruction=*/true}};
  static const FamilyModule module{/*name=*/"scalar", kinds};
  return module;
}
