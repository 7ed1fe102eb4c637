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

/// Prefetches (no shared image) touch no shared memory: nothing to model.
static llvm::StringRef getRaceProofGap(const Instruction &instruction) {
  bool usesImage =
      llvm::any_of(instruction.operands, [](const OperandInfo &operand) {
        return operand.bulkRole == BulkTensorRole::BoxImage;
      });
  if (!usesImage)
    return {};
  return "TMA copies complete on an mbarrier transaction, "
         "which the race proof does not model yet";
}

const FamilyModule &families::tmaModule() {
  static const FamilyModule module = [] {
    FamilyModule tma{/*name=*/"tma"};
    tma.getRaceProofGap = ::getRaceProofGap;
    return tma;
  }();
  return module;
}
