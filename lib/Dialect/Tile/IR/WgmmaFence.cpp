//===- WgmmaFence.cpp - wgmma.fence before register accesses --------------===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//
//
// A forward walk of the kernel for one wgmma.mma_async, tracking per
// register root (the tirx.alloc_local, or block argument, under its views)
// the last access not yet fenced. The walk only reads op names and operands,
// so it does not depend on the other ops being verified.
//
//===----------------------------------------------------------------------===//

#include "TirX/Dialect/Tile/IR/WgmmaFence.h"
#include "TirX/Dialect/Tile/IR/FormSelection.h"
#include "TirX/Dialect/Tile/IR/TileOps.h"
#include "TirX/Dialect/TirX/IR/TirXOps.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

using namespace mlir;
using namespace mlir::tirx;
using namespace mlir::tirx::tile;

bool mlir::tirx::tile::isWgmmaMma(const ptx::Instruction &instruction) {
  return StringRef(instruction.formName).starts_with("wgmma.mma_async");
}

/// The storage `value` is a view of: through the view-like ops
/// (tirx.view, tirx.reinterpret, tirx.region) to the allocation (or block
/// argument).
static Value getRegisterRoot(Value value) {
  while (auto view = value.getDefiningOp<ViewLikeOpInterface>())
    value = view.getViewSource();
  return value;
}

namespace {
/// Per tracked root, the last access not followed by a wgmma.fence on some
/// path, or null: the lattice is {fenced < accessed}, so joins and loop
/// fixpoints settle after one more pass per root.
using AccessState = SmallVector<Operation *, 2>;

class FenceWalk {
public:
  FenceWalk(Operation *wgmma, ArrayRef<Value> roots)
      : wgmma(wgmma), roots(roots), atWgmma(roots.size(), nullptr) {}

  /// The unfenced access reaching the wgmma per root (null: none).
  ArrayRef<Operation *> run(Operation *top) {
    for (Region &region : top->getRegions()) {
      AccessState state(roots.size(), nullptr);
      visitRegion(region, state);
    }
    return atWgmma;
  }

private:
  static void join(AccessState &into, const AccessState &other) {
    for (auto [mine, theirs] : llvm::zip_equal(into, other))
      if (!mine)
        mine = theirs;
  }

  void visitRegion(Region &region, AccessState &state) {
    for (Block &block : region)
      for (Operation &op : block)
        visitOp(&op, state);
  }

  void visitOp(Operation *op, AccessState &state) {
    if (op == wgmma) {
      join(atWgmma, state);
      return;
    }
    if (isa<ViewLikeOpInterface>(op))
      return; // a view of the storage, not an access
    if (auto apply = dyn_cast<ApplyOp>(op)) {
      ArrayRef<ptx::Instruction> forms = apply.getInstruction().getForms();
      if (!forms.empty() && forms.front().formName == "wgmma.fence" &&
          forms.front().hasModifier("fence")) {
        llvm::fill(state, nullptr);
        return;
      }
      // wgmma.mma_async's accumulator accesses need no fence between them
      // (PTX's exception); the fence before the first one covers all.
      if (!forms.empty() && isWgmmaMma(forms.front()))
        return;
    }
    for (unsigned index = 0, e = roots.size(); index < e; ++index) {
      Value root = roots[index];
      // A new allocation: its registers have no access pending.
      if (llvm::is_contained(op->getResults(), root))
        state[index] = nullptr;
      if (llvm::any_of(op->getOperands(), [&](Value operand) {
            return getRegisterRoot(operand) == root;
          }))
        state[index] = op;
    }
    if (op->getNumRegions() == 0)
      return;
    if (isa<scf::IfOp, scf::IndexSwitchOp>(op)) {
      // One branch runs; an absent else branch falls through.
      AccessState out(roots.size(), nullptr);
      for (Region &region : op->getRegions()) {
        AccessState branch = state;
        visitRegion(region, branch);
        join(out, branch);
      }
      state = std::move(out);
      return;
    }
    if (isa<scf::ExecuteRegionOp>(op)) {
      for (Region &region : op->getRegions())
        visitRegion(region, state);
      return;
    }
    // scf.for, scf.while and any other op with regions: its regions run in
    // order, any number of times, so the end of the last reaches the start
    // of the first (the back edge) and the exit.
    AccessState entry = state;
    while (true) {
      AccessState current = entry;
      for (Region &region : op->getRegions())
        visitRegion(region, current);
      AccessState next = entry;
      join(next, current);
      if (next == entry)
        break;
      entry = std::move(next);
    }
    state = std::move(entry);
  }

  Operation *wgmma;
  ArrayRef<Value> roots;
  AccessState atWgmma;
};
} // namespace

/// Whether `access` comes before `op` in program order (false when it only
/// reaches `op` through a loop's back edge).
static bool precedes(Operation *access, Operation *op) {
  for (Operation *ancestor = op; ancestor && ancestor->getBlock();
       ancestor = ancestor->getParentOp()) {
    if (Operation *accessAncestor =
            ancestor->getBlock()->findAncestorOpInBlock(*access))
      return accessAncestor != ancestor &&
             accessAncestor->isBeforeInBlock(ancestor);
  }
  return false;
}

/// How a diagnostic names the op that accessed the registers.
static std::string describeAccess(Operation *access) {
  if (auto apply = dyn_cast<ApplyOp>(access))
    return apply.getInstruction().getSpelling().str();
  return access->getName().getStringRef().str();
}

LogicalResult
mlir::tirx::tile::verifyWgmmaFence(Operation *op,
                                   const ptx::Instruction &instruction,
                                   ArrayRef<MixedOperand> operands) {
  Operation *top = op->getParentOfType<KernelOp>();
  if (!top)
    top = op->getParentOfType<FunctionOpInterface>();
  if (!top)
    return success();
  // The register operands: D, and A in the 7-operand form.
  SmallVector<Value, 2> roots;
  SmallVector<unsigned, 2> positions;
  for (const MixedOperand &operand : operands) {
    auto tensor = operand.value
                      ? dyn_cast<tirx::TensorType>(operand.value.getType())
                      : nullptr;
    if (!tensor || !tensor.isLocal())
      continue;
    Value root = getRegisterRoot(operand.value);
    if (llvm::is_contained(roots, root))
      continue;
    roots.push_back(root);
    positions.push_back(operand.position);
  }
  if (roots.empty())
    return success();

  // The walk owns the result: keep it alive while reading it.
  FenceWalk walk(op, roots);
  ArrayRef<Operation *> accesses = walk.run(top);
  for (auto [access, position] : llvm::zip_equal(accesses, positions)) {
    if (!access)
      continue;
    InFlightDiagnostic diag =
        op->emitOpError("operand #")
        << position << " (" << instruction.operands[position].name << ") of '"
        << instruction.spelling << "': its registers were accessed by '"
        << describeAccess(access)
        << "' (see note) with no wgmma.fence.sync.aligned between that "
           "access and this wgmma (PTX: wgmma.fence orders register "
           "accesses before wgmma.mma_async)";
    diag.attachNote(access->getLoc())
        << (precedes(access, op) ? "the access"
                                 : "the access, which reaches the wgmma "
                                   "through the back edge of a loop around "
                                   "both");
    return diag;
  }
  return success();
}

LogicalResult mlir::tirx::tile::verifyWgmmaFences(Operation *top) {
  WalkResult result = top->walk([](ApplyOp apply) {
    // The op verified: its operands pair with their kinds and a form fits.
    FailureOr<SmallVector<MixedOperand>> operands =
        getMixedOperands(apply, apply.getArgs(), apply.getOperandKinds());
    if (failed(operands))
      return WalkResult::interrupt();
    FailureOr<const ptx::Instruction *> instruction =
        selectInstructionForm(apply, apply.getInstruction(), *operands);
    if (failed(instruction))
      return WalkResult::interrupt();
    if (isWgmmaMma(**instruction) &&
        failed(verifyWgmmaFence(apply, **instruction, *operands)))
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}
