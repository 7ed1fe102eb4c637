//===- RaceProof.cpp - no two threads touch one shared byte unordered -----===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//
//
// The race proof of docs/races.md. Every shared memory operand of a
// tile.apply is an *access*: for each executing thread (a warp, for a warp
// collective such as ldmatrix), the bytes it reads or writes are
//
//   Σ dynamic region offset · stride  +  layout(f) · bytes  +  u
//
// over the elements f of the thread's group coordinate (spec §2.2: the
// operand is group × repeat × atom) and the bytes u of an element, where the
// layout's digits are floor divisions of f (one quotient variable each); a
// swizzle's XOR is written bit by bit (x ^ y = x + y − 2·(x ∧ y)), or left
// out where both accesses swizzle alike. A cp.async's write (a wgmma's read
// of its shared operands, the warpgroup's) lasts from its issue to the wait
// of its family that retires its group: in its iteration, or in a pipeline
// a later iteration of its loop (of the loop after it, for a prologue's
// copies), or after that loop when it ends first.
//
// CTA barriers cut each thread's execution into intervals; the barrier
// convergence check proved every thread reaches the same barriers, so two
// accesses by different threads can run unordered exactly when no barrier is
// executed on the way from one to the other. The kernel's structured control
// flow gives the ways, as *epoch cases* of an ordered pair (first, second):
//
//   - the same iterations of every loop around both, the first before the
//     second in the block where their paths meet, with no op on the way that
//     executes a barrier on every path through it (a `must barrier`): a
//     loop left on the way must then be in its last iteration if its body
//     has one, a loop entered in its first;
//   - a later iteration of one loop L around both (the back edge): the first
//     reaches the end of L's body and the second is reached from its start
//     barrier-free; the second's iteration is the next one if L's body has
//     a must barrier, else any later one;
//   - two branches of one condition or switch (different threads may take
//     each), and an access on the way from a cp.async to its wait.
//
// Each case, with each case of the two guards, is one integer polyhedron of
// the bounds proof's (AccessProof): the two executions are two copies of the
// thread-dependent variables; the block index, sizes, arguments and the
// indices of loops in the same iteration are shared. A point with two
// distinct threads (warps), one byte and one write (an atomic against a
// plain access) is a race; it is recomputed concretely — the layout's own
// apply, the thread that owns the element, the guards — before it is shown.
// mbarrier rings (MbarrierRings.h) order more: a TMA load's write, which no
// CTA barrier completes, and any access, against another thread's through
// an arrival (or the load's completion) and a wait for its phase; a case
// races only where no such order holds. Each pair is asked coarsely first
// (any byte of each operand's span; accesses alike but for their bytes
// together), and exactly only where it may meet.
//
// A named barrier of part of the block (bar.sync a, b) orders the threads
// naming the same barrier a: its pairs' cases are split by whether the two
// threads name the same one (NamedBarriers).
//
// Where the kernel synchronizes in ways the model does not know (a cp.async
// no wait is sure to retire, mbarriers beyond rings, TMA stores, bar.arrive,
// cluster barriers), the proof says so with a warning at that op instead of
// judging.
//
//===----------------------------------------------------------------------===//

#include "AccessProof.h"
#include "MbarrierRings.h"

#include "TirX/Dialect/Tile/Families/FamilyModule.h"
#include "TirX/Dialect/Tile/IR/FormSelection.h"
#include "TirX/Dialect/Tile/IR/TileOperands.h"
#include "TirX/Dialect/Tile/IR/TileOps.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"

#include <functional>

using namespace mlir;
using namespace mlir::tirx;
using namespace mlir::tirx::proof;

namespace {

constexpr StringLiteral kDefaultCase =
    "the default case of an scf.index_switch (the proof uses the values of "
    "its cases only)";
constexpr StringLiteral kUnusedSelector =
    "an scf.index_switch whose selector is not affine in the indices";

//===----------------------------------------------------------------------===//
// Accesses
//===----------------------------------------------------------------------===//

/// Where a cp.async's write is complete in its thread.
struct Retirement {
  /// The wait that completes it; null where none is known.
  Operation *wait = nullptr;
  /// A pipeline: the innermost loop around the copy, and how many of its
  /// iterations after the copy's `wait` runs in; or (fromLoopStart) a loop
  /// after the copy, and how many iterations after the loop's first.
  scf::ForOp loop;
  int64_t iterations = 0;
  bool fromLoopStart = false;
  /// With a loop: the wait after it that completes the copy when the loop
  /// ends before `wait` runs.
  Operation *afterLoop = nullptr;

  explicit operator bool() const { return wait; }
};

/// An mbarrier arrival after an access, and where it runs: in the access's
/// iterations, or after the wait that retires an asynchronous access in a
/// pipeline: in that wait's iteration of the loop (`copyEnds` −1: the
/// access is not in the loop's last `iterations`) or after the loop (+1).
struct RingRelease {
  RingLink link;
  int copyEnds = 0;
};

/// One shared memory operand of a tile.apply.
struct SharedAccess {
  tile::ApplyOp op;
  unsigned operandIndex = 0;
  tirx::TensorType type;
  /// The tirx.alloc_shared it reaches through regions and views.
  Operation *allocation = nullptr;
  /// The regions on the way with dynamic offsets.
  SmallVector<RegionOp> regions;
  bool writes = false;
  bool atomic = false;
  /// A warp collective (ldmatrix, stmatrix): the warp is one accessor.
  bool collective = false;
  tile::ExecutionDomain domain;
  /// Elements of one group coordinate (repeats × atom).
  int64_t elementsPerGroup = 1;
  int64_t storageBytes = 1;
  GuardCases guardCases;
  Operation *disjunction = nullptr;
  /// An asynchronous copy's write (cp.async): the wait after which it is
  /// complete in the issuing thread; none for an access that completes
  /// with its instruction.
  Retirement retirement;
  /// A coarse question's bytes in the operand (RaceProof::run's groups),
  /// instead of its layout's span.
  std::optional<std::pair<int64_t, int64_t>> coarseSpan;
  /// A TMA load's write: complete at its mbarrier's phase, ordered before
  /// another thread's access only through a wait for that phase.
  const RingEvent *completion = nullptr;
  /// The mbarrier waits before the access in its thread (it runs after
  /// their phases), and the arrivals after it (their phases follow it; a
  /// TMA load's own completion).
  SmallVector<RingLink, 2> acquires;
  SmallVector<RingRelease, 2> releases;

  StringRef getKind() const {
    return atomic ? "atomic access" : writes ? "write" : "read";
  }

  /// The group coordinate whose executors access `element`.
  SmallVector<int64_t> getGroupOf(int64_t element) const {
    SmallVector<int64_t> group;
    int64_t flat = element / elementsPerGroup;
    for (int64_t extent : llvm::reverse(domain.groupShape)) {
      group.insert(group.begin(), flat % extent);
      flat /= extent;
    }
    return group;
  }

  /// The executor thread `tid` is part of, as its first thread: the
  /// warpgroup's or the warp's for a collective, else itself.
  int64_t getExecutor(int64_t tid) const {
    return domain.warpgroupInAtom ? tid / 128 * 128
           : collective           ? tid / 32 * 32
                                  : tid;
  }
};

/// The variables of one access in a polyhedron.
struct AccessForms {
  Linear byte;
  /// The flat thread index (for a collective, any lane of the warp).
  Linear thread;
  Linear warp;
  /// The element's row-major index in the operand.
  Linear element;
  /// Its byte among the element's.
  Linear byteInElement;
};

/// Bytes of a tensor's storage element, if whole.
std::optional<int64_t> getStorageBytes(tirx::TensorType type) {
  Type storage = type.getStorageElementType();
  if (!storage.isIntOrFloat() || storage.getIntOrFloatBitWidth() % 8 != 0)
    return std::nullopt;
  return storage.getIntOrFloatBitWidth() / 8;
}

/// Follows a shared operand to its allocation, or says where the model
/// stops.
std::optional<std::string> traceToAllocation(Value tensor,
                                             SharedAccess &access) {
  SmallVector<RegionOp> regions;
  Operation *source = getTensorSource(tensor, &regions);
  for (RegionOp region : regions) {
    if (!region.getSource().getType().hasStaticShape())
      return std::string("its shared tensor has a runtime size");
    if (!region.getOffsets().empty())
      access.regions.push_back(region);
  }
  if (!source)
    return std::string("its shared tensor is not allocated in the kernel");
  if (!isa<AllocSharedOp>(source))
    return "its shared tensor comes from '" +
           source->getName().getStringRef().str() +
           "', which the race proof does not follow";
  access.allocation = source;
  return std::nullopt;
}

bool isLoop(Operation *op) { return isa<scf::ForOp, scf::WhileOp>(op); }

/// The family module whose groups an asynchronous access counts: its
/// commits and waits (cp.async's, wgmma's) are the only ones it sees.
using GroupFamily = const ptx::FamilyModule *;

/// The op's part in `family`'s groups, and a wait_group's N.
ptx::AsyncGroupEvent getAsyncGroupEvent(Operation *op, GroupFamily family,
                                        int64_t &pending) {
  auto apply = dyn_cast<tile::ApplyOp>(op);
  if (!apply || apply.getInstruction().getForms().empty())
    return ptx::AsyncGroupEvent::None;
  const ptx::Instruction &form = apply.getInstruction().getForms().front();
  const ptx::FamilyModule &module = ptx::getFamilyModule(form);
  if (&module != family || !module.getAsyncGroupEvent)
    return ptx::AsyncGroupEvent::None;
  ptx::AsyncGroupEvent event = module.getAsyncGroupEvent(form);
  if (event == ptx::AsyncGroupEvent::WaitGroup) {
    pending = -1;
    FailureOr<SmallVector<tile::MixedOperand>> operands =
        tile::getMixedOperands(op, apply.getArgs(), apply.getOperandKinds());
    if (succeeded(operands) && !operands->empty())
      if (auto count =
              dyn_cast_if_present<IntegerAttr>(operands->front().immediate))
        pending = count.getInt();
  }
  return event;
}

/// Whether `op` holds a commit or a wait (copies do not count groups).
bool holdsGroupEvents(Operation *op, GroupFamily family) {
  int64_t unused = 0;
  return op
      ->walk([&](Operation *nested) {
        ptx::AsyncGroupEvent event = getAsyncGroupEvent(nested, family, unused);
        return event == ptx::AsyncGroupEvent::None ||
                       event == ptx::AsyncGroupEvent::Copy
                   ? WalkResult::advance()
                   : WalkResult::interrupt();
      })
      .wasInterrupted();
}

/// Whether `op` is an scf.for whose body commits or waits at its top level
/// or in scf.ifs only (findRetiringWait): a loop the walk for a retiring wait
/// can enter.
bool isPipelineLoop(Operation *op, GroupFamily family) {
  auto loop = dyn_cast<scf::ForOp>(op);
  return loop && llvm::none_of(*loop.getBody(), [&](Operation &nested) {
           return nested.getNumRegions() && !isa<scf::IfOp>(nested) &&
                  holdsGroupEvents(&nested, family);
         });
}

/// Whether `value` and `other` compute the same: one value, or alike ops of
/// operands that do (a condition the Python layer traces again).
bool areEquivalentValues(Value value, Value other, unsigned depth = 0) {
  if (value == other)
    return true;
  auto first = dyn_cast<OpResult>(value), second = dyn_cast<OpResult>(other);
  if (!first || !second || depth > 16 ||
      first.getResultNumber() != second.getResultNumber() ||
      first.getOwner()->getNumRegions() || second.getOwner()->getNumRegions())
    return false;
  return OperationEquivalence::isEquivalentTo(
      first.getOwner(), second.getOwner(),
      [&](Value a, Value b) {
        return success(areEquivalentValues(a, b, depth + 1));
      },
      /*markEquivalent=*/nullptr, OperationEquivalence::IgnoreLocations);
}

/// Whether the thread that issued `copy` surely takes `ifOp`'s then-branch:
/// its condition is on thread indices only and computes the same as the
/// condition of an scf.if whose then-branch holds the copy (one thread's
/// TMA stores, and its waits for them, each under `tid % 128 == 0`).
bool isTakenByIssuer(scf::IfOp ifOp, Operation *copy) {
  if (!copy || !isComputedFrom(ifOp.getCondition(), /*threadOnly=*/true))
    return false;
  for (Operation *child = copy, *around = copy->getParentOp(); around;
       child = around, around = around->getParentOp())
    if (auto outer = dyn_cast<scf::IfOp>(around))
      if (child->getParentRegion() == &outer.getThenRegion() &&
          areEquivalentValues(outer.getCondition(), ifOp.getCondition()))
        return true;
  return false;
}

/// Walks the ops from `first` on in its block, counting `commits`: the
/// first wait_all, or wait_group N with more than N commits, completes the
/// groups committed before. The then-branch of an scf.if the thread that
/// issued `copy` surely takes is walked too; any other scf.if is passed
/// over. Null where none is in the block, or where the walk stops at a loop
/// that commits or waits (`loop`; only where `loop` is given); failure where
/// another construct on the way (not an scf.if) commits or waits inside.
FailureOr<Operation *> findRetiringWait(Operation *first, GroupFamily family,
                                        Operation *copy, int64_t &commits,
                                        Operation **loop = nullptr) {
  for (Operation *next = first; next; next = next->getNextNode()) {
    if (next->getNumRegions()) {
      if (!holdsGroupEvents(next, family))
        continue;
      if (auto ifOp = dyn_cast<scf::IfOp>(next)) {
        // The issuer's own branch runs its events in order; one it may skip
        // counts no commit (more commits retire no later) and no wait.
        if (!isTakenByIssuer(ifOp, copy))
          continue;
        FailureOr<Operation *> wait = findRetiringWait(
            &ifOp.getThenRegion().front().front(), family, copy, commits);
        if (failed(wait) || *wait)
          return wait;
        continue;
      }
      if (!loop || !isPipelineLoop(next, family))
        return failure();
      *loop = next;
      return static_cast<Operation *>(nullptr);
    }
    int64_t pending = 0;
    switch (getAsyncGroupEvent(next, family, pending)) {
    case ptx::AsyncGroupEvent::Commit:
      ++commits;
      break;
    case ptx::AsyncGroupEvent::WaitGroup:
      if (pending >= 0 && commits > pending)
        return next;
      break;
    case ptx::AsyncGroupEvent::WaitAll:
      return next;
    default:
      break;
    }
  }
  return static_cast<Operation *>(nullptr);
}

/// Walks from `op` (excluded) through the rest of its block and the blocks
/// around it up to the kernel or a loop around `op` (`around`): the
/// retiring wait, or null, where the walk stops at the loop around, at a
/// loop on the way that commits or waits (`ahead`, where given), or at the
/// kernel's end; failure where another construct on the way commits or
/// waits inside.
FailureOr<Operation *> findWaitUpToLoop(Operation *op, KernelOp kernel,
                                        GroupFamily family, Operation *copy,
                                        int64_t &commits, Operation *&around,
                                        Operation **ahead = nullptr) {
  around = nullptr;
  for (Operation *current = op;;) {
    FailureOr<Operation *> wait =
        findRetiringWait(current->getNextNode(), family, copy, commits, ahead);
    if (failed(wait) || *wait || (ahead && *ahead))
      return wait;
    Operation *parent = current->getParentOp();
    if (!parent || parent == kernel.getOperation())
      return static_cast<Operation *>(nullptr);
    if (isLoop(parent)) {
      around = parent;
      return static_cast<Operation *>(nullptr);
    }
    current = parent;
  }
}

/// The retiring wait in an iteration of `loop` (whose body commits or waits
/// at its top level only), `commits` counted before its first: the first
/// iteration (1, 2, ...) with one. Null where none is (the body commits
/// nothing, so no later wait completes more).
Operation *findWaitInIterations(scf::ForOp loop, GroupFamily family,
                                Operation *copy, int64_t commits,
                                int64_t &iteration) {
  Block *body = loop.getBody();
  // wait_group N takes at most N + 1 iterations that commit.
  for (iteration = 1; iteration <= 64; ++iteration) {
    int64_t before = commits;
    FailureOr<Operation *> wait =
        findRetiringWait(&body->front(), family, copy, commits);
    if (failed(wait))
      return nullptr;
    if (*wait)
      return *wait;
    if (commits == before)
      return nullptr;
  }
  return nullptr;
}

/// The wait after which the cp.async `copy` is complete in its thread: on
/// the way from the copy through the rest of its block and the blocks around
/// it within one iteration of the loops around it; else, in a pipeline, in
/// a later iteration of the innermost loop around it, or in an iteration of
/// a loop after it (an scf.for whose body commits and waits at its top
/// level), with the wait after that loop that completes the copy when the
/// loop ends first. None where there is no such wait.
Retirement findRetirement(Operation *copy, KernelOp kernel,
                          GroupFamily family) {
  int64_t commits = 0;
  Operation *around = nullptr, *ahead = nullptr;
  FailureOr<Operation *> wait =
      findWaitUpToLoop(copy, kernel, family, copy, commits, around, &ahead);
  if (failed(wait))
    return {};
  Retirement retirement;
  if (*wait) {
    retirement.wait = *wait;
    return retirement;
  }
  if (ahead) {
    // A loop after the copy: the wait runs in one of its first iterations.
    retirement.loop = cast<scf::ForOp>(ahead);
    retirement.fromLoopStart = true;
  } else if (auto loop = dyn_cast_if_present<scf::ForOp>(around);
             loop && isPipelineLoop(loop, family)) {
    retirement.loop = loop;
  } else {
    return {};
  }
  int64_t iteration = 0;
  retirement.wait =
      findWaitInIterations(retirement.loop, family, copy, commits, iteration);
  if (!retirement.wait)
    return {};
  retirement.iterations = retirement.fromLoopStart ? iteration - 1 : iteration;
  // The loop may end first: after it, the commits counted so far are sure
  // (later ones may not run; fewer commits retire no earlier).
  Operation *unused = nullptr;
  FailureOr<Operation *> afterLoop =
      findWaitUpToLoop(retirement.loop, kernel, family, copy, commits, unused);
  if (failed(afterLoop) || !*afterLoop)
    return {};
  retirement.afterLoop = *afterLoop;
  return retirement;
}

/// In a pipeline whose copy retires in the next iteration of its loop
/// (bounds the same in every thread), a wait of that iteration the issuer
/// surely runs before `second`: one that retires every committed group
/// (wait_group 0, wait_all), earlier in a block that holds `second`, at its
/// top level or in an scf.if the issuer surely takes, where every scf.if
/// from that block up to the loop is taken by every thread alike (its
/// condition on no thread index) or surely by the issuer. The copy ends
/// there for `second` (the Hopper epilogue's deferred stores wait for the
/// previous tile's TMA stores under a condition on the tile).
Operation *findEarlyWait(const Retirement &retirement, Operation *copy,
                         Operation *second, GroupFamily family) {
  scf::ForOp loop = retirement.loop;
  if (!loop || retirement.fromLoopStart || retirement.iterations != 1 ||
      !loop->isProperAncestor(second) ||
      !llvm::all_of(ValueRange{loop.getLowerBound(), loop.getUpperBound(),
                               loop.getStep()},
                    [](Value bound) {
                      return isComputedFrom(bound, /*threadOnly=*/false);
                    }))
    return nullptr;
  auto retiresAll = [&](Operation *op) {
    int64_t pending = 0;
    ptx::AsyncGroupEvent event = getAsyncGroupEvent(op, family, pending);
    return event == ptx::AsyncGroupEvent::WaitAll ||
           (event == ptx::AsyncGroupEvent::WaitGroup && pending == 0);
  };
  // Whether the issuer reaches `block` wherever another thread does.
  auto reachedAlike = [&](Block *block) {
    for (Operation *around = block->getParentOp(); around != loop;
         around = around->getParentOp()) {
      auto ifOp = dyn_cast<scf::IfOp>(around);
      if (!ifOp || !ifOp.getThenRegion().isAncestor(block->getParent()) ||
          !(isComputedFrom(ifOp.getCondition(), /*threadOnly=*/false) ||
            isTakenByIssuer(ifOp, copy)))
        return false;
    }
    return true;
  };
  for (Operation *child = second; child->getParentOp() != loop;
       child = child->getParentOp()) {
    if (!reachedAlike(child->getBlock()))
      continue;
    for (Operation *before = child->getPrevNode(); before;
         before = before->getPrevNode()) {
      if (retiresAll(before))
        return before;
      if (auto ifOp = dyn_cast<scf::IfOp>(before);
          ifOp && isTakenByIssuer(ifOp, copy))
        for (Operation &nested : ifOp.getThenRegion().front())
          if (retiresAll(&nested))
            return &nested;
    }
  }
  return nullptr;
}

/// A construct the model does not cover: the op and why.
struct ModelGap {
  Operation *op = nullptr;
  std::string why;
};

/// The shared accesses of `kernel` in program order, or the first construct
/// beyond the model.
FailureOr<SmallVector<SharedAccess, 0>>
collectAccesses(KernelOp kernel, const MbarrierRings &rings, ModelGap &gap) {
  int64_t numThreads = kernel.getLaunch().getNumThreads();
  SmallVector<SharedAccess, 0> accesses;
  bool failed = false;
  kernel.walk([&](tile::ApplyOp op) {
    if (gap.op || failed || isCTABarrier(op, numThreads))
      return;
    auto setGap = [&](const Twine &why) {
      gap.op = op;
      gap.why = why.str();
    };
    FailureOr<SmallVector<tile::MixedOperand>> operands =
        tile::getMixedOperands(op, op.getArgs(), op.getOperandKinds());
    if (mlir::failed(operands)) {
      failed = true;
      return;
    }
    FailureOr<const ptx::Instruction *> selected =
        tile::selectInstructionForm(op, op.getInstruction(), *operands);
    if (mlir::failed(selected)) {
      failed = true;
      return;
    }
    const ptx::Instruction &instruction = **selected;
    const ptx::FamilyModule &module = ptx::getFamilyModule(instruction);
    Retirement retirement;
    ptx::AsyncGroupEvent event = module.getAsyncGroupEvent
                                     ? module.getAsyncGroupEvent(instruction)
                                     : ptx::AsyncGroupEvent::None;
    if (event != ptx::AsyncGroupEvent::None &&
        event != ptx::AsyncGroupEvent::Copy)
      return; // commits and waits: no access of their own
    if (event == ptx::AsyncGroupEvent::Copy) {
      retirement = findRetirement(op, kernel, &module);
      if (!retirement)
        return setGap(
            "no wait on the way after it is sure to complete its group (the "
            "race proof looks in its own iteration, in later iterations of "
            "the innermost loop around it or of a loop after it, an scf.for "
            "that commits and waits at its body's top level or in scf.ifs "
            "its thread surely takes, and for a pipeline's last accesses "
            "after that loop)");
    }
    if (StringRef why = module.getRaceProofGap
                            ? module.getRaceProofGap(instruction)
                            : StringRef();
        !why.empty())
      return setGap(why);
    for (const tile::MixedOperand &operand : *operands) {
      auto type = operand.value
                      ? dyn_cast<tirx::TensorType>(operand.value.getType())
                      : tirx::TensorType();
      if (!type || !type.isShared() ||
          operand.position >= instruction.operands.size())
        continue;
      const ptx::OperandInfo &info = instruction.operands[operand.position];
      if (info.remoteOperand >= 0)
        return setGap("it accesses the shared memory of another CTA of the "
                      "cluster, which the race proof does not model yet");
      // A warpgroup collective reads a shared matrix through its
      // descriptor (wgmma): each warp of the warpgroup, the whole matrix.
      bool byWarpgroup = instruction.exec == ptx::ExecKind::Warpgroup &&
                         info.descriptor != ptx::DescriptorMatrix::None &&
                         op.getScope() == tile::Scope::warpgroup;
      if (instruction.exec == ptx::ExecKind::Single ||
          (instruction.exec == ptx::ExecKind::Warpgroup && !byWarpgroup))
        return setGap("its shared operand is accessed by one elected thread "
                      "or a warpgroup, which the race proof does not model "
                      "yet");
      SharedAccess access;
      access.op = op;
      access.operandIndex =
          llvm::find(op.getArgs(), operand.value) - op.getArgs().begin();
      access.type = type;
      if (std::optional<std::string> why =
              traceToAllocation(operand.value, access))
        return setGap(*why);
      TileLayout layout = type.getLayoutOrDefault();
      std::optional<int64_t> bytes = getStorageBytes(type);
      if (!layout.isMemoryOnly() || layout.getNumReplicas() != 1 || !bytes)
        return setGap("its shared operand's layout or element type is "
                      "beyond the race proof's model");
      access.storageBytes = *bytes;
      access.writes = info.isDestination || info.isReadWrite;
      access.atomic =
          module.isAtomicAccess && module.isAtomicAccess(instruction);
      // A TMA load writes its image and completes on its mbarrier, which
      // is an atomic access of the barrier.
      const RingEvent *event = rings.lookup(op);
      if (event && event->kind == ptx::MbarrierEvent::Completion) {
        if (operand.position == event->barrierOperand)
          access.atomic = true;
        else
          access.completion = event;
      }
      access.writes |= access.atomic;
      access.collective = instruction.exec != ptx::ExecKind::Thread;
      FailureOr<tile::ExecutionDomain> domain = tile::getExecutionDomain(
          op, op.getScope(), access.collective, byWarpgroup);
      if (mlir::failed(domain)) {
        failed = true;
        return;
      }
      access.domain = *domain;
      access.elementsPerGroup = type.getNumElements() / domain->getNumGroups();
      access.retirement = retirement;
      access.acquires = rings.getWaitsBefore(op);
      auto releaseAfter = [&](Operation *point, int copyEnds) {
        for (const RingLink &link :
             rings.getArrivalsAfter(point, access.collective))
          access.releases.push_back({link, copyEnds});
      };
      if (access.completion)
        access.releases.push_back({{access.completion, Value()}, 0});
      else if (!retirement)
        releaseAfter(op, 0);
      else if (!retirement.loop)
        releaseAfter(retirement.wait, 0);
      else {
        releaseAfter(retirement.wait, -1);
        releaseAfter(retirement.afterLoop, +1);
      }
      access.guardCases = collectGuardCases(kernel, op, op.getPred(),
                                            /*split=*/true, access.disjunction);
      accesses.push_back(std::move(access));
    }
  });
  if (failed)
    return failure();
  return std::move(accesses);
}

//===----------------------------------------------------------------------===//
// Barrier intervals
//===----------------------------------------------------------------------===//

/// Where the CTA barriers are: which ops execute one on every path through
/// them.
class BarrierPaths {
public:
  /// `namedBarriers`: bar.sync ops of part of the block that count as
  /// barriers too (those of one barrier name, RaceProof's NamedBarriers).
  BarrierPaths(int64_t numThreads,
               llvm::SmallPtrSet<Operation *, 4> namedBarriers = {})
      : numThreads(numThreads), namedBarriers(std::move(namedBarriers)) {}

  /// Whether every execution of `op` executes a CTA barrier.
  bool isMustBarrier(Operation *op) {
    auto known = memo.find(op);
    if (known != memo.end())
      return known->second;
    bool must = computeMustBarrier(op);
    memo[op] = must;
    return must;
  }

  /// Whether one iteration of `loop` always executes a barrier.
  bool bodyHasMustBarrier(Operation *loop) {
    return llvm::any_of(loop->getRegions(),
                        [&](Region &region) { return hasMustBarrier(region); });
  }

  /// Whether the ops before (or after) `op` in its block, and likewise for
  /// each op around it up to (not including) `top`, are free of must
  /// barriers; the loops left (or entered) on the way whose bodies have one
  /// are added to `edgeLoops` (the access must be in their last, or first,
  /// iteration).
  bool isFreeUpTo(Operation *op, Operation *top, bool after,
                  SmallVectorImpl<Operation *> &edgeLoops) {
    for (Operation *current = op; current != top;
         current = current->getParentOp()) {
      if (!isFreeBeside(current, after))
        return false;
      Operation *parent = current->getParentOp();
      if (isLoop(parent) && bodyHasMustBarrier(parent))
        edgeLoops.push_back(parent);
    }
    return true;
  }

  /// Whether the ops after (or before) `op` in its block are free of must
  /// barriers.
  bool isFreeBeside(Operation *op, bool after) {
    for (Operation *other = after ? op->getNextNode() : op->getPrevNode();
         other; other = after ? other->getNextNode() : other->getPrevNode())
      if (isMustBarrier(other))
        return false;
    return true;
  }

  /// Whether the ops strictly between `first` and `second` (one block,
  /// first before second) are free of must barriers.
  bool isFreeBetween(Operation *first, Operation *second) {
    for (Operation *other = first->getNextNode(); other && other != second;
         other = other->getNextNode())
      if (isMustBarrier(other))
        return false;
    return true;
  }

private:
  bool hasMustBarrier(Region &region) {
    return !region.empty() && llvm::any_of(region.front(), [&](Operation &op) {
      return isMustBarrier(&op);
    });
  }

  bool computeMustBarrier(Operation *op) {
    if (isCTABarrier(op, numThreads) || namedBarriers.contains(op))
      return true;
    if (auto ifOp = dyn_cast<scf::IfOp>(op))
      return hasMustBarrier(ifOp.getThenRegion()) &&
             hasMustBarrier(ifOp.getElseRegion());
    if (auto switchOp = dyn_cast<scf::IndexSwitchOp>(op))
      return llvm::all_of(op->getRegions(), [&](Region &region) {
        return hasMustBarrier(region);
      });
    if (auto loop = dyn_cast<scf::ForOp>(op)) {
      // Only a loop that surely runs: constant bounds, lb < ub.
      std::optional<int64_t> lower = getConstantIntValue(loop.getLowerBound());
      std::optional<int64_t> upper = getConstantIntValue(loop.getUpperBound());
      return lower && upper && *lower < *upper &&
             hasMustBarrier(loop.getRegion());
    }
    if (auto loop = dyn_cast<scf::WhileOp>(op))
      return hasMustBarrier(loop.getBefore());
    return false;
  }

  int64_t numThreads;
  llvm::SmallPtrSet<Operation *, 4> namedBarriers;
  DenseMap<Operation *, bool> memo;
};

/// Whether `op` is a bar.sync of part of the block (its thread count below
/// the block's): a named barrier that orders the threads naming it.
bool isPartialNamedBarrier(Operation *op, int64_t numThreads) {
  return isBarSync(op) && !isCTABarrier(op, numThreads);
}

/// The named barriers of part of the block, by the value naming them. Two
/// threads that pass one of them in the same place pass the same barrier
/// only where they name the same one: a barrier named by a value (a
/// warpgroup's own) orders two threads where the value is the same in
/// both; one named by a constant, every two threads that pass it (the
/// convergence check proved exactly its count does). Barriers of two names
/// are never counted together (one thread could pass one where the other
/// passes the other); of several constants, none is counted. Names computed
/// alike from thread indices alone (`1 + warpgroup`, traced at each
/// barrier) are one name.
struct NamedBarriers {
  /// The values naming barriers, and each one's bar.sync ops.
  SmallVector<Value> names;
  SmallVector<llvm::SmallPtrSet<Operation *, 4>> byName;
  /// The bar.sync ops named by the kernel's one constant, if one.
  llvm::SmallPtrSet<Operation *, 4> constantNamed;

  void collect(KernelOp kernel, int64_t numThreads) {
    std::optional<int64_t> constant;
    bool severalConstants = false;
    kernel.walk([&](tile::ApplyOp op) {
      if (!isPartialNamedBarrier(op, numThreads))
        return;
      FailureOr<SmallVector<tile::MixedOperand>> operands =
          tile::getMixedOperands(op, op.getArgs(), op.getOperandKinds());
      if (failed(operands) || operands->empty())
        return;
      const tile::MixedOperand &name = operands->front();
      if (auto immediate = dyn_cast_if_present<IntegerAttr>(name.immediate)) {
        constant = constant.value_or(immediate.getInt());
        severalConstants |= *constant != immediate.getInt();
        constantNamed.insert(op);
        return;
      }
      if (!name.value)
        return;
      // A name computed from thread indices alone is the same in a thread
      // wherever it is computed: one traced again is the same name.
      auto same = llvm::find_if(names, [&](Value other) {
        return isComputedFrom(other, /*threadOnly=*/true) &&
               areEquivalentValues(other, name.value);
      });
      if (same == names.end()) {
        names.push_back(name.value);
        byName.emplace_back();
        same = std::prev(names.end());
      }
      byName[same - names.begin()].insert(op);
    });
    if (severalConstants)
      constantNamed.clear();
  }
};

/// One way two accesses can run between the same two barriers: the first
/// execution's iterations against the second's.
struct EpochCase {
  /// Loops both executions are in the same iteration of.
  SmallVector<Operation *> sameIteration;
  /// The loop whose later iteration holds the second execution (null:
  /// the same iterations of every loop around both), and whether it is the
  /// next iteration.
  Operation *advanced = nullptr;
  bool nextIteration = false;
  /// Loops the first execution must be in the last iteration of, and the
  /// second in the first.
  SmallVector<Operation *> lastOfFirst, firstOfSecond;
  /// The second runs while the first, an asynchronous copy, is in flight.
  bool inFlight = false;
  /// A copy's case: the wait that retires it (noted in a witness).
  Operation *retiredAt = nullptr;
  /// A pipeline's copy (copy 0) and its retirement (Retirement): the first
  /// of the case is its wait, `iterations` after the copy's iteration (or
  /// the loop's first), so the loop is never shared; `copyEnds` says whether
  /// the copy is in the loop's last `iterations` (+1: it is, the wait after
  /// the loop retires it; −1: it is not; 0: either), and an in-flight case
  /// bounds the second's iteration to the base + [secondRange.first,
  /// secondRange.second] steps.
  const Retirement *pipeline = nullptr;
  int copyEnds = 0;
  std::optional<std::pair<int64_t, int64_t>> secondRange;

  bool operator==(const EpochCase &other) const {
    return sameIteration == other.sameIteration && advanced == other.advanced &&
           nextIteration == other.nextIteration &&
           lastOfFirst == other.lastOfFirst &&
           firstOfSecond == other.firstOfSecond && inFlight == other.inFlight &&
           retiredAt == other.retiredAt && pipeline == other.pipeline &&
           copyEnds == other.copyEnds && secondRange == other.secondRange;
  }
};

using EpochCases = SmallVector<EpochCase, 2>;

/// The ops around `op` up to the kernel, innermost first (not `op`).
SmallVector<Operation *> getEnclosingOps(Operation *op, KernelOp kernel) {
  SmallVector<Operation *> result;
  for (Operation *parent = op->getParentOp(); parent && parent != kernel;
       parent = parent->getParentOp())
    result.push_back(parent);
  return result;
}

/// The ancestor of `op` (or `op`) whose parent is `parent`.
Operation *getChildOf(Operation *op, Operation *parent) {
  Operation *current = op;
  while (current->getParentOp() != parent)
    current = current->getParentOp();
  return current;
}

/// The epoch cases of `first` running before `second` (in the same
/// iterations, or in a later iteration of a loop around both);
/// `ignoreBarriers`: whatever CTA barriers lie between (a TMA load's write,
/// which no CTA barrier completes).
EpochCases getEpochCases(Operation *first, Operation *second, KernelOp kernel,
                         BarrierPaths &paths, bool ignoreBarriers = false) {
  EpochCases cases;
  SmallVector<Operation *> aroundFirst = getEnclosingOps(first, kernel);
  SmallVector<Operation *> aroundSecond = getEnclosingOps(second, kernel);
  llvm::SmallPtrSet<Operation *, 8> secondSet(aroundSecond.begin(),
                                              aroundSecond.end());
  // Ops around both, innermost first.
  SmallVector<Operation *> common;
  for (Operation *op : aroundFirst)
    if (secondSet.contains(op))
      common.push_back(op);
  SmallVector<Operation *> commonLoops;
  for (Operation *op : common)
    if (isLoop(op))
      commonLoops.push_back(op);

  // The same iterations of every common loop.
  EpochCase sameIterations;
  sameIterations.sameIteration = commonLoops;
  Operation *meet = common.empty() ? kernel.getOperation() : common.front();
  if (first == second) {
    cases.push_back(sameIterations);
  } else {
    Operation *firstChild = getChildOf(first, meet);
    Operation *secondChild = getChildOf(second, meet);
    if (firstChild->getBlock() != secondChild->getBlock()) {
      // Different regions of one op (an if's branches): different threads
      // may take each.
      cases.push_back(sameIterations);
    } else if (firstChild->isBeforeInBlock(secondChild)) {
      EpochCase same = sameIterations;
      if (ignoreBarriers ||
          (paths.isFreeUpTo(first, firstChild, /*after=*/true,
                            same.lastOfFirst) &&
           paths.isFreeBetween(firstChild, secondChild) &&
           paths.isFreeUpTo(second, secondChild, /*after=*/false,
                            same.firstOfSecond)))
        cases.push_back(std::move(same));
    }
  }

  // A later iteration of each common loop (the back edge).
  for (auto [index, loop] : llvm::enumerate(commonLoops)) {
    EpochCase later;
    later.sameIteration.assign(commonLoops.begin() + index + 1,
                               commonLoops.end());
    later.advanced = loop;
    later.nextIteration = !ignoreBarriers && paths.bodyHasMustBarrier(loop);
    Operation *firstChild = getChildOf(first, loop);
    Operation *secondChild = getChildOf(second, loop);
    if (ignoreBarriers ||
        (paths.isFreeUpTo(first, firstChild, /*after=*/true,
                          later.lastOfFirst) &&
         paths.isFreeBeside(firstChild, /*after=*/true) &&
         paths.isFreeUpTo(second, secondChild, /*after=*/false,
                          later.firstOfSecond) &&
         paths.isFreeBeside(secondChild, /*after=*/false)))
      cases.push_back(std::move(later));
  }
  return cases;
}

//===----------------------------------------------------------------------===//
// The polyhedra
//===----------------------------------------------------------------------===//

/// An order an mbarrier ring may give two accesses: the arrival (or TMA
/// completion) after one of them precedes the wait before the other where
/// both are on one barrier and the wait's phase is not earlier.
struct RingOrder {
  /// The access the arrival follows, and its copy (0 or 1).
  const SharedAccess *released;
  unsigned releaseCopy;
  const RingRelease *release;
  const RingLink *acquire;
};

/// A ring order on the way to a witness: where it applies, its forms.
struct RingOrderCase {
  const RingOrder *order;
  bool applies;
  RingForms arrival, wait;
  /// The copy the arrival was translated in.
  unsigned arrivalCopy;
};

class RaceProof {
public:
  RaceProof(KernelOp kernel, const MbarrierRings &rings, bool strict)
      : kernel(kernel), rings(rings), strict(strict) {
    for (auto [dim, extent] : llvm::enumerate(kernel.getLaunch().getBlock()))
      block[dim] = extent;
    numThreads = block[0] * block[1] * block[2];
    // paths[0]: CTA barriers and those named by the one constant; paths[1 +
    // j]: CTA barriers and those named by named.names[j].
    named.collect(kernel, numThreads);
    paths.push_back(
        std::make_unique<BarrierPaths>(numThreads, named.constantNamed));
    for (const auto &ops : named.byName)
      paths.push_back(std::make_unique<BarrierPaths>(numThreads, ops));
    kernel.walk<WalkOrder::PreOrder>(
        [&](Operation *op) { programOrder[op] = programOrder.size(); });
    // A barrier whose condition (or loop) reads memory: the proof treats it
    // as one that may be skipped, unrelated to the kernel's other
    // conditions, so what it finds may not be a real execution.
    kernel.walk([&](Operation *op) {
      if (!memoryDecided && isCTABarrier(op, numThreads))
        memoryDecided = getConstructDecidedByMemory(op, kernel);
    });
  }

  LogicalResult run(ArrayRef<SharedAccess> accesses);
  /// Whether a race found is reported as a warning (see memoryDecided).
  bool isUncertain() const { return memoryDecided && !strict; }

private:
  /// Checks one ordered pair; a diagnostic where it races.
  /// `apart`: the two are in two branches of one condition, in no common
  /// loop (areInOtherBranches), so one unordered case covers every
  /// execution of both.
  LogicalResult checkPair(const SharedAccess &first, const SharedAccess &second,
                          bool apart);
  /// checkPair's question, with each access's bytes exactly, or (`coarse`)
  /// as any byte of its operand's span: then `mayMeet` says whether two
  /// executors may meet one byte unordered, and nothing is reported.
  LogicalResult checkPairModel(const SharedAccess &first,
                               const SharedAccess &second, bool apart,
                               bool coarse, bool &mayMeet);
  /// Adds `access`'s variables to the current copy of `proof`.
  /// `withWarps`: the other access is a warp collective, so this one's
  /// warp is needed too. `withoutSwizzle`: both accesses swizzle alike
  /// (isSwizzledAlike), so their bytes meet where their unswizzled offsets
  /// do.
  FailureOr<AccessForms> model(AccessProof &proof, const SharedAccess &access,
                               ArrayRef<GuardLiteral> guard,
                               SmallVectorImpl<UnusedGuard> &unused,
                               bool withWarps, bool withoutSwizzle,
                               bool coarse = false);
  /// The epoch cases of `first` before `second`; for an asynchronous copy,
  /// those of its retiring wait and those where it is in flight.
  EpochCases getCopyEpochCases(const SharedAccess &first,
                               const SharedAccess &second, BarrierPaths &paths);
  /// Requires the barrier name `name` to be the same value in copies 0 and
  /// 1 (`relation` 0), smaller in copy 0 (−1) or larger (+1); failure where
  /// the proof cannot translate it.
  LogicalResult relateNames(AccessProof &proof, Value name, int relation);
  /// Adds an epoch case's relations between the copies.
  void relate(AccessProof &proof, const EpochCase &epoch);
  /// The cases where `order` does not hold, each narrowing `proof`: it
  /// does not apply (a pipeline's arrival in the other iterations), or the
  /// wait is on another barrier, for an earlier phase, or the thread does
  /// not take the arrival; each feasible one is handed to `visit` until it
  /// returns true (the result).
  using CaseVisitor = function_ref<bool(AccessProof &, const RingOrderCase &)>;
  bool forEachUnorderedCase(AccessProof &proof, const RingOrder &order,
                            CaseVisitor visit,
                            SmallVectorImpl<UnusedGuard> &unused);
  /// The cases where none of `orders` from `index` on holds, each handed to
  /// `leaf` with the cases taken, until one returns a result.
  using UnorderedLeaf = function_ref<std::optional<LogicalResult>(
      AccessProof &, ArrayRef<RingOrderCase>)>;
  std::optional<LogicalResult>
  findUnordered(AccessProof &proof, ArrayRef<RingOrder> orders, size_t index,
                SmallVectorImpl<RingOrderCase> &path, UnorderedLeaf leaf,
                SmallVectorImpl<UnusedGuard> &unused);
  /// The arrival's barrier and phase where it runs (for a pipeline's
  /// retiring wait, the iteration `iterations` after the access's, in copy
  /// 2 + releaseCopy); `arrivalCopy` is set to the copy.
  FailureOr<RingForms> translateArrival(AccessProof &proof,
                                        const RingOrder &order,
                                        unsigned &arrivalCopy);
  /// The access at the point, recomputed: its byte and thread, or nothing
  /// where the point does not reproduce.
  struct Concrete {
    int64_t byte, thread;
    bool guardsHold;
  };
  std::optional<Concrete> recompute(AccessProof &proof, unsigned copy,
                                    const SharedAccess &access,
                                    const AccessForms &forms,
                                    const Point &point);
  LogicalResult report(AccessProof &proof, const Point &point,
                       const SharedAccess &first, const AccessForms &firstForms,
                       const SharedAccess &second,
                       const AccessForms &secondForms, const EpochCase &epoch,
                       ArrayRef<UnusedGuard> unused,
                       ArrayRef<RingOrderCase> orders,
                       ArrayRef<std::pair<Operation *, Value>> unshared);
  /// Whether the proof can relate a barrier name's value in two threads.
  bool canRelateNames(Value name);
  /// Whether no byte of `access` is touched by two of its executors (two
  /// threads; warps, for a collective) in one execution of its op: its
  /// elements enumerated, where its regions' offsets are the same in every
  /// thread. An access against itself in one iteration then needs no
  /// question (a staging buffer's swizzled layout costs the solver much).
  bool isExecutedDisjointly(const SharedAccess &access);
  std::string describeExecutor(const SharedAccess &access, int64_t thread);
  std::string describeIterations(AccessProof &proof, unsigned copy,
                                 const SharedAccess &access,
                                 const Point &point);

  KernelOp kernel;
  const MbarrierRings &rings;
  NamedBarriers named;
  SmallVector<std::unique_ptr<BarrierPaths>> paths;
  DenseMap<Value, bool> relatableNames;
  DenseMap<std::pair<Operation *, unsigned>, bool> disjointAccesses;
  int64_t block[3] = {1, 1, 1};
  int64_t numThreads;
  bool strict;
  Operation *memoryDecided = nullptr;
  /// Each op's position in the kernel's text (a pre-order walk).
  DenseMap<Operation *, unsigned> programOrder;
};

/// The swizzled offset of an affine offset x ≥ 0 (Swizzle.h), exactly:
/// x's bits split by floor divisions into low (p bits), the group A (s bits,
/// one at a time), mid (a − s bits), the group B (s bits) and the rest; the
/// XOR of two bits is a + b − 2c with c = a ∧ b (c ≤ a, c ≤ b,
/// c ≥ a + b − 1). Inner: A becomes A ^ B; outer: B becomes A ^ B.
static FailureOr<Linear> applySwizzle(AccessProof &proof, const Linear &x,
                                      const Swizzle &swizzle) {
  int64_t p = swizzle.getPerElement(), s = swizzle.getSwizzleLen(),
          a = swizzle.getAtomLen();
  if (s == 0)
    return x;
  // Peels `bits` low bits off `rest` (one division by 2^bits).
  auto peel = [&](Linear &rest, int64_t bits) -> FailureOr<Linear> {
    if (bits == 0)
      return constant(0);
    FailureOr<Linear> quotient = proof.floorDivide(rest, int64_t(1) << bits);
    if (failed(quotient))
      return failure();
    FailureOr<Linear> low = combine(rest, -(int64_t(1) << bits), *quotient);
    rest = *quotient;
    return low;
  };
  Linear rest = x;
  if (failed(peel(rest, p)))
    return failure();
  SmallVector<Linear, 3> groupA, groupB;
  for (int64_t bit = 0; bit < s; ++bit) {
    FailureOr<Linear> value = peel(rest, 1);
    if (failed(value))
      return failure();
    groupA.push_back(*value);
  }
  if (failed(peel(rest, a - s)))
    return failure();
  for (int64_t bit = 0; bit < s; ++bit) {
    FailureOr<Linear> value = peel(rest, 1);
    if (failed(value))
      return failure();
    groupB.push_back(*value);
  }
  // y = x + Σ (xor_i − changed_i)·2^(shift + i), the changed group's bits
  // replaced by the XOR.
  int64_t shift = swizzle.isSwizzleInner() ? p : p + a;
  Linear result = x;
  for (int64_t bit = 0; bit < s; ++bit) {
    const Linear &bitA = groupA[bit], &bitB = groupB[bit];
    Linear both = proof.addBoundedVar("xor carry", 0, 1);
    proof.require(*combine(bitA, -1, both));
    proof.require(*combine(bitB, -1, both));
    proof.require(
        *combine(*combine(*combine(both, -1, bitA), -1, bitB), 1, constant(1)));
    // xor − changed = (a + b − 2c) − changed: the other bit minus 2c.
    const Linear &other = swizzle.isSwizzleInner() ? bitB : bitA;
    FailureOr<Linear> delta = combine(other, -2, both);
    if (failed(delta))
      return failure();
    FailureOr<Linear> next =
        combine(result, int64_t(1) << (shift + bit), *delta);
    if (failed(next))
      return failure();
    result = *next;
  }
  return result;
}

FailureOr<AccessForms> RaceProof::model(AccessProof &proof,
                                        const SharedAccess &access,
                                        ArrayRef<GuardLiteral> guard,
                                        SmallVectorImpl<UnusedGuard> &unused,
                                        bool withWarps, bool withoutSwizzle,
                                        bool coarse) {
  proof.addGuardCase(guard, unused);
  // The cases of the scf.index_switch ops around the access: arg = value
  // (the default case would be a disjunction of the others' negations: left
  // out, and said so where a witness falls in another case).
  for (Operation *around : getEnclosingOps(access.op, kernel)) {
    auto dispatch = dyn_cast<scf::IndexSwitchOp>(around);
    if (!dispatch)
      continue;
    Region *region = getChildOf(access.op, dispatch)->getParentRegion();
    std::optional<int64_t> value;
    for (auto [index, caseValue] : llvm::enumerate(dispatch.getCases()))
      if (region == &dispatch.getCaseRegions()[index])
        value = caseValue;
    FailureOr<Linear> selector =
        value ? proof.translate(dispatch.getArg()) : FailureOr<Linear>();
    if (value && succeeded(selector))
      proof.requireZero(*combine(*selector, -1, constant(*value)));
    else
      unused.push_back({dispatch, value ? kUnusedSelector : kDefaultCase});
  }
  AccessForms forms;
  // Σ region offsets·strides + `within` bytes.
  auto addRegions = [&](Linear within) -> FailureOr<AccessForms> {
    FailureOr<Linear> byte = within;
    for (RegionOp region : access.regions) {
      int64_t sourceBytes =
          getStorageBytes(region.getSource().getType()).value_or(1);
      for (auto [value, elements] :
           llvm::zip(region.getOffsets(), region.getDynamicOffsetStrides())) {
        FailureOr<Linear> regionOffset = proof.translate(value);
        if (failed(regionOffset) || failed(byte))
          return failure();
        byte = combine(*byte, elements * sourceBytes, *regionOffset);
      }
    }
    if (failed(byte))
      return failure();
    forms.byte = *byte;
    return forms;
  };
  // The flat thread index: x + X·y + X·Y·z.
  forms.thread = constant(0);
  int64_t stride = 1;
  for (unsigned dim = 0; dim < 3; ++dim) {
    if (block[dim] == 1)
      continue;
    FailureOr<Linear> index = proof.translateThreadIndex(static_cast<Dim>(dim));
    if (failed(index))
      return failure();
    forms.thread = *combine(forms.thread, stride, *index);
    stride *= block[dim];
  }
  // Every variable makes each question to the solver dearer: only those
  // that are not determined by others are added.
  int64_t numWarps = llvm::divideCeil(numThreads, 32);
  if (access.collective || withWarps) {
    FailureOr<Linear> warp = proof.floorDivide(forms.thread, 32);
    if (failed(warp))
      return failure();
    forms.warp = *warp;
  }
  // The executing unit (thread, warp, warpgroup or CTA) and its group
  // coordinate: accessor = unit·q + g.
  int64_t unit = 1;
  for (int64_t extent : access.domain.groupShape)
    unit *= extent;
  int64_t accessors = access.collective ? numWarps : numThreads;
  Linear accessor = access.collective ? forms.warp : forms.thread;
  Linear group = constant(0);
  if (unit == accessors) {
    group = accessor;
  } else if (unit > 1) {
    // g = accessor mod unit.
    FailureOr<Linear> unitIndex = proof.floorDivide(accessor, unit);
    if (failed(unitIndex))
      return failure();
    group = *combine(accessor, -unit, *unitIndex);
  }
  if (coarse) {
    // Any byte of the operand's span (its elements and their owners left
    // out): a superset of its bytes, for a first, cheap question.
    TileLayout layout = access.type.getLayoutOrDefault();
    forms.element = forms.byteInElement = constant(0);
    auto [low, high] = access.coarseSpan.value_or(
        std::make_pair(at(layout.getOffset(), Axis::m) * access.storageBytes,
                       layout.span(Axis::m) * access.storageBytes - 1));
    return addRegions(proof.addBoundedVar("byte", low, high));
  }
  // The element: f = g·perGroup + e.
  forms.element = *combine(constant(0), access.elementsPerGroup, group);
  if (access.elementsPerGroup > 1)
    forms.element = *combine(
        forms.element, 1,
        proof.addBoundedVar("element", 0, access.elementsPerGroup - 1));
  // Its memory offset: f = Σ d_j·P_j, offset = m0 + Σ d_j·stride_j, over
  // the layout's iters with adjacent ones that continue each other merged.
  TileLayout layout = access.type.getLayoutOrDefault();
  SmallVector<Iter> iters; // fastest first
  for (const Iter &iter : llvm::reverse(layout.getShard())) {
    if (iter.extent == 1)
      continue;
    if (!iters.empty() && iters.back().axis == iter.axis &&
        iter.stride == iters.back().stride * iters.back().extent) {
      iters.back().extent *= iter.extent;
      continue;
    }
    iters.push_back(iter);
  }
  Linear offset = constant(at(layout.getOffset(), Axis::m));
  if (iters.size() == 1) {
    // f itself is the one digit (f < the layout's size).
    if (iters.front().axis == Axis::m)
      offset = *combine(offset, iters.front().stride, forms.element);
  } else {
    // d_0 = f mod e_0, d_1 = (f / e_0) mod e_1, ...: the last digit is the
    // last quotient (f is below the layout's size).
    Linear rest = forms.element;
    for (auto [index, iter] : llvm::enumerate(iters)) {
      Linear digit = rest;
      if (index + 1 < iters.size()) {
        FailureOr<Linear> quotient = proof.floorDivide(rest, iter.extent);
        if (failed(quotient))
          return failure();
        digit = *combine(rest, -iter.extent, *quotient);
        rest = *quotient;
      }
      if (iter.axis != Axis::m)
        continue;
      FailureOr<Linear> nextOffset = combine(offset, iter.stride, digit);
      if (failed(nextOffset))
        return failure();
      offset = *nextOffset;
    }
  }
  if (const std::optional<Swizzle> &swizzle = layout.getSwizzle();
      swizzle && !withoutSwizzle) {
    FailureOr<Linear> swizzled = applySwizzle(proof, offset, *swizzle);
    if (failed(swizzled))
      return failure();
    offset = *swizzled;
  }
  // The byte: Σ region offsets·strides + offset·bytes + u.
  forms.byteInElement =
      access.storageBytes > 1
          ? proof.addBoundedVar("byte", 0, access.storageBytes - 1)
          : constant(0);
  FailureOr<Linear> within =
      combine(forms.byteInElement, access.storageBytes, offset);
  if (failed(within))
    return failure();
  return addRegions(*within);
}

void RaceProof::relate(AccessProof &proof, const EpochCase &epoch) {
  // Translated in a copy; a loop whose bounds the proof cannot follow keeps
  // its iterations unrelated (more executions, never fewer).
  auto boundIn = [&](unsigned copy, Value value) -> FailureOr<Linear> {
    proof.setCopy(copy);
    return proof.translate(value);
  };
  // The loop's index in a copy, moved by `steps` of its step.
  auto indexIn = [&](unsigned copy, Operation *op,
                     int64_t steps = 0) -> FailureOr<Linear> {
    auto loop = dyn_cast<scf::ForOp>(op);
    if (!loop)
      return failure();
    FailureOr<Linear> index = boundIn(copy, loop.getInductionVar());
    if (failed(index) || steps == 0)
      return index;
    FailureOr<Linear> step = boundIn(copy, loop.getStep());
    if (failed(step))
      return failure();
    return combine(*index, steps, *step);
  };
  // A pipeline's base iteration moved by `steps`: the copy's, or the
  // loop's first.
  auto pipelineIndex = [&](int64_t steps) -> FailureOr<Linear> {
    scf::ForOp loop = epoch.pipeline->loop;
    if (!epoch.pipeline->fromLoopStart)
      return indexIn(0, loop, steps);
    FailureOr<Linear> lower = boundIn(0, loop.getLowerBound());
    FailureOr<Linear> step = boundIn(0, loop.getStep());
    if (failed(lower) || failed(step))
      return failure();
    return combine(*lower, steps, *step);
  };
  // The first's iteration: a pipeline's wait runs `iterations` after the
  // base.
  auto firstIndex = [&](Operation *loop) {
    return epoch.pipeline && loop == epoch.pipeline->loop
               ? pipelineIndex(epoch.pipeline->iterations)
               : indexIn(0, loop);
  };
  if (Operation *loop = epoch.advanced) {
    FailureOr<Linear> early = firstIndex(loop);
    FailureOr<Linear> late = indexIn(1, loop);
    FailureOr<Linear> step = isa<scf::ForOp>(loop)
                                 ? boundIn(0, cast<scf::ForOp>(loop).getStep())
                                 : FailureOr<Linear>();
    if (succeeded(early) && succeeded(late) && succeeded(step)) {
      // late − early − step = 0 (the next iteration) or ≥ 0.
      FailureOr<Linear> gap = combine(*late, -1, *early);
      if (succeeded(gap))
        gap = combine(*gap, -1, *step);
      if (succeeded(gap)) {
        if (epoch.nextIteration)
          proof.requireZero(*gap);
        else
          proof.require(*gap);
      }
    }
  }
  for (Operation *op : epoch.lastOfFirst) {
    auto loop = dyn_cast<scf::ForOp>(op);
    if (!loop)
      continue;
    FailureOr<Linear> beyond = firstIndex(loop);
    FailureOr<Linear> step = boundIn(0, loop.getStep());
    FailureOr<Linear> upper = boundIn(0, loop.getUpperBound());
    if (failed(beyond) || failed(step) || failed(upper))
      continue;
    // index + step ≥ ub.
    beyond = combine(*beyond, 1, *step);
    if (succeeded(beyond))
      beyond = combine(*beyond, -1, *upper);
    if (succeeded(beyond))
      proof.require(*beyond);
  }
  for (Operation *op : epoch.firstOfSecond) {
    auto loop = dyn_cast<scf::ForOp>(op);
    if (!loop)
      continue;
    FailureOr<Linear> index = indexIn(1, loop);
    FailureOr<Linear> lower = boundIn(1, loop.getLowerBound());
    if (succeeded(index) && succeeded(lower))
      if (FailureOr<Linear> start = combine(*index, -1, *lower);
          succeeded(start))
        proof.requireZero(*start);
  }
  if (!epoch.pipeline)
    return;
  scf::ForOp pipeline = epoch.pipeline->loop;
  FailureOr<Linear> waitIndex = firstIndex(pipeline);
  if (failed(waitIndex))
    return;
  // The wait's iteration in the second's: the same one.
  if (llvm::is_contained(epoch.sameIteration, pipeline.getOperation()))
    if (FailureOr<Linear> late = indexIn(1, pipeline); succeeded(late))
      if (FailureOr<Linear> gap = combine(*late, -1, *waitIndex);
          succeeded(gap))
        proof.requireZero(*gap);
  // The copy in the loop's last `iterations` or not: its iteration +
  // iterations·step ≥ ub, or < ub.
  if (epoch.copyEnds != 0)
    if (FailureOr<Linear> upper = boundIn(0, pipeline.getUpperBound());
        succeeded(upper))
      if (FailureOr<Linear> beyond = combine(*waitIndex, -1, *upper);
          succeeded(beyond))
        proof.require(epoch.copyEnds > 0 ? *beyond
                                         : *combine(constant(-1), -1, *beyond));
  // An in-flight second: copy + low·step ≤ second ≤ copy + high·step.
  if (epoch.secondRange) {
    FailureOr<Linear> low = pipelineIndex(epoch.secondRange->first);
    FailureOr<Linear> high = pipelineIndex(epoch.secondRange->second);
    FailureOr<Linear> late = indexIn(1, pipeline);
    if (succeeded(low) && succeeded(high) && succeeded(late)) {
      proof.require(*combine(*late, -1, *low));
      proof.require(*combine(*high, -1, *late));
    }
  }
}

std::optional<RaceProof::Concrete>
RaceProof::recompute(AccessProof &proof, unsigned copy,
                     const SharedAccess &access, const AccessForms &forms,
                     const Point &point) {
  ConcreteEvaluator evaluator(kernel);
  proof.setCopy(copy);
  proof.bindLeaves(evaluator, point);
  if (!evaluator.checkDomain().empty())
    return std::nullopt;
  auto value = [&](const Linear &form) -> std::optional<int64_t> {
    DynamicAPInt result = AccessProof::evaluate(form, point);
    if (result > DynamicAPInt(std::numeric_limits<int64_t>::max()) ||
        result < DynamicAPInt(std::numeric_limits<int64_t>::min()))
      return std::nullopt;
    return static_cast<int64_t>(result);
  };
  std::optional<int64_t> thread = value(forms.thread);
  std::optional<int64_t> element = value(forms.element);
  std::optional<int64_t> byteInElement = value(forms.byteInElement);
  if (!thread || !element || !byteInElement || *element < 0 ||
      *element >= access.type.getNumElements())
    return std::nullopt;
  // The thread (warp) that executes the element's group coordinate.
  bool executes = false;
  int64_t accessor = access.getExecutor(*thread);
  access.domain.forEachThread(access.getGroupOf(*element), [&](int64_t tid) {
    executes |= tid == accessor;
    return !executes;
  });
  if (!executes)
    return std::nullopt;
  // Its byte, as the lowering addresses it.
  int64_t byte = at(access.type.getLayoutOrDefault().apply(*element), Axis::m) *
                     access.storageBytes +
                 *byteInElement;
  for (RegionOp region : access.regions) {
    int64_t sourceBytes =
        getStorageBytes(region.getSource().getType()).value_or(1);
    for (auto [offset, elements] :
         llvm::zip(region.getOffsets(), region.getDynamicOffsetStrides())) {
      std::optional<int64_t> at = evaluator.evaluateSigned(offset);
      if (!at)
        return std::nullopt;
      byte += *at * elements * sourceBytes;
    }
  }
  tile::ApplyOp op = access.op;
  std::optional<bool> holds = guardsHold(evaluator, kernel, op, op.getPred());
  // And the cases of the switches around it.
  for (Operation *around : getEnclosingOps(op, kernel)) {
    auto dispatch = dyn_cast<scf::IndexSwitchOp>(around);
    if (!dispatch || !holds || !*holds)
      continue;
    std::optional<int64_t> selector =
        evaluator.evaluateSigned(dispatch.getArg());
    Region *region = getChildOf(op, dispatch)->getParentRegion();
    Region *taken = &dispatch.getDefaultRegion();
    for (auto [index, caseValue] : llvm::enumerate(dispatch.getCases()))
      if (selector && caseValue == *selector)
        taken = &dispatch.getCaseRegions()[index];
    holds = selector && taken == region;
  }
  return Concrete{byte, *thread, holds.value_or(false)};
}

std::string RaceProof::describeExecutor(const SharedAccess &access,
                                        int64_t thread) {
  if (access.collective)
    return "warp " + std::to_string(thread / 32);
  return describeBlockThread(thread, kernel.getLaunch().getBlock());
}

std::string RaceProof::describeIterations(AccessProof &proof, unsigned copy,
                                          const SharedAccess &access,
                                          const Point &point) {
  std::string text;
  llvm::raw_string_ostream os(text);
  llvm::ListSeparator separator;
  proof.setCopy(copy);
  SmallVector<Operation *> around = getEnclosingOps(access.op, kernel);
  unsigned depth = llvm::count_if(around, llvm::IsaPred<scf::ForOp>);
  for (Operation *op : around) {
    auto loop = dyn_cast<scf::ForOp>(op);
    if (!loop)
      continue;
    --depth;
    FailureOr<Linear> index = proof.translate(loop.getInductionVar());
    if (failed(index) || index->coeffs.size() > point.size())
      continue;
    os << separator << "loop #" << depth
       << "'s index = " << AccessProof::evaluate(*index, point);
  }
  return text;
}

/// Why a ring order does not hold at a witness: the wait is on another
/// barrier or for an earlier phase, or the thread does not take the
/// conditional arrival.
static void noteRingOrder(InFlightDiagnostic &diag, const Point &point,
                          const RingOrderCase &order, int64_t thread) {
  const SharedAccess &released = *order.order->released;
  auto value = [&](const Linear &form) {
    return toString(AccessProof::evaluate(form, point));
  };
  std::string arrivalBarrier = value(order.arrival.barrier),
              arrivalPhase = value(order.arrival.phase),
              waitBarrier = value(order.wait.barrier),
              waitPhase = value(order.wait.phase);
  const RingEvent &arrival = *order.order->release->link.event;
  std::string what = arrival.kind == ptx::MbarrierEvent::Completion
                         ? std::string("the TMA load's completion")
                         : "the arrival after the " + released.getKind().str();
  Diagnostic &note = diag.attachNote(order.order->acquire->event->op->getLoc());
  note << "this wait is for phase " << waitPhase
       << (AccessProof::evaluate(order.wait.phase, point) < 0
               ? " (the one before the first: it returns at once)"
               : "")
       << " of mbarrier #" << waitBarrier << " of the allocation at "
       << arrival.barriers->getLoc() << "; " << what << " at "
       << arrival.op->getLoc();
  if (arrivalBarrier != waitBarrier)
    note << " is on mbarrier #" << arrivalBarrier;
  else if (AccessProof::evaluate(order.arrival.phase, point) >
           AccessProof::evaluate(order.wait.phase, point))
    note << " is in its later phase " << arrivalPhase;
  else
    note << " is not run by thread " << thread << " (it is under a condition)";
}

LogicalResult
RaceProof::report(AccessProof &proof, const Point &point,
                  const SharedAccess &first, const AccessForms &firstForms,
                  const SharedAccess &second, const AccessForms &secondForms,
                  const EpochCase &epoch, ArrayRef<UnusedGuard> unused,
                  ArrayRef<RingOrderCase> orders,
                  ArrayRef<std::pair<Operation *, Value>> unshared) {
  std::optional<Concrete> early = recompute(proof, 0, first, firstForms, point);
  std::optional<Concrete> late =
      recompute(proof, 1, second, secondForms, point);
  bool real = early && late && early->byte == late->byte &&
              (first.collective || second.collective
                   ? early->thread / 32 != late->thread / 32
                   : early->thread != late->thread);
  bool guarded = real && early->guardsHold && late->guardsHold;
  if (!real || (!guarded && unused.empty()))
    // check-diagnostics: internal, a witness that does not reproduce is an
    // error of the proof
    return second.op->emitOpError()
           << "cannot prove the shared memory free of data races (the proof's "
              "witness does not reproduce when evaluated: an error in TirX's "
              "race proof, please report it)";
  int64_t byte = early->byte;
  bool self = &first == &second;
  bool uncertain = isUncertain();
  InFlightDiagnostic diag =
      uncertain ? second.op->emitWarning() : second.op->emitOpError();
  if (uncertain)
    diag << "the kernel's shared memory is not proven free of data races: "
            "a possible ";
  else if (!guarded)
    diag << "cannot prove the shared memory free of data races: without the "
            "parts of the guards the proof cannot use, ";
  diag << "data race on byte " << byte << " of the shared tensor allocated at "
       << first.allocation->getLoc() << ": this " << second.getKind() << " by "
       << describeExecutor(second, late->thread) << " and "
       << (self ? "its " : "the ") << first.getKind() << " by "
       << describeExecutor(first, early->thread)
       << (self ? "" : " at the op noted below");
  if (first.completion && !self)
    diag << " can run unordered (a TMA load's write is complete only at its "
            "mbarrier's phase, whatever CTA barriers follow it)";
  else if (named.names.empty() && named.constantNamed.empty())
    diag << " can run with no CTA barrier between them";
  else
    diag << " can run with no CTA barrier, nor a named barrier both threads "
            "pass, between them";
  if (!orders.empty())
    diag << " and no mbarrier phase orders them";
  std::string lateIterations = describeIterations(proof, 1, second, point);
  std::string earlyIterations = describeIterations(proof, 0, first, point);
  if (!lateIterations.empty())
    diag << "; here " << lateIterations;
  if (!earlyIterations.empty())
    diag << (lateIterations.empty() ? "; " : ", ") << "there "
         << earlyIterations;
  // The values every thread of the block shares.
  if (std::string shared = proof.describeShared(point); !shared.empty())
    diag << "; with " << shared;
  if (!self)
    diag.attachNote(first.op->getLoc())
        << "the other access: the " << first.getKind() << " of byte " << byte
        << " by " << describeExecutor(first, early->thread);
  if (Operation *loop = epoch.advanced) {
    Diagnostic &note = diag.attachNote(loop->getLoc());
    if (self)
      note << "the op runs again in "
           << (epoch.nextIteration ? "the next" : "a later")
           << " iteration of this loop";
    else
      note << "the " << second.getKind() << " runs in "
           << (epoch.nextIteration ? "the iteration of this loop after"
                                   : "a later iteration of this loop than")
           << " the " << first.getKind() << "'s";
    note << ", and no CTA barrier lies on the way from one to the other";
  }
  if (Operation *wait = epoch.retiredAt) {
    Diagnostic &note = diag.attachNote(wait->getLoc());
    if (epoch.inFlight)
      note << "the copy is still in flight at the " << second.getKind()
           << ": its " << first.getKind()
           << " is complete only after this wait";
    else
      note << "the copy's " << first.getKind()
           << " is complete in its thread only after this wait";
    if (const Retirement *pipeline = epoch.pipeline) {
      int64_t iterations = pipeline->iterations;
      if (epoch.copyEnds > 0 && pipeline->fromLoopStart)
        note << ", after the loop (it runs fewer than " << iterations + 1
             << " iterations)";
      else if (epoch.copyEnds > 0 && iterations == 1)
        note << ", after the loop (the copy runs in its last iteration)";
      else if (epoch.copyEnds > 0)
        note << ", after the loop (the copy runs in one of its last "
             << iterations << " iterations)";
      else if (pipeline->fromLoopStart)
        note << ", in the loop's iteration #" << iterations
             << " (counting from 0)";
      else
        note << ", " << iterations << " iteration"
             << (iterations > 1 ? "s" : "") << " of the loop after the copy's";
    }
    if (!epoch.inFlight)
      note << ", and no CTA barrier follows it before the " << second.getKind();
  }
  for (auto [barrier, name] : unshared) {
    proof.setCopy(1);
    FailureOr<Linear> here = proof.translate(name);
    proof.setCopy(0);
    FailureOr<Linear> there = proof.translate(name);
    if (failed(here) || failed(there))
      continue;
    diag.attachNote(barrier->getLoc())
        << "this named barrier orders only threads that name the same "
           "barrier: the "
        << second.getKind() << "'s thread names barrier "
        << toString(AccessProof::evaluate(*here, point)) << ", the "
        << first.getKind() << "'s "
        << toString(AccessProof::evaluate(*there, point));
  }
  for (const RingOrderCase &order : orders)
    if (order.applies)
      noteRingOrder(diag, point, order,
                    order.order->releaseCopy == 0 ? early->thread
                                                  : late->thread);
  diag.attachNote(first.allocation->getLoc())
      << "the shared tensor is allocated here";
  if (uncertain)
    diag.attachNote(memoryDecided->getLoc())
        << "a CTA barrier runs under this construct, which decides on a "
           "value read from memory: the race proof does not relate it to the "
           "kernel's other conditions, so the witness may not be a real "
           "execution";
  if (!guarded)
    noteUnusedGuards(diag, unused,
                     "splitting the guard at its disjunctions would make "
                     "more than " +
                         std::to_string(kMaxGuardCases) + " cases");
  if (uncertain) {
    // A warning: the kernel is not refused, and the proof stops here.
    diag.report();
    return failure();
  }
  return diag;
}

/// Whether two accesses swizzle alike: one swizzle, one element size, and
/// regions that move their bases by whole periods. A swizzle is a bijection
/// that commutes with whole periods (Swizzle.h), so their bytes then meet
/// exactly where their unswizzled offsets do, and the XOR need not be
/// modelled.
static bool isSwizzledAlike(KernelOp kernel, const SharedAccess &first,
                            const SharedAccess &second) {
  std::optional<Swizzle> swizzle = first.type.getLayoutOrDefault().getSwizzle();
  if (!swizzle || first.storageBytes != second.storageBytes ||
      swizzle != second.type.getLayoutOrDefault().getSwizzle())
    return false;
  int64_t periodBytes = swizzle->getPeriod() * first.storageBytes;
  for (const SharedAccess *access : {&first, &second})
    for (RegionOp region : access->regions) {
      int64_t sourceBytes =
          getStorageBytes(region.getSource().getType()).value_or(1);
      for (auto [offset, elements] :
           llvm::zip(region.getOffsets(), region.getDynamicOffsetStrides())) {
        // Whole periods: (a multiple of k) · elements · bytes, k the
        // common divisor of the offset's affine form (a stage index times
        // a stage's elements), as the bounds proof finds alignments.
        AccessProof scratch(kernel);
        scratch.opaqueValues = true;
        FailureOr<Linear> form = scratch.translate(offset);
        uint64_t multiple = succeeded(form) ? getCommonDivisor(*form) : 1;
        uint64_t period = periodBytes;
        if (static_cast<uint64_t>(elements * sourceBytes) % period *
                (multiple % period) % period !=
            0)
          return false;
      }
    }
  return true;
}

/// Whether `first` and `second` are in two regions of one op (branches of
/// a condition or cases of a switch) with no loop around both: then every
/// execution of one may run beside every execution of the other, whatever
/// barriers or waits either passes.
static bool areInOtherBranches(Operation *first, Operation *second,
                               KernelOp kernel) {
  SmallVector<Operation *> around = getEnclosingOps(first, kernel);
  llvm::SmallPtrSet<Operation *, 8> aroundFirst(around.begin(), around.end());
  Operation *meet = nullptr;
  for (Operation *parent : getEnclosingOps(second, kernel))
    if (aroundFirst.contains(parent)) {
      meet = parent;
      break;
    }
  if (!meet)
    return false;
  for (Operation *op = meet; op && op != kernel; op = op->getParentOp())
    if (isLoop(op))
      return false;
  return getChildOf(first, meet)->getParentRegion() !=
         getChildOf(second, meet)->getParentRegion();
}

/// Whether `op` runs after `loop` has ended (outside it, later in the
/// text).
static bool isAfterLoop(Operation *op, Operation *loop,
                        const DenseMap<Operation *, unsigned> &programOrder) {
  return !loop->isAncestor(op) &&
         programOrder.lookup(op) > programOrder.lookup(loop);
}

EpochCases RaceProof::getCopyEpochCases(const SharedAccess &first,
                                        const SharedAccess &second,
                                        BarrierPaths &paths) {
  bool self = &first == &second;
  tile::ApplyOp firstOp = first.op;
  const Retirement &retirement = first.retirement;
  if (first.completion)
    return getEpochCases(firstOp, second.op, kernel, paths,
                         /*ignoreBarriers=*/true);
  if (!retirement)
    return getEpochCases(firstOp, second.op, kernel, paths);
  auto order = [&](Operation *op) { return programOrder.lookup(op); };
  // An asynchronous copy's write lasts from its issue to the wait that
  // retires it: against a later access it ends there.
  EpochCases epochs;
  auto addAfter = [&](Operation *wait, int copyEnds) {
    for (EpochCase &epoch : getEpochCases(wait, second.op, kernel, paths)) {
      epoch.retiredAt = wait;
      epoch.pipeline = retirement.loop ? &retirement : nullptr;
      epoch.copyEnds = copyEnds;
      epochs.push_back(std::move(epoch));
    }
  };
  // The loops around both `op` and the second.
  auto loopsAroundBoth = [&](Operation *op) {
    SmallVector<Operation *> loops;
    for (Operation *around : getEnclosingOps(op, kernel))
      if (isLoop(around) && around->isAncestor(second.op))
        loops.push_back(around);
    return loops;
  };
  if (self)
    epochs = getEpochCases(firstOp, second.op, kernel, paths);
  if (!retirement.loop) {
    addAfter(retirement.wait, 0);
    // An access on the way from the copy to its wait meets the copy in
    // flight, whatever barriers lie between (they do not complete it).
    if (!self && order(firstOp) < order(second.op) &&
        order(second.op) < order(retirement.wait)) {
      EpochCase inFlight;
      inFlight.inFlight = true;
      inFlight.retiredAt = retirement.wait;
      inFlight.sameIteration = loopsAroundBoth(retirement.wait);
      epochs.push_back(std::move(inFlight));
    }
    return epochs;
  }
  // A pipeline: the wait `iterations` after the copy's (or the loop's
  // first), or the one after the loop where the loop ends first.
  scf::ForOp loop = retirement.loop;
  addAfter(retirement.wait, -1);
  addAfter(retirement.afterLoop, +1);
  EpochCase inFlight;
  inFlight.inFlight = true;
  inFlight.pipeline = &retirement;
  if (loop->isAncestor(second.op)) {
    // In the copy's iteration after it (or from the loop's first), in the
    // iterations between, or in the wait's iteration before it — unless an
    // earlier wait of that iteration ends the copy first (findEarlyWait).
    int64_t low =
        retirement.fromLoopStart || order(second.op) > order(firstOp) ? 0 : 1;
    int64_t high = retirement.iterations -
                   (order(second.op) < order(retirement.wait) ? 0 : 1);
    if (high == 1)
      if (Operation *early =
              findEarlyWait(retirement, firstOp, second.op,
                            &ptx::getFamilyModule(
                                firstOp.getInstruction().getForms().front()))) {
        addAfter(early, -1);
        high = 0;
      }
    if (low > high)
      return epochs;
    inFlight.retiredAt = retirement.wait;
    inFlight.secondRange = std::make_pair(low, high);
    inFlight.sameIteration = loopsAroundBoth(loop);
  } else if (retirement.fromLoopStart && !self &&
             order(firstOp) < order(second.op) &&
             order(second.op) < order(loop)) {
    // Between the copy and the loop.
    inFlight.retiredAt = retirement.wait;
    inFlight.pipeline = nullptr;
    inFlight.sameIteration = loopsAroundBoth(loop);
  } else if (isAfterLoop(second.op, loop, programOrder) &&
             order(second.op) < order(retirement.afterLoop)) {
    // After the loop, before the wait that completes its last copies.
    inFlight.retiredAt = retirement.afterLoop;
    inFlight.copyEnds = +1;
    inFlight.sameIteration = loopsAroundBoth(retirement.afterLoop);
  } else {
    return epochs;
  }
  epochs.push_back(std::move(inFlight));
  return epochs;
}

FailureOr<RingForms> RaceProof::translateArrival(AccessProof &proof,
                                                 const RingOrder &order,
                                                 unsigned &arrivalCopy) {
  unsigned copy = order.releaseCopy;
  const RingEvent &arrival = *order.release->link.event;
  arrivalCopy = copy;
  const Retirement &retirement = order.released->retirement;
  if (order.release->copyEnds >= 0) {
    proof.setCopy(copy);
    return MbarrierRings::translate(proof, arrival);
  }
  // After the retiring wait, `iterations` after the access's iteration (or
  // the loop's first): its own execution, in the same thread.
  arrivalCopy = 2 + copy;
  scf::ForOp pipeline = retirement.loop;
  for (Operation *around : getEnclosingOps(arrival.op, kernel)) {
    auto loop = dyn_cast<scf::ForOp>(around);
    if (!loop || (loop != pipeline && !loop->isAncestor(order.released->op)))
      continue;
    proof.setCopy(copy);
    FailureOr<Linear> base =
        loop != pipeline           ? proof.translate(loop.getInductionVar())
        : retirement.fromLoopStart ? proof.translate(loop.getLowerBound())
                                   : proof.translate(loop.getInductionVar());
    FailureOr<Linear> step = proof.translate(loop.getStep());
    if (failed(base) || failed(step))
      return failure();
    if (loop == pipeline)
      base = combine(*base, retirement.iterations, *step);
    proof.setCopy(arrivalCopy);
    FailureOr<Linear> index = proof.translate(loop.getInductionVar());
    if (failed(base) || failed(index))
      return failure();
    proof.requireZero(*combine(*index, -1, *base));
  }
  for (unsigned dim = 0; dim < 3; ++dim) {
    if (block[dim] == 1)
      continue;
    proof.setCopy(copy);
    FailureOr<Linear> thread =
        proof.translateThreadIndex(static_cast<Dim>(dim));
    proof.setCopy(arrivalCopy);
    FailureOr<Linear> same = proof.translateThreadIndex(static_cast<Dim>(dim));
    if (failed(thread) || failed(same))
      return failure();
    proof.requireZero(*combine(*same, -1, *thread));
  }
  proof.setCopy(arrivalCopy);
  return MbarrierRings::translate(proof, arrival);
}

bool RaceProof::forEachUnorderedCase(AccessProof &proof, const RingOrder &order,
                                     CaseVisitor visit,
                                     SmallVectorImpl<UnusedGuard> &unused) {
  auto tryCase = [&](AccessProof &narrowed, const RingOrderCase &taken) {
    return narrowed.isFeasible() && visit(narrowed, taken);
  };
  RingOrderCase elsewhere{&order, /*applies=*/false, {}, {}, 0};
  // A pipeline's arrival runs where the access is (−1: not, +1: is) in its
  // loop's last `iterations`: base + iterations·step ≥ ub, or < ub.
  AccessProof applied = proof;
  if (int copyEnds = order.release->copyEnds) {
    const Retirement &retirement = order.released->retirement;
    scf::ForOp loop = retirement.loop;
    proof.setCopy(order.releaseCopy);
    FailureOr<Linear> base = retirement.fromLoopStart
                                 ? proof.translate(loop.getLowerBound())
                                 : proof.translate(loop.getInductionVar());
    FailureOr<Linear> step = proof.translate(loop.getStep());
    FailureOr<Linear> upper = proof.translate(loop.getUpperBound());
    if (failed(base) || failed(step) || failed(upper))
      return tryCase(proof, elsewhere);
    Linear beyond =
        *combine(*combine(*base, retirement.iterations, *step), -1, *upper);
    Linear holds = copyEnds > 0 ? beyond : *combine(constant(-1), -1, beyond);
    AccessProof outside = proof;
    outside.require(*combine(constant(-1), -1, holds));
    if (tryCase(outside, elsewhere))
      return true;
    applied.require(holds);
  }
  unsigned arrivalCopy = 0;
  FailureOr<RingForms> arrival = translateArrival(applied, order, arrivalCopy);
  applied.setCopy(1 - order.releaseCopy);
  FailureOr<RingForms> wait = failure();
  if (succeeded(arrival))
    wait = MbarrierRings::translate(applied, *order.acquire->event);
  // An order the proof cannot translate orders nothing.
  if (failed(wait))
    return tryCase(applied, elsewhere);
  RingOrderCase taken{&order, /*applies=*/true, *arrival, *wait, arrivalCopy};
  SmallVector<Linear, 5> apart = {
      *combine(*combine(arrival->barrier, -1, wait->barrier), 1, constant(-1)),
      *combine(*combine(wait->barrier, -1, arrival->barrier), 1, constant(-1)),
      *combine(*combine(arrival->phase, -1, wait->phase), 1, constant(-1))};
  // A conditional arrival: or the thread does not take it (x ≠ y as x < y
  // or x > y; other conditions negated as guards).
  Value condition = order.release->link.condition;
  bool negateCondition = false;
  if (condition) {
    applied.setCopy(arrivalCopy);
    auto compare = condition.getDefiningOp<arith::CmpIOp>();
    FailureOr<Linear> lhs = failure(), rhs = failure();
    if (compare && compare.getPredicate() == arith::CmpIPredicate::eq) {
      lhs = applied.translate(compare.getLhs());
      rhs = succeeded(lhs) ? applied.translate(compare.getRhs()) : lhs;
    }
    if (succeeded(rhs)) {
      apart.push_back(*combine(*combine(*lhs, -1, *rhs), 1, constant(-1)));
      apart.push_back(*combine(*combine(*rhs, -1, *lhs), 1, constant(-1)));
    } else {
      negateCondition = true;
    }
  }
  for (const Linear &form : apart) {
    AccessProof narrowed = applied;
    narrowed.require(form);
    if (tryCase(narrowed, taken))
      return true;
  }
  if (negateCondition) {
    AccessProof narrowed = applied;
    narrowed.setCopy(arrivalCopy);
    narrowed.addGuard(condition, /*negated=*/true, unused);
    if (tryCase(narrowed, taken))
      return true;
  }
  return false;
}

std::optional<LogicalResult>
RaceProof::findUnordered(AccessProof &proof, ArrayRef<RingOrder> orders,
                         size_t index, SmallVectorImpl<RingOrderCase> &path,
                         UnorderedLeaf leaf,
                         SmallVectorImpl<UnusedGuard> &unused) {
  if (index == orders.size())
    return leaf(proof, path);
  std::optional<LogicalResult> result;
  forEachUnorderedCase(
      proof, orders[index],
      [&](AccessProof &narrowed, const RingOrderCase &taken) {
        path.push_back(taken);
        result = findUnordered(narrowed, orders, index + 1, path, leaf, unused);
        path.pop_back();
        return result.has_value();
      },
      unused);
  return result;
}

LogicalResult RaceProof::relateNames(AccessProof &proof, Value name,
                                     int relation) {
  proof.setCopy(0);
  FailureOr<Linear> first = proof.translate(name);
  proof.setCopy(1);
  FailureOr<Linear> second =
      succeeded(first) ? proof.translate(name) : FailureOr<Linear>();
  if (failed(first) || failed(second))
    return failure();
  Linear difference = *combine(*first, -1, *second);
  if (relation == 0)
    proof.requireZero(difference);
  else if (relation < 0) // first ≤ second − 1
    proof.require(
        *combine(*combine(constant(0), -1, difference), 1, constant(-1)));
  else // first ≥ second + 1
    proof.require(*combine(difference, 1, constant(-1)));
  return success();
}

bool RaceProof::isExecutedDisjointly(const SharedAccess &access) {
  auto key =
      std::make_pair(static_cast<Operation *>(access.op), access.operandIndex);
  auto known = disjointAccesses.find(key);
  if (known != disjointAccesses.end())
    return known->second;
  auto enumerate = [&] {
    // A region offset on no thread index is the same in both executions;
    // one on thread indices alone is evaluated for each executor.
    SmallVector<std::pair<Value, int64_t>> byThread;
    for (RegionOp region : access.regions) {
      int64_t sourceBytes =
          getStorageBytes(region.getSource().getType()).value_or(1);
      for (auto [offset, elements] :
           llvm::zip(region.getOffsets(), region.getDynamicOffsetStrides())) {
        if (isComputedFrom(offset, /*threadOnly=*/false))
          continue;
        if (!isComputedFrom(offset, /*threadOnly=*/true))
          return false;
        byThread.push_back({offset, elements * sourceBytes});
      }
    }
    int64_t elements = access.type.getNumElements();
    if (elements > (int64_t(1) << 20) || access.elementsPerGroup <= 0 ||
        numThreads > 1024)
      return false;
    SmallVector<int64_t> threadBytes(numThreads, 0);
    for (int64_t tid = 0; tid < numThreads && !byThread.empty(); ++tid) {
      ConcreteEvaluator evaluator(kernel);
      evaluator.bindLaunchIndex(/*thread=*/true, 0, tid % block[0]);
      evaluator.bindLaunchIndex(/*thread=*/true, 1, tid / block[0] % block[1]);
      evaluator.bindLaunchIndex(/*thread=*/true, 2,
                                tid / (block[0] * block[1]));
      for (auto [offset, stride] : byThread) {
        std::optional<int64_t> value = evaluator.evaluateSigned(offset);
        if (!value)
          return false;
        threadBytes[tid] += *value * stride;
      }
    }
    TileLayout layout = access.type.getLayoutOrDefault();
    DenseMap<int64_t, int64_t> executorAt;
    for (int64_t element = 0; element < elements; ++element) {
      int64_t offset = at(layout.apply(element), Axis::m) * access.storageBytes;
      bool alone = true;
      access.domain.forEachThread(access.getGroupOf(element), [&](int64_t tid) {
        int64_t executor = access.getExecutor(tid);
        for (int64_t byte = 0; alone && byte < access.storageBytes; ++byte) {
          auto [at, inserted] = executorAt.try_emplace(
              offset + threadBytes[tid] + byte, executor);
          alone = inserted || at->second == executor;
        }
        return alone;
      });
      if (!alone)
        return false;
    }
    return true;
  };
  bool disjoint = enumerate();
  disjointAccesses[key] = disjoint;
  return disjoint;
}

bool RaceProof::canRelateNames(Value name) {
  auto known = relatableNames.find(name);
  if (known != relatableNames.end())
    return known->second;
  AccessProof proof(kernel);
  proof.makeLoopsPrivate();
  bool relatable = succeeded(relateNames(proof, name, 0));
  relatableNames[name] = relatable;
  return relatable;
}

LogicalResult RaceProof::checkPair(const SharedAccess &first,
                                   const SharedAccess &second, bool apart) {
  // Most pairs an mbarrier ring orders are settled by their stages alone:
  // the exact model (layouts, swizzles, owners) only where they may meet.
  bool mayMeet = false;
  if (failed(checkPairModel(first, second, apart, /*coarse=*/true, mayMeet)))
    return failure();
  if (!mayMeet)
    return success();
  return checkPairModel(first, second, apart, /*coarse=*/false, mayMeet);
}

LogicalResult RaceProof::checkPairModel(const SharedAccess &first,
                                        const SharedAccess &second, bool apart,
                                        bool coarse, bool &mayMeet) {
  bool self = &first == &second;
  bool alike = isSwizzledAlike(kernel, first, second);
  auto epochsWith = [&](BarrierPaths &barriers) {
    return apart ? getEpochCases(first.op, second.op, kernel, barriers)
                 : getCopyEpochCases(first, second, barriers);
  };
  // The named barriers of part of the block (NamedBarriers): the two run
  // unordered with those of name j counted where both threads name the same
  // barrier j, or with none counted where they name different barriers of
  // each name that would order them (a name whose barriers change no case
  // needs no split).
  struct BarrierCase {
    EpochCases epochs;
    int sameName = -1;
    bool anyNames = false;
  };
  SmallVector<BarrierCase, 2> barrierCases = {{epochsWith(*paths[0])}};
  SmallVector<unsigned> namesApart;
  for (auto [name, value] : llvm::enumerate(named.names)) {
    EpochCases cases = epochsWith(*paths[1 + name]);
    if (llvm::equal(cases, barrierCases.front().epochs) ||
        !canRelateNames(value))
      continue;
    barrierCases.push_back({std::move(cases), static_cast<int>(name)});
    namesApart.push_back(name);
  }
  // An epoch case of every split (an access against itself in one
  // iteration, a way with no named barrier on it) is asked once, for any
  // names.
  if (barrierCases.size() > 1) {
    BarrierCase common{{}, -1, /*anyNames=*/true};
    for (const EpochCase &epoch : barrierCases.front().epochs)
      if (llvm::all_of(barrierCases, [&](const BarrierCase &split) {
            return llvm::is_contained(split.epochs, epoch);
          }))
        common.epochs.push_back(epoch);
    for (BarrierCase &split : barrierCases)
      llvm::erase_if(split.epochs, [&](const EpochCase &epoch) {
        return llvm::is_contained(common.epochs, epoch);
      });
    barrierCases.push_back(std::move(common));
  }
  // The mbarrier phases that may order them: one access's arrival (or
  // completion) against a wait before the other.
  SmallVector<RingOrder, 2> orders;
  for (auto [before, beforeCopy, after] :
       {std::tuple(&first, 0u, &second), std::tuple(&second, 1u, &first)})
    for (const RingRelease &release : before->releases)
      for (const RingLink &acquire : after->acquires)
        if (release.link.event->barriers == acquire.event->barriers)
          orders.push_back({before, beforeCopy, &release, &acquire});
  for (const BarrierCase &barrierCase : barrierCases) {
    for (const EpochCase &epoch : barrierCase.epochs) {
      // One execution of an access against itself: its executors' bytes.
      if (self && !epoch.advanced && !epoch.inFlight && !epoch.retiredAt &&
          !epoch.pipeline && isExecutedDisjointly(first))
        continue;
      for (ArrayRef<GuardLiteral> firstGuard : first.guardCases) {
        for (ArrayRef<GuardLiteral> secondGuard : second.guardCases) {
          AccessProof common(kernel);
          common.makeLoopsPrivate();
          for (Operation *loop : epoch.sameIteration)
            if (!epoch.pipeline || loop != epoch.pipeline->loop)
              common.shareLoop(loop);
          SmallVector<UnusedGuard> unused;
          common.setCopy(0);
          bool warps = first.collective || second.collective;
          FailureOr<AccessForms> early =
              model(common, first, firstGuard, unused, warps, alike, coarse);
          common.setCopy(1);
          FailureOr<AccessForms> late = failure();
          if (succeeded(early))
            late = model(common, second, secondGuard, unused, warps, alike,
                         coarse);
          if (failed(late))
            // check-diagnostics: internal, the bounds proof translated the
            // same offsets first (and refuses what overflows)
            return second.op->emitOpError()
                   << "cannot prove the shared memory free of data races: "
                   << (common.reason.empty()
                           ? std::string("the integer arithmetic overflows "
                                         "64 bits")
                           : common.reason);
          relate(common, epoch);
          // One byte: most pairs never meet, which one question settles for
          // both orders of the executors.
          common.requireZero(*combine(early->byte, -1, late->byte));
          // Where a ring may order them, the stages they share are usually
          // possible: the question is left to the cases below.
          if (orders.empty() && !common.isFeasible())
            continue;
          // The named barriers' case: the same name, or different ones (each
          // name smaller or larger in the first's thread).
          SmallVector<AccessProof, 1> namedCases = {common};
          SmallVector<std::pair<Operation *, Value>> unsharedBarriers;
          if (barrierCase.sameName >= 0) {
            (void)relateNames(namedCases.front(),
                              named.names[barrierCase.sameName], 0);
          } else if (!barrierCase.anyNames) {
            for (unsigned name : namesApart) {
              SmallVector<AccessProof, 1> split;
              for (AccessProof &proof : namedCases)
                for (int relation : {-1, 1}) {
                  AccessProof apartCase = proof;
                  (void)relateNames(apartCase, named.names[name], relation);
                  if (orders.empty() && !apartCase.isFeasible())
                    continue;
                  split.push_back(std::move(apartCase));
                }
              namedCases = std::move(split);
              unsharedBarriers.push_back(
                  {*llvm::min_element(named.byName[name],
                                      [&](Operation *a, Operation *b) {
                                        return programOrder.lookup(a) <
                                               programOrder.lookup(b);
                                      }),
                   named.names[name]});
            }
          }
          // The witness names each access's loop iterations: their
          // indices become variables before the point is taken (a loop whose
          // index no offset uses has none yet).
          auto addLoopIndices = [&](AccessProof &witness) {
            for (auto [copy, access] :
                 {std::pair(0u, &first), std::pair(1u, &second)}) {
              witness.setCopy(copy);
              for (Operation *around : getEnclosingOps(access->op, kernel))
                if (auto loop = dyn_cast<scf::ForOp>(around))
                  (void)witness.translate(loop.getInductionVar());
            }
          };
          for (AccessProof &shared : namedCases) {
            auto findExecutors = [&](AccessProof &unordered,
                                     ArrayRef<RingOrderCase> orders)
                -> std::optional<LogicalResult> {
              // Most cases the ring orders leave have no point at all.
              if (!orders.empty() && !unordered.isFeasible())
                return std::nullopt;
              // Two executors, in each order (one suffices for an access
              // against itself in the same iterations: the two are
              // interchangeable).
              bool symmetric = self && !epoch.advanced;
              for (bool firstIsLower : {true, false}) {
                if (symmetric && !firstIsLower)
                  continue;
                AccessProof proof = unordered;
                const Linear &lower = warps ? early->warp : early->thread;
                const Linear &higher = warps ? late->warp : late->thread;
                proof.require(
                    *combine(*combine(firstIsLower ? higher : lower, -1,
                                      firstIsLower ? lower : higher),
                             1, constant(-1)));
                if (!proof.isFeasible())
                  continue;
                if (coarse) {
                  mayMeet = true;
                  return success();
                }
                // A witness of two warps where there is one: the one the
                // interpreter (whose warps run in lockstep) and racecheck see
                // too.
                std::optional<Point> point;
                if (!warps) {
                  AccessProof acrossWarps = proof;
                  FailureOr<Linear> earlyWarp =
                      acrossWarps.floorDivide(early->thread, 32);
                  FailureOr<Linear> lateWarp =
                      acrossWarps.floorDivide(late->thread, 32);
                  if (succeeded(earlyWarp) && succeeded(lateWarp)) {
                    acrossWarps.require(*combine(
                        *combine(firstIsLower ? *lateWarp : *earlyWarp, -1,
                                 firstIsLower ? *earlyWarp : *lateWarp),
                        1, constant(-1)));
                    if (acrossWarps.isFeasible()) {
                      addLoopIndices(acrossWarps);
                      point = acrossWarps.sampleLeast();
                      return report(acrossWarps, *point, first, *early, second,
                                    *late, epoch, unused, orders,
                                    unsharedBarriers);
                    }
                  }
                }
                addLoopIndices(proof);
                point = proof.sampleLeast();
                return report(proof, *point, first, *early, second, *late,
                              epoch, unused, orders, unsharedBarriers);
              }
              return std::nullopt;
            };
            // Neither ring order holds (MbarrierRings.h).
            SmallVector<RingOrderCase, 2> path;
            if (std::optional<LogicalResult> result = findUnordered(
                    shared, orders, 0, path, findExecutors, unused))
              return *result;
          }
        }
      }
    }
  }
  return success();
}

/// Whether `access` may join `group`'s coarse question (RaceProof::run):
/// the same allocation, kind, executors, guards, regions' runtime offsets
/// and synchronization, in one block with nothing between the two that
/// synchronizes (only accesses and arithmetic), so that every epoch case
/// and ring order of one is the other's.
static bool isCoarselyAlike(const SharedAccess &last,
                            const SharedAccess &access,
                            const MbarrierRings &rings, int64_t numThreads) {
  auto sameLinks = [](ArrayRef<RingLink> a, ArrayRef<RingLink> b) {
    return llvm::equal(a, b, [](const RingLink &x, const RingLink &y) {
      return x.event == y.event && x.condition == y.condition;
    });
  };
  auto sameGuards = [](const GuardCases &a, const GuardCases &b) {
    return llvm::equal(a, b, [](const auto &x, const auto &y) {
      return llvm::equal(x, y,
                         [](const GuardLiteral &u, const GuardLiteral &v) {
                           return u.pred == v.pred && u.negated == v.negated;
                         });
    });
  };
  const Retirement &r = last.retirement, &q = access.retirement;
  if (last.allocation != access.allocation || last.writes != access.writes ||
      last.atomic != access.atomic || last.collective != access.collective ||
      last.domain.groupShape != access.domain.groupShape ||
      last.domain.lanesInAtom != access.domain.lanesInAtom ||
      last.domain.warpgroupInAtom != access.domain.warpgroupInAtom ||
      last.completion != access.completion ||
      last.disjunction != access.disjunction ||
      !sameGuards(last.guardCases, access.guardCases) ||
      !sameLinks(last.acquires, access.acquires) ||
      !llvm::equal(last.releases, access.releases,
                   [&](const RingRelease &x, const RingRelease &y) {
                     return x.copyEnds == y.copyEnds &&
                            sameLinks(x.link, y.link);
                   }) ||
      r.wait != q.wait || r.loop != q.loop || r.iterations != q.iterations ||
      r.fromLoopStart != q.fromLoopStart || r.afterLoop != q.afterLoop ||
      last.op->getBlock() != access.op->getBlock() ||
      !last.op->isBeforeInBlock(access.op) ||
      last.regions.size() != access.regions.size())
    return false;
  for (auto [x, y] : llvm::zip(last.regions, access.regions)) {
    RegionOp a = x, b = y;
    if (a.getSource() != b.getSource() ||
        !llvm::equal(a.getOffsets(), b.getOffsets()) ||
        a.getDynamicOffsetStrides() != b.getDynamicOffsetStrides())
      return false;
  }
  for (Operation *between = last.op->getNextNode(); between != access.op;
       between = between->getNextNode()) {
    int64_t pending = 0;
    auto apply = dyn_cast<tile::ApplyOp>(between);
    if (between->getNumRegions() || isCTABarrier(between, numThreads) ||
        rings.lookup(between))
      return false;
    // Another access of the allocation between them would meet each in a
    // different order.
    SharedAccess other;
    if (isa<tile::ApplyOp>(between))
      for (Value operand : between->getOperands())
        if (auto type = dyn_cast<tirx::TensorType>(operand.getType());
            type && type.isShared() && !traceToAllocation(operand, other) &&
            other.allocation == access.allocation)
          return false;
    if (apply && !apply.getInstruction().getForms().empty()) {
      const ptx::FamilyModule &module =
          ptx::getFamilyModule(apply.getInstruction().getForms().front());
      ptx::AsyncGroupEvent event =
          getAsyncGroupEvent(between, &module, pending);
      if (event != ptx::AsyncGroupEvent::None &&
          event != ptx::AsyncGroupEvent::Copy)
        return false;
      if (module.getMbarrierEvent || module.getRaceProofGap)
        return false;
    }
  }
  return true;
}

LogicalResult RaceProof::run(ArrayRef<SharedAccess> accesses) {
  auto mayRace = [](const SharedAccess &first, const SharedAccess &second) {
    return first.allocation == second.allocation &&
           (first.writes || second.writes) && !(first.atomic && second.atomic);
  };
  // Two branches of one condition, in no common loop: any executions of the
  // two may meet, in either order — one question.
  auto check = [&](const SharedAccess &first, const SharedAccess &second) {
    bool apart = areInOtherBranches(first.op, second.op, kernel);
    if (failed(checkPair(first, second, apart)))
      return failure();
    if (&first != &second && !apart && failed(checkPair(second, first, apart)))
      return failure();
    return success();
  };
  // Accesses alike but for their bytes (wgmma's K steps, a tile's columns)
  // are asked together first, as any byte of their spans: where that proves
  // the pair of groups, their members need no questions of their own.
  SmallVector<SmallVector<unsigned, 4>> groups;
  DenseMap<Operation *, unsigned> openGroup;
  for (auto [index, access] : llvm::enumerate(accesses)) {
    auto open = openGroup.find(access.allocation);
    if (open != openGroup.end() &&
        isCoarselyAlike(accesses[groups[open->second].back()], access, rings,
                        numThreads)) {
      groups[open->second].push_back(index);
      continue;
    }
    openGroup[access.allocation] = groups.size();
    groups.push_back({static_cast<unsigned>(index)});
  }
  auto representative = [&](ArrayRef<unsigned> members) {
    SharedAccess merged = accesses[members.front()];
    int64_t low = std::numeric_limits<int64_t>::max(), high = 0;
    for (unsigned member : members) {
      const SharedAccess &access = accesses[member];
      TileLayout layout = access.type.getLayoutOrDefault();
      low =
          std::min(low, at(layout.getOffset(), Axis::m) * access.storageBytes);
      high = std::max(high, layout.span(Axis::m) * access.storageBytes - 1);
    }
    merged.coarseSpan = std::make_pair(low, high);
    return merged;
  };
  for (auto [secondIndex, secondGroup] : llvm::enumerate(groups)) {
    for (ArrayRef<unsigned> firstGroup :
         ArrayRef(groups).take_front(secondIndex + 1)) {
      const SharedAccess &first = accesses[firstGroup.front()];
      const SharedAccess &second = accesses[secondGroup.front()];
      if (!mayRace(first, second))
        continue;
      if (firstGroup.data() != secondGroup.data() &&
          (firstGroup.size() > 1 || secondGroup.size() > 1)) {
        SharedAccess early = representative(firstGroup);
        SharedAccess late = representative(secondGroup);
        bool apart = areInOtherBranches(first.op, second.op, kernel);
        bool mayMeet = false;
        if (failed(
                checkPairModel(early, late, apart, /*coarse=*/true, mayMeet)))
          return failure();
        if (!mayMeet && !apart &&
            failed(
                checkPairModel(late, early, apart, /*coarse=*/true, mayMeet)))
          return failure();
        if (!mayMeet)
          continue;
      }
      for (unsigned secondMember : secondGroup)
        for (unsigned firstMember : firstGroup) {
          if (firstGroup.data() == secondGroup.data() &&
              firstMember > secondMember)
            continue;
          if (failed(check(accesses[firstMember], accesses[secondMember])))
            return failure();
        }
    }
  }
  return success();
}

} // namespace

LogicalResult mlir::tirx::verifyRaceFreedom(KernelOp kernel, bool strict) {
  ModelGap gap;
  MbarrierRings rings;
  FailureOr<SmallVector<SharedAccess, 0>> accesses =
      succeeded(rings.collect(kernel, gap.op, gap.why))
          ? collectAccesses(kernel, rings, gap)
          : SmallVector<SharedAccess, 0>();
  if (failed(accesses))
    return failure();
  if (gap.op) {
    std::string spelling = "'" + gap.op->getName().getStringRef().str() + "'";
    if (auto apply = dyn_cast<tile::ApplyOp>(gap.op))
      spelling = ("'" + apply.getInstruction().getSpelling() + "'").str();
    InFlightDiagnostic diag =
        strict ? gap.op->emitError() : gap.op->emitWarning();
    diag << "the kernel's shared memory is not proven free of data races: "
         << spelling << ": " << gap.why;
    return failure(strict);
  }
  if (accesses->empty())
    return success();
  RaceProof proof(kernel, rings, strict);
  if (failed(proof.run(*accesses)))
    return failure(!proof.isUncertain());
  return success();
}
