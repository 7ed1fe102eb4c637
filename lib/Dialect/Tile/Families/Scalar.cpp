//===- Scalar.cpp - The scalar family module ------------------------------===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//
//
// per-thread arithmetic, conversions and moves: everything they are is in the
// table.
//
//===----------------------------------------------------------------------===//

#include "Modules.h"

using namespace mlir::tirx::ptx;

const FamilyModule &families::scalarModule() {
  static const FamilyModule module{/*name=*/"scalar"};
  return module;
}
