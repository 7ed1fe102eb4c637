//===- AsyncCopies.cpp - cp.async and its groups --------------------------===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//
//
// A cp.async reads its source when it is issued and writes its destination
// when its group completes: at the cp.async.wait_group / wait_all that waits
// for it (or when the warp finishes the kernel). The write is checked then,
// at the issuing warp's clock of that moment, so that a read of the
// destination by another warp before the wait and a barrier after it is a
// race, and a read by the issuing thread before its wait sees the old
// bytes, as on the hardware. The hardware may write any time after the
// issue, so the write is also checked (not made) at the issue: an access of
// another warp not ordered before the issue races with it too.
//
//===----------------------------------------------------------------------===//

#include "CollectiveSemantics.h"

using namespace mlir;
using namespace mlir::tirx;
using namespace mlir::tirx::interp;

static LogicalResult complete(WarpExecutor &executor, unsigned lane,
                              std::vector<AsyncCopy> &group) {
  for (AsyncCopy &copy : group)
    if (failed(executor.write(copy.op, *copy.storage, lane, copy.offset,
                              copy.bytes.size(), copy.bytes.data())))
      return failure();
  group.clear();
  return success();
}

LogicalResult interp::executeAsyncCopyInstruction(
    WarpExecutor &executor, Operation *op, const ptx::Instruction &instruction,
    MutableArrayRef<OperandAtom> operands, unsigned lane, Storage *storage,
    int64_t destination) {
  AsyncCopyGroups &groups = executor.warp.asyncCopies[lane];
  StringRef mode = instruction.getModifier(ptx::Slot::mode);
  if (mode == "commit_group") {
    groups.committed.push_back(std::move(groups.open));
    groups.open.clear();
    return success();
  }
  if (mode == "wait_group" || mode == "wait_all") {
    size_t pending = 0;
    if (mode == "wait_all") {
      if (failed(complete(executor, lane, groups.open)))
        return failure();
    } else {
      pending = operands[0].elements[0];
    }
    while (groups.committed.size() > pending) {
      if (failed(complete(executor, lane, groups.committed.front())))
        return failure();
      groups.committed.erase(groups.committed.begin());
    }
    return success();
  }
  // The copy: `size` bytes, of which the first `srcsize` (zfill) come from
  // the source and the rest are zeros.
  const OperandAtom &source = operands[findOperand(instruction, "src")];
  int64_t size = operands[findOperand(instruction, "size")].elements[0];
  int srcsize = findOperand(instruction, "srcsize");
  int64_t copied = srcsize >= 0
                       ? std::min<int64_t>(operands[srcsize].elements[0], size)
                       : size;
  if (failed(executor.checkWriteStarts(op, *storage, lane, destination, size)))
    return failure();
  AsyncCopy copy;
  copy.storage = storage;
  copy.offset = destination;
  copy.op = op;
  copy.bytes.assign(size, 0);
  unsigned elementBytes = std::max(source.bitWidth / 8, 1u);
  for (int64_t byte = 0; byte < copied; ++byte)
    copy.bytes[byte] =
        source.elements[byte / elementBytes] >> (8 * (byte % elementBytes));
  groups.open.push_back(std::move(copy));
  return success();
}

LogicalResult interp::drainAsyncCopies(WarpExecutor &executor) {
  for (unsigned lane = 0; lane < kWarpSize; ++lane) {
    AsyncCopyGroups &groups = executor.warp.asyncCopies[lane];
    for (std::vector<AsyncCopy> &group : groups.committed)
      if (failed(complete(executor, lane, group)))
        return failure();
    groups.committed.clear();
    if (failed(complete(executor, lane, groups.open)))
      return failure();
  }
  return success();
}
