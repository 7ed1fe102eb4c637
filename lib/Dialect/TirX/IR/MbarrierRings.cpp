//===- MbarrierRings.cpp - Phases of mbarrier pipelines -------------------===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//
//
// Recognizes the rings of MbarrierRings.h: each op's barrier and step from
// its operands' arithmetic, as the pipelines of tirx.pipeline and CUTLASS
// write them (stage = step % S, parity = step / S % 2).
//
//===----------------------------------------------------------------------===//

#include "MbarrierRings.h"

#include "TirX/Dialect/Tile/IR/FormSelection.h"
#include "TirX/Dialect/Tile/IR/TileOperands.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;
using namespace mlir::tirx;
using namespace mlir::tirx::proof;

/// `value` without the integer casts around it.
static Value stripCasts(Value value) {
  while (Operation *def = value.getDefiningOp()) {
    if (!isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::TruncIOp,
             arith::ExtSIOp, arith::ExtUIOp>(def))
      break;
    value = def->getOperand(0);
  }
  return value;
}

/// x where `value` is x rem `divisor` (x div `divisor` with `quotient`).
static Value matchDivision(Value value, int64_t divisor, bool quotient) {
  Operation *def = stripCasts(value).getDefiningOp();
  if (!def || def->getNumOperands() != 2)
    return {};
  bool matches =
      quotient ? isa<arith::DivSIOp, arith::DivUIOp, arith::FloorDivSIOp>(def)
               : isa<arith::RemSIOp, arith::RemUIOp>(def);
  std::optional<int64_t> by = getConstantIntValue(def->getOperand(1));
  if (!matches || by != divisor)
    return {};
  return stripCasts(def->getOperand(0));
}

/// Whether `op` is inside a loop of the kernel.
static bool isInLoop(Operation *op, KernelOp kernel) {
  for (Operation *parent = op->getParentOp(); parent && parent != kernel;
       parent = parent->getParentOp())
    if (isa<scf::ForOp, scf::WhileOp>(parent))
      return true;
  return false;
}

/// Whether `ifOp` runs its then-branch in exactly one lane of every warp
/// (`thread_idx.x % 32 == c`, the block's x extent a multiple of 32).
static bool isOneLanePerWarp(scf::IfOp ifOp, KernelOp kernel) {
  if (kernel.getLaunch().getBlock()[0] % 32 != 0)
    return false;
  auto compare = ifOp.getCondition().getDefiningOp<arith::CmpIOp>();
  if (!compare || compare.getPredicate() != arith::CmpIPredicate::eq)
    return false;
  for (auto [lane, constant] :
       {std::pair(compare.getLhs(), compare.getRhs()),
        std::pair(compare.getRhs(), compare.getLhs())}) {
    std::optional<int64_t> value = getConstantIntValue(constant);
    Value thread = matchDivision(lane, 32, /*quotient=*/false);
    auto index = thread ? thread.getDefiningOp<ThreadIdxOp>() : ThreadIdxOp();
    if (value && *value >= 0 && *value < 32 && index &&
        index.getDim() == Dim::x)
      return true;
  }
  return false;
}

LogicalResult MbarrierRings::collect(KernelOp kernelOp, Operation *&gapOp,
                                     std::string &why) {
  kernel = kernelOp;
  gapOp = nullptr;
  // Single-shot ops: the waits on each barrier so far, in program order.
  DenseMap<std::pair<Operation *, int64_t>, int64_t> waitsSoFar;
  kernel.walk([&](tile::ApplyOp op) {
    if (gapOp)
      return WalkResult::interrupt();
    auto fail = [&](const Twine &reason) {
      gapOp = op;
      why = reason.str();
      return WalkResult::interrupt();
    };
    FailureOr<SmallVector<tile::MixedOperand>> operands =
        tile::getMixedOperands(op, op.getArgs(), op.getOperandKinds());
    if (failed(operands))
      // check-diagnostics: internal, the op was verified before
      return fail("its operands do not match its instruction");
    FailureOr<const ptx::Instruction *> selected =
        tile::selectInstructionForm(op, op.getInstruction(), *operands);
    if (failed(selected))
      // check-diagnostics: internal, the op was verified before
      return fail("its operands do not match its instruction");
    const ptx::Instruction &instruction = **selected;
    const ptx::FamilyModule &module = ptx::getFamilyModule(instruction);
    if (!module.getMbarrierEvent)
      return WalkResult::advance();
    RingEvent event;
    event.op = op.getOperation();
    event.kind = module.getMbarrierEvent(instruction);
    if (event.kind == ptx::MbarrierEvent::None ||
        event.kind == ptx::MbarrierEvent::Init)
      return WalkResult::advance();
    // The barrier operand: a TMA load's `mbar`, an mbarrier op's address.
    Value barrier, parity;
    std::optional<int64_t> parityImmediate;
    for (const tile::MixedOperand &operand : *operands) {
      if (operand.position >= instruction.operands.size())
        continue;
      const ptx::OperandInfo &info = instruction.operands[operand.position];
      bool isBarrier = event.kind == ptx::MbarrierEvent::Completion
                           ? info.name == "mbar"
                           : info.isMemory;
      if (isBarrier) {
        barrier = operand.value;
        event.barrierOperand = operand.position;
      }
      if (info.kind == "parity") {
        parity = operand.value;
        if (auto immediate =
                dyn_cast_if_present<IntegerAttr>(operand.immediate))
          parityImmediate = immediate.getInt();
      }
    }
    if (!barrier)
      // check-diagnostics: internal, the table makes it a shared tensor
      return fail("its mbarrier operand is not a shared tensor");
    // barriers[offset] of a one-dimensional allocation.
    Value offset;
    if (auto region = barrier.getDefiningOp<RegionOp>()) {
      if (region.getStaticOffsets().size() != 1)
        return fail("its mbarrier is not an element of a one-dimensional "
                    "allocation of mbarriers");
      int64_t fixed = region.getStaticOffsets().front();
      if (ShapedType::isDynamic(fixed))
        offset = region.getOffsets().front();
      else
        event.constantIndex = fixed;
      barrier = region.getSource();
    }
    auto allocation = barrier.getDefiningOp<AllocSharedOp>();
    auto type = dyn_cast<tirx::TensorType>(barrier.getType());
    if (!allocation || !type || type.getShape().size() != 1)
      return fail("its mbarrier is not an element of a one-dimensional "
                  "allocation of mbarriers (tirx.alloc_shared)");
    event.barriers = allocation;
    event.stages = type.getShape().front();
    if (offset) {
      event.index = offset;
      event.step = matchDivision(offset, event.stages, /*quotient=*/false);
      if (!event.step)
        return fail("its mbarrier's index is not `step % " +
                    Twine(event.stages) +
                    "` of a pipeline step (the race proof models rings of "
                    "mbarriers used in turn)");
    } else if (isInLoop(op, kernel)) {
      return fail("it uses one mbarrier in every iteration of a loop: the "
                  "race proof models rings of mbarriers whose index is "
                  "`step % stages` of a pipeline step");
    }
    if (!event.step) {
      // Outside loops, the phase is the number of waits on the barrier
      // before the op in program order.
      int64_t &waits = waitsSoFar[{event.barriers, event.constantIndex}];
      event.constantPhase = waits;
      if (event.isWait()) {
        Value constant = parity ? stripCasts(parity) : Value();
        std::optional<int64_t> value =
            constant ? getConstantIntValue(constant) : parityImmediate;
        if (value != waits % 2)
          return fail("its parity is not that of phase " + Twine(waits) +
                      ", the waits on its mbarrier before it in program "
                      "order (the race proof numbers the phases of an "
                      "mbarrier used outside loops by its waits)");
        ++waits;
      }
    } else if (std::optional<int64_t> fixed = getConstantIntValue(event.step);
               event.isWait() && fixed &&
               (parityImmediate ||
                (parity && getConstantIntValue(stripCasts(parity))))) {
      // A constant step and parity: the phase of the step's (step / S) or
      // the one before, whichever has the parity.
      int64_t value = parityImmediate
                          ? *parityImmediate
                          : *getConstantIntValue(stripCasts(parity));
      event.delta = (*fixed / event.stages) % 2 == value ? 0 : -1;
    } else if (event.isWait()) {
      // (step / S) % 2: the phase step / S; 1 - that: the one before.
      Value phase = parity ? stripCasts(parity) : Value();
      Operation *def = phase ? phase.getDefiningOp() : nullptr;
      if (def && isa<arith::SubIOp, arith::XOrIOp>(def)) {
        bool sub = isa<arith::SubIOp>(def);
        Value lhs = def->getOperand(0), rhs = def->getOperand(1);
        if (getConstantIntValue(lhs) == 1) {
          phase = stripCasts(rhs);
          event.delta = -1;
        } else if (!sub && getConstantIntValue(rhs) == 1) {
          phase = stripCasts(lhs);
          event.delta = -1;
        }
      }
      Value quotient =
          phase ? matchDivision(phase, 2, /*quotient=*/false) : Value();
      Value step = quotient ? matchDivision(quotient, event.stages,
                                            /*quotient=*/true)
                            : Value();
      if (!step || step != event.step)
        return fail("its parity is not `step / " + Twine(event.stages) +
                    " % 2` (or 1 minus it) of the step its mbarrier's "
                    "index is taken from");
    }
    if (std::optional<std::string> reason = checkStepGrows(event))
      return fail(*reason);
    events[op] = event;
    return WalkResult::advance();
  });
  if (gapOp)
    return failure();
  // A single-shot op on a ring whose other ops name steps: its phase is
  // not the count of waits (which step it is, a constant index cannot say).
  llvm::SmallPtrSet<Operation *, 4> rings;
  for (auto &[op, event] : events)
    if (event.step)
      rings.insert(event.barriers);
  kernel.walk([&](tile::ApplyOp op) {
    const RingEvent *event = lookup(op);
    if (!gapOp && event && !event->step && rings.contains(event->barriers)) {
      gapOp = op;
      why = "its mbarrier is a constant element of a ring whose other ops "
            "name a pipeline step, so its step is unknown (the race proof "
            "needs its index as `step % stages` of an index value)";
    }
  });
  return failure(gapOp != nullptr);
}

std::optional<std::string>
MbarrierRings::checkStepGrows(const RingEvent &event) {
  if (!event.step)
    return std::nullopt;
  {
    AccessProof proof(kernel);
    FailureOr<Linear> step = proof.translate(event.step);
    if (failed(step))
      return "its pipeline step is beyond the proof's integer model: " +
             proof.reason;
    if (proof.sampleWhere(*combine(constant(-1), -1, *step)))
      return std::string("its pipeline step may be negative");
  }
  SmallVector<Operation *> loops;
  for (Operation *parent = event.op->getParentOp(); parent && parent != kernel;
       parent = parent->getParentOp()) {
    if (isa<scf::WhileOp>(parent))
      return std::string("it is inside an scf.while, whose iterations the "
                         "race proof does not number");
    if (isa<scf::ForOp>(parent))
      loops.push_back(parent);
  }
  int64_t block[3];
  for (auto [dim, extent] : llvm::enumerate(kernel.getLaunch().getBlock()))
    block[dim] = extent;
  for (auto [position, op] : llvm::enumerate(loops)) {
    auto loop = cast<scf::ForOp>(op);
    AccessProof proof(kernel);
    proof.makeLoopsPrivate();
    for (Operation *outer : ArrayRef(loops).drop_front(position + 1))
      proof.shareLoop(outer);
    Linear steps[2], indices[2], threads[2][3];
    for (unsigned copy = 0; copy < 2; ++copy) {
      proof.setCopy(copy);
      FailureOr<Linear> step = proof.translate(event.step);
      FailureOr<Linear> index = proof.translate(loop.getInductionVar());
      if (failed(step) || failed(index))
        return "its pipeline step is beyond the proof's integer model: " +
               proof.reason;
      steps[copy] = *step;
      indices[copy] = *index;
      for (unsigned dim = 0; dim < 3; ++dim)
        if (block[dim] > 1) {
          FailureOr<Linear> thread =
              proof.translateThreadIndex(static_cast<Dim>(dim));
          if (failed(thread))
            return "its thread index is beyond the proof's model: " +
                   proof.reason;
          threads[copy][dim] = *thread;
        }
    }
    // One thread, a later iteration of the loop: the step must grow.
    for (unsigned dim = 0; dim < 3; ++dim)
      if (block[dim] > 1)
        proof.requireZero(*combine(threads[1][dim], -1, threads[0][dim]));
    proof.setCopy(0);
    FailureOr<Linear> increment = proof.translate(loop.getStep());
    if (failed(increment))
      return "its loop's step is beyond the proof's integer model: " +
             proof.reason;
    proof.require(
        *combine(*combine(indices[1], -1, indices[0]), -1, *increment));
    if (proof.sampleWhere(*combine(steps[0], -1, steps[1]))) {
      std::string text;
      llvm::raw_string_ostream os(text);
      os << "its pipeline step does not grow from one iteration of the loop "
            "at "
         << loop.getLoc()
         << " to the next, so its phase is not the step's (the race proof "
            "numbers a ring's phases by its steps)";
      return text;
    }
  }
  return std::nullopt;
}

const RingEvent *MbarrierRings::lookup(Operation *op) const {
  auto found = events.find(op);
  return found == events.end() ? nullptr : &found->second;
}

/// Whether `event` runs wherever the op it is beside runs.
static bool isUnconditional(const RingEvent *event) {
  return event && !cast<tile::ApplyOp>(event->op).getPred();
}

/// Whether some thread of the block takes `ifOp`'s then-branch, in every
/// execution: its condition is on thread indices only, and holds for one.
static bool isTakenBySomeThread(scf::IfOp ifOp, KernelOp kernel) {
  if (!isComputedFrom(ifOp.getCondition(), /*threadOnly=*/true))
    return false;
  AccessProof proof(kernel);
  SmallVector<UnusedGuard> unused;
  proof.addGuard(ifOp.getCondition(), /*negated=*/false, unused);
  return unused.empty() && proof.sample().has_value();
}

SmallVector<RingLink, 2> MbarrierRings::getWaitsBefore(Operation *op) const {
  SmallVector<RingLink, 2> waits;
  llvm::SmallPtrSet<Operation *, 2> rings;
  auto add = [&](Operation *candidate) {
    const RingEvent *event = lookup(candidate);
    if (isUnconditional(event) && event->isWait() &&
        rings.insert(event->barriers).second)
      waits.push_back({event, Value()});
  };
  // Past a CTA barrier, a wait of another thread counts too: one under a
  // condition some thread takes, whose barrier and phase are the same in
  // every thread.
  int64_t numThreads = KernelOp(kernel).getLaunch().getNumThreads();
  bool pastBarrier = false;
  for (Operation *current = op; current && current != kernel;
       current = current->getParentOp())
    for (Operation *before = current->getPrevNode(); before;
         before = before->getPrevNode()) {
      pastBarrier |= isCTABarrier(before, numThreads);
      add(before);
      auto ifOp = dyn_cast<scf::IfOp>(before);
      if (!pastBarrier || !ifOp || !isTakenBySomeThread(ifOp, kernel))
        continue;
      for (Operation &nested : llvm::reverse(ifOp.getThenRegion().front())) {
        const RingEvent *event = lookup(&nested);
        if (event && event->isWait() &&
            (!event->index ||
             isComputedFrom(event->index, /*threadOnly=*/false)) &&
            (!event->step || isComputedFrom(event->step, /*threadOnly=*/false)))
          add(&nested);
      }
    }
  return waits;
}

SmallVector<RingLink, 2> MbarrierRings::getArrivalsAfter(Operation *op,
                                                         bool byWarp) const {
  SmallVector<RingLink, 2> arrivals;
  llvm::SmallPtrSet<Operation *, 2> rings;
  auto add = [&](Operation *candidate, Value condition) {
    const RingEvent *event = lookup(candidate);
    if (isUnconditional(event) && event->isArrival() &&
        rings.insert(event->barriers).second)
      arrivals.push_back({event, condition});
  };
  // Out of the loops around `op` as well: an scf.for runs all its
  // iterations before what follows it, which shares the outer loops'
  // iterations with `op`. Not out of an scf.while (it may not end).
  for (Operation *current = op;
       current && current != kernel && !isa<scf::WhileOp>(current);
       current = current->getParentOp())
    for (Operation *after = current->getNextNode(); after;
         after = after->getNextNode()) {
      add(after, Value());
      if (auto ifOp = dyn_cast<scf::IfOp>(after)) {
        Value condition = byWarp && isOneLanePerWarp(ifOp, kernel)
                              ? Value()
                              : ifOp.getCondition();
        for (Operation &nested : ifOp.getThenRegion().front())
          add(&nested, condition);
      }
    }
  return arrivals;
}

FailureOr<RingForms> MbarrierRings::translate(AccessProof &proof,
                                              const RingEvent &event) {
  RingForms forms;
  forms.barrier = constant(event.constantIndex);
  forms.phase = constant(event.constantPhase);
  if (event.index) {
    FailureOr<Linear> index = proof.translate(event.index);
    if (failed(index))
      return failure();
    forms.barrier = *index;
  }
  if (event.step) {
    FailureOr<Linear> step = proof.translate(event.step);
    FailureOr<Linear> phase =
        succeeded(step) ? proof.floorDivide(*step, event.stages) : step;
    if (failed(phase))
      return failure();
    forms.phase = *combine(*phase, 1, constant(event.delta));
  }
  return forms;
}
