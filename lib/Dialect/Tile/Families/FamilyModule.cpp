//===- FamilyModule.cpp - The family modules, checked against the table ---===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//

#include "TirX/Dialect/Tile/Families/FamilyModule.h"
#include "TirX/Dialect/Tile/PTX/PTXTable.h"

#include "Modules.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/ErrorHandling.h"

using namespace llvm;

namespace mlir::tirx::ptx {

SmallVector<int64_t> MmaRepeats::getD() const {
  SmallVector<int64_t> shape(batch);
  shape.append({m, n});
  return shape;
}

SmallVector<int64_t> MmaRepeats::getA() const {
  SmallVector<int64_t> shape(batch);
  shape.append({m, k});
  return shape;
}

SmallVector<int64_t> MmaRepeats::getB() const {
  SmallVector<int64_t> shape(batch);
  shape.append({n, k});
  return shape;
}

namespace {

/// The modules in PTX_MODULE order, and every operand kind by its word,
/// checked against the table once.
struct Registry {
  const FamilyModule *modules[kNumFamilyModules] = {
#define PTX_MODULE(NAME) &families::NAME##Module(),
#include "TirX/Dialect/Tile/PTX/PTXTable.def"
  };
  StringMap<const OperandKind *> kinds;

  Registry() {
    for (const FamilyModule *module : modules)
      for (const OperandKind &kind : module->operandKinds)
        if (!kinds.try_emplace(kind.word, &kind).second)
          report_fatal_error("family module '" + Twine(module->name) +
                             "' declares operand kind '" + kind.word +
                             "', which another module declares");
    for (const Form &form : getTable().forms)
      for (const OperandSpec &operand : form.operands)
        if (!operand.kind.empty() && !kinds.count(operand.kind))
          report_fatal_error("PTXTable.def entry '" + Twine(form.raw->name) +
                             "': no family module declares operand kind '" +
                             operand.kind + "'");
  }
};

const Registry &getRegistry() {
  static const Registry registry;
  return registry;
}

} // namespace

const FamilyModule &getFamilyModule(FamilyModuleId id) {
  return *getRegistry().modules[static_cast<unsigned>(id)];
}

const OperandKind *getOperandKind(const Instruction &instruction,
                                  unsigned position) {
  if (position >= instruction.operands.size())
    return nullptr;
  StringRef word = instruction.operands[position].kind;
  if (word.empty())
    return nullptr;
  return getRegistry().kinds.lookup(word);
}

Value families::castBits(OpBuilder &builder, Location loc, Value value,
                         Type type) {
  if (value.getType() == type)
    return value;
  return LLVM::BitcastOp::create(builder, loc, type, value);
}

bool hasExactNVVMOp(const Instruction &instruction) {
  const FamilyModule &module = getFamilyModule(instruction);
  return module.hasExactNVVMOp && module.hasExactNVVMOp(instruction);
}

} // namespace mlir::tirx::ptx
