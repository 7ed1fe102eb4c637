//===- Memory.cpp - The memory family module ------------------------------===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//
//
// ld, st, atom, red and fence: everything they are is in the table (their state
// spaces, vector atoms and masking are the verifier's general rules).
//
//===----------------------------------------------------------------------===//

#include "Modules.h"

using namespace mlir::tirx::ptx;

static bool isAtomicAccess(const Instruction &instruction) {
  return instruction.family == "atom" || instruction.family == "red";
}

const FamilyModule &families::memoryModule() {
  static const FamilyModule module = [] {
    FamilyModule memory{/*name=*/"memory"};
    memory.isAtomicAccess = ::isAtomicAccess;
    return memory;
  }();
  return module;
}
