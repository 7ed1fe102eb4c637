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

/// A store or reduction reads its shared image until the bulk wait_group
/// that retires its group in the issuing thread (`.read` suffices).
static AsyncGroupEvent getAsyncGroupEvent(const Instruction &instruction) {
  llvm::StringRef form = instruction.formName;
  if (form == "cp.async.bulk.tensor.store" ||
      form == "cp.reduce.async.bulk.tensor")
    return AsyncGroupEvent::Copy;
  if (form == "cp.async.bulk.commit_group")
    return AsyncGroupEvent::Commit;
  if (form == "cp.async.bulk.wait_group")
    return AsyncGroupEvent::WaitGroup;
  return AsyncGroupEvent::None;
}

/// Prefetches (no shared image) touch no shared memory: nothing to model;
/// a load completes on its mbarrier (getMbarrierEvent), a store or
/// reduction in its bulk group (getAsyncGroupEvent).
static llvm::StringRef getRaceProofGap(const Instruction &instruction) {
  if (instruction.formName == "cp.async.bulk.tensor.load.multicast")
    return "a multicast load writes the shared memory of several CTAs of "
           "the cluster, which the race proof does not model yet";
  return {};
}

const FamilyModule &families::tmaModule() {
  static const FamilyModule module = [] {
    FamilyModule tma{/*name=*/"tma"};
    tma.getRaceProofGap = ::getRaceProofGap;
    tma.getMbarrierEvent = ::getMbarrierEvent;
    tma.getAsyncGroupEvent = ::getAsyncGroupEvent;
    return tma;
  }();
  return module;
}
