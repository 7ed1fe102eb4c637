//===- Tma.cpp - The tma family module ------------------------------------===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//
//
// The bulk tensor copies, reductions and prefetches (cp.async.bulk.tensor,
// cp.reduce.async.bulk.tensor, cp.async.bulk.prefetch.tensor) and their bulk
// groups. Their boxes, tensor maps and reduction types are verified in
// Tile/IR/BulkTensorCopy.cpp and lowered in
// TileDispatch/BulkTensorDispatch.cpp, keyed on the table's tmap and box
// operand words.
//
//===----------------------------------------------------------------------===//

#include "Modules.h"

using namespace mlir::tirx::ptx;

const FamilyModule &families::tmaModule() {
  static const FamilyModule module = [] {
    FamilyModule tma{/*name=*/"tma"};
    tma.raceProofGap = "TMA copies complete on an mbarrier transaction, "
                       "which the race proof does not model yet";
    return tma;
  }();
  return module;
}
