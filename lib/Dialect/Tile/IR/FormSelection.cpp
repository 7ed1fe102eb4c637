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
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::tirx;
using namespace mlir::tirx::tile;

FailureOr<const ptx::Instruction *>
mlir::tirx::tile::selectInstructionForm(Operation *op,
                                        PTXInstructionAttr instruction,
                                        ArrayRef<MixedOperand> operands) {
  ArrayRef<ptx::Instruction> forms = instruction.getForms();
  if (forms.empty()) {
    // Only an attribute built unchecked from an illegal spelling has no
    // forms; say why as the checked constructor would have.
    llvm::Expected<SmallVector<ptx::Instruction, 1>> parsed =
        ptx::parseInstructionForms(instruction.getSpelling());
    if (!parsed)
      return op->emitOpError() << llvm::toString(parsed.takeError());
    // check-diagnostics: internal, the table parses what it parsed before
    return op->emitOpError("has an instruction without forms");
  }
  SmallVector<const ptx::Instruction *, 2> candidates;
  SmallVector<unsigned, 2> counts;
  for (const ptx::Instruction &form : forms) {
    if (form.operands.size() == operands.size())
      candidates.push_back(&form);
    if (!llvm::is_contained(counts, form.operands.size()))
      counts.push_back(form.operands.size());
  }
  if (candidates.empty()) {
    llvm::sort(counts);
    InFlightDiagnostic diag = op->emitOpError("'")
                              << instruction.getSpelling() << "' expects ";
    for (auto [index, count] : llvm::enumerate(counts))
      diag << (index == 0                   ? ""
               : index + 1 == counts.size() ? " or "
                                            : ", ")
           << count;
    bool plural = counts.size() > 1 || counts.front() != 1;
    return diag << (plural ? " operands" : " operand") << ", got "
                << operands.size();
  }
  auto fits = [&](const ptx::Instruction &form) {
    for (const MixedOperand &operand : operands) {
      const ptx::OperandInfo &info = form.operands[operand.position];
      auto tensor = dyn_cast<tirx::TensorType>(operand.getType());
      Type element = tensor ? tensor.getElementType() : operand.getType();
      if (!acceptsOperandType(info.element, element, bool(tensor)))
        return false;
      // Memory operands are global or shared tensors, registers the rest:
      // mbarrier.arrive's `state, [addr]` and `_, [addr], count` lines
      // share a spelling and an operand count.
      bool inMemory = tensor && (tensor.isGlobal() || tensor.isShared());
      if (info.isMemory != inMemory)
        return false;
      ArrayRef<int64_t> atomShape = info.atomShape;
      if (tensor &&
          (tensor.getShape().size() < atomShape.size() ||
           tensor.getShape().take_back(atomShape.size()) != atomShape))
        return false;
    }
    return true;
  };
  for (const ptx::Instruction *form : candidates)
    if (fits(*form))
      return form;
  return candidates.front();
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
  if (type.isInteger(1))
    return ScalarKind::pred;
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

bool mlir::tirx::tile::acceptsOperandType(const ptx::ElementClass &element,
                                          Type type, bool isTensor) {
  std::optional<ptx::ScalarKind> kind = getScalarKind(type);
  if (!kind)
    return false;
  if (element.accepts(*kind))
    return true;
  if (isTensor || !type.isSignlessInteger() || type.isInteger(1))
    return false;
  // The other signedness of the same width.
  std::optional<ptx::ScalarKind> other = getScalarKind(IntegerType::get(
      type.getContext(), type.getIntOrFloatBitWidth(), IntegerType::Unsigned));
  return other && element.accepts(*other);
}

std::optional<int64_t>
mlir::tirx::tile::getIntegerImmediate(ArrayRef<MixedOperand> operands,
                                      unsigned position) {
  for (const MixedOperand &operand : operands)
    if (operand.position == position)
      if (auto value = dyn_cast_or_null<IntegerAttr>(operand.immediate))
        return value.getValue().getSExtValue();
  return std::nullopt;
}

int64_t mlir::tirx::tile::getChunkBytes(ArrayRef<MixedOperand> operands,
                                        int position) {
  return position < 0 ? 0 : getIntegerImmediate(operands, position).value_or(0);
}

unsigned mlir::tirx::tile::getOperandAtom(const ptx::OperandInfo &info,
                                          ArrayRef<MixedOperand> operands,
                                          int64_t elementBytes) {
  if (info.chunkOperand < 0)
    return info.atom;
  int64_t bytes = getChunkBytes(operands, info.chunkOperand);
  return bytes % elementBytes ? 0 : bytes / elementBytes;
}

bool mlir::tirx::tile::getMatrixTranspose(const ptx::Instruction &instruction,
                                          ArrayRef<MixedOperand> operands,
                                          ptx::DescriptorMatrix matrix) {
  StringRef name =
      matrix == ptx::DescriptorMatrix::A ? "imm-trans-a" : "imm-trans-b";
  for (auto [index, info] : llvm::enumerate(instruction.operands))
    if (info.name == name)
      return getChunkBytes(operands, index) == 1;
  return false;
}

SmallVector<MatrixStep>
mlir::tirx::tile::getMatrixSteps(const MmaRepeats &repeats) {
  int64_t batches = 1;
  for (int64_t extent : repeats.batch)
    batches *= extent;
  int64_t m = repeats.m, n = repeats.n, k = repeats.k;
  SmallVector<MatrixStep> steps;
  for (int64_t b = 0; b < batches; ++b)
    for (int64_t kk = 0; kk < k; ++kk)
      for (int64_t mm = 0; mm < m; ++mm)
        for (int64_t nn = 0; nn < n; ++nn)
          steps.push_back({(b * m + mm) * n + nn, (b * m + mm) * k + kk,
                           (b * n + nn) * k + kk, kk > 0});
  return steps;
}

std::optional<MmaRepeats>
mlir::tirx::tile::getMmaRepeats(const ptx::Instruction &inst,
                                ArrayRef<int64_t> d, ArrayRef<int64_t> a) {
  const ptx::FamilyModule &module = ptx::getFamilyModule(inst);
  if (!module.getMatrixRepeats)
    return std::nullopt;
  return module.getMatrixRepeats(d, a);
}
