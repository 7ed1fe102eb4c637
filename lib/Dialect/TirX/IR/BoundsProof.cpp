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

#include "AccessProof.h"

#include "llvm/ADT/SmallPtrSet.h"

using namespace mlir;
using namespace mlir::tirx;
using namespace mlir::tirx::proof;

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
          uint64_t divisor = getCommonDivisor(*offset);
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
  InFlightDiagnostic diag = region.emitOpError()
                            << "cannot prove align " << claim;
  if (verdict == Witness::OutsideUnusedGuard)
    diag << ": without the parts of its guard the proof cannot use";
  diag << ": the base may move by " << toString(bytes)
       << " bytes, not a multiple of " << claim;
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
