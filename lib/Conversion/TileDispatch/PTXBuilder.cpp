//===- PTXBuilder.cpp - One inline-PTX instruction, built up --------------===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//

#include "PTXBuilder.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

using namespace mlir;
using namespace mlir::tirx;
using namespace mlir::tirx::tile;

std::pair<Type, char> mlir::tirx::tile::getAsmRegister(Type type) {
  MLIRContext *context = type.getContext();
  if (type.isF32())
    return {type, 'f'};
  if (type.isF64())
    return {type, 'd'};
  switch (type.getIntOrFloatBitWidth()) {
  case 1:
    return {IntegerType::get(context, 1), 'b'};
  case 8:
  case 16:
    return {IntegerType::get(context, 16), 'h'};
  case 32:
    return {IntegerType::get(context, 32), 'r'};
  default:
    return {IntegerType::get(context, 64), 'l'};
  }
}

Value mlir::tirx::tile::toAsmRegister(OpBuilder &builder, Location loc,
                                      Value value) {
  Type asmType = getAsmRegister(value.getType()).first;
  if (value.getType() == asmType)
    return value;
  unsigned width = value.getType().getIntOrFloatBitWidth();
  if (isa<FloatType>(value.getType()))
    value = LLVM::BitcastOp::create(
        builder, loc, IntegerType::get(builder.getContext(), width), value);
  if (width < asmType.getIntOrFloatBitWidth())
    value = LLVM::ZExtOp::create(builder, loc, asmType, value);
  return value;
}

Value mlir::tirx::tile::fromAsmRegister(OpBuilder &builder, Location loc,
                                        Value value, Type storageType) {
  if (value.getType() == storageType)
    return value;
  unsigned width = storageType.getIntOrFloatBitWidth();
  if (width < value.getType().getIntOrFloatBitWidth())
    value = LLVM::TruncOp::create(
        builder, loc, IntegerType::get(builder.getContext(), width), value);
  if (isa<FloatType>(storageType))
    value = LLVM::BitcastOp::create(builder, loc, storageType, value);
  return value;
}

std::string PTXBuilder::addOutput(Type storageType) {
  assert(inputs.empty() && "outputs are numbered before inputs");
  auto [asmType, letter] = getAsmRegister(storageType);
  outputConstraints += outputConstraints.empty() ? "=" : ",=";
  outputConstraints += letter;
  outputTypes.push_back(asmType);
  storageTypes.push_back(storageType);
  return "$" + std::to_string(outputTypes.size() - 1);
}

std::string PTXBuilder::addInput(Value value) {
  value = toAsmRegister(builder, loc, value);
  inputConstraints += inputConstraints.empty() ? "" : ",";
  inputConstraints += getAsmRegister(value.getType()).second;
  inputs.push_back(value);
  return "$" + std::to_string(outputTypes.size() + inputs.size() - 1);
}

std::string PTXBuilder::addPredicate(Value pred) {
  return addInput(
      LLVM::ZExtOp::create(builder, loc, builder.getI32Type(), pred));
}

std::string PTXBuilder::getGuardPrefix(StringRef predInput) {
  return ("{\n\t.reg .pred %tirx_p;\n\tsetp.ne.b32 %tirx_p, " + predInput +
          ", 0;\n\t@%tirx_p ")
      .str();
}

std::string PTXBuilder::addAddress(Value address) {
  inputConstraints += inputConstraints.empty() ? "l" : ",l";
  inputs.push_back(address);
  return "$" + std::to_string(outputTypes.size() + inputs.size() - 1);
}

void PTXBuilder::tieToOutput(unsigned outputIndex, Value current) {
  inputConstraints += inputConstraints.empty() ? "" : ",";
  inputConstraints += std::to_string(outputIndex);
  inputs.push_back(toAsmRegister(builder, loc, current));
}

SmallVector<Value> PTXBuilder::create(StringRef text, bool hasSideEffects) {
  std::string constraints = outputConstraints;
  if (!constraints.empty() && !inputConstraints.empty())
    constraints += ",";
  constraints += inputConstraints;
  Type resultType;
  if (outputTypes.size() == 1)
    resultType = outputTypes.front();
  else if (outputTypes.size() > 1)
    resultType =
        LLVM::LLVMStructType::getLiteral(builder.getContext(), outputTypes);
  auto asmOp = LLVM::InlineAsmOp::create(
      builder, loc, resultType ? TypeRange(resultType) : TypeRange(), inputs,
      text, constraints, hasSideEffects,
      /*is_align_stack=*/false, LLVM::tailcallkind::TailCallKind::None,
      LLVM::AsmDialectAttr(), ArrayAttr());
  SmallVector<Value> results;
  for (auto [index, storageType] : llvm::enumerate(storageTypes)) {
    Value value = asmOp.getResult(0);
    if (outputTypes.size() > 1)
      value = LLVM::ExtractValueOp::create(builder, loc, value,
                                           static_cast<int64_t>(index));
    results.push_back(fromAsmRegister(builder, loc, value, storageType));
  }
  return results;
}
