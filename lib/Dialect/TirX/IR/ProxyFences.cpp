//===- ProxyFences.cpp - generic writes fenced for the async proxy --------===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//
//
// The proxy check of docs/races.md ("Proxies"). TMA stores and reductions
// read their shared image, and wgmma its shared A and B, through the async
// proxy; a thread's generic-proxy writes of those bytes (st.shared,
// stmatrix, cp.async, atomics) are visible to it only after the writing
// thread executes fence.proxy.async (PTX ISA, "Memory Consistency Model",
// proxies). Orders (barriers, mbarrier phases) do not carry writes across
// proxies. So after each generic write of an allocation that the async
// proxy reads, the writing thread must reach a fence.proxy.async (of shared
// memory) before any point that may hand the bytes over: a barrier
// (bar.sync, bar.arrive, cta_sync), an mbarrier arrival, or its own
// async-proxy read. Structural, per thread: the walk follows the write's
// block and the blocks around it; a construct that may hand over inside is
// a handover unless the fence came first; a loop's next iteration counts as
// the body's start.
//
//===----------------------------------------------------------------------===//

#include "AccessProof.h"

#include "TirX/Dialect/Tile/Families/FamilyModule.h"
#include "TirX/Dialect/Tile/IR/FormSelection.h"
#include "TirX/Dialect/Tile/IR/TileOperands.h"
#include "TirX/Dialect/Tile/IR/TileOps.h"
#include "TirX/Dialect/TirX/IR/TirXOps.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::tirx;

namespace {

/// What one op is to the proxy check.
struct ProxyRole {
  /// Allocations it writes through the generic proxy, and ones it reads
  /// through the async proxy.
  SmallVector<Operation *, 2> genericWrites, asyncReads;
  bool fences = false;
  bool handsOver = false;
};

/// The tirx.alloc_shared a shared tensor comes from, or null.
Operation *getAllocation(Value tensor) {
  Operation *source = proof::getTensorSource(tensor);
  return isa_and_present<AllocSharedOp>(source) ? source : nullptr;
}

ProxyRole getRole(Operation *op, int64_t numThreads) {
  ProxyRole role;
  if (isCTABarrier(op, numThreads)) {
    role.handsOver = true;
    return role;
  }
  auto apply = dyn_cast<tile::ApplyOp>(op);
  if (!apply)
    return role;
  FailureOr<SmallVector<tile::MixedOperand>> operands =
      tile::getMixedOperands(op, apply.getArgs(), apply.getOperandKinds());
  if (failed(operands))
    return role;
  FailureOr<const ptx::Instruction *> selected =
      tile::selectInstructionForm(op, apply.getInstruction(), *operands);
  if (failed(selected))
    return role;
  const ptx::Instruction &instruction = **selected;
  const ptx::FamilyModule &module = ptx::getFamilyModule(instruction);
  if (instruction.formName == "fence.proxy.async") {
    role.fences = !instruction.hasModifier("global");
    return role;
  }
  ptx::MbarrierEvent event = module.getMbarrierEvent
                                 ? module.getMbarrierEvent(instruction)
                                 : ptx::MbarrierEvent::None;
  role.handsOver = instruction.family == "bar" ||
                   instruction.family == "barrier" ||
                   event == ptx::MbarrierEvent::Arrive;
  // The bulk copies (TMA) move bytes in the async proxy; mbarriers are not
  // data.
  bool bulk = llvm::any_of(instruction.operands, [](const auto &operand) {
    return operand.bulkRole != ptx::BulkTensorRole::None;
  });
  for (const tile::MixedOperand &operand : *operands) {
    auto type = operand.value
                    ? dyn_cast<tirx::TensorType>(operand.value.getType())
                    : tirx::TensorType();
    if (!type || !type.isShared() ||
        operand.position >= instruction.operands.size())
      continue;
    const ptx::OperandInfo &info = instruction.operands[operand.position];
    Operation *allocation = getAllocation(operand.value);
    if (!allocation)
      continue;
    bool writes = info.isDestination || info.isReadWrite;
    if (info.descriptor != ptx::DescriptorMatrix::None ||
        (info.bulkRole == ptx::BulkTensorRole::BoxImage && !writes))
      role.asyncReads.push_back(allocation);
    else if (writes && !bulk && event == ptx::MbarrierEvent::None &&
             !module.getMbarrierEvent)
      role.genericWrites.push_back(allocation);
  }
  role.handsOver |= !role.asyncReads.empty();
  return role;
}

class ProxyCheck {
public:
  explicit ProxyCheck(KernelOp kernel)
      : kernel(kernel), numThreads(kernel.getLaunch().getNumThreads()) {}

  LogicalResult run() {
    // Which allocations the async proxy reads, and where.
    kernel.walk([&](Operation *op) {
      for (Operation *allocation : role(op).asyncReads)
        asyncReaders.try_emplace(allocation, op);
    });
    if (asyncReaders.empty())
      return success();
    WalkResult result = kernel.walk([&](Operation *op) {
      for (Operation *allocation : role(op).genericWrites) {
        auto reader = asyncReaders.find(allocation);
        if (reader == asyncReaders.end())
          continue;
        if (Operation *handover = findUnfencedHandover(op)) {
          InFlightDiagnostic diag = op->emitOpError();
          diag << "writes shared memory that the async proxy reads (the op "
                  "noted below), but no fence.proxy.async follows the write "
                  "in its thread before the op noted after it, which may "
                  "hand the bytes over: a generic-proxy write is visible to "
                  "the async proxy (TMA, wgmma) only after the writing "
                  "thread's fence.proxy.async";
          diag.attachNote(reader->second->getLoc())
              << "the async proxy reads the shared tensor here";
          diag.attachNote(handover->getLoc())
              << "the bytes may be handed over here, unfenced";
          return WalkResult::interrupt();
        }
      }
      return WalkResult::advance();
    });
    return failure(result.wasInterrupted());
  }

private:
  const ProxyRole &role(Operation *op) {
    auto found = roles.find(op);
    if (found != roles.end())
      return found->second;
    return roles[op] = getRole(op, numThreads);
  }

  /// Whether `op` (or an op nested in it) may hand over.
  bool mayHandOver(Operation *op) {
    return op
        ->walk([&](Operation *nested) {
          return role(nested).handsOver ? WalkResult::interrupt()
                                        : WalkResult::advance();
        })
        .wasInterrupted();
  }

  /// The first op after `write` in its thread that may hand over before a
  /// fence.proxy.async surely runs, or null.
  Operation *findUnfencedHandover(Operation *write) {
    for (Operation *current = write; current && current != kernel;
         current = current->getParentOp()) {
      for (Operation *next = current->getNextNode(); next;
           next = next->getNextNode()) {
        if (role(next).fences)
          return nullptr;
        if (mayHandOver(next))
          return next;
      }
      // A loop's next iteration runs its body from the start again.
      Operation *parent = current->getParentOp();
      if (isa_and_present<scf::ForOp, scf::WhileOp>(parent))
        for (Operation &first : current->getBlock()->getOperations()) {
          if (&first == current)
            break;
          if (role(&first).fences)
            return nullptr;
          if (mayHandOver(&first))
            return &first;
        }
    }
    return nullptr;
  }

  KernelOp kernel;
  int64_t numThreads;
  DenseMap<Operation *, ProxyRole> roles;
  /// The first async-proxy reader of each allocation.
  DenseMap<Operation *, Operation *> asyncReaders;
};

} // namespace

LogicalResult mlir::tirx::verifyProxyFences(KernelOp kernel) {
  return ProxyCheck(kernel).run();
}
