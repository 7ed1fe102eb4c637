//===- BarrierConvergence.cpp - Every thread reaches each CTA barrier -----===//
//
// Part of the TirX project.
//
// A CTA barrier (tirx.cta_sync, bar.sync of all the block's threads) must be
// reached by every thread of the CTA, or the threads that reach it wait for
// ever (or, on the GPU, for the wrong arrivals). Kernel scalars are pure
// functions of the thread and block indices, the kernel's arguments and the
// loop indices, so a condition or loop bound around a barrier is evaluated
// for every thread of the block; two threads that disagree are the witness.
//
//===----------------------------------------------------------------------===//

#include "ConcreteEvaluation.h"

#include "TirX/Dialect/Tile/IR/FormSelection.h"
#include "TirX/Dialect/Tile/IR/TileOperands.h"
#include "TirX/Dialect/Tile/IR/TileOps.h"
#include "TirX/Dialect/TirX/IR/TirXOps.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace mlir;
using namespace mlir::tirx;

namespace {
/// What a value around a barrier depends on that may differ between the
/// threads of a CTA.
struct Dependence {
  bool onThread = false;
  /// The first op found with memory effects (a slot_load, an instruction's
  /// scalar result): its value may differ per thread in ways this check does
  /// not model.
  Operation *memoryRead = nullptr;
};
} // namespace

/// Collects what `value` depends on: through its operands, a loop's bounds
/// and carried values, and the values regions yield.
static void collectDependence(Value value, Dependence &dependence,
                              llvm::SmallPtrSetImpl<Value> &visited) {
  if (!visited.insert(value).second)
    return;
  auto visitAll = [&](ValueRange values) {
    for (Value operand : values)
      collectDependence(operand, dependence, visited);
  };
  if (auto argument = dyn_cast<BlockArgument>(value)) {
    Operation *owner = argument.getOwner()->getParentOp();
    if (auto loop = dyn_cast<scf::ForOp>(owner)) {
      if (argument == loop.getInductionVar())
        return visitAll(
            {loop.getLowerBound(), loop.getUpperBound(), loop.getStep()});
      unsigned index = argument.getArgNumber() - 1;
      return visitAll(
          {loop.getInitArgs()[index], loop.getYieldedValues()[index]});
    }
    if (isa<KernelOp>(owner))
      return; // a kernel argument: the same for every thread
    // Another region's argument (scf.while): what flows into it.
    return visitAll(owner->getOperands());
  }
  Operation *op = value.getDefiningOp();
  if (isa<ThreadIdxOp>(op)) {
    dependence.onThread = true;
    return;
  }
  if (op->getNumRegions() == 0 && !isMemoryEffectFree(op)) {
    // What it reads (a register slot, memory) is not a function of its
    // operands.
    if (!dependence.memoryRead)
      dependence.memoryRead = op;
    return;
  }
  visitAll(op->getOperands());
  if (op->getNumRegions() == 0)
    return;
  // The values an scf.if, scf.for or scf.while yields.
  op->walk([&](scf::YieldOp yield) { visitAll(yield.getOperands()); });
}

static Dependence getDependence(ArrayRef<Value> values) {
  Dependence dependence;
  llvm::SmallPtrSet<Value, 16> visited;
  for (Value value : values)
    collectDependence(value, dependence, visited);
  return dependence;
}

/// The constant value of operand `index` of a tile.apply, if it is one.
static std::optional<int64_t>
getConstantOperand(ArrayRef<tile::MixedOperand> operands, unsigned index) {
  if (index >= operands.size())
    return std::nullopt;
  IntegerAttr attr;
  if (operands[index].immediate)
    attr = dyn_cast<IntegerAttr>(operands[index].immediate);
  else
    matchPattern(operands[index].value, m_Constant(&attr));
  if (!attr)
    return std::nullopt;
  return attr.getInt();
}

bool mlir::tirx::isBarSync(Operation *op) {
  auto apply = dyn_cast<tile::ApplyOp>(op);
  if (!apply)
    return false;
  ArrayRef<ptx::Instruction> forms = apply.getInstruction().getForms();
  return !forms.empty() && (forms.front().formName == "bar.sync" ||
                            forms.front().formName == "bar.sync.count");
}

/// Whether `op` is a barrier every thread of the CTA takes part in:
/// tirx.cta_sync, `bar.sync a` and `bar.sync a, b` with b the block's
/// thread count.
bool mlir::tirx::isCTABarrier(Operation *op, int64_t numThreads) {
  if (isa<CtaSyncOp>(op))
    return true;
  if (!isBarSync(op))
    return false;
  auto apply = cast<tile::ApplyOp>(op);
  FailureOr<SmallVector<tile::MixedOperand>> operands =
      tile::getMixedOperands(op, apply.getArgs(), apply.getOperandKinds());
  if (failed(operands) || operands->size() < 2)
    return succeeded(operands);
  // bar.sync a, b: b threads; the block's count makes it a CTA barrier.
  return getConstantOperand(*operands, 1) == numThreads;
}

namespace {
/// One thread of the block: its 3-D index and how messages name it.
struct BlockThread {
  int64_t index[3];
  int64_t flat;
};
} // namespace

std::string mlir::tirx::describeBlockThread(int64_t flat,
                                            ArrayRef<int64_t> block) {
  std::string text;
  llvm::raw_string_ostream os(text);
  if (block.size() <= 1) {
    os << "thread " << flat;
  } else {
    int64_t x = block[0], y = block.size() > 1 ? block[1] : 1;
    os << "thread (" << flat % x << ", " << flat / x % y << ", "
       << flat / (x * y) << ")";
  }
  os << " (warp " << flat / 32 << ", lane " << flat % 32 << ")";
  return text;
}

/// What `construct` (an scf.if, scf.for or scf.index_switch around a
/// barrier) decides for one thread, given the region the barrier is in:
/// whether the thread enters it, or how often.
static std::optional<int64_t> decide(Operation *construct, Region *region,
                                     ConcreteEvaluator &evaluator) {
  if (auto branch = dyn_cast<scf::IfOp>(construct)) {
    std::optional<bool> holds = evaluator.holds(branch.getCondition());
    if (!holds)
      return std::nullopt;
    return (region == &branch.getThenRegion()) == *holds;
  }
  if (auto loop = dyn_cast<scf::ForOp>(construct)) {
    std::optional<int64_t> lower =
        evaluator.evaluateSigned(loop.getLowerBound());
    std::optional<int64_t> upper =
        evaluator.evaluateSigned(loop.getUpperBound());
    std::optional<int64_t> step = evaluator.evaluateSigned(loop.getStep());
    if (!lower || !upper || !step || *step <= 0)
      return std::nullopt;
    return *upper <= *lower ? 0 : (*upper - *lower + *step - 1) / *step;
  }
  if (auto dispatch = dyn_cast<scf::IndexSwitchOp>(construct)) {
    std::optional<int64_t> selector =
        evaluator.evaluateSigned(dispatch.getArg());
    if (!selector)
      return std::nullopt;
    for (auto [index, value] : llvm::enumerate(dispatch.getCases()))
      if (value == *selector)
        return region == &dispatch.getCaseRegions()[index];
    return region == &dispatch.getDefaultRegion();
  }
  return std::nullopt;
}

/// The values of `construct` that decide whether (or how often) a thread
/// reaches its regions.
static SmallVector<Value> getDeciders(Operation *construct) {
  if (auto branch = dyn_cast<scf::IfOp>(construct))
    return {branch.getCondition()};
  if (auto loop = dyn_cast<scf::ForOp>(construct))
    return {loop.getLowerBound(), loop.getUpperBound(), loop.getStep()};
  if (auto dispatch = dyn_cast<scf::IndexSwitchOp>(construct))
    return {dispatch.getArg()};
  if (auto loop = dyn_cast<scf::WhileOp>(construct)) {
    // The condition the before region passes on.
    return {loop.getConditionOp().getCondition()};
  }
  return {};
}

static StringRef describeConstruct(Operation *construct) {
  if (isa<scf::IfOp>(construct))
    return "the condition";
  if (isa<scf::IndexSwitchOp>(construct))
    return "the switch";
  return "the loop";
}

/// Checks one barrier against the constructs around it.
static LogicalResult checkBarrier(KernelOp kernel, Operation *barrier,
                                  ArrayRef<BlockThread> threads,
                                  ArrayRef<int64_t> block) {
  std::string name = "tirx.cta_sync";
  if (auto apply = dyn_cast<tile::ApplyOp>(barrier))
    name = ("'" + apply.getInstruction().getSpelling() + "'").str();
  for (Operation *construct = barrier->getParentOp(), *child = barrier;
       construct && construct != kernel;
       child = construct, construct = construct->getParentOp()) {
    SmallVector<Value> deciders = getDeciders(construct);
    Dependence dependence = getDependence(deciders);
    if (!dependence.onThread) {
      if (!dependence.memoryRead)
        continue; // the same for every thread of the CTA
      InFlightDiagnostic diag =
          barrier->emitWarning()
          << name << " may be reached by only part of the CTA's threads: "
          << describeConstruct(construct)
          << " around it depends on the result of '"
          << dependence.memoryRead->getName()
          << "', which TirX does not prove the same for every thread";
      diag.attachNote(construct->getLoc())
          << describeConstruct(construct) << " that depends on it";
      diag.attachNote(dependence.memoryRead->getLoc())
          << "the result is made here";
      continue;
    }
    Region *region = child->getParentRegion();
    // Every thread's decision; the first two that differ are the witness.
    std::optional<int64_t> first;
    bool decidable = !isa<scf::WhileOp>(construct);
    for (const BlockThread &thread : threads) {
      if (!decidable)
        break;
      ConcreteEvaluator evaluator(kernel);
      for (unsigned dim = 0; dim < 3; ++dim)
        evaluator.bindLaunchIndex(/*thread=*/true, dim, thread.index[dim]);
      std::optional<int64_t> decision = decide(construct, region, evaluator);
      if (!decision) {
        decidable = false;
        break;
      }
      if (!first) {
        first = decision;
        continue;
      }
      if (*decision == *first)
        continue;
      bool isLoop = isa<scf::ForOp>(construct);
      auto describe = [&](int64_t value) -> std::string {
        if (isLoop)
          return "runs " + std::to_string(value) + " time" +
                 (value == 1 ? "" : "s");
        return value ? "enters it" : "does not";
      };
      InFlightDiagnostic diag = barrier->emitError()
                                << name
                                << " is reached by only part of the CTA's "
                                   "threads: "
                                << describeConstruct(construct) << " around it";
      diag << " depends on the thread index, and "
           << describeBlockThread(threads.front().flat, block) << " "
           << describe(*first) << " while "
           << describeBlockThread(thread.flat, block) << " "
           << describe(*decision)
           << "; a barrier of every thread must be reached by every thread "
              "(hoist it out, or guard only the work around it)";
      diag.attachNote(construct->getLoc())
          << describeConstruct(construct) << " that depends on the thread";
      return diag;
    }
    if (decidable)
      continue; // the same for every thread
    // It depends on the thread and on values not fixed here (the block
    // index, sizes, loop indices): say so rather than accept it silently.
    InFlightDiagnostic diag =
        barrier->emitWarning()
        << name << " may be reached by only part of the CTA's threads: ";
    if (isa<scf::WhileOp>(construct))
      diag << "the scf.while around it has a condition that depends on the "
              "thread index, and TirX does not decide how often each thread "
              "runs it";
    else
      diag << describeConstruct(construct)
           << " around it depends on the thread index together with values "
              "that are not constants, and TirX does not prove it the same "
              "for every thread";
    diag.attachNote(construct->getLoc())
        << describeConstruct(construct) << " that depends on the thread";
  }
  return success();
}

Operation *mlir::tirx::getConstructDecidedByMemory(Operation *barrier,
                                                   KernelOp kernel) {
  for (Operation *construct = barrier->getParentOp();
       construct && construct != kernel; construct = construct->getParentOp())
    if (getDependence(getDeciders(construct)).memoryRead)
      return construct;
  return nullptr;
}

/// One instruction on a named barrier of part of the block: `bar.sync a, b`
/// or `bar.arrive a, b`.
struct NamedBarrierUse {
  mutable tile::ApplyOp op;
  int64_t count;
};

/// Whether `thread` reaches `use`, or std::nullopt where a construct around
/// it cannot be decided for it.
static std::optional<bool> reaches(KernelOp kernel, tile::ApplyOp use,
                                   const BlockThread &thread) {
  ConcreteEvaluator evaluator(kernel);
  for (unsigned dim = 0; dim < 3; ++dim)
    evaluator.bindLaunchIndex(/*thread=*/true, dim, thread.index[dim]);
  if (Value pred = use.getPred()) {
    std::optional<bool> holds = evaluator.holds(pred);
    if (!holds || !*holds)
      return holds;
  }
  for (Operation *construct = use->getParentOp(), *child = use;
       construct && construct != kernel;
       child = construct, construct = construct->getParentOp()) {
    if (isa<scf::ExecuteRegionOp>(construct))
      continue;
    std::optional<int64_t> decision =
        decide(construct, child->getParentRegion(), evaluator);
    if (!decision)
      return std::nullopt;
    if (*decision <= 0)
      return false;
  }
  return true;
}

/// The instructions on named barrier `id` of part of the block: every one
/// must count the same b threads, and exactly b threads must reach them
/// (producers' bar.arrive and consumers' bar.sync together). The threads
/// that do are counted by evaluating the constructs around each for each
/// thread of the block (as checkBarrier does); where one cannot be decided,
/// or a thread reaches two of them (two uses a round, which the count alone
/// does not tell), nothing is claimed.
static LogicalResult checkNamedBarrierCount(KernelOp kernel, int64_t id,
                                            ArrayRef<NamedBarrierUse> uses,
                                            ArrayRef<BlockThread> threads,
                                            ArrayRef<int64_t> block) {
  auto nameOf = [](tile::ApplyOp op) {
    return ("'" + op.getInstruction().getSpelling() + "'").str();
  };
  const NamedBarrierUse &first = uses.front();
  for (const NamedBarrierUse &use : uses.drop_front())
    if (use.count != first.count) {
      InFlightDiagnostic diag =
          use.op.emitError()
          << nameOf(use.op) << " counts " << use.count << " threads on barrier "
          << id << ", but " << nameOf(first.op) << " (noted) counts "
          << first.count
          << " on it: every instruction on one barrier counts the same "
             "threads (those that arrive and those that wait, together)";
      diag.attachNote(first.op.getLoc()) << "the other count";
      return diag;
    }
  int64_t count = first.count;
  SmallVector<const BlockThread *> reaching, missing;
  for (const BlockThread &thread : threads) {
    int64_t reached = 0;
    for (const NamedBarrierUse &use : uses) {
      std::optional<bool> reachesUse = reaches(kernel, use.op, thread);
      if (!reachesUse)
        return success();
      reached += *reachesUse;
    }
    if (reached > 1)
      return success();
    (reached ? reaching : missing).push_back(&thread);
  }
  int64_t participants = reaching.size();
  if (participants == count)
    return success();
  tile::ApplyOp barrier = first.op;
  std::string name = nameOf(barrier);
  InFlightDiagnostic diag = barrier.emitError();
  if (uses.size() == 1)
    diag << name << " waits for " << count << " threads of barrier " << id
         << ", but " << participants << " threads of the CTA reach it";
  else
    diag << name << " and the other " << uses.size() - 1
         << " instruction(s) on barrier " << id << " count " << count
         << " threads, but " << participants
         << " threads of the CTA reach one of them";
  if (participants > count)
    diag << ": " << describeBlockThread(reaching[count]->flat, block)
         << " is one more than it waits for (the count must be the number "
            "of threads that take part)";
  else if (uses.size() == 1)
    diag << ", and no other instruction arrives on barrier " << id
         << ": they wait for ever ("
         << (missing.empty()
                 ? std::string("no other thread")
                 : describeBlockThread(missing.front()->flat, block))
         << " does not reach it)";
  else
    diag << ": they wait for ever ("
         << (missing.empty()
                 ? std::string("no other thread")
                 : describeBlockThread(missing.front()->flat, block))
         << " reaches none of them)";
  for (const NamedBarrierUse &use : uses.drop_front())
    diag.attachNote(use.op.getLoc()) << "another instruction on barrier " << id;
  return diag;
}

LogicalResult mlir::tirx::verifyBarrierConvergence(KernelOp kernel) {
  LaunchConfigAttr launch = kernel.getLaunch();
  ArrayRef<int64_t> block = launch.getBlock();
  int64_t numThreads = launch.getNumThreads();
  SmallVector<Operation *> barriers;
  // The instructions on each named barrier of part of the block; a barrier
  // instruction whose id is not a constant may be on any (none is checked).
  llvm::MapVector<int64_t, SmallVector<NamedBarrierUse, 2>> namedBarriers;
  bool unknownId = false;
  kernel.walk([&](Operation *op) {
    auto apply = dyn_cast<tile::ApplyOp>(op);
    FailureOr<SmallVector<tile::MixedOperand>> operands = failure();
    if (apply)
      operands =
          tile::getMixedOperands(op, apply.getArgs(), apply.getOperandKinds());
    FailureOr<const ptx::Instruction *> form = failure();
    if (succeeded(operands))
      form = tile::selectInstructionForm(op, apply.getInstruction(), *operands);
    std::optional<int64_t> id =
        succeeded(operands) ? getConstantOperand(*operands, 0) : std::nullopt;
    if (succeeded(form) && (*form)->module == ptx::FamilyModuleId::barrier &&
        StringRef((*form)->formName).starts_with("bar.") && !id &&
        (*form)->formName != "bar.warp.sync")
      unknownId = true;
    if (isCTABarrier(op, numThreads)) {
      barriers.push_back(op);
      return;
    }
    if (failed(form) || ((*form)->formName != "bar.sync.count" &&
                         (*form)->formName != "bar.arrive"))
      return;
    std::optional<int64_t> count = getConstantOperand(*operands, 1);
    if (!id || !count)
      return;
    namedBarriers[*id].push_back({apply, *count});
  });
  if (unknownId)
    namedBarriers.clear();
  // A CTA barrier with the id of a named one shares its hardware barrier:
  // not checked.
  for (Operation *barrier : barriers) {
    auto apply = dyn_cast<tile::ApplyOp>(barrier);
    FailureOr<SmallVector<tile::MixedOperand>> operands = failure();
    if (apply)
      operands = tile::getMixedOperands(barrier, apply.getArgs(),
                                        apply.getOperandKinds());
    if (succeeded(operands))
      if (std::optional<int64_t> id = getConstantOperand(*operands, 0))
        namedBarriers.erase(*id);
  }
  if (barriers.empty() && namedBarriers.empty())
    return success();
  SmallVector<BlockThread> threads;
  int64_t extents[3] = {1, 1, 1};
  for (auto [dim, extent] : llvm::enumerate(block))
    extents[dim] = extent;
  for (int64_t flat = 0; flat < numThreads; ++flat)
    threads.push_back({{flat % extents[0], flat / extents[0] % extents[1],
                        flat / (extents[0] * extents[1])},
                       flat});
  bool failed = false;
  for (Operation *barrier : barriers)
    failed |= mlir::failed(checkBarrier(kernel, barrier, threads, block));
  for (auto &[id, uses] : namedBarriers)
    failed |=
        mlir::failed(checkNamedBarrierCount(kernel, id, uses, threads, block));
  return failure(failed);
}
