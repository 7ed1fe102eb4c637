//===- Prefetch.cpp - The prefetch family module --------------------------===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//
//
// prefetch.tensormap: its TMA operand is a tensor map itself, not a box read
// through one, so it needs no shared image and names the maps of the boxes
// the kernel's copies use (Tile/IR/BulkTensorCopy.cpp).
//
//===----------------------------------------------------------------------===//

#include "Modules.h"

using namespace mlir::tirx::ptx;

const FamilyModule &families::prefetchModule() {
  static const FamilyModule module = [] {
    FamilyModule prefetch{/*name=*/"prefetch"};
    prefetch.readsTensorMapItself = true;
    return prefetch;
  }();
  return module;
}
