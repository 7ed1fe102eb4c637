//===- MbarrierRings.h - Phases of mbarrier pipelines ----------*- C++ -*-===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//
//
// The mbarrier part of the race proof (docs/races.md, "mbarrier
// pipelines"). A *ring* is a shared allocation of S mbarriers that a
// pipeline uses in turn: step t uses barrier t mod S in its phase t div S.
// Every op on a ring names its barrier `rem(t, S)` of a step t (an index
// value), and a wait names the parity of its phase as `(t div S) mod 2` (the
// phase t div S) or `1 - (t div S) mod 2` (the phase before it: a producer
// waiting for a stage its consumers released). An op on a barrier outside
// every loop is single-shot: its phase is the number of waits on that
// barrier before it in program order (each wait's parity must agree).
//
// Assumed (docs/races.md; the interpreter checks every run): a thread that
// arrives on a ring arrives once per step in step order, and a barrier's
// count is the arrivals of one step; so phase n of barrier b completes with
// exactly the arrivals and TMA completions of step n·S + b. Checked here:
// every step is non-negative and grows with every loop around its op.
//
// What a ring orders: an arrival or TMA completion at (b, n) happens before
// the return of every wait at (b, m) with m ≥ n.
//
//===----------------------------------------------------------------------===//

#ifndef TIRX_LIB_DIALECT_TIRX_IR_MBARRIERRINGS_H
#define TIRX_LIB_DIALECT_TIRX_IR_MBARRIERRINGS_H

#include "AccessProof.h"

#include "TirX/Dialect/Tile/Families/FamilyModule.h"
#include "TirX/Dialect/Tile/IR/TileOps.h"

#include <string>

namespace mlir::tirx::proof {

/// One op's part in a ring.
struct RingEvent {
  Operation *op = nullptr;
  ptx::MbarrierEvent kind = ptx::MbarrierEvent::None;
  /// The op's barrier operand (PTX order) and the allocation it is in.
  unsigned barrierOperand = 0;
  Operation *barriers = nullptr;
  int64_t stages = 1;
  /// The barrier: the region offset rem(step, stages); null for barrier
  /// `constantIndex`.
  Value index;
  int64_t constantIndex = 0;
  /// The step; null for a single-shot op (outside loops), whose phase is
  /// `constantPhase`.
  Value step;
  int64_t constantPhase = 0;
  /// A wait's phase: step div stages + delta (0 or -1).
  int64_t delta = 0;

  bool isWait() const { return kind == ptx::MbarrierEvent::Wait; }
  bool isArrival() const { return kind == ptx::MbarrierEvent::Arrive; }
};

/// A ring event that orders an access in its thread: a wait before it, or
/// an arrival after it — under an scf.if, for the threads that take it
/// (`condition`).
struct RingLink {
  const RingEvent *event = nullptr;
  Value condition;
};

/// A ring event's barrier (its index in the allocation) and phase.
struct RingForms {
  Linear barrier;
  Linear phase;
};

class MbarrierRings {
public:
  /// Recognizes the ring events of `kernel`. Failure, with the op and why,
  /// at the first use of an mbarrier the model does not cover.
  LogicalResult collect(KernelOp kernel, Operation *&gapOp, std::string &why);

  /// The event of `op`, if it is one.
  const RingEvent *lookup(Operation *op) const;

  /// The waits that run before `op` in its thread in the same iterations
  /// of the loops around it, on every path: the last one of each ring.
  SmallVector<RingLink, 2> getWaitsBefore(Operation *op) const;

  /// The arrivals that run after `op` in its thread in the same iterations
  /// of the loops around them (after an scf.for around `op` too): the first
  /// one of each ring on every path, or under an scf.if right after (with
  /// its condition). `byWarp`: `op` is a
  /// warp collective, so an arrival of another lane of its warp counts too:
  /// one under a condition that one lane of every warp takes has none.
  SmallVector<RingLink, 2> getArrivalsAfter(Operation *op, bool byWarp) const;

  /// The event's barrier and phase, translated in the proof's current
  /// copy.
  static FailureOr<RingForms> translate(AccessProof &proof,
                                        const RingEvent &event);

private:
  /// Checks that `event`'s step is non-negative and grows with each loop
  /// around it; why not otherwise.
  std::optional<std::string> checkStepGrows(const RingEvent &event);

  KernelOp kernel;
  DenseMap<Operation *, RingEvent> events;
};

} // namespace mlir::tirx::proof

#endif // TIRX_LIB_DIALECT_TIRX_IR_MBARRIERRINGS_H
