//===- Matrix.cpp - The matrix family module ------------------------------===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//
//
// ldmatrix and stmatrix: their fragments are PTX_FRAGMENT records; nothing else
// is particular to them.
//
//===----------------------------------------------------------------------===//

#include "Modules.h"

using namespace mlir::tirx::ptx;

const FamilyModule &families::matrixModule() {
  static const FamilyModule module{/*name=*/"matrix"};
  return module;
}
