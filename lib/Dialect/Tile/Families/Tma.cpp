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

/// A load into this CTA's shared memory completes on its mbarrier.
static MbarrierEvent getMbarrierEvent(const Instruction &instruction) {
  return instruction.formName == "cp.async.bulk.tensor.load"
             ? MbarrierEvent::Completion
             : MbarrierEvent::None;
}

/// Prefetches (no shared image) touch no shared memory: nothing to model;
/// a load completes on its mbarrier (getMbarrierEvent).
static llvm::StringRef getRaceProofGap(const Instruction &instruction) {
  bool usesImage =
      llvm::any_of(instruction.operands, [](const OperandInfo &operand) {
        return operand.bulkRole == BulkTensorRole::BoxImage;
      });
  if (!usesImage || getMbarrierEvent(instruction) != MbarrierEvent::None)
    return {};
  if (instruction.formName == "cp.async.bulk.tensor.load.multicast")
    return "a multicast load writes the shared memory of several CTAs of "
           "the cluster, which the race proof does not model yet";
  return "TMA stores and reductions complete in bulk groups, which the race "
         "proof does not model yet";
}

const FamilyModule &families::tmaModule() {
  static const FamilyModule module = [] {
    FamilyModule tma{/*name=*/"tma"};
    tma.getRaceProofGap = ::getRaceProofGap;
    tma.getMbarrierEvent = ::getMbarrierEvent;
    return tma;
  }();
  return module;
}
