//===- AccessProof.cpp - Memory accesses as integer polyhedra -------------===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//

#include "AccessProof.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Support/CheckedArithmetic.h"
#include "llvm/Support/MathExtras.h"

#include <numeric>

using namespace mlir;
using namespace mlir::tirx;
using namespace mlir::tirx::proof;
using presburger::PresburgerSpace;
using presburger::VarKind;

Linear proof::variable(unsigned index) {
  Linear form;
  form.coeffs.assign(index + 1, 0);
  form.coeffs[index] = 1;
  return form;
}

Linear proof::constant(int64_t value) {
  Linear form;
  form.constant = value;
  return form;
}

/// a + factor·b, or failure on overflow.
FailureOr<Linear> proof::combine(const Linear &a, int64_t factor,
                                 const Linear &b) {
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
std::optional<unsigned> proof::getSingleVariable(const Linear &form) {
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

std::optional<int64_t> proof::getConstant(const Linear &form) {
  if (llvm::any_of(form.coeffs, [](int64_t c) { return c != 0; }))
    return std::nullopt;
  return form.constant;
}

unsigned AccessProof::addVar(std::string name, bool shown) {
  unsigned position = poly.appendVar(VarKind::SetDim);
  vars.push_back({std::move(name), shown, std::nullopt, std::nullopt});
  return position;
}

Linear AccessProof::addBoundedVar(std::string name, int64_t low, int64_t high) {
  Linear v = variable(addVar(std::move(name), /*shown=*/false));
  addRange(v, DynamicAPInt(low), DynamicAPInt(high));
  return v;
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

std::optional<Point> AccessProof::sampleLeast() {
  IntegerPolyhedron set = poly;
  for (const DeferredRange &range : deferredRanges) {
    set.addInequality(row(range.form, 1, -range.low));
    set.addInequality(row(range.form, -1, range.high));
  }
  DynamicAPInt small(int64_t(1) << 31);
  for (auto [index, var] : llvm::enumerate(vars))
    if (var.shown) {
      set.addBound(presburger::BoundType::LB, index, -small);
      set.addBound(presburger::BoundType::UB, index, small);
    }
  presburger::MaybeOptimum<SmallVector<DynamicAPInt, 8>> least =
      set.findIntegerLexMin();
  if (least.isBounded())
    return Point(least->begin(), least->end());
  return sample();
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
  assert(form.coeffs.size() <= point.size() &&
         "a form with variables added after the point was taken");
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

std::string AccessProof::describeShared(ArrayRef<DynamicAPInt> point) const {
  SmallVector<unsigned> shown;
  for (auto [leaf, index] : sharedLeafVars)
    if (!isa<scf::ForOp>(leaf.getParentBlock()->getParentOp()) ||
        !isa<BlockArgument>(leaf))
      shown.push_back(index);
  for (auto [key, index] : blockVars)
    shown.push_back(index);
  llvm::sort(shown);
  std::string text;
  llvm::raw_string_ostream os(text);
  llvm::ListSeparator separator;
  for (unsigned index : shown)
    if (vars[index].shown)
      os << separator << vars[index].name << " = " << point[index];
  return text;
}

void AccessProof::bindLeaves(ConcreteEvaluator &evaluator,
                             ArrayRef<DynamicAPInt> point) const {
  // Shown variables are inside their type's range: they fit 64 bits.
  for (const DenseMap<Value, unsigned> *leaves :
       {&sharedLeafVars, &copies[current].leafVars})
    for (auto [leaf, index] : *leaves)
      evaluator.bind(leaf, static_cast<int64_t>(point[index]));
  for (const DenseMap<unsigned, unsigned> *launch :
       {&blockVars, &copies[current].threadVars})
    for (auto [key, index] : *launch)
      evaluator.bindLaunchIndex(key >= 3, key % 3,
                                static_cast<int64_t>(point[index]));
}

FailureOr<Linear> AccessProof::translate(Value value) {
  if (auto shared = sharedLeafVars.find(value); shared != sharedLeafVars.end())
    return variable(shared->second);
  DenseMap<Value, Linear> &cache = copies[current].cache;
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
      sharedLeafVars[value] = position;
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
      unsigned position =
          addVar("'" + value.getDefiningOp()->getName().getStringRef().str() +
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
  sharedLeafVars[arg] = position;
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
  std::vector<int64_t> coeffs(x.coeffs.begin(), x.coeffs.end());
  while (!coeffs.empty() && coeffs.back() == 0)
    coeffs.pop_back();
  auto key = std::make_tuple(std::move(coeffs), x.constant, divisor, ceiling);
  if (auto known = quotients.find(key); known != quotients.end()) {
    Linear q = variable(known->second);
    if (!remainder)
      return q;
    return combine(x, -divisor, q);
  }
  Linear q = variable(addVar(what.str() + " quotient", false));
  quotients[key] = q.coeffs.size() - 1;
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
    Linear q = variable(addVar(
        "'" + op->getName().getStringRef().str() + "' wrap count", false));
    FailureOr<Linear> result = combine(exact, -(int64_t(1) << exponent), q);
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
  DenseMap<Value, std::pair<Linear, bool>> &unsignedCache =
      copies[current].unsignedCache;
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
    reading = variable(addVar("'" + reader->getName().getStringRef().str() +
                                  "' unsigned value",
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
  (isSharedLoop(loop) ? sharedLeafVars
                      : copies[current].leafVars)[loop.getInductionVar()] =
      position;
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
  DenseMap<unsigned, unsigned> &launchVars =
      thread ? copies[current].threadVars : blockVars;
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
  unsigned position = addVar(
      (thread ? "thread_idx." : "block_idx.") + stringifyDim(dim).str(), true);
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
  copies[current].leafVars[load->getResult(0)] = position;
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
GuardCases proof::collectGuardCases(KernelOp kernel, Operation *op, Value pred,
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

/// The SSA offset of dimension `dim` of `region`, or null for a static one.
Value proof::getDynamicOffset(RegionOp region, unsigned dim) {
  ArrayRef<int64_t> offsets = region.getStaticOffsets();
  if (!ShapedType::isDynamic(offsets[dim]))
    return {};
  unsigned position =
      llvm::count_if(offsets.take_front(dim), ShapedType::isDynamic);
  return region.getOffsets()[position];
}

/// The offset of dimension `dim` of `region`, as a form of the proof.
uint64_t proof::getCommonDivisor(const Linear &form) {
  auto magnitude = [](int64_t value) {
    return value < 0 ? 0 - static_cast<uint64_t>(value)
                     : static_cast<uint64_t>(value);
  };
  uint64_t divisor = magnitude(form.constant);
  for (int64_t coeff : form.coeffs)
    divisor = std::gcd(divisor, magnitude(coeff));
  return divisor;
}

FailureOr<Linear> proof::translateOffset(AccessProof &proof, RegionOp region,
                                         unsigned dim) {
  if (Value offset = getDynamicOffset(region, dim))
    return proof.translate(offset);
  return constant(region.getStaticOffsets()[dim]);
}

/// The offset of dimension `dim` of `region` at the evaluator's point.
std::optional<int64_t> proof::evaluateOffset(ConcreteEvaluator &evaluator,
                                             RegionOp region, unsigned dim) {
  if (Value offset = getDynamicOffset(region, dim))
    return evaluator.evaluateSigned(offset);
  return region.getStaticOffsets()[dim];
}

/// A note at each part of the guard the proof left out; `disjunctionWhy`
/// says why its disjunctions were.
void proof::noteUnusedGuards(InFlightDiagnostic &diag,
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

/// Whether the guard `pred` of `op` and the conditions of the scf.ifs
/// around it hold at the evaluator's point (unknown where one cannot be
/// evaluated).
std::optional<bool> proof::guardsHold(ConcreteEvaluator &evaluator,
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
Witness proof::judgeWitness(ConcreteEvaluator &evaluator, KernelOp kernel,
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
void proof::noteWrapping(InFlightDiagnostic &diag, const AccessProof &proof,
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

Operation *
mlir::tirx::proof::getTensorSource(Value tensor,
                                   SmallVectorImpl<RegionOp> *regions) {
  for (Value current = tensor;;) {
    Operation *def = current.getDefiningOp();
    if (!def || !isa<RegionOp, ViewOp, ReinterpretOp>(def))
      return def;
    if (auto region = dyn_cast<RegionOp>(def); region && regions)
      regions->push_back(region);
    current = def->getOperand(0);
  }
}

/// Whether `value` is computed from thread indices, constants and
/// arithmetic only (`threadOnly`), or from no thread index at all.
bool mlir::tirx::proof::isComputedFrom(Value value, bool threadOnly) {
  Operation *def = value.getDefiningOp();
  if (!def)
    return !threadOnly;
  if (isa<ThreadIdxOp>(def))
    return threadOnly;
  if (def->hasTrait<OpTrait::ConstantLike>())
    return true;
  if (def->getDialect()->getNamespace() != "arith")
    return !threadOnly && !isa<SlotLoadOp>(def) && def->getNumOperands() == 0;
  return llvm::all_of(def->getOperands(), [&](Value operand) {
    return isComputedFrom(operand, threadOnly);
  });
}
