//===- AccessProof.h - Memory accesses as integer polyhedra ----*- C++ -*-===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//
//
// The integer model the bounds proof (BoundsProof.cpp) and the race proof
// (RaceProof.cpp) share.
//
// The static bounds proof of docs/bounds.md. A global or shared operand of a
// tile op is a chain of `tirx.region`s and `tirx.view`s over a kernel
// argument or an allocation. Views keep the element set; static region
// offsets are checked when the region is built. What is left are the
// dynamic region offsets: for each one, the proof builds an integer
// polyhedron (MLIR's Presburger library) over the index variables the
// offset depends on —
//
//   block_idx.d ∈ [0, grid_d), thread_idx.d ∈ [0, block_d),
//   loop iv = lb + step·k, k ≥ 0, iv < ub (scf.for, affine lb/ub, constant
//   step), kernel integer arguments (any value of their type), values
//   loaded from a register tile (`tirx.slot_load`: any value of their type),
//   size variables 1 ≤ n ≤ 2^62, q with c·q ≤ x ≤ c·q + c − 1 for
//   x floordiv c (and x mod c = x − c·q),
//
// adds the op's guard and the conditions of the scf.ifs around it (negated
// in an else branch), and asks whether `offset < 0` or `offset + size >
// extent` has an integer point. An empty set is the proof; a point is the
// witness in the diagnostic. A guard is comparisons combined by arith.andi,
// arith.ori and negation (arith.xori with true); its disjunctions split it
// into cases (disjunctive normal form, at most kMaxGuardCases), each a
// conjunction of comparisons — a polyhedron — proven separately.
//
// Every integer value is its signed reading at the width the hardware
// computes it in (index: 64 bits). Arithmetic wraps: a sum, difference,
// product or left shift that may leave its type's range, and a truncating
// cast, is x − 2^w·q with a new integer q and the result inside the range;
// an unsigned reading (index_castui, extui, divui, remui, shrui, unsigned
// comparisons) of a value that may be negative is v + 2^w·b. So the model is
// exactly what the hardware computes, and stays linear. Before a witness is
// printed, ConcreteEvaluator recomputes the access at it in two's
// complement: a point that does not reproduce is never shown as a fact.
//
// The race proof asks about two executions at once (two threads, each in its
// own loop iterations): an AccessProof then holds two *copies* of the
// thread-dependent variables (thread indices, loop indices, loaded values),
// selected with setCopy; the block index, sizes, kernel arguments and the
// indices of loops marked shared are one variable in both.
//
//===----------------------------------------------------------------------===//

#ifndef TIRX_LIB_DIALECT_TIRX_IR_ACCESSPROOF_H
#define TIRX_LIB_DIALECT_TIRX_IR_ACCESSPROOF_H

#include "ConcreteEvaluation.h"

#include "TirX/Dialect/TirX/IR/TirXOps.h"

#include "mlir/Analysis/Presburger/IntegerRelation.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/DynamicAPInt.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <array>
#include <map>
#include <tuple>
#include <vector>

namespace mlir::tirx::proof {

using llvm::DynamicAPInt;
using presburger::IntegerPolyhedron;

/// c + Σ coeffs[i]·var_i; `coeffs` may be shorter than the variable list.
struct Linear {
  SmallVector<int64_t> coeffs;
  int64_t constant = 0;
};

/// An integer point of the proof's variables. Hidden variables (quotients,
/// wrap counts) may lie beyond int64; the shown ones never do.
using Point = SmallVector<DynamicAPInt, 8>;

inline DynamicAPInt powerOfTwo(unsigned exponent) {
  DynamicAPInt result(1);
  for (unsigned i = 0; i < exponent; ++i)
    result *= 2;
  return result;
}
inline DynamicAPInt signedMin(unsigned width) {
  return DynamicAPInt(llvm::minIntN(width));
}
inline DynamicAPInt signedMax(unsigned width) {
  return DynamicAPInt(llvm::maxIntN(width));
}

inline std::string toString(const DynamicAPInt &value) {
  std::string text;
  llvm::raw_string_ostream(text) << value;
  return text;
}

/// "i32", or "index" for 64-bit index values.
inline std::string typeName(Type type) {
  if (type.isIndex())
    return "index";
  return "i" + std::to_string(type.getIntOrFloatBitWidth());
}

/// A part of a guard the proof leaves out (it then proves the access under
/// a weaker guard), and why, for the diagnostic's note.
struct UnusedGuard {
  Operation *op;
  StringRef why;
};

/// One comparison (or constant, or a value the proof cannot use) of a
/// guard, negated in an else branch or under arith.xori with true.
struct GuardLiteral {
  Value pred;
  bool negated;
};

/// A guard in disjunctive normal form: it holds where one of its cases
/// holds, a case where all of its literals do.
using GuardCases = SmallVector<SmallVector<GuardLiteral, 4>, 1>;

/// The most cases a guard is split into; beyond, its disjunctions are left
/// out (each case is a proof of its own).
inline constexpr size_t kMaxGuardCases = 16;

inline constexpr StringLiteral kUnusedComparison =
    "the proof uses affine comparisons (arith.cmpi other than ne), combined "
    "by arith.andi, arith.ori and negation (arith.xori with true)";

/// The form of variable `index`.
Linear variable(unsigned index);
/// The constant form `value`.
Linear constant(int64_t value);
/// a + factor·b, or failure on overflow.
FailureOr<Linear> combine(const Linear &a, int64_t factor, const Linear &b);
/// The variable of a form c + v, if it is one.
std::optional<unsigned> getSingleVariable(const Linear &form);
/// The value of a form without variables.
std::optional<int64_t> getConstant(const Linear &form);

class AccessProof {
public:
  explicit AccessProof(KernelOp kernel)
      : kernel(kernel), poly(presburger::PresburgerSpace::getSetSpace(0)) {}

  /// Whether an integer value the proof cannot follow (a product of two
  /// indices, a division by one, a select) becomes an unconstrained variable
  /// instead of a failure: sound for claims that hold for every integer
  /// (alignment: the coefficients' gcd), not for bounds.
  bool opaqueValues = false;

  /// The affine form of an `index` (or integer) value — its signed reading —
  /// adding the variables and constraints it needs.
  FailureOr<Linear> translate(Value value);

  /// The extent of dimension `dim` of a tensor: a constant, or its size
  /// variable.
  FailureOr<Linear> translateExtent(tirx::TensorType type, unsigned dim);

  /// An integer point where `form` is not a multiple of `divisor` (with
  /// every constraint so far), or nothing when it always is.
  std::optional<Point> sampleNotMultiple(const Linear &form, int64_t divisor);

  /// Adds a case of a guard (a conjunction of literals) as constraints. The
  /// literals that are not affine comparisons are left out (the proof is
  /// then of a weaker guard) and returned, for the diagnostic.
  void addGuardCase(ArrayRef<GuardLiteral> literals,
                    SmallVectorImpl<UnusedGuard> &unused);

  /// Adds one literal of a guard (see addGuardCase).
  void addGuard(Value pred, bool negated, SmallVectorImpl<UnusedGuard> &unused);

  /// An integer point of the variables where `form` ≥ 0 (with every
  /// constraint so far), or nothing when there is none.
  std::optional<Point> sampleWhere(const Linear &form);

  /// Evaluates `form` at `point`.
  static DynamicAPInt evaluate(const Linear &form,
                               ArrayRef<DynamicAPInt> point);

  /// "block_idx.x = 8191, thread_idx.x = 0" for the shown variables.
  std::string describe(ArrayRef<DynamicAPInt> point) const;

  /// Several executions at once (the race proof): the copy later
  /// translations belong to, below kCopies (0 and 1: the two accesses; 2
  /// and 3: where the mbarrier arrivals that order them run). Thread
  /// indices, loaded values and the indices of loops not shared are each
  /// copy's own.
  static constexpr unsigned kCopies = 4;
  void setCopy(unsigned copy) {
    assert(copy < kCopies && "an execution the proof does not hold");
    current = copy;
  }
  /// Gives each copy its own index of every loop but those shareLoop names
  /// (called before any translation).
  void makeLoopsPrivate() { loopsPrivate = true; }
  void shareLoop(Operation *loop) { sharedLoops.insert(loop); }

  /// thread_idx.`dim` of the current copy.
  FailureOr<Linear> translateThreadIndex(Dim dim) {
    return translateLaunchIndex(Value(), /*thread=*/true, dim);
  }

  /// x floordiv c for a constant c > 0 (one quotient variable per x and c,
  /// however often asked).
  FailureOr<Linear> floorDivide(const Linear &x, int64_t divisor) {
    return divide(x, divisor, /*ceiling=*/false, /*remainder=*/false,
                  "a division");
  }

  /// A new hidden variable low ≤ v ≤ high.
  Linear addBoundedVar(std::string name, int64_t low, int64_t high);
  /// form ≥ 0, and form = 0.
  void require(const Linear &form) { addInequality(form); }
  void requireZero(const Linear &form) { addEquality(form); }
  /// An integer point of every constraint so far, or nothing when there is
  /// none.
  std::optional<Point> sample() { return sampleWhere(constant(0)); }
  /// Whether the constraints so far have an integer point (sample() without
  /// looking for one with small values).
  bool isFeasible() {
    return sampleRow(row(constant(0)), /*preferSmall=*/false).has_value();
  }
  /// The lexicographically least integer point (variables in the order
  /// they were added, each shown one within ±2^31), for a witness that does
  /// not depend on which vertex the solver visits; sample() where that
  /// least point does not exist.
  std::optional<Point> sampleLeast();

  /// describe() of the variables both copies share but loop indices: the
  /// block index, sizes and kernel arguments.
  std::string describeShared(ArrayRef<DynamicAPInt> point) const;

  /// Fixes every leaf the proof has a variable for (in the current copy) at
  /// its value in `point`.
  void bindLeaves(ConcreteEvaluator &evaluator,
                  ArrayRef<DynamicAPInt> point) const;

  /// The ops whose value the proof models as wrapped around or read as
  /// unsigned: the witness's notes say where that happened.
  ArrayRef<Operation *> getWrappingOps() const {
    return wrappingOps.getArrayRef();
  }

  /// Whether a value the proof does not follow became a free variable.
  bool hasOpaqueVariables() const { return !opaqueVars.empty(); }

  std::string reason;
  /// Whether `reason` is a loop index that may wrap around (not a
  /// non-affine offset).
  bool wrapFailure = false;

  /// The `tirx.slot_load`s whose values are variables of the proof: a
  /// refuted access through one says it has no bounds.
  SmallVector<Operation *> loads;

private:
  unsigned addVar(std::string name, bool shown);
  SmallVector<DynamicAPInt>
  row(const Linear &form, int64_t sign = 1,
      const DynamicAPInt &shift = DynamicAPInt(0)) const;
  void addInequality(const Linear &form);
  /// Narrows the bounds known of variable `index` (a cheap interval test
  /// before each question to the solver).
  void tighten(unsigned index, std::optional<DynamicAPInt> lower,
               std::optional<DynamicAPInt> upper);
  /// The least (or greatest) value of `form` over the variables' known
  /// bounds, or nothing where one is unbounded.
  std::optional<DynamicAPInt> boundOf(const Linear &form, bool upper) const;
  void addEquality(const Linear &form) { poly.addEquality(row(form)); }
  /// low ≤ form ≤ high.
  void addRange(const Linear &form, const DynamicAPInt &low,
                const DynamicAPInt &high);
  std::optional<Point> sampleRow(ArrayRef<DynamicAPInt> inequality,
                                 bool preferSmall = false);
  bool provenAtLeast(const Linear &form, const DynamicAPInt &low);
  bool provenAtMost(const Linear &form, const DynamicAPInt &high);
  bool provenNonNegative(const Linear &form) {
    return provenAtLeast(form, DynamicAPInt(0));
  }
  FailureOr<Linear> fail(const Twine &why) {
    reason = why.str();
    return failure();
  }
  FailureOr<Linear> overflow() {
    return fail("the integer arithmetic overflows 64 bits");
  }
  /// 2^exponent·q for a new hidden integer variable q (through a second one,
  /// 2^32·q, where the coefficient would not fit 63 bits).
  FailureOr<Linear> timesPowerOfTwo(unsigned exponent, const Twine &name);
  /// The signed reading, at `width` bits, of the exact value `exact`: itself
  /// where it provably fits, else exact − 2^width·q inside the range.
  FailureOr<Linear> wrapToWidth(const Linear &exact, unsigned width,
                                Operation *op);
  /// The unsigned reading of an integer value (its signed reading plus
  /// 2^width where it is negative).
  FailureOr<Linear> translateUnsigned(Value value, Operation *reader);
  FailureOr<Linear> translateInductionVar(scf::ForOp loop);
  FailureOr<Linear> translateLaunchIndex(Value result, bool thread, Dim dim);
  /// A value loaded from memory: a new variable over the integers of its
  /// type.
  Linear translateLoaded(Operation *load, unsigned width);
  FailureOr<Linear> translateOp(Operation *op);
  FailureOr<Linear> translateAffine(AffineExpr expr);
  FailureOr<Linear> translateSizeVariable(BlockArgument arg, StringRef name);
  /// x floordiv c, x ceildiv c or x mod c for a constant c > 0, through a
  /// new quotient variable.
  FailureOr<Linear> divide(const Linear &x, int64_t divisor, bool ceiling,
                           bool remainder, StringRef what);

  KernelOp kernel;
  IntegerPolyhedron poly;
  struct Var {
    std::string name;
    bool shown;
    /// Bounds implied by the constraints (not necessarily the tightest).
    std::optional<DynamicAPInt> lower, upper;
  };
  SmallVector<Var> vars;
  /// What one execution (one thread in its loop iterations) translates to;
  /// the race proof asks about two at once.
  struct Copy {
    DenseMap<Value, Linear> cache;
    /// Each unsigned reading, and whether it may differ from the signed one.
    DenseMap<Value, std::pair<Linear, bool>> unsignedCache;
    /// The variables of the copy's own leaves: loaded values, indices of
    /// loops not shared.
    DenseMap<Value, unsigned> leafVars;
    /// The variable of thread_idx.d (d + 3).
    DenseMap<unsigned, unsigned> threadVars;
  };
  std::array<Copy, kCopies> copies;
  unsigned current = 0;
  /// The variables of leaves every copy shares: kernel arguments, size
  /// variables, indices of shared loops.
  DenseMap<Value, unsigned> sharedLeafVars;
  /// The variable of block_idx.d (d): one per dimension, however many ops
  /// read it, shared by the copies.
  DenseMap<unsigned, unsigned> blockVars;
  /// With two copies, the loops whose index both share (else each has its
  /// own); with one, every loop is shared.
  llvm::SmallPtrSet<Operation *, 4> sharedLoops;
  bool loopsPrivate = false;
  bool isSharedLoop(Operation *loop) const {
    return !loopsPrivate || sharedLoops.contains(loop);
  }
  llvm::SetVector<Operation *> wrappingOps;
  /// Ranges of 64-bit width kept out of `poly` (see addRange).
  struct DeferredRange {
    Linear form;
    DynamicAPInt low, high;
  };
  SmallVector<DeferredRange> deferredRanges;
  /// The quotient variable of each division asked for: x's coefficients and
  /// constant, the divisor, and whether it rounds up. The same quotient
  /// reached twice (t / 32 in a guard and in an offset) is one variable, so
  /// the solver need not find out they are equal.
  std::map<std::tuple<std::vector<int64_t>, int64_t, int64_t, bool>, unsigned>
      quotients;
  /// The variables of values the proof does not follow (any integer).
  SmallVector<unsigned> opaqueVars;
};

/// The guard of `op` (`pred`) with the conditions of the scf.ifs around it,
/// in disjunctive normal form (see BoundsProof.cpp). `disjunction` is set to
/// the op whose disjunction split the guard.
GuardCases collectGuardCases(KernelOp kernel, Operation *op, Value pred,
                             bool split, Operation *&disjunction);

/// What re-evaluating a counterexample in two's complement shows.
enum class Witness {
  /// An execution state that makes the claim false: printed as a fact.
  Real,
  /// It makes the claim false only where a guard part the proof could not
  /// use is dropped: printed as such.
  OutsideUnusedGuard,
  /// It does not make the claim false: an error of the proof.
  Bogus,
};

/// Whether the guard `pred` of `op` and the conditions of the scf.ifs
/// around it hold at the evaluator's point (unknown where one cannot be
/// evaluated).
std::optional<bool> guardsHold(ConcreteEvaluator &evaluator, KernelOp kernel,
                               Operation *op, Value pred);

/// Whether a point whose claim-violation was recomputed (`violated`) is a
/// real execution state.
Witness judgeWitness(ConcreteEvaluator &evaluator, KernelOp kernel,
                     Operation *op, Value pred, bool violated,
                     ArrayRef<UnusedGuard> unusedGuards);

/// A note at each part of the guard the proof left out; `disjunctionWhy`
/// says why its disjunctions were.
void noteUnusedGuards(InFlightDiagnostic &diag,
                      ArrayRef<UnusedGuard> unusedGuards,
                      StringRef disjunctionWhy);

/// A note at each op that, at the witness, wrapped around its type or read
/// a negative value as unsigned: what it computed there.
void noteWrapping(InFlightDiagnostic &diag, const AccessProof &proof,
                  ConcreteEvaluator &evaluator);

/// The SSA offset of dimension `dim` of `region`, or null for a static one.
Value getDynamicOffset(RegionOp region, unsigned dim);

/// A number every value of `form` is a multiple of: the gcd of its
/// coefficients and constant (variables are integers); 0 where `form` is 0.
uint64_t getCommonDivisor(const Linear &form);

/// The offset of dimension `dim` of `region`, as a form of the proof.
FailureOr<Linear> translateOffset(AccessProof &proof, RegionOp region,
                                  unsigned dim);

/// The offset of dimension `dim` of `region` at the evaluator's point.
std::optional<int64_t> evaluateOffset(ConcreteEvaluator &evaluator,
                                      RegionOp region, unsigned dim);

/// The op a tensor value comes from through tirx.region, tirx.view and
/// tirx.reinterpret (its tirx.alloc_shared, or the op where the walk stops;
/// null for a block argument), with the regions on the way appended to
/// `regions` (innermost first) where given.
Operation *getTensorSource(Value tensor,
                           SmallVectorImpl<RegionOp> *regions = nullptr);

/// Whether `value` is computed from thread indices, constants and
/// arithmetic only (`threadOnly`), or from no thread index at all.
bool isComputedFrom(Value value, bool threadOnly);

} // namespace mlir::tirx::proof

#endif // TIRX_LIB_DIALECT_TIRX_IR_ACCESSPROOF_H
