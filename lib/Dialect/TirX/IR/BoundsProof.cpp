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
//   step), kernel index arguments (unbounded), values loaded from a
//   register tile (`tirx.slot_load`: any value of their type, signed, or
//   unsigned through index_castui/extui: only a guard bounds them),
//   q with c·q ≤ x ≤ c·q + c − 1 for x floordiv c (and x mod c = x − c·q),
//
// adds the op's guard (a conjunction of affine comparisons) and the
// conditions of the scf.ifs around it (negated in an else branch), and asks
// whether `offset < 0` or `offset + size > extent` has an integer point.
// An empty set is the proof; a point is the witness in the diagnostic.
//
//===----------------------------------------------------------------------===//

#include "TirX/Dialect/TirX/IR/TirXOps.h"

#include "mlir/Analysis/Presburger/IntegerRelation.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Support/CheckedArithmetic.h"
#include "llvm/Support/MathExtras.h"

#include <numeric>

using namespace mlir;
using namespace mlir::tirx;
using presburger::IntegerPolyhedron;
using presburger::PresburgerSpace;
using presburger::VarKind;

namespace {

/// c + Σ coeffs[i]·var_i; `coeffs` may be shorter than the variable list.
struct Linear {
  SmallVector<int64_t> coeffs;
  int64_t constant = 0;
};

/// Why an index value has no affine form (the tail of the "unprovable"
/// diagnostic).
struct Unprovable {
  std::string reason;
};

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

  /// The affine form of an `index` (or integer) value, adding the variables
  /// and constraints it needs.
  FailureOr<Linear> translate(Value value);

  /// The extent of dimension `dim` of a tensor: a constant, or its size
  /// variable.
  FailureOr<Linear> translateExtent(tirx::TensorType type, unsigned dim);

  /// An integer point where `form` is not a multiple of `divisor` (with
  /// every constraint so far), or nothing when it always is.
  std::optional<SmallVector<int64_t>> sampleNotMultiple(const Linear &form,
                                                        int64_t divisor);

  /// Adds the conditions of the scf.ifs around `op` (negated in an else
  /// branch).
  void addEnclosingGuards(Operation *op, SmallVectorImpl<Operation *> &unused);

  /// Adds the guard `pred` (its negation when `negated`: an else branch) as
  /// constraints. The parts that are not affine comparisons are left out
  /// (the proof is then of a weaker guard) and returned, for the diagnostic.
  void addGuard(Value pred, bool negated, SmallVectorImpl<Operation *> &unused);

  /// An integer point of the variables where `form` ≥ 0 (with every
  /// constraint so far), or nothing when there is none.
  std::optional<SmallVector<int64_t>> sampleWhere(const Linear &form);

  /// Evaluates `form` at `point`.
  static int64_t evaluate(const Linear &form, ArrayRef<int64_t> point);

  /// "block_idx.x = 8191, thread_idx.x = 0" for the shown variables.
  std::string describe(ArrayRef<int64_t> point) const;

  std::string reason;

  /// The `tirx.slot_load`s whose values are variables of the proof: a
  /// refuted access through one says it has no bounds.
  SmallVector<Operation *> loads;

private:
  unsigned addVar(std::string name, bool shown);
  SmallVector<int64_t> row(const Linear &form) const;
  void addInequality(const Linear &form) { poly.addInequality(row(form)); }
  void addEquality(const Linear &form) { poly.addEquality(row(form)); }
  bool provenNonNegative(const Linear &form);
  FailureOr<Linear> fail(const Twine &why) {
    reason = why.str();
    return failure();
  }
  FailureOr<Linear> overflow() {
    return fail("the integer arithmetic overflows 64 bits");
  }
  FailureOr<Linear> translateInductionVar(scf::ForOp loop);
  /// A value loaded from memory: a new variable over the `width`-bit
  /// integers, signed or unsigned.
  Linear translateLoaded(Operation *load, unsigned width, bool isUnsigned);
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
  };
  SmallVector<Var> vars;
  DenseMap<Value, Linear> cache;
  /// The unsigned reading of each loaded value (index_castui, extui).
  DenseMap<Value, Linear> unsignedLoads;
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

std::optional<int64_t> getConstant(const Linear &form) {
  if (llvm::any_of(form.coeffs, [](int64_t c) { return c != 0; }))
    return std::nullopt;
  return form.constant;
}

} // namespace

unsigned AccessProof::addVar(std::string name, bool shown) {
  unsigned position = poly.appendVar(VarKind::SetDim);
  vars.push_back({std::move(name), shown});
  return position;
}

SmallVector<int64_t> AccessProof::row(const Linear &form) const {
  SmallVector<int64_t> result(vars.size() + 1, 0);
  for (auto [index, coeff] : llvm::enumerate(form.coeffs))
    result[index] = coeff;
  result.back() = form.constant;
  return result;
}

std::optional<SmallVector<int64_t>>
AccessProof::sampleWhere(const Linear &form) {
  IntegerPolyhedron violation = poly;
  violation.addInequality(row(form));
  std::optional<SmallVector<llvm::DynamicAPInt, 8>> sample =
      violation.findIntegerSample();
  if (!sample)
    return std::nullopt;
  return llvm::map_to_vector(*sample, [](const llvm::DynamicAPInt &v) {
    return static_cast<int64_t>(v);
  });
}

int64_t AccessProof::evaluate(const Linear &form, ArrayRef<int64_t> point) {
  int64_t value = form.constant;
  for (auto [index, coeff] : llvm::enumerate(form.coeffs))
    value += coeff * point[index];
  return value;
}

std::string AccessProof::describe(ArrayRef<int64_t> point) const {
  std::string text;
  llvm::raw_string_ostream os(text);
  llvm::ListSeparator separator;
  for (auto [index, var] : llvm::enumerate(vars))
    if (var.shown)
      os << separator << var.name << " = " << point[index];
  return text;
}

bool AccessProof::provenNonNegative(const Linear &form) {
  // form ≤ −1, i.e. −form − 1 ≥ 0, has no point.
  FailureOr<Linear> negated = combine(constant(-1), -1, form);
  return succeeded(negated) && !sampleWhere(*negated);
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
    } else if (owner == kernel.getOperation()) {
      // A kernel's scalar argument: any value of its type.
      unsigned position =
          addVar("argument #" + std::to_string(arg.getArgNumber()), true);
      form = variable(position);
      unsigned width = value.getType().isIndex()
                           ? 64
                           : value.getType().getIntOrFloatBitWidth();
      if (width < 64) {
        addInequality(*combine(constant(llvm::maxIntN(width)), -1, *form));
        addInequality(*combine(constant(-llvm::minIntN(width)), 1, *form));
      }
    } else {
      return fail("the block argument #" + Twine(arg.getArgNumber()) + " of '" +
                  owner->getName().getStringRef() +
                  "' is not an index the proof knows");
    }
  } else {
    form = translateOp(value.getDefiningOp());
    if (failed(form) && opaqueValues && value.getType().isIntOrIndex()) {
      form = variable(
          addVar("'" + value.getDefiningOp()->getName().getStringRef().str() +
                     "' (not followed: any integer)",
                 true));
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
  // n ≥ 1, n ≤ its declared largest value, and n = m·k for its declared
  // multiple m.
  Linear n = variable(addVar(name.str(), true));
  addInequality(*combine(n, 1, constant(-1)));
  if (int64_t atMost = getSizeAtMost(kernel, arg.getArgNumber()))
    addInequality(*combine(constant(atMost), -1, n));
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
  return remainder ? *rest : q;
}

std::optional<SmallVector<int64_t>>
AccessProof::sampleNotMultiple(const Linear &form, int64_t divisor) {
  // form = divisor·q + r with 1 ≤ r ≤ divisor − 1, on a copy of the set.
  IntegerPolyhedron saved = poly;
  size_t savedVars = vars.size();
  Linear q = variable(addVar("quotient", false));
  Linear r = variable(addVar("remainder", false));
  std::optional<SmallVector<int64_t>> point;
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

void AccessProof::addEnclosingGuards(Operation *op,
                                     SmallVectorImpl<Operation *> &unused) {
  for (Operation *inner = op, *parent = inner->getParentOp();
       parent && parent != kernel.getOperation();
       inner = parent, parent = parent->getParentOp())
    if (auto ifOp = dyn_cast<scf::IfOp>(parent))
      addGuard(ifOp.getCondition(),
               /*negated=*/inner->getParentRegion() == &ifOp.getElseRegion(),
               unused);
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
  Linear iv = variable(addVar(name, true));
  // lb ≤ iv ≤ ub − 1.
  FailureOr<Linear> aboveLower = combine(iv, -1, *lower);
  FailureOr<Linear> belowUpper = combine(*upper, -1, iv);
  if (failed(aboveLower) || failed(belowUpper))
    return overflow();
  addInequality(*aboveLower);
  addInequality(*combine(*belowUpper, 1, constant(-1)));
  // iv = lb + step·k, k ≥ 0, for a constant step > 1.
  FailureOr<Linear> step = translate(loop.getStep());
  if (failed(step))
    return failure();
  std::optional<int64_t> stride = getConstant(*step);
  if (stride && *stride > 1) {
    Linear k = variable(addVar(name + "'s step count", false));
    addInequality(k);
    FailureOr<Linear> offset = combine(*aboveLower, -*stride, k);
    if (failed(offset))
      return overflow();
    addEquality(*offset);
  }
  return iv;
}

Linear AccessProof::translateLoaded(Operation *load, unsigned width,
                                    bool isUnsigned) {
  Linear v =
      variable(addVar("loaded value #" + std::to_string(loads.size()), true));
  loads.push_back(load);
  // A 64-bit value is an index as it is (index is 64-bit and signed).
  if (width >= 64)
    return v;
  int64_t low = isUnsigned ? 0 : llvm::minIntN(width);
  int64_t high = isUnsigned ? llvm::maxUIntN(width) : llvm::maxIntN(width);
  addInequality(*combine(v, 1, constant(-low)));
  addInequality(*combine(constant(high), -1, v));
  return v;
}

FailureOr<Linear> AccessProof::translateOp(Operation *op) {
  if (auto constantOp = dyn_cast<arith::ConstantOp>(op)) {
    if (auto value = dyn_cast<IntegerAttr>(constantOp.getValue()))
      return constant(value.getValue().getSExtValue());
  }
  if (auto index = dyn_cast<BlockIdxOp>(op)) {
    LaunchConfigAttr launch = kernel.getLaunch();
    unsigned dim = static_cast<unsigned>(index.getDim());
    FailureOr<Linear> extent = dim < launch.getGrid().size()
                                   ? translateAffine(launch.getGridExpr(dim))
                                   : FailureOr<Linear>(constant(1));
    if (failed(extent))
      return failure();
    Linear v = variable(
        addVar("block_idx." + stringifyDim(index.getDim()).str(), true));
    addInequality(v);
    addInequality(*combine(*combine(*extent, -1, v), 1, constant(-1)));
    return v;
  }
  if (auto index = dyn_cast<ThreadIdxOp>(op)) {
    ArrayRef<int64_t> block = kernel.getLaunch().getBlock();
    unsigned dim = static_cast<unsigned>(index.getDim());
    int64_t extent = dim < block.size() ? block[dim] : 1;
    Linear v = variable(
        addVar("thread_idx." + stringifyDim(index.getDim()).str(), true));
    addInequality(v);
    addInequality(*combine(constant(extent - 1), -1, v));
    return v;
  }
  if (auto load = dyn_cast<SlotLoadOp>(op);
      load && load.getType().isSignlessInteger())
    return translateLoaded(op, load.getType().getIntOrFloatBitWidth(),
                           /*isUnsigned=*/false);
  if (isa<arith::IndexCastUIOp, arith::ExtUIOp>(op))
    if (auto load = op->getOperand(0).getDefiningOp<SlotLoadOp>();
        load && load.getType().isSignlessInteger()) {
      // The loaded bits read as unsigned: [0, 2^width).
      auto [it, inserted] = unsignedLoads.try_emplace(load.getResult());
      if (inserted)
        it->second = translateLoaded(
            load, load.getType().getIntOrFloatBitWidth(), /*isUnsigned=*/true);
      return it->second;
    }
  if (isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp,
          arith::ExtUIOp>(op)) {
    FailureOr<Linear> source = translate(op->getOperand(0));
    if (failed(source))
      return failure();
    // Zero extension keeps the value only where it is non-negative.
    if (isa<arith::IndexCastUIOp, arith::ExtUIOp>(op) &&
        !provenNonNegative(*source))
      return fail("'" + op->getName().getStringRef() +
                  "' of a value that may be negative");
    return source;
  }
  if (!isa<arith::AddIOp, arith::SubIOp, arith::MulIOp, arith::DivSIOp,
           arith::DivUIOp, arith::FloorDivSIOp, arith::CeilDivSIOp,
           arith::RemSIOp, arith::RemUIOp>(op))
    return fail("'" + op->getName().getStringRef() +
                "' is not an affine operation on indices");
  StringRef name = op->getName().getStringRef();
  FailureOr<Linear> lhs = translate(op->getOperand(0));
  if (failed(lhs))
    return failure();
  FailureOr<Linear> rhs = translate(op->getOperand(1));
  if (failed(rhs))
    return failure();
  auto checked = [&](FailureOr<Linear> result) -> FailureOr<Linear> {
    if (failed(result))
      return overflow();
    return result;
  };
  if (isa<arith::AddIOp>(op))
    return checked(combine(*lhs, 1, *rhs));
  if (isa<arith::SubIOp>(op))
    return checked(combine(*lhs, -1, *rhs));
  if (isa<arith::MulIOp>(op)) {
    if (std::optional<int64_t> c = getConstant(*rhs))
      return checked(combine(constant(0), *c, *lhs));
    if (std::optional<int64_t> c = getConstant(*lhs))
      return checked(combine(constant(0), *c, *rhs));
    return fail("'arith.muli' of two non-constant values");
  }
  // Division and remainder by a positive constant c: the quotient q is a new
  // variable with c·q ≤ x ≤ c·q + c − 1 (floor) or c·q − c + 1 ≤ x ≤ c·q
  // (ceiling). Truncating and unsigned division are floors of a value that
  // is proven non-negative.
  std::optional<int64_t> divisor = getConstant(*rhs);
  if (!divisor || *divisor <= 0)
    return fail("'" + name + "' by a divisor that is not a positive constant");
  bool truncates =
      isa<arith::DivSIOp, arith::DivUIOp, arith::RemSIOp, arith::RemUIOp>(op);
  if (truncates && !provenNonNegative(*lhs))
    return fail("'" + name + "' of a value that may be negative");
  return divide(*lhs, *divisor, isa<arith::CeilDivSIOp>(op),
                isa<arith::RemSIOp, arith::RemUIOp>(op), name);
}

void AccessProof::addGuard(Value pred, bool negated,
                           SmallVectorImpl<Operation *> &unused) {
  Operation *op = pred.getDefiningOp();
  if (auto conjunction = dyn_cast_if_present<arith::AndIOp>(op)) {
    // The negation of a conjunction is a disjunction: not a polyhedron.
    if (negated) {
      unused.push_back(op);
      return;
    }
    addGuard(conjunction.getLhs(), negated, unused);
    addGuard(conjunction.getRhs(), negated, unused);
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
      unused.push_back(op);
    return;
  }
  std::string savedReason = reason;
  FailureOr<Linear> lhs = translate(compare.getLhs());
  FailureOr<Linear> rhs =
      succeeded(lhs) ? translate(compare.getRhs()) : FailureOr<Linear>();
  reason = savedReason;
  if (failed(lhs) || failed(rhs)) {
    unused.push_back(op);
    return;
  }
  using P = arith::CmpIPredicate;
  P predicate = compare.getPredicate();
  if (negated)
    predicate = arith::invertPredicate(predicate);
  bool isUnsigned = predicate == P::ult || predicate == P::ule ||
                    predicate == P::ugt || predicate == P::uge;
  // Unsigned order is the signed one between non-negative values.
  if (isUnsigned && !(provenNonNegative(*lhs) && provenNonNegative(*rhs))) {
    unused.push_back(op);
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
    unused.push_back(op);
    return;
  }
  if (predicate == P::eq)
    addEquality(*difference);
  else
    addInequality(*difference);
}

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

/// The offset of dimension `dim` of `region`, as a form of the proof.
static FailureOr<Linear> translateOffset(AccessProof &proof, RegionOp region,
                                         unsigned dim) {
  ArrayRef<int64_t> offsets = region.getStaticOffsets();
  if (!ShapedType::isDynamic(offsets[dim]))
    return constant(offsets[dim]);
  unsigned position =
      llvm::count_if(offsets.take_front(dim), ShapedType::isDynamic);
  return proof.translate(region.getOffsets()[position]);
}

static void noteUnusedGuards(InFlightDiagnostic &diag,
                             ArrayRef<Operation *> unusedGuards) {
  for (Operation *unused : unusedGuards)
    diag.attachNote(unused->getLoc())
        << "this part of the guard was not used: only conjunctions "
           "(arith.andi) of affine comparisons (arith.cmpi other than "
           "ne; unsigned ones of non-negative values) are";
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

  AccessProof proof(kernel);
  SmallVector<Operation *> unusedGuards;
  if (Value guard = op.getAccessGuard())
    proof.addGuard(guard, /*negated=*/false, unusedGuards);
  // The conditions of the scf.ifs the op runs under (T.If in Python).
  proof.addEnclosingGuards(op.getOperation(), unusedGuards);
  auto describeOperand = [&]() {
    return op.describeAccessOperand(operand.getOperandNumber());
  };

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
        InFlightDiagnostic diag =
            op->emitOpError()
            << describeOperand() << ": cannot prove the access in bounds: "
            << "the offset of dimension " << dim << " into " << source
            << " is not affine in the indices: " << proof.reason;
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
        std::optional<SmallVector<int64_t>> point =
            proof.sampleWhere(upper ? *above : below);
        if (!point)
          continue;
        int64_t first = AccessProof::evaluate(*offset, *point);
        int64_t extentValue = AccessProof::evaluate(*extent, *point);
        int64_t index = upper ? std::max(first, extentValue) : first;
        InFlightDiagnostic diag = op->emitOpError()
                                  << describeOperand() << " may " << verb
                                  << " index " << index << " of dimension "
                                  << dim << " of " << source << " ("
                                  << describeExtent(sourceType, dim) << ")";
        std::string witness = proof.describe(*point);
        if (!witness.empty())
          diag << ": with " << witness;
        diag.attachNote(region.getLoc()) << "the region is here";
        noteUnusedGuards(diag, unusedGuards);
        // One note per load (read signed and unsigned, it is two unknowns).
        llvm::SmallPtrSet<Operation *, 4> noted;
        for (Operation *load : proof.loads)
          if (noted.insert(load).second)
            diag.attachNote(load->getLoc())
                << "this value is loaded from memory and has no bounds of its "
                   "own: the access is proven only under a guard that bounds "
                   "it (an scf.if around the op, or its pred)";
        return diag;
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
  SmallVector<Operation *> unusedGuards;
  proof.addEnclosingGuards(region, unusedGuards);
  // Static offsets of a static source are in the result's layout; every
  // other offset moves the base by offset · stride elements.
  bool runtimeSource = !sourceType.hasStaticShape();
  SmallVector<int64_t> staticStrides;
  if (!runtimeSource)
    staticStrides = region.getDynamicOffsetStrides();
  Linear moved = constant(0);
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
  }
  std::optional<SmallVector<int64_t>> point =
      proof.sampleNotMultiple(moved, claim);
  if (!point)
    return success();
  int64_t bytes = AccessProof::evaluate(moved, *point);
  InFlightDiagnostic diag = region.emitOpError()
                            << "cannot prove align " << claim
                            << ": the base may move by " << bytes
                            << " bytes, not a multiple of " << claim;
  std::string witness = proof.describe(*point);
  if (!witness.empty())
    diag << ": with " << witness;
  noteUnusedGuards(diag, unusedGuards);
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
