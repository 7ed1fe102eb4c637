//===- FormSelection.cpp - Choosing the PTX form of a tile.apply ----------===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//
//
// Maps MLIR element types to PTX scalar kinds and picks, among the forms a
// spelling names, the one the operands fit (FormSelection.h). Kept apart
// from the operand checker so that each side of the dialect/table boundary
// has one file.
//
//===----------------------------------------------------------------------===//

#include "TirX/Dialect/Tile/IR/FormSelection.h"

#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;
using namespace mlir::tirx;
using namespace mlir::tirx::tile;

FailureOr<ptx::Instruction>
mlir::tirx::tile::selectInstructionForm(Operation *op, StringRef spelling,
                                        ArrayRef<MixedOperand> operands) {
  llvm::Expected<SmallVector<ptx::Instruction, 1>> forms =
      ptx::parseInstructionForms(spelling, operands.size());
  if (!forms)
    return op->emitOpError() << llvm::toString(forms.takeError());
  auto fits = [&](const ptx::Instruction &form) {
    if (form.operands.size() != operands.size())
      return false;
    for (const MixedOperand &operand : operands) {
      const ptx::OperandInfo &info = form.operands[operand.position];
      auto tensor = dyn_cast<tirx::TensorType>(operand.getType());
      Type element = tensor ? tensor.getElementType() : operand.getType();
      std::optional<ptx::ScalarKind> kind = getScalarKind(element);
      if (!kind || !info.element.accepts(*kind))
        return false;
      if (tensor && tensor.getShape().back() != info.atom)
        return false;
    }
    return true;
  };
  for (const ptx::Instruction &form : *forms)
    if (fits(form))
      return form;
  return forms->front();
}

std::optional<ptx::ScalarKind> mlir::tirx::tile::getScalarKind(Type type) {
  using ptx::ScalarKind;
  if (type.isF16())
    return ScalarKind::f16;
  if (type.isBF16())
    return ScalarKind::bf16;
  if (type.isF32())
    return ScalarKind::f32;
  if (type.isF64())
    return ScalarKind::f64;
  auto intType = dyn_cast<IntegerType>(type);
  if (!intType)
    return std::nullopt;
  bool isUnsigned = intType.isUnsigned();
  switch (intType.getWidth()) {
  case 8:
    return isUnsigned ? ScalarKind::u8 : ScalarKind::s8;
  case 16:
    return isUnsigned ? ScalarKind::u16 : ScalarKind::s16;
  case 32:
    return isUnsigned ? ScalarKind::u32 : ScalarKind::s32;
  case 64:
    return isUnsigned ? ScalarKind::u64 : ScalarKind::s64;
  default:
    return std::nullopt;
  }
}
