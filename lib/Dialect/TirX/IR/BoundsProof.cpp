//===- BoundsProof.cpp - every memory access inside its tensor ------------===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//
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
//===----------------------------------------------------------------------===//

#include "ConcreteEvaluation.h"

#include "TirX/Dialect/TirX/IR/TirXOps.h"

#include "mlir/Analysis/Presburger/IntegerRelation.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/DynamicAPInt.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Support/CheckedArithmetic.h"
#include "llvm/Support/MathExtras.h"

#include <numeric>

using namespace mlir;
using namespace mlir::tirx;
using llvm::DynamicAPInt;
using presburger::IntegerPolyhedron;
using presburger::PresburgerSpace;
using presburger::VarKind;

namespace {

/// c + Σ coeffs[i]·var_i; `coeffs` may be shorter than the variable list.
struct Linear {
  SmallVector<int64_t> coeffs;
  int64_t constant = 0;
};

/// An integer point of the proof's variables. Hidden variables (quotients,
/// wrap counts) may lie beyond int64; the shown ones never do.
using Point = SmallVector<DynamicAPInt, 8>;

DynamicAPInt powerOfTwo(unsigned exponent) {
  DynamicAPInt result(1);
  for (unsigned i = 0; i < exponent; ++i)
    result *= 2;
  return result;
}
DynamicAPInt signedMin(unsigned width) {
  return DynamicAPInt(llvm::minIntN(width));
}
DynamicAPInt signedMax(unsigned width) {
  return DynamicAPInt(llvm::maxIntN(width));
}

std::string toString(const DynamicAPInt &value) {
  std::string text;
  llvm::raw_string_ostream(text) << value;
  return text;
}

/// "i32", or "index" for 64-bit index values.
std::string typeName(Type type) {
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
constexpr size_t kMaxGuardCases = 16;

constexpr StringLiteral kUnusedComparison =
    "the proof uses affine comparisons (arith.cmpi other than ne), combined "
    "by arith.andi, arith.ori and negation (arith.xori with true)";

/// One proof per access op: the variables and constraints of its indices.
class AccessProof {
public:
  explicit AccessProof(KernelOp kernel)
      : kernel(kernel), poly(PresburgerSpace::getSetSpace(0)) {}

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
  static DynamicAPInt evaluate(const Linear &form, ArrayRef<DynamicAPInt> point);

  /// "block_idx.x = 8191, thread_idx.x = 0" for the shown variables.
  std::string describe(ArrayRef<DynamicAPInt> point) const;

  /// Fixes every leaf the proof has a variable for at its value in `point`.
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
  SmallVector<DynamicAPInt> row(const Linear &form, int64_t sign = 1,
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
  DenseMap<Value, Linear> cache;
  /// Each unsigned reading, and whether it may differ from the signed one.
  DenseMap<Value, std::pair<Linear, bool>> unsignedCache;
  /// The variable of each leaf value (arguments, loop indices, loads).
  DenseMap<Value, unsigned> leafVars;
  /// The variable of block_idx.d (d) and thread_idx.d (d + 3): one per
  /// dimension, however many ops read it.
  DenseMap<unsigned, unsigned> launchVars;
  llvm::SetVector<Operation *> wrappingOps;
  /// Ranges of 64-bit width kept out of `poly` (see addRange).
  struct DeferredRange {
    Linear form;
    DynamicAPInt low, high;
  };
  SmallVector<DeferredRange> deferredRanges;
  /// The variables of values the proof does not follow (any integer).
  SmallVector<unsigned> opaqueVars;
};

Linear variable(unsigned index) {
  Linear form;
  form.coeffs.assign(index + 1, 0);
  form.coeffs[index] = 1;
  return form;
}

Linear constant(int64_t value) {
  Linear form;
  form.constant = value;
  return form;
}

/// a + factor·b, or failure on overflow.
FailureOr<Linear> combine(const Linear &a, int64_t factor, const Linear &b) {
  Linear result = a;
  if (result.coeffs.size() < b.coeffs.size())
    result.coeffs.resize(b.coeffs.size(), 0);
  auto addScaled = [&](int64_t &into, int64_t value) {
    std::optional<int64_t> product = llvm::checkedMul(factor, value);
    std::optional<int64_t> sum =
        product ? llvm::checkedAdd(into, *product) : std::nullopt;
    if (!sum)
      return false;
    into = *sum;
    return true;
  };
  for (auto [index, coeff] : llvm::enumerate(b.coeffs))
    if (!addScaled(result.coeffs[index], coeff))
      return failure();
  if (!addScaled(result.constant, b.constant))
    return failure();
  return result;
}

/// The variable of a form c + v, if it is one.
std::optional<unsigned> getSingleVariable(const Linear &form) {
  std::optional<unsigned> single;
  for (auto [index, coeff] : llvm::enumerate(form.coeffs)) {
    if (coeff == 0)
      continue;
    if (coeff != 1 || single)
      return std::nullopt;
    single = index;
  }
  return single;
}

std::optional<int64_t> getConstant(const Linear &form) {
  if (llvm::any_of(form.coeffs, [](int64_t c) { return c != 0; }))
    return std::nullopt;
  return form.constant;
}

} // namespace

unsigned AccessProof::addVar(std::string name, bool shown) {
  unsigned position = poly.appendVar(VarKind::SetDim);
  vars.push_back({std::move(name), shown, std::nullopt, std::nullopt});
  return position;
}

void AccessProof::tighten(unsigned index, std::optional<DynamicAPInt> lower,
                          std::optional<DynamicAPInt> upper) {
  Var &var = vars[index];
  if (lower && (!var.lower || *lower > *var.lower))
    var.lower = lower;
  if (upper && (!var.upper || *upper < *var.upper))
    var.upper = upper;
}

void AccessProof::addInequality(const Linear &form) {
  poly.addInequality(row(form));
  // a·v + c ≥ 0 bounds v: v ≥ ⌈−c/a⌉ (a > 0) or v ≤ ⌊c/−a⌋ (a < 0).
  std::optional<unsigned> single;
  for (auto [index, coeff] : llvm::enumerate(form.coeffs)) {
    if (coeff == 0)
      continue;
    if (single)
      return;
    single = index;
  }
  if (!single)
    return;
  DynamicAPInt a(form.coeffs[*single]), c(form.constant);
  if (a > 0)
    tighten(*single, llvm::ceilDiv(-c, a), std::nullopt);
  else
    tighten(*single, std::nullopt, llvm::floorDiv(c, -a));
}

std::optional<DynamicAPInt> AccessProof::boundOf(const Linear &form,
                                                 bool upper) const {
  DynamicAPInt total(form.constant);
  for (auto [index, coeff] : llvm::enumerate(form.coeffs)) {
    if (coeff == 0)
      continue;
    const std::optional<DynamicAPInt> &bound =
        (coeff > 0) == upper ? vars[index].upper : vars[index].lower;
    if (!bound)
      return std::nullopt;
    total += DynamicAPInt(coeff) * *bound;
  }
  return total;
}

SmallVector<DynamicAPInt> AccessProof::row(const Linear &form, int64_t sign,
                                           const DynamicAPInt &shift) const {
  SmallVector<DynamicAPInt> result(vars.size() + 1, DynamicAPInt(0));
  for (auto [index, coeff] : llvm::enumerate(form.coeffs))
    result[index] = DynamicAPInt(coeff) * sign;
  result.back() = DynamicAPInt(form.constant) * sign + shift;
  return result;
}

void AccessProof::addRange(const Linear &form, const DynamicAPInt &low,
                           const DynamicAPInt &high) {
  if (std::optional<unsigned> index = getSingleVariable(form))
    tighten(*index, low - form.constant, high - form.constant);
  // A 64-bit range in the set makes every question to the solver compute
  // with numbers past 64 bits (its slow path, ~10x); questions about a
  // value's range use the interval test, and witnesses add it back.
  if (high - low >= DynamicAPInt(int64_t(1) << 40)) {
    deferredRanges.push_back({form, low, high});
    return;
  }
  poly.addInequality(row(form, 1, -low));
  poly.addInequality(row(form, -1, high));
}

std::optional<Point> AccessProof::sampleRow(ArrayRef<DynamicAPInt> inequality,
                                            bool preferSmall) {
  IntegerPolyhedron violation = poly;
  violation.addInequality(inequality);
  std::optional<SmallVector<DynamicAPInt, 8>> sample =
      violation.findIntegerSample();
  if (!sample)
    return std::nullopt;
  // The wide ranges left out of the set must hold at the point too.
  auto outside = [&](const SmallVector<DynamicAPInt, 8> &point) {
    return llvm::any_of(deferredRanges, [&](const DeferredRange &range) {
      DynamicAPInt value = evaluate(range.form, point);
      return value < range.low || value > range.high;
    });
  };
  if (outside(*sample)) {
    for (const DeferredRange &range : deferredRanges) {
      violation.addInequality(row(range.form, 1, -range.low));
      violation.addInequality(row(range.form, -1, range.high));
    }
    sample = violation.findIntegerSample();
    if (!sample)
      return std::nullopt;
  }
  if (!preferSmall)
    return Point(sample->begin(), sample->end());
  // The sampler returns some vertex; a witness reads better with values a
  // user would try (n = 4096 rather than n = 2^62) where one exists.
  DynamicAPInt small(int64_t(1) << 31);
  auto isShownLarge = [&](auto indexed) {
    auto [index, value] = indexed;
    return vars[index].shown && (value > small || value < -small);
  };
  if (llvm::any_of(llvm::enumerate(*sample), isShownLarge)) {
    for (auto [index, var] : llvm::enumerate(vars))
      if (var.shown) {
        violation.addBound(presburger::BoundType::LB, index, -small);
        violation.addBound(presburger::BoundType::UB, index, small);
      }
    if (std::optional<SmallVector<DynamicAPInt, 8>> smaller =
            violation.findIntegerSample();
        smaller && !outside(*smaller))
      sample = smaller;
  }
  return Point(sample->begin(), sample->end());
}

std::optional<Point> AccessProof::sampleWhere(const Linear &form) {
  return sampleRow(row(form), /*preferSmall=*/true);
}

bool AccessProof::provenAtLeast(const Linear &form, const DynamicAPInt &low) {
  // The variables' own bounds settle most questions without the solver.
  if (std::optional<DynamicAPInt> bound = boundOf(form, /*upper=*/false);
      bound && *bound >= low)
    return true;
  // form ≤ low − 1, i.e. low − 1 − form ≥ 0, has no point.
  return !sampleRow(row(form, -1, low - 1));
}

bool AccessProof::provenAtMost(const Linear &form, const DynamicAPInt &high) {
  if (std::optional<DynamicAPInt> bound = boundOf(form, /*upper=*/true);
      bound && *bound <= high)
    return true;
  // form ≥ high + 1 has no point.
  return !sampleRow(row(form, 1, -high - 1));
}

DynamicAPInt AccessProof::evaluate(const Linear &form,
                                   ArrayRef<DynamicAPInt> point) {
  DynamicAPInt value(form.constant);
  for (auto [index, coeff] : llvm::enumerate(form.coeffs))
    value += DynamicAPInt(coeff) * point[index];
  return value;
}

std::string AccessProof::describe(ArrayRef<DynamicAPInt> point) const {
  std::string text;
  llvm::raw_string_ostream os(text);
  llvm::ListSeparator separator;
  for (auto [index, var] : llvm::enumerate(vars))
    if (var.shown)
      os << separator << var.name << " = " << point[index];
  return text;
}

void AccessProof::bindLeaves(ConcreteEvaluator &evaluator,
                             ArrayRef<DynamicAPInt> point) const {
  // Shown variables are inside their type's range: they fit 64 bits.
  for (auto [leaf, index] : leafVars)
    evaluator.bind(leaf, static_cast<int64_t>(point[index]));
  for (auto [key, index] : launchVars)
    evaluator.bindLaunchIndex(key >= 3, key % 3,
                              static_cast<int64_t>(point[index]));
}

FailureOr<Linear> AccessProof::translate(Value value) {
  auto cached = cache.find(value);
  if (cached != cache.end())
    return cached->second;
  FailureOr<Linear> form = failure();
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    Operation *owner = arg.getOwner()->getParentOp();
    if (auto loop = dyn_cast<scf::ForOp>(owner);
        loop && arg == loop.getInductionVar()) {
      form = translateInductionVar(loop);
    } else if (auto name = dyn_cast_if_present<StringAttr>(kernel.getArgAttr(
                   arg.getArgNumber(), TirXDialect::kSizeAttrName));
               owner == kernel.getOperation() && name) {
      form = translateSizeVariable(arg, name.getValue());
    } else if (owner == kernel.getOperation() &&
               value.getType().isIntOrIndex()) {
      // A kernel's scalar argument: any value of its type.
      unsigned position =
          addVar("argument #" + std::to_string(arg.getArgNumber()), true);
      leafVars[value] = position;
      form = variable(position);
      unsigned width = getComputeBitWidth(value.getType());
      addRange(*form, signedMin(width), signedMax(width));
    } else {
      return fail("the block argument #" + Twine(arg.getArgNumber()) + " of '" +
                  owner->getName().getStringRef() +
                  "' is not an index the proof knows");
    }
  } else {
    form = translateOp(value.getDefiningOp());
    if (failed(form) && opaqueValues && value.getType().isIntOrIndex()) {
      unsigned position = addVar(
          "'" + value.getDefiningOp()->getName().getStringRef().str() +
              "' (not followed: any integer)",
          true);
      opaqueVars.push_back(position);
      form = variable(position);
      reason.clear();
    }
  }
  if (failed(form))
    return failure();
  cache[value] = *form;
  return form;
}

FailureOr<Linear> AccessProof::translateSizeVariable(BlockArgument arg,
                                                     StringRef name) {
  // 1 ≤ n ≤ 2^62 (the extent of a tensor in memory), n ≤ its declared
  // largest value, and n = m·k for its declared multiple m.
  unsigned position = addVar(name.str(), true);
  leafVars[arg] = position;
  Linear n = variable(position);
  int64_t atMost = getSizeAtMost(kernel, arg.getArgNumber());
  addInequality(*combine(n, 1, constant(-1)));
  addRange(n, DynamicAPInt(1),
           DynamicAPInt(atMost ? atMost : kLargestSizeValue));
  int64_t multiple = getSizeMultiple(kernel, arg.getArgNumber());
  if (multiple > 1) {
    Linear k = variable(addVar(name.str() + "'s multiple count", false));
    addEquality(*combine(n, -multiple, k));
  }
  return n;
}

FailureOr<Linear> AccessProof::translateExtent(tirx::TensorType type,
                                               unsigned dim) {
  StringAttr name = type.getSizeName(dim);
  if (!name)
    return constant(type.getShape()[dim]);
  BlockArgument arg = getSizeArgument(kernel, name);
  if (!arg)
    return fail("no argument declares size variable '" + name.getValue() + "'");
  return translate(arg);
}

FailureOr<Linear> AccessProof::translateAffine(AffineExpr expr) {
  if (auto value = dyn_cast<AffineConstantExpr>(expr))
    return constant(value.getValue());
  if (auto symbol = dyn_cast<AffineSymbolExpr>(expr))
    return translate(kernel.getArgument(symbol.getPosition()));
  // Grid maps have no dimensions (LaunchConfigAttr's verifier).
  auto binary = cast<AffineBinaryOpExpr>(expr);
  FailureOr<Linear> lhs = translateAffine(binary.getLHS());
  if (failed(lhs))
    return failure();
  FailureOr<Linear> rhs = translateAffine(binary.getRHS());
  if (failed(rhs))
    return failure();
  switch (expr.getKind()) {
  case AffineExprKind::Add: {
    FailureOr<Linear> sum = combine(*lhs, 1, *rhs);
    return failed(sum) ? overflow() : sum;
  }
  case AffineExprKind::Mul: {
    std::optional<int64_t> c = getConstant(*rhs);
    const Linear *other = &*lhs;
    if (!c) {
      c = getConstant(*lhs);
      other = &*rhs;
    }
    if (!c)
      // check-diagnostics: internal, KernelOp's verifier rejects it
      return fail("a grid extent multiplies two size variables");
    FailureOr<Linear> product = combine(constant(0), *c, *other);
    return failed(product) ? overflow() : product;
  }
  default: {
    std::optional<int64_t> divisor = getConstant(*rhs);
    if (!divisor || *divisor <= 0)
      // check-diagnostics: internal, KernelOp's verifier rejects it
      return fail("a grid extent divides by a non-constant");
    return divide(*lhs, *divisor, expr.getKind() == AffineExprKind::CeilDiv,
                  expr.getKind() == AffineExprKind::Mod, "grid extent");
  }
  }
}

FailureOr<Linear> AccessProof::divide(const Linear &x, int64_t divisor,
                                      bool ceiling, bool remainder,
                                      StringRef what) {
  Linear q = variable(addVar(what.str() + " quotient", false));
  FailureOr<Linear> scaled = combine(constant(0), divisor, q);
  if (failed(scaled))
    return overflow();
  // rest = x − c·q, in [0, c) (floor) or (−c, 0] (ceiling).
  FailureOr<Linear> rest = combine(x, -1, *scaled);
  if (failed(rest))
    return overflow();
  if (ceiling) {
    addInequality(*combine(constant(0), -1, *rest));
    addInequality(*combine(*rest, 1, constant(divisor - 1)));
  } else {
    addInequality(*rest);
    addInequality(*combine(constant(divisor - 1), -1, *rest));
  }
  // q's bounds follow x's.
  auto quotientOf = [&](std::optional<DynamicAPInt> bound) {
    if (!bound)
      return bound;
    DynamicAPInt c(divisor);
    return std::optional(ceiling ? llvm::ceilDiv(*bound, c)
                                 : llvm::floorDiv(*bound, c));
  };
  tighten(q.coeffs.size() - 1, quotientOf(boundOf(x, /*upper=*/false)),
          quotientOf(boundOf(x, /*upper=*/true)));
  return remainder ? *rest : q;
}

FailureOr<Linear> AccessProof::timesPowerOfTwo(unsigned exponent,
                                               const Twine &name) {
  Linear q = variable(addVar(name.str(), false));
  if (exponent <= 62)
    return combine(constant(0), int64_t(1) << exponent, q);
  // 2^exponent·q = 2^(exponent − 32)·t with t = 2^32·q.
  Linear t = variable(addVar(name.str() + " scaled", false));
  addEquality(*combine(t, -(int64_t(1) << 32), q));
  if (exponent - 32 > 62)
    return overflow();
  return combine(constant(0), int64_t(1) << (exponent - 32), t);
}

FailureOr<Linear> AccessProof::wrapToWidth(const Linear &exact, unsigned width,
                                           Operation *op) {
  // A form of a value the proof does not follow (alignment claims only) is
  // any integer already: x − 2^k·q with a free q contains every wrapped
  // value and keeps x modulo 2^k ≥ any claim, without the large bounds
  // that make the solver slow. Sound; its witnesses are not re-evaluated.
  if (llvm::any_of(opaqueVars, [&](unsigned index) {
        return index < exact.coeffs.size() && exact.coeffs[index] != 0;
      })) {
    unsigned exponent = std::min(width, 32u);
    Linear q = variable(addVar("'" + op->getName().getStringRef().str() +
                                   "' wrap count",
                               false));
    FailureOr<Linear> result =
        combine(exact, -(int64_t(1) << exponent), q);
    if (failed(result))
      return overflow();
    // The result is still of the opaque values: it wraps freely too.
    opaqueVars.push_back(q.coeffs.size() - 1);
    return result;
  }
  DynamicAPInt low = signedMin(width), high = signedMax(width);
  if (provenAtLeast(exact, low) && provenAtMost(exact, high))
    return exact;
  FailureOr<Linear> wraps = timesPowerOfTwo(
      width, "'" + op->getName().getStringRef() + "' wrap count");
  if (failed(wraps))
    return failure();
  FailureOr<Linear> difference = combine(exact, -1, *wraps);
  if (failed(difference))
    return overflow();
  // The result as a variable of its own, so that its range is known to the
  // interval test.
  Linear result = variable(
      addVar("'" + op->getName().getStringRef().str() + "' result", false));
  addEquality(*combine(result, -1, *difference));
  addRange(result, low, high);
  wrappingOps.insert(op);
  return result;
}

FailureOr<Linear> AccessProof::translateUnsigned(Value value,
                                                 Operation *reader) {
  auto cached = unsignedCache.find(value);
  if (cached != unsignedCache.end()) {
    if (cached->second.second)
      wrappingOps.insert(reader);
    return cached->second.first;
  }
  FailureOr<Linear> reading = translate(value);
  if (failed(reading))
    return failure();
  bool mayBeNegative = !provenNonNegative(*reading);
  if (mayBeNegative) {
    unsigned width = getComputeBitWidth(value.getType());
    FailureOr<Linear> wraps = timesPowerOfTwo(
        width, "'" + reader->getName().getStringRef() + "' unsigned reading");
    if (failed(wraps))
      return failure();
    FailureOr<Linear> sum = combine(*reading, 1, *wraps);
    if (failed(sum))
      return overflow();
    reading = variable(addVar(
        "'" + reader->getName().getStringRef().str() + "' unsigned value",
        false));
    addEquality(*combine(*reading, -1, *sum));
    addRange(*reading, DynamicAPInt(0), powerOfTwo(width) - 1);
    wrappingOps.insert(reader);
  }
  unsignedCache[value] = {*reading, mayBeNegative};
  return reading;
}

std::optional<Point> AccessProof::sampleNotMultiple(const Linear &form,
                                                    int64_t divisor) {
  // form = divisor·q + r with 1 ≤ r ≤ divisor − 1, on a copy of the set.
  IntegerPolyhedron saved = poly;
  size_t savedVars = vars.size();
  Linear q = variable(addVar("quotient", false));
  Linear r = variable(addVar("remainder", false));
  std::optional<Point> point;
  FailureOr<Linear> scaled = combine(r, divisor, q);
  FailureOr<Linear> equation = succeeded(scaled) ? combine(form, -1, *scaled)
                                                 : FailureOr<Linear>(failure());
  if (succeeded(equation)) {
    addEquality(*equation);
    addInequality(*combine(r, 1, constant(-1)));
    addInequality(*combine(constant(divisor - 1), -1, r));
    point = sampleWhere(constant(0));
  }
  poly = saved;
  vars.truncate(savedVars);
  return point;
}

void AccessProof::addGuardCase(ArrayRef<GuardLiteral> literals,
                               SmallVectorImpl<UnusedGuard> &unused) {
  for (const GuardLiteral &literal : literals)
    addGuard(literal.pred, literal.negated, unused);
}

FailureOr<Linear> AccessProof::translateInductionVar(scf::ForOp loop) {
  unsigned depth = 0;
  for (Operation *parent = loop->getParentOp(); parent && parent != kernel;
       parent = parent->getParentOp())
    depth += isa<scf::ForOp>(parent);
  std::string name = "loop #" + std::to_string(depth) + "'s index";
  if (loop.getUnsignedCmp())
    return fail("the unsigned loop of " + name + " is not supported");
  FailureOr<Linear> lower = translate(loop.getLowerBound());
  if (failed(lower))
    return failure();
  FailureOr<Linear> upper = translate(loop.getUpperBound());
  if (failed(upper))
    return failure();
  FailureOr<Linear> step = translate(loop.getStep());
  if (failed(step))
    return failure();
  unsigned position = addVar(name, true);
  leafVars[loop.getInductionVar()] = position;
  Linear iv = variable(position);
  // lb ≤ iv ≤ ub − 1.
  FailureOr<Linear> aboveLower = combine(iv, -1, *lower);
  FailureOr<Linear> belowUpper = combine(*upper, -1, iv);
  if (failed(aboveLower) || failed(belowUpper))
    return overflow();
  addInequality(*aboveLower);
  addInequality(*combine(*belowUpper, 1, constant(-1)));
  std::optional<DynamicAPInt> upperBound = boundOf(*upper, /*upper=*/true);
  tighten(position, boundOf(*lower, /*upper=*/false),
          upperBound ? std::optional(*upperBound - 1) : std::nullopt);
  // iv = lb + step·k, k ≥ 0, for a constant step > 1.
  std::optional<int64_t> stride = getConstant(*step);
  if (stride && *stride > 1) {
    Linear k = variable(addVar(name + "'s step count", false));
    addInequality(k);
    FailureOr<Linear> offset = combine(*aboveLower, -*stride, k);
    if (failed(offset))
      return overflow();
    addEquality(*offset);
  }
  // The loop steps with a wrapping add and exits when the index is no
  // longer below ub: an index that wrapped past the largest value would pass
  // that test and go on. So iv + step must stay in the type at every
  // iteration.
  Type type = loop.getInductionVar().getType();
  DynamicAPInt largest = signedMax(getComputeBitWidth(type));
  FailureOr<Linear> next = combine(iv, 1, *step);
  if (failed(next))
    return overflow();
  if (std::optional<Point> point = sampleRow(row(*next, 1, -largest - 1))) {
    wrapFailure = true;
    return fail(name + " may wrap around in " + typeName(type) +
                ": its value " + toString(evaluate(iv, *point)) +
                " plus the step " + toString(evaluate(*step, *point)) +
                " exceeds " + toString(largest));
  }
  return iv;
}

FailureOr<Linear> AccessProof::translateLaunchIndex(Value result, bool thread,
                                                    Dim dim) {
  unsigned key = static_cast<unsigned>(dim) + (thread ? 3 : 0);
  auto known = launchVars.find(key);
  if (known != launchVars.end())
    return variable(known->second);
  FailureOr<Linear> extent = constant(1);
  if (thread) {
    ArrayRef<int64_t> block = kernel.getLaunch().getBlock();
    if (static_cast<unsigned>(dim) < block.size())
      extent = constant(block[static_cast<unsigned>(dim)]);
  } else {
    LaunchConfigAttr launch = kernel.getLaunch();
    if (static_cast<unsigned>(dim) < launch.getGrid().size())
      extent = translateAffine(launch.getGridExpr(static_cast<unsigned>(dim)));
  }
  if (failed(extent))
    return failure();
  unsigned position =
      addVar((thread ? "thread_idx." : "block_idx.") + stringifyDim(dim).str(),
             true);
  launchVars[key] = position;
  Linear v = variable(position);
  addInequality(v);
  addInequality(*combine(*combine(*extent, -1, v), 1, constant(-1)));
  if (std::optional<DynamicAPInt> largest = boundOf(*extent, /*upper=*/true))
    tighten(position, std::nullopt, *largest - 1);
  return v;
}

Linear AccessProof::translateLoaded(Operation *load, unsigned width) {
  unsigned position =
      addVar("loaded value #" + std::to_string(loads.size()), true);
  leafVars[load->getResult(0)] = position;
  loads.push_back(load);
  Linear v = variable(position);
  addRange(v, signedMin(width), signedMax(width));
  return v;
}

FailureOr<Linear> AccessProof::translateOp(Operation *op) {
  if (auto constantOp = dyn_cast<arith::ConstantOp>(op)) {
    if (auto value = dyn_cast<IntegerAttr>(constantOp.getValue()))
      return constant(value.getValue().getSExtValue());
  }
  if (auto index = dyn_cast<BlockIdxOp>(op))
    return translateLaunchIndex(index.getResult(), false, index.getDim());
  if (auto index = dyn_cast<ThreadIdxOp>(op))
    return translateLaunchIndex(index.getResult(), true, index.getDim());
  if (auto load = dyn_cast<SlotLoadOp>(op);
      load && load.getType().isSignlessInteger())
    return translateLoaded(op, load.getType().getIntOrFloatBitWidth());
  // Casts: truncation wraps, sign extension keeps the signed reading, zero
  // extension is the unsigned reading.
  if (isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp,
          arith::ExtUIOp, arith::TruncIOp>(op)) {
    Value source = op->getOperand(0);
    unsigned from = getComputeBitWidth(source.getType());
    unsigned to = getComputeBitWidth(op->getResult(0).getType());
    if (to > from && isa<arith::IndexCastUIOp, arith::ExtUIOp>(op))
      return translateUnsigned(source, op);
    FailureOr<Linear> value = translate(source);
    if (failed(value) || to >= from)
      return value;
    return wrapToWidth(*value, to, op);
  }
  if (!isa<arith::AddIOp, arith::SubIOp, arith::MulIOp, arith::ShLIOp,
           arith::ShRSIOp, arith::ShRUIOp, arith::DivSIOp, arith::DivUIOp,
           arith::FloorDivSIOp, arith::CeilDivSIOp, arith::RemSIOp,
           arith::RemUIOp>(op))
    return fail("'" + op->getName().getStringRef() +
                "' is not an affine operation on indices");
  StringRef name = op->getName().getStringRef();
  unsigned width = getComputeBitWidth(op->getResult(0).getType());
  bool readsUnsigned = isa<arith::ShRUIOp, arith::DivUIOp, arith::RemUIOp>(op);
  FailureOr<Linear> lhs = readsUnsigned
                              ? translateUnsigned(op->getOperand(0), op)
                              : translate(op->getOperand(0));
  if (failed(lhs))
    return failure();
  FailureOr<Linear> rhs = translate(op->getOperand(1));
  if (failed(rhs))
    return failure();
  auto wrapped = [&](FailureOr<Linear> exact) -> FailureOr<Linear> {
    if (failed(exact))
      return overflow();
    return wrapToWidth(*exact, width, op);
  };
  if (isa<arith::AddIOp>(op))
    return wrapped(combine(*lhs, 1, *rhs));
  if (isa<arith::SubIOp>(op))
    return wrapped(combine(*lhs, -1, *rhs));
  if (isa<arith::MulIOp>(op)) {
    if (std::optional<int64_t> c = getConstant(*rhs))
      return wrapped(combine(constant(0), *c, *lhs));
    if (std::optional<int64_t> c = getConstant(*lhs))
      return wrapped(combine(constant(0), *c, *rhs));
    return fail("'arith.muli' of two non-constant values");
  }
  if (isa<arith::ShLIOp, arith::ShRSIOp, arith::ShRUIOp>(op)) {
    // A shift by the width or more is poison; shifts by 63 of 64-bit values
    // have no int64 coefficient.
    std::optional<int64_t> amount = getConstant(*rhs);
    if (!amount || *amount < 0 || *amount >= std::min(width, 63u))
      return fail("'" + name + "' by an amount that is not a constant in [0, " +
                  Twine(std::min(width, 63u)) + ")");
    if (isa<arith::ShLIOp>(op))
      return wrapped(combine(constant(0), int64_t(1) << *amount, *lhs));
    if (*amount == 0)
      return isa<arith::ShRUIOp>(op) ? wrapped(*lhs) : *lhs;
    // An arithmetic shift is a floor division; a logical one, of the
    // unsigned reading, too.
    return divide(*lhs, int64_t(1) << *amount, /*ceiling=*/false,
                  /*remainder=*/false, name);
  }
  // Division and remainder by a positive constant c: the quotient q is a new
  // variable with c·q ≤ x ≤ c·q + c − 1 (floor) or c·q − c + 1 ≤ x ≤ c·q
  // (ceiling). Truncating division is a floor of a value that is proven
  // non-negative; unsigned division a floor of the unsigned reading.
  std::optional<int64_t> divisor = getConstant(*rhs);
  if (!divisor || *divisor <= 0)
    return fail("'" + name + "' by a divisor that is not a positive constant");
  if (isa<arith::DivSIOp, arith::RemSIOp>(op) && !provenNonNegative(*lhs))
    return fail("'" + name + "' of a value that may be negative");
  FailureOr<Linear> result =
      divide(*lhs, *divisor, isa<arith::CeilDivSIOp>(op),
             isa<arith::RemSIOp, arith::RemUIOp>(op), name);
  // The unsigned quotient by 1 is the unsigned reading: it may not fit.
  if (succeeded(result) && isa<arith::DivUIOp>(op))
    return wrapped(*result);
  return result;
}

void AccessProof::addGuard(Value pred, bool negated,
                           SmallVectorImpl<UnusedGuard> &unused) {
  Operation *op = pred.getDefiningOp();
  if (isa_and_present<arith::AndIOp, arith::OrIOp>(op)) {
    // A disjunction expandGuard did not split (its callers' notes say why):
    // expandGuard splits every conjunction.
    unused.push_back({op, ""});
    return;
  }
  if (auto constantOp = dyn_cast_if_present<arith::ConstantOp>(op)) {
    if (auto value = dyn_cast<IntegerAttr>(constantOp.getValue());
        value && value.getValue().isZero() != negated)
      addInequality(constant(-1)); // never executes
    return;
  }
  auto compare = dyn_cast_if_present<arith::CmpIOp>(op);
  if (!compare) {
    if (op)
      unused.push_back({op, kUnusedComparison});
    return;
  }
  using P = arith::CmpIPredicate;
  P predicate = compare.getPredicate();
  if (negated)
    predicate = arith::invertPredicate(predicate);
  // Unsigned order is the order of the unsigned readings.
  bool isUnsigned = predicate == P::ult || predicate == P::ule ||
                    predicate == P::ugt || predicate == P::uge;
  std::string savedReason = reason;
  auto side = [&](Value value) {
    return isUnsigned ? translateUnsigned(value, op) : translate(value);
  };
  FailureOr<Linear> lhs = side(compare.getLhs());
  FailureOr<Linear> rhs =
      succeeded(lhs) ? side(compare.getRhs()) : FailureOr<Linear>();
  reason = savedReason;
  if (failed(lhs) || failed(rhs)) {
    unused.push_back({op, kUnusedComparison});
    return;
  }
  // difference ≥ 0 (or = 0).
  FailureOr<Linear> difference = failure();
  switch (predicate) {
  case P::slt:
  case P::ult: // rhs − lhs − 1 ≥ 0
    difference = combine(*rhs, -1, *lhs);
    if (succeeded(difference))
      difference = combine(*difference, 1, constant(-1));
    break;
  case P::sle:
  case P::ule:
    difference = combine(*rhs, -1, *lhs);
    break;
  case P::sgt:
  case P::ugt:
    difference = combine(*lhs, -1, *rhs);
    if (succeeded(difference))
      difference = combine(*difference, 1, constant(-1));
    break;
  case P::sge:
  case P::uge:
  case P::eq:
    difference = combine(*lhs, -1, *rhs);
    break;
  case P::ne:
    break;
  }
  if (failed(difference)) {
    unused.push_back({op, kUnusedComparison});
    return;
  }
  if (predicate == P::eq)
    addEquality(*difference);
  else
    addInequality(*difference);
}

//===----------------------------------------------------------------------===//
// Guards in disjunctive normal form
//===----------------------------------------------------------------------===//

/// Whether `value` is the i1 constant true.
static bool isTrue(Value value) {
  auto constantOp = value.getDefiningOp<arith::ConstantOp>();
  auto attr =
      constantOp ? dyn_cast<IntegerAttr>(constantOp.getValue()) : IntegerAttr();
  return attr && attr.getType().isInteger(1) && attr.getValue().isOne();
}

/// Every conjunction of a case of `lhs` and a case of `rhs`.
static GuardCases conjoin(const GuardCases &lhs, const GuardCases &rhs) {
  GuardCases result;
  for (const auto &left : lhs)
    for (const auto &right : rhs) {
      auto &both = result.emplace_back(left);
      both.append(right.begin(), right.end());
    }
  return result;
}

/// The disjunctive normal form of `pred` (of its negation when `negated`):
/// arith.andi and arith.ori split by De Morgan, arith.xori with true negates.
/// A disjunction stays one literal unless `split` (addGuard leaves it out);
/// the first one split is `disjunction`. Sets `tooMany` instead of building
/// more than kMaxGuardCases cases.
static GuardCases expandGuard(Value pred, bool negated, bool split,
                              Operation *&disjunction, bool &tooMany) {
  GuardCases literal{{GuardLiteral{pred, negated}}};
  Operation *op = pred.getDefiningOp();
  if (auto exclusive = dyn_cast_if_present<arith::XOrIOp>(op)) {
    if (isTrue(exclusive.getRhs()))
      return expandGuard(exclusive.getLhs(), !negated, split, disjunction,
                         tooMany);
    if (isTrue(exclusive.getLhs()))
      return expandGuard(exclusive.getRhs(), !negated, split, disjunction,
                         tooMany);
    return literal;
  }
  bool isAnd = isa_and_present<arith::AndIOp>(op);
  if (!isAnd && !isa_and_present<arith::OrIOp>(op))
    return literal;
  // ¬(a ∧ b) = ¬a ∨ ¬b and ¬(a ∨ b) = ¬a ∧ ¬b.
  bool conjunction = isAnd != negated;
  if (!conjunction && !split)
    return literal;
  GuardCases lhs =
      expandGuard(op->getOperand(0), negated, split, disjunction, tooMany);
  GuardCases rhs =
      expandGuard(op->getOperand(1), negated, split, disjunction, tooMany);
  size_t count =
      conjunction ? lhs.size() * rhs.size() : lhs.size() + rhs.size();
  if (tooMany || count > kMaxGuardCases) {
    tooMany = true;
    return literal;
  }
  if (conjunction)
    return conjoin(lhs, rhs);
  if (!disjunction)
    disjunction = op;
  lhs.append(rhs.begin(), rhs.end());
  return lhs;
}

/// The cases of the guard of `op`: `pred` (null for none) and the
/// conditions of the scf.ifs around it (negated in an else branch). With
/// `split`, disjunctions split the guard into cases; where that would make
/// more than kMaxGuardCases, or without `split`, it is one case and each
/// disjunction is a literal addGuard leaves out.
static GuardCases collectGuardCases(KernelOp kernel, Operation *op, Value pred,
                                    bool split, Operation *&disjunction) {
  SmallVector<GuardLiteral> roots;
  if (pred)
    roots.push_back({pred, false});
  for (Operation *inner = op, *parent = inner->getParentOp();
       parent && parent != kernel.getOperation();
       inner = parent, parent = parent->getParentOp())
    if (auto ifOp = dyn_cast<scf::IfOp>(parent))
      roots.push_back({ifOp.getCondition(),
                       inner->getParentRegion() == &ifOp.getElseRegion()});
  for (bool trySplit : {split, false}) {
    bool tooMany = false;
    disjunction = nullptr;
    GuardCases cases(1);
    for (const GuardLiteral &root : roots) {
      GuardCases expanded =
          expandGuard(root.pred, root.negated, trySplit, disjunction, tooMany);
      if (tooMany || cases.size() * expanded.size() > kMaxGuardCases) {
        tooMany = true;
        break;
      }
      cases = conjoin(cases, expanded);
    }
    if (!tooMany)
      return cases;
  }
  llvm_unreachable("a guard without split is one case");
}

//===----------------------------------------------------------------------===//
// Diagnostics and witnesses
//===----------------------------------------------------------------------===//

/// How the diagnostic names a region's source tensor.
static std::string describeSource(Value source) {
  if (auto arg = dyn_cast<BlockArgument>(source))
    return "kernel argument #" + std::to_string(arg.getArgNumber());
  return "the '" + source.getDefiningOp()->getName().getStringRef().str() +
         "' result";
}

/// "extent 4096" or "extent n".
static std::string describeExtent(tirx::TensorType type, unsigned dim) {
  if (StringAttr name = type.getSizeName(dim))
    return "extent " + name.getValue().str();
  return "extent " + std::to_string(type.getShape()[dim]);
}

/// Whether dimension `dim` of a region needs the proof: a dynamic offset,
/// or a runtime extent.
static bool needsProof(RegionOp region, unsigned dim) {
  return ShapedType::isDynamic(region.getStaticOffsets()[dim]) ||
         ShapedType::isDynamic(region.getSource().getType().getShape()[dim]);
}

/// The SSA offset of dimension `dim` of `region`, or null for a static one.
static Value getDynamicOffset(RegionOp region, unsigned dim) {
  ArrayRef<int64_t> offsets = region.getStaticOffsets();
  if (!ShapedType::isDynamic(offsets[dim]))
    return {};
  unsigned position =
      llvm::count_if(offsets.take_front(dim), ShapedType::isDynamic);
  return region.getOffsets()[position];
}

/// The offset of dimension `dim` of `region`, as a form of the proof.
static FailureOr<Linear> translateOffset(AccessProof &proof, RegionOp region,
                                         unsigned dim) {
  if (Value offset = getDynamicOffset(region, dim))
    return proof.translate(offset);
  return constant(region.getStaticOffsets()[dim]);
}

/// The offset of dimension `dim` of `region` at the evaluator's point.
static std::optional<int64_t> evaluateOffset(ConcreteEvaluator &evaluator,
                                             RegionOp region, unsigned dim) {
  if (Value offset = getDynamicOffset(region, dim))
    return evaluator.evaluateSigned(offset);
  return region.getStaticOffsets()[dim];
}

/// A note at each part of the guard the proof left out; `disjunctionWhy`
/// says why its disjunctions were.
static void noteUnusedGuards(InFlightDiagnostic &diag,
                             ArrayRef<UnusedGuard> unusedGuards,
                             StringRef disjunctionWhy) {
  for (const UnusedGuard &unused : unusedGuards) {
    if (unused.why.empty())
      diag.attachNote(unused.op->getLoc())
          << "this disjunction (arith.ori, or a negated arith.andi) of the "
             "guard was not used: "
          << disjunctionWhy;
    else
      diag.attachNote(unused.op->getLoc())
          << "this part of the guard was not used: " << unused.why;
  }
}

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
static std::optional<bool> guardsHold(ConcreteEvaluator &evaluator,
                                      KernelOp kernel, Operation *op,
                                      Value pred) {
  if (pred) {
    std::optional<bool> holds = evaluator.holds(pred);
    if (!holds || !*holds)
      return holds;
  }
  for (Operation *inner = op, *parent = inner->getParentOp();
       parent && parent != kernel.getOperation();
       inner = parent, parent = parent->getParentOp()) {
    auto ifOp = dyn_cast<scf::IfOp>(parent);
    if (!ifOp)
      continue;
    std::optional<bool> holds = evaluator.holds(ifOp.getCondition());
    if (!holds)
      return std::nullopt;
    if (*holds != (inner->getParentRegion() == &ifOp.getThenRegion()))
      return false;
  }
  return true;
}

/// Whether a point whose claim-violation was recomputed (`violated`) is a
/// real execution state.
static Witness judgeWitness(ConcreteEvaluator &evaluator, KernelOp kernel,
                            Operation *op, Value pred, bool violated,
                            ArrayRef<UnusedGuard> unusedGuards) {
  if (!violated || !evaluator.checkDomain().empty())
    return Witness::Bogus;
  std::optional<bool> guards = guardsHold(evaluator, kernel, op, pred);
  if (guards && *guards)
    return Witness::Real;
  return unusedGuards.empty() ? Witness::Bogus : Witness::OutsideUnusedGuard;
}

/// "2147483647 + 1": an operation's operands at the witness, in its
/// notation.
static std::optional<std::string>
describeExactResult(ConcreteEvaluator &evaluator, Operation *op,
                    DynamicAPInt &exact) {
  std::optional<int64_t> a = evaluator.evaluateSigned(op->getOperand(0));
  std::optional<int64_t> b = evaluator.evaluateSigned(op->getOperand(1));
  if (!a || !b)
    return std::nullopt;
  StringRef symbol;
  if (isa<arith::AddIOp>(op)) {
    exact = DynamicAPInt(*a) + DynamicAPInt(*b);
    symbol = " + ";
  } else if (isa<arith::SubIOp>(op)) {
    exact = DynamicAPInt(*a) - DynamicAPInt(*b);
    symbol = " - ";
  } else if (isa<arith::MulIOp>(op)) {
    exact = DynamicAPInt(*a) * DynamicAPInt(*b);
    symbol = " * ";
  } else if (isa<arith::ShLIOp>(op) && *b >= 0 && *b < 64) {
    exact = DynamicAPInt(*a) * powerOfTwo(*b);
    symbol = " << ";
  } else {
    return std::nullopt;
  }
  return std::to_string(*a) + symbol.str() + std::to_string(*b);
}

/// A note at each op that, at the witness, wrapped around its type or read
/// a negative value as unsigned: what it computed there.
static void noteWrapping(InFlightDiagnostic &diag, const AccessProof &proof,
                         ConcreteEvaluator &evaluator) {
  auto noteUnsignedReading = [&](Operation *op, Value operand) {
    std::optional<llvm::APInt> bits = evaluator.evaluate(operand);
    if (!bits || !bits->isNegative())
      return false;
    diag.attachNote(op->getLoc())
        << "this '" << op->getName() << "' reads the "
        << typeName(operand.getType()) << " value " << bits->getSExtValue()
        << " as unsigned: " << bits->getZExtValue();
    return true;
  };
  for (Operation *op : proof.getWrappingOps()) {
    Value result = op->getNumResults() ? op->getResult(0) : Value();
    if (isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp,
            arith::ExtUIOp, arith::TruncIOp>(op)) {
      Value source = op->getOperand(0);
      if (getComputeBitWidth(result.getType()) >
          getComputeBitWidth(source.getType())) {
        noteUnsignedReading(op, source);
        continue;
      }
      std::optional<int64_t> from = evaluator.evaluateSigned(source);
      std::optional<int64_t> to = evaluator.evaluateSigned(result);
      if (from && to && *from != *to)
        diag.attachNote(op->getLoc())
            << "this '" << op->getName() << "' truncates " << *from << " to "
            << typeName(result.getType()) << ": " << *to;
      continue;
    }
    if (isa<arith::CmpIOp>(op)) {
      for (Value operand : op->getOperands())
        noteUnsignedReading(op, operand);
      continue;
    }
    if (isa<arith::DivUIOp, arith::RemUIOp, arith::ShRUIOp>(op)) {
      noteUnsignedReading(op, op->getOperand(0));
      continue;
    }
    DynamicAPInt exact(0);
    std::optional<std::string> expression =
        describeExactResult(evaluator, op, exact);
    std::optional<int64_t> wrapped = evaluator.evaluateSigned(result);
    if (!expression || !wrapped || exact == DynamicAPInt(*wrapped))
      continue;
    diag.attachNote(op->getLoc())
        << "this '" << op->getName() << "' wraps around in "
        << typeName(result.getType()) << ": " << *expression << " = "
        << *wrapped;
  }
}

/// Proves one global/shared operand of `op` in bounds.
static LogicalResult verifyOperand(KernelOp kernel, TensorAccessOpInterface op,
                                   OpOperand &operand, StringRef verb) {
  // The regions on the chain with a dimension to prove.
  SmallVector<RegionOp> regions;
  for (Value current = operand.get();
       Operation *def = current.getDefiningOp();) {
    if (auto region = dyn_cast<RegionOp>(def)) {
      if (llvm::any_of(llvm::seq<unsigned>(0, region.getStaticSizes().size()),
                       [&](unsigned dim) { return needsProof(region, dim); }))
        regions.push_back(region);
      current = region.getSource();
    } else if (isa<ViewOp, ReinterpretOp>(def)) {
      // Both stay within their source's storage (verified).
      current = def->getOperand(0);
    } else {
      break;
    }
  }
  if (regions.empty())
    return success();

  // The guard with the conditions of the scf.ifs the op runs under (T.If in
  // Python), one proof per case of its disjunctions.
  Value guard = op.getAccessGuard();
  Operation *disjunction = nullptr;
  GuardCases cases = collectGuardCases(kernel, op.getOperation(), guard,
                                       /*split=*/true, disjunction);
  auto describeOperand = [&]() {
    return op.describeAccessOperand(operand.getOperandNumber());
  };

  for (auto [caseIndex, literals] : llvm::enumerate(cases)) {
    AccessProof proof(kernel);
    SmallVector<UnusedGuard> unusedGuards;
    proof.addGuardCase(literals, unusedGuards);
    for (RegionOp region : regions) {
      tirx::TensorType sourceType = region.getSource().getType();
      ArrayRef<int64_t> sizes = region.getStaticSizes();
      std::string source = describeSource(region.getSource());
      for (unsigned dim = 0, rank = sizes.size(); dim < rank; ++dim) {
        if (!needsProof(region, dim))
          continue;
        FailureOr<Linear> offset = translateOffset(proof, region, dim);
        FailureOr<Linear> extent = failed(offset)
                                       ? FailureOr<Linear>(failure())
                                       : proof.translateExtent(sourceType, dim);
        if (failed(offset) || failed(extent)) {
          InFlightDiagnostic diag = op->emitOpError()
                                    << describeOperand()
                                    << ": cannot prove the access in bounds: ";
          if (!proof.wrapFailure)
            diag << "the offset of dimension " << dim << " into " << source
                 << " is not affine in the indices: ";
          diag << proof.reason;
          diag.attachNote(region.getLoc()) << "the region is here";
          return diag;
        }
        // offset ≤ −1, or offset + size − 1 ≥ extent.
        Linear below = *combine(constant(-1), -1, *offset);
        FailureOr<Linear> end = combine(*offset, 1, constant(sizes[dim] - 1));
        FailureOr<Linear> above = succeeded(end) ? combine(*end, -1, *extent)
                                                 : FailureOr<Linear>(failure());
        if (failed(above))
          return op->emitOpError()
                 << describeOperand() << ": cannot prove the access in bounds: "
                 << "the integer arithmetic overflows 64 bits";
        for (bool upper : {false, true}) {
          // A masked region's accesses stop at the extent (each repeat is
          // predicated on it): only its offsets' lower bound needs proof.
          if (upper && region.getMasked())
            continue;
          std::optional<Point> point =
              proof.sampleWhere(upper ? *above : below);
          if (!point)
            continue;
          // The access at the point, as the hardware computes it.
          ConcreteEvaluator evaluator(kernel);
          proof.bindLeaves(evaluator, *point);
          std::optional<int64_t> first = evaluateOffset(evaluator, region, dim);
          std::optional<int64_t> extentValue =
              sourceType.getSizeName(dim)
                  ? evaluator.evaluateSigned(
                        getSizeArgument(kernel, sourceType.getSizeName(dim)))
                  : std::optional<int64_t>(sourceType.getShape()[dim]);
          bool violated =
              first && extentValue &&
              (upper ? DynamicAPInt(*first) + sizes[dim] > *extentValue
                     : *first < 0);
          Witness verdict = judgeWitness(evaluator, kernel, op, guard, violated,
                                         unusedGuards);
          std::string witness = proof.describe(*point);
          if (verdict == Witness::Bogus)
            // check-diagnostics: internal, a counterexample that does not
            // reproduce is an error of the proof
            return op->emitOpError()
                   << describeOperand()
                   << ": cannot prove the access in bounds "
                   << "(the proof's counterexample " << witness
                   << " does not reproduce when evaluated: an error in TirX's "
                      "bounds proof, please report it)";
          int64_t index = upper ? std::max(*first, *extentValue) : *first;
          InFlightDiagnostic diag = op->emitOpError() << describeOperand();
          if (verdict == Witness::OutsideUnusedGuard)
            diag << ": cannot prove the access in bounds: without the parts "
                    "of its guard the proof cannot use, it";
          diag << " may " << verb << " index " << index << " of dimension "
               << dim << " of " << source << " ("
               << describeExtent(sourceType, dim) << ")";
          if (!witness.empty())
            diag << ": with " << witness;
          diag.attachNote(region.getLoc()) << "the region is here";
          if (cases.size() > 1)
            diag.attachNote(disjunction->getLoc())
                << "the guard's disjunctions split it into " << cases.size()
                << " cases, each a conjunction of comparisons proven on its "
                   "own: the witness is in case "
                << caseIndex + 1;
          noteUnusedGuards(diag, unusedGuards,
                           "splitting the guard at its disjunctions would make "
                           "more than " +
                               std::to_string(kMaxGuardCases) + " cases");
          noteWrapping(diag, proof, evaluator);
          // One note per load.
          llvm::SmallPtrSet<Operation *, 4> noted;
          for (Operation *load : proof.loads)
            if (noted.insert(load).second)
              diag.attachNote(load->getLoc())
                  << "this value is loaded from memory and has no bounds of "
                     "its "
                     "own: the access is proven only under a guard that bounds "
                     "it (an scf.if around the op, or its pred)";
          return diag;
        }
      }
    }
  }
  return success();
}

/// Proves a region's `align` claim: its base moves from the source's base by
/// a multiple of the claimed bytes for every value of its offsets (where the
/// scf.ifs around it hold).
static LogicalResult verifyAlignClaim(KernelOp kernel, RegionOp region) {
  int64_t claim = *region.getAlign();
  tirx::TensorType sourceType = region.getSource().getType();
  ArrayRef<int64_t> shape = sourceType.getShape();
  ArrayRef<int64_t> offsets = region.getStaticOffsets();
  int64_t elementBytes = sourceType.getElementBytes();
  AccessProof proof(kernel);
  proof.opaqueValues = true;
  SmallVector<UnusedGuard> unusedGuards;
  Operation *disjunction = nullptr;
  proof.addGuardCase(collectGuardCases(kernel, region, Value(),
                                       /*split=*/false, disjunction)
                         .front(),
                     unusedGuards);
  // Static offsets of a static source are in the result's layout; every
  // other offset moves the base by offset · stride elements.
  bool runtimeSource = !sourceType.hasStaticShape();
  SmallVector<int64_t> staticStrides;
  if (!runtimeSource)
    staticStrides = region.getDynamicOffsetStrides();
  Linear moved = constant(0);
  // The (dimension, stride in bytes) terms of `moved`, to recompute it at
  // the witness.
  SmallVector<std::pair<unsigned, int64_t>> terms;
  unsigned nextDynamic = 0;
  for (unsigned dim = 0, rank = shape.size(); dim < rank; ++dim) {
    bool dynamic = ShapedType::isDynamic(offsets[dim]);
    if (!dynamic && (!runtimeSource || offsets[dim] == 0))
      continue;
    int64_t strideBytes = elementBytes;
    SmallVector<StringRef> runtimeFactors;
    unsigned runtimeZeros = 0;
    if (runtimeSource) {
      strideBytes *= sourceType.getStaticStrideFactor(dim);
      for (StringAttr name : sourceType.getRuntimeStrideFactors(dim)) {
        runtimeFactors.push_back(name.getValue());
        BlockArgument arg = getSizeArgument(kernel, name);
        // Only its power of two matters for an alignment.
        runtimeZeros += llvm::countr_zero(static_cast<uint64_t>(
            arg ? getSizeMultiple(kernel, arg.getArgNumber()) : 1));
      }
    } else {
      strideBytes *= staticStrides[nextDynamic];
    }
    if (dynamic)
      ++nextDynamic;
    if (!runtimeFactors.empty()) {
      // offset · (runtime product): only divisibility is known, through the
      // powers of two of the factors (their product may overflow).
      unsigned zeros =
          llvm::countr_zero(static_cast<uint64_t>(strideBytes)) + runtimeZeros;
      if (!dynamic)
        zeros += llvm::countr_zero(static_cast<uint64_t>(offsets[dim]));
      int64_t known = int64_t(1) << std::min(zeros, 62u);
      if (known % claim == 0)
        continue;
      // A dynamic offset whose affine form has a common divisor (a row
      // index 128·bx) moves the base by multiples of it too. Variables are
      // integers, so the gcd of the coefficients and the constant divides
      // every value.
      if (dynamic) {
        FailureOr<Linear> offset = translateOffset(proof, region, dim);
        if (succeeded(offset)) {
          auto magnitude = [](int64_t value) {
            return value < 0 ? 0 - static_cast<uint64_t>(value)
                             : static_cast<uint64_t>(value);
          };
          uint64_t divisor = magnitude(offset->constant);
          for (int64_t coeff : offset->coeffs)
            divisor = std::gcd(divisor, magnitude(coeff));
          if (divisor == 0)
            continue; // the offset is 0
          zeros += llvm::countr_zero(divisor);
          known = int64_t(1) << std::min(zeros, 62u);
          if (known % claim == 0)
            continue;
        }
        proof.reason.clear();
      }
      InFlightDiagnostic diag =
          region.emitOpError()
          << "cannot prove align " << claim << ": dimension " << dim
          << "'s stride is the runtime product " << strideBytes << " bytes";
      for (StringRef factor : runtimeFactors)
        diag << " · " << factor;
      diag << ", known to be a multiple of only " << known
           << " bytes; declare ";
      llvm::interleave(runtimeFactors, diag, ", ");
      diag << " a larger multiple (tirx.multiple_of, or multiple_of= in "
              "T.dynamic)";
      return diag;
    }
    FailureOr<Linear> offset = translateOffset(proof, region, dim);
    FailureOr<Linear> term = succeeded(offset)
                                 ? combine(moved, strideBytes, *offset)
                                 : FailureOr<Linear>(failure());
    if (succeeded(offset) && failed(term))
      proof.reason = "the integer arithmetic overflows 64 bits";
    if (failed(term))
      return region.emitOpError()
             << "cannot prove align " << claim << ": the offset of dimension "
             << dim << " is not affine in the indices"
             << (proof.reason.empty() ? "" : ": ") << proof.reason;
    moved = *term;
    terms.push_back({dim, strideBytes});
  }
  std::optional<Point> point = proof.sampleNotMultiple(moved, claim);
  if (!point)
    return success();
  DynamicAPInt bytes = AccessProof::evaluate(moved, *point);
  std::string witness = proof.describe(*point);
  // Recomputed in two's complement where every offset can be: a value the
  // proof does not follow is any integer, and named so in the witness.
  ConcreteEvaluator evaluator(kernel);
  proof.bindLeaves(evaluator, *point);
  Witness verdict = Witness::Real;
  if (!proof.hasOpaqueVariables()) {
    DynamicAPInt recomputed(0);
    bool known = true;
    for (auto [dim, strideBytes] : terms) {
      std::optional<int64_t> offset = evaluateOffset(evaluator, region, dim);
      known &= offset.has_value();
      if (offset)
        recomputed += DynamicAPInt(*offset) * strideBytes;
    }
    verdict = judgeWitness(evaluator, kernel, region, Value(),
                           known && recomputed % claim != 0, unusedGuards);
    bytes = recomputed;
  }
  if (verdict == Witness::Bogus)
    // check-diagnostics: internal, a counterexample that does not reproduce
    // is an error of the proof
    return region.emitOpError()
           << "cannot prove align " << claim << " (the proof's counterexample "
           << witness
           << " does not reproduce when evaluated: an error in TirX's bounds "
              "proof, please report it)";
  InFlightDiagnostic diag = region.emitOpError() << "cannot prove align "
                                                 << claim;
  if (verdict == Witness::OutsideUnusedGuard)
    diag << ": without the parts of its guard the proof cannot use";
  diag << ": the base may move by " << toString(bytes) << " bytes, not a multiple of "
       << claim;
  if (!witness.empty())
    diag << ": with " << witness;
  noteUnusedGuards(diag, unusedGuards,
                   "an alignment claim is proven under a conjunction of "
                   "comparisons only");
  noteWrapping(diag, proof, evaluator);
  return diag;
}

LogicalResult mlir::tirx::verifyAccessBounds(KernelOp kernel) {
  WalkResult claims = kernel.walk([&](RegionOp region) {
    if (region.getAlign() && failed(verifyAlignClaim(kernel, region)))
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  if (claims.wasInterrupted())
    return failure();
  WalkResult result = kernel.walk([&](TensorAccessOpInterface op) {
    auto effects = dyn_cast<MemoryEffectOpInterface>(op.getOperation());
    if (!effects)
      return WalkResult::advance();
    SmallVector<MemoryEffects::EffectInstance> instances;
    effects.getEffects(instances);
    for (OpOperand &operand : op->getOpOperands()) {
      auto tensor = dyn_cast<tirx::TensorType>(operand.get().getType());
      if (!tensor || tensor.isLocal() ||
          op.isAccessClipped(operand.getOperandNumber()))
        continue;
      bool reads = false, writes = false;
      for (const MemoryEffects::EffectInstance &instance : instances) {
        if (instance.getEffectValue<OpOperand *>() != &operand)
          continue;
        reads |= isa<MemoryEffects::Read>(instance.getEffect());
        writes |= isa<MemoryEffects::Write>(instance.getEffect());
      }
      if (!reads && !writes)
        continue;
      StringRef verb = reads && writes ? "access" : writes ? "write" : "read";
      if (failed(verifyOperand(kernel, op, operand, verb)))
        return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}
