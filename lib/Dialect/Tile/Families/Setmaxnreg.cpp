//===- Setmaxnreg.cpp - The setmaxnreg family module ----------------------===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//
//
// setmaxnreg (docs/hopper.md). Declares the `maxnreg` operand kind: the
// warpgroup's registers per thread from the instruction on, which the
// register budget (TirX/IR/RegisterBudget.cpp) follows.
//
//===----------------------------------------------------------------------===//

#include "Modules.h"

using namespace mlir::tirx::ptx;

static std::optional<std::string>
checkRegisterCount(const OperandValue &value) {
  if (!value.immediate)
    return std::string("the register count must be an immediate (24 to 256, "
                       "a multiple of 8)");
  int64_t registers = *value.immediate;
  if (registers < 24 || registers > 256 || registers % 8 != 0)
    return families::formatMessage(
        "a register count is 24 to 256 and a multiple of 8, got ", registers);
  return std::nullopt;
}

const FamilyModule &families::setmaxnregModule() {
  static const OperandKind kinds[] = {{"maxnreg", checkRegisterCount,
                                       /*isEncodedInInstruction=*/false,
                                       /*isRegisterLimit=*/true}};
  static const FamilyModule module{/*name=*/"setmaxnreg", kinds};
  return module;
}
