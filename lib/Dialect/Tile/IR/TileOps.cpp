//===- TileOps.cpp - tile operations --------------------------------------===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//

#include "TirX/Dialect/Tile/IR/TileOps.h"
#include "TirX/Dialect/Tile/Families/FamilyModule.h"
#include "TirX/Dialect/Tile/IR/BulkTensorCopy.h"
#include "TirX/Dialect/Tile/IR/FormSelection.h"
#include "TirX/Dialect/Tile/IR/TileOperands.h"
#include "TirX/Dialect/Tile/IR/Uniformity.h"
#include "TirX/Dialect/TirX/IR/RegionAccess.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace mlir::tirx;
using namespace mlir::tirx::tile;

#define GET_OP_CLASSES
#include "TirX/Dialect/Tile/IR/TileOps.cpp.inc"

//===----------------------------------------------------------------------===//
// Mixed operand lists: (%a, 2.0 : f32, %b)
//===----------------------------------------------------------------------===//

static ParseResult
parseMixedOperands(OpAsmParser &parser,
                   SmallVectorImpl<OpAsmParser::UnresolvedOperand> &args,
                   ArrayAttr &kinds) {
  SmallVector<Attribute> kindList;
  auto parseOne = [&]() -> ParseResult {
    OpAsmParser::UnresolvedOperand operand;
    OptionalParseResult parsed = parser.parseOptionalOperand(operand);
    if (parsed.has_value()) {
      if (failed(*parsed))
        return failure();
      args.push_back(operand);
      kindList.push_back(parser.getBuilder().getUnitAttr());
      return success();
    }
    SMLoc loc = parser.getCurrentLocation();
    Attribute immediate;
    if (parser.parseAttribute(immediate))
      return failure();
    if (!isa<IntegerAttr, FloatAttr>(immediate))
      return parser.emitError(loc, "expected an SSA value or a typed "
                                   "integer/float immediate such as "
                                   "'2.0 : f32', got ")
             << immediate;
    kindList.push_back(immediate);
    return success();
  };
  if (parser.parseCommaSeparatedList(OpAsmParser::Delimiter::Paren, parseOne))
    return failure();
  kinds = parser.getBuilder().getArrayAttr(kindList);
  return success();
}

static void printMixedOperands(OpAsmPrinter &printer, ValueRange args,
                               ArrayAttr kinds) {
  printer << '(';
  unsigned nextArg = 0;
  llvm::interleaveComma(kinds, printer, [&](Attribute kind) {
    if (isa<UnitAttr>(kind) && nextArg < args.size())
      printer << args[nextArg++];
    else
      printer.printAttribute(kind);
  });
  printer << ')';
}

static ParseResult parseScope(OpAsmParser &parser, ScopeAttr &scope) {
  StringRef name;
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseKeyword("scope") || parser.parseLParen() ||
      parser.parseKeyword(&name) || parser.parseRParen())
    return failure();
  std::optional<Scope> value = symbolizeScope(name);
  if (!value)
    return parser.emitError(loc, "unknown scope '")
           << name << "'; expected thread, warp, warpgroup or cta";
  scope = ScopeAttr::get(parser.getContext(), *value);
  return success();
}

/// The trailing `: type, type` of the SSA operands.
static ParseResult resolveArgs(OpAsmParser &parser,
                               ArrayRef<OpAsmParser::UnresolvedOperand> args,
                               SMLoc loc, OperationState &result) {
  SmallVector<Type> types;
  if (!args.empty() && (parser.parseColon() || parser.parseTypeList(types)))
    return failure();
  return parser.resolveOperands(args, types, loc, result.operands);
}

//===----------------------------------------------------------------------===//
// ApplyOp
//===----------------------------------------------------------------------===//

// tile.apply "spelling" scope(s) (operands) [pred(%p)] attr-dict [: types]
ParseResult ApplyOp::parse(OpAsmParser &parser, OperationState &result) {
  std::string spelling;
  ScopeAttr scope;
  SmallVector<OpAsmParser::UnresolvedOperand> args;
  ArrayAttr kinds;
  if (parser.parseString(&spelling) || parseScope(parser, scope))
    return failure();
  SMLoc argsLoc = parser.getCurrentLocation();
  if (parseMixedOperands(parser, args, kinds))
    return failure();
  OpAsmParser::UnresolvedOperand pred;
  bool hasPred = false;
  if (succeeded(parser.parseOptionalKeyword("pred"))) {
    hasPred = true;
    if (parser.parseLParen() || parser.parseOperand(pred) ||
        parser.parseRParen())
      return failure();
  }
  if (parser.parseOptionalAttrDict(result.attributes) ||
      resolveArgs(parser, args, argsLoc, result))
    return failure();
  if (hasPred && parser.resolveOperand(pred, parser.getBuilder().getI1Type(),
                                       result.operands))
    return failure();
  // Unchecked: an illegal spelling is reported by the verifier, on the op
  // and at its location (the DSL maps that back to the Python line).
  result.addAttribute(getInstructionAttrName(result.name),
                      PTXInstructionAttr::get(parser.getContext(), spelling));
  result.addAttribute(getScopeAttrName(result.name), scope);
  result.addAttribute(getOperandKindsAttrName(result.name), kinds);
  result.addAttribute(getOperandSegmentSizesAttrName(result.name),
                      parser.getBuilder().getDenseI32ArrayAttr(
                          {static_cast<int32_t>(args.size()), hasPred}));
  return success();
}

void ApplyOp::print(OpAsmPrinter &printer) {
  printer << ' ';
  printer.printString(getInstruction().getSpelling());
  printer << " scope(" << stringifyScope(getScope()) << ") ";
  printMixedOperands(printer, getArgs(), getOperandKinds());
  if (getPred())
    printer << " pred(" << getPred() << ')';
  printer.printOptionalAttrDict((*this)->getAttrs(),
                                {getInstructionAttrName(), getScopeAttrName(),
                                 getOperandKindsAttrName(),
                                 getOperandSegmentSizesAttrName()});
  if (!getArgs().empty()) {
    printer << " : ";
    llvm::interleaveComma(getArgs().getTypes(), printer);
  }
}

/// The form the op's operand count selects, or null (for interfaces, which
/// must not emit diagnostics: the verifier explains). Of two forms with as
/// many operands (mbarrier.arrive's `state, [addr]` and `_, [addr], count`),
/// the one whose memory operands are the op's global or shared tensors.
static const ptx::Instruction *findFormByCount(ApplyOp op) {
  const ptx::Instruction *first = nullptr;
  for (const ptx::Instruction &form : op.getInstruction().getForms()) {
    if (form.operands.size() != op.getOperandKinds().size())
      continue;
    first = first ? first : &form;
    bool matches = true;
    unsigned nextArg = 0;
    for (auto [position, kind] : llvm::enumerate(op.getOperandKinds())) {
      if (!isa<UnitAttr>(kind) || nextArg >= op.getArgs().size())
        continue;
      auto tensor =
          dyn_cast<tirx::TensorType>(op.getArgs()[nextArg++].getType());
      bool inMemory = tensor && (tensor.isGlobal() || tensor.isShared());
      matches &= form.operands[position].isMemory == inMemory;
    }
    if (matches)
      return &form;
  }
  return first;
}

void ApplyOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  const ptx::Instruction *instruction = findFormByCount(*this);
  if (!instruction || instruction->isVolatile) {
    // Unknown instruction: be conservative. Collectives and volatile forms
    // (their results depend on which threads run together) also must never
    // be moved, merged or removed.
    effects.emplace_back(MemoryEffects::Read::get());
    effects.emplace_back(MemoryEffects::Write::get());
    if (!instruction) {
      for (OpOperand &operand : getArgsMutable()) {
        effects.emplace_back(MemoryEffects::Read::get(), &operand);
        effects.emplace_back(MemoryEffects::Write::get(), &operand);
      }
      return;
    }
  }
  unsigned nextArg = 0;
  for (auto [position, kind] : llvm::enumerate(getOperandKinds())) {
    if (!isa<UnitAttr>(kind) || nextArg >= getArgs().size())
      continue;
    OpOperand &operand = getArgsMutable()[nextArg++];
    if (!isa<tirx::TensorType>(operand.get().getType()))
      continue;
    bool isDestination = position < instruction->operands.size() &&
                         instruction->operands[position].isDestination;
    if (isDestination) {
      effects.emplace_back(MemoryEffects::Write::get(), &operand);
      // wgmma's accumulator is read too.
      if (instruction->operands[position].isReadWrite)
        effects.emplace_back(MemoryEffects::Read::get(), &operand);
    } else
      effects.emplace_back(MemoryEffects::Read::get(), &operand);
  }
}

Value ApplyOp::getAccessGuard() { return getPred(); }

/// The position (in PTX order) of the op's SSA operand `operandIndex`.
static unsigned getOperandPosition(ApplyOp op, unsigned operandIndex) {
  // Operand indices of `args` start at 0 (the segment comes first).
  unsigned nextArg = 0;
  for (auto [index, kind] : llvm::enumerate(op.getOperandKinds()))
    if (isa<UnitAttr>(kind) && nextArg++ == operandIndex)
      return index;
  return 0;
}

bool ApplyOp::isAccessClipped(unsigned operandIndex) {
  unsigned position = getOperandPosition(*this, operandIndex);
  const ptx::Instruction *instruction = findFormByCount(*this);
  return instruction && position < instruction->operands.size() &&
         instruction->operands[position].bulkRole ==
             ptx::BulkTensorRole::TensorMap;
}

bool ApplyOp::canMaskAccess(unsigned operandIndex) {
  unsigned position = getOperandPosition(*this, operandIndex);
  const ptx::Instruction *instruction = findFormByCount(*this);
  if (!instruction || position >= instruction->operands.size() ||
      instruction->exec != ptx::ExecKind::Thread)
    return false;
  // A thread's own access, one per repeat: predicated on its elements.
  const ptx::OperandInfo &info = instruction->operands[position];
  return info.isMemory && info.fragment.empty() &&
         info.descriptor == ptx::DescriptorMatrix::None &&
         info.bulkRole == ptx::BulkTensorRole::None;
}

/// setmaxnreg's immediate: the warpgroup's registers per thread from then
/// on (an operand of a register-limit kind: Families/Setmaxnreg.cpp; the
/// verifier checked its value).
std::optional<int64_t> ApplyOp::getRegisterLimitAfter() {
  const ptx::Instruction *instruction = findFormByCount(*this);
  if (!instruction)
    return std::nullopt;
  for (auto [position, kind] : llvm::enumerate(getOperandKinds()))
    if (const ptx::OperandKind *operandKind =
            ptx::getOperandKind(*instruction, position);
        operandKind && operandKind->isRegisterLimit)
      if (auto count = dyn_cast<IntegerAttr>(kind))
        return count.getInt();
  return std::nullopt;
}

std::string ApplyOp::describeAccessOperand(unsigned operandIndex) {
  unsigned position = getOperandPosition(*this, operandIndex);
  std::string text = "operand #" + std::to_string(position);
  if (const ptx::Instruction *instruction = findFormByCount(*this);
      instruction && position < instruction->operands.size())
    text += " (" + instruction->operands[position].name + ")";
  return text + " of '" + getInstruction().getSpelling().str() + "'";
}

/// The nearest `tirx.chip` name ("sm_90a"); getTargetSM validated it.
static StringRef getTargetChipName(Operation *op) {
  for (Operation *current = op; current; current = current->getParentOp())
    if (auto chip =
            current->getAttrOfType<StringAttr>(TirXDialect::kChipAttrName))
      return chip.getValue();
  return "";
}

/// The instruction's SM and PTX ISA floors against the named target. An
/// arch-specific form (setmaxnreg, wgmma's fences) needs exactly
/// sm_<minSM>a: its features are neither in sm_90 nor promised later.
static LogicalResult verifyTargetFloors(ApplyOp op,
                                        const ptx::Instruction &instruction,
                                        unsigned targetSM, unsigned targetPTX) {
  if (instruction.archSpecific) {
    std::string required = "sm_" + std::to_string(instruction.minSM) + "a";
    StringRef chip = getTargetChipName(op);
    if (chip != required)
      return op.emitOpError("'")
             << instruction.spelling << "' is an arch-specific " << required
             << " instruction, but the target is " << chip
             << " (compile with chip=" << required << ")";
  }
  if (instruction.minSM > targetSM)
    return op.emitOpError("'")
           << instruction.spelling << "' requires sm_" << instruction.minSM
           << " but the target is sm_" << targetSM;
  if (instruction.minPTX > targetPTX)
    return op.emitOpError("'")
           << instruction.spelling << "' requires PTX ISA "
           << instruction.minPTX / 10 << "." << instruction.minPTX % 10
           << " but the target is PTX " << targetPTX / 10 << "."
           << targetPTX % 10 << " (raise it with --tirx-to-ptx=\"features=+ptx"
           << instruction.minPTX << "\")";
  return success();
}

/// What a collective needs beyond its operands' fragments: a scope of whole
/// warps, all 32 lanes (membermask, no per-lane predicate or branch around
/// it), and named-barrier operands in range.
static LogicalResult verifyCollective(ApplyOp op,
                                      const ptx::Instruction &instruction,
                                      ArrayRef<MixedOperand> operands) {
  StringRef kind = ptx::getExecKindName(instruction.exec);
  auto describe = [&]() {
    return op.emitOpError("'") << instruction.spelling << "' is a " << kind
                               << "-collective instruction";
  };
  // A warpgroup collective (wgmma) at scope thread: not the warp message.
  bool warpgroup = instruction.exec == ptx::ExecKind::Warpgroup;
  if (warpgroup && op.getScope() == Scope::thread)
    return describe() << ": the 4 warps of a warpgroup execute it together, "
                         "so it needs scope warpgroup or cta, not thread";
  if (op.getScope() == Scope::thread)
    return describe() << ": the 32 lanes of a warp execute it together, so "
                         "it needs scope warp, warpgroup or cta, not thread";
  // setmaxnreg and wgmma's fences: the four warps of each warpgroup.
  if (instruction.exec == ptx::ExecKind::Warpgroup) {
    if (op.getScope() == Scope::warp)
      return describe() << ": the 4 warps of a warpgroup execute it "
                           "together, so it needs scope warpgroup or cta, "
                           "not warp";
    std::optional<int64_t> threads = getEnclosingBlockThreads(op);
    if (threads && *threads % 128 != 0)
      return describe() << ": the 4 warps of a warpgroup execute it "
                           "together, but the block's "
                        << *threads
                        << " threads are not whole warpgroups (a multiple "
                           "of 128)";
  }
  // A condition must agree across the 4 warps of a warpgroup.
  int64_t unit = warpgroup ? 128 : 32;
  if (Value pred = op.getPred(); pred && !isWarpUniform(pred, unit))
    return describe()
           << (warpgroup
                   ? ": its predicate must be the same in every thread of a "
                     "warpgroup (computed from block indices, sizes, loop "
                     "indices or the warpgroup index), but it may differ "
                     "between threads"
                   : ": its predicate must be the same in every lane of a "
                     "warp (computed from block indices, sizes, loop indices "
                     "or the warp index), but it may differ between lanes");
  // A warpgroup collective's scalar operands (wgmma's scale-d) are one
  // value for the whole instruction.
  if (warpgroup)
    for (const MixedOperand &operand : operands)
      if (operand.value && !isa<tirx::TensorType>(operand.getType()) &&
          !isWarpUniform(operand.value, unit))
        return describe() << ": operand #" << operand.position << " ("
                          << instruction.operands[operand.position].name
                          << ") must be the same in every thread of a "
                             "warpgroup (computed from block indices, sizes, "
                             "loop indices or the warpgroup index), but it "
                             "may differ between threads";
  if (Value condition = findDivergentCondition(op, unit)) {
    InFlightDiagnostic diag =
        describe() << ": it is inside a branch whose condition may differ "
                      "between the "
                   << (warpgroup ? "threads of a warpgroup"
                                 : "lanes of a warp");
    diag.attachNote(condition.getLoc()) << "the condition is computed here";
    return diag;
  }
  return success();
}

/// The values the operands' kinds ask of them (their family modules say
/// what: the full membermask, barrier ids and thread counts, cp.async's chunk
/// sizes, wait_group's count, ...).
static LogicalResult verifyOperandValues(ApplyOp op,
                                         const ptx::Instruction &instruction,
                                         ArrayRef<MixedOperand> operands) {
  auto getImmediate = [&](unsigned position) {
    return getIntegerImmediate(operands, position);
  };
  std::optional<int64_t> blockThreads = getEnclosingBlockThreads(op);
  auto kernel = op->getParentOfType<KernelOp>();
  std::optional<int64_t> clusterCTAs;
  if (kernel && kernel.getLaunch().hasCluster())
    clusterCTAs = kernel.getLaunch().getNumClusterCTAs();
  for (const MixedOperand &operand : operands) {
    const ptx::OperandKind *kind =
        ptx::getOperandKind(instruction, operand.position);
    if (!kind || !kind->checkValue)
      continue;
    ptx::OperandValue value{instruction, operand.position,
                            getImmediate(operand.position), getImmediate};
    value.blockThreads = blockThreads;
    value.inKernel = static_cast<bool>(kernel);
    value.clusterCTAs = clusterCTAs;
    if (std::optional<std::string> reason = kind->checkValue(value))
      return op.emitOpError("operand #")
             << operand.position << " ("
             << instruction.operands[operand.position].name << ") of '"
             << instruction.spelling << "': " << *reason;
  }
  return success();
}

/// A memory operand through a masked region (tirx.region ... masked): each
/// repeat is skipped unless all its elements are inside the tensor, so no
/// atom may be partly inside. Atoms start at multiples of their size in the
/// region's row-major order; they stay in one region row when its innermost
/// size is a multiple of the atom, and stop at the tensor's end when the
/// innermost extent is one too: the base's alignment to the atom, with
/// every outer stride a multiple of that extent, makes the innermost offset
/// a multiple of the atom as well.
static LogicalResult verifyMaskedOperand(ApplyOp op,
                                         const TileTensorOperand &operand,
                                         Value value) {
  RegionOp region = getMaskedRegion(value);
  if (!region)
    return success();
  // In the region's elements (a view may pack several into one of the
  // operand's).
  int64_t atom =
      getRegionElementCount(value, std::max<unsigned>(operand.atom, 1));
  if (atom == 1)
    return success();
  auto describe = [&]() {
    return op.emitOpError("operand #")
           << operand.position << " (" << operand.name
           << ") accesses a masked region " << atom
           << " of its elements at a time, ";
  };
  ArrayRef<int64_t> sizes = region.getStaticSizes();
  unsigned inner = sizes.size() - 1;
  if (sizes[inner] % atom != 0) {
    InFlightDiagnostic diag = describe()
                              << "but the region's innermost size "
                              << sizes[inner] << " is not a multiple of "
                              << atom << ": an access would span two rows";
    diag.attachNote(region.getLoc()) << "the region is here";
    return diag;
  }
  if (!mayOverhang(region, inner))
    return success();
  // (The vector check, checkMemoryOperand, proved the base aligned to the
  // access.)
  tirx::TensorType source = region.getSource().getType();
  int64_t divisor = source.getShape()[inner];
  StringAttr name = source.getSizeName(inner);
  if (name) {
    auto function = region->getParentOfType<FunctionOpInterface>();
    BlockArgument argument = getSizeArgument(function, name);
    divisor = argument ? getSizeMultiple(function, argument.getArgNumber()) : 1;
  }
  if (divisor % atom != 0) {
    InFlightDiagnostic diag = describe()
                              << "so the tensor's innermost extent must be a "
                                 "multiple of "
                              << atom << " for no access to straddle its end; ";
    if (name)
      diag << "declare " << name.getValue() << " a multiple of " << atom
           << " (tirx.multiple_of = " << atom << "; in Python T.dynamic(\""
           << name.getValue() << "\", multiple_of=" << atom
           << ")), or access it one element at a time";
    else
      diag << "it is " << source.getShape()[inner]
           << "; access it one element at a time";
    diag.attachNote(region.getLoc()) << "the region is here";
    return diag;
  }
  return success();
}

/// A memory operand through a tile of a runtime-sized tensor that spans
/// several rows (RegionAccess.h): its rows are a runtime stride apart, so no
/// access may span two of them, and a vector access needs every row's start
/// aligned, which the stride's known multiple (its constant factor times
/// the size variables' multiple_of, in bytes) must show.
static LogicalResult verifyRuntimeStridedOperand(
    ApplyOp op, const TileTensorOperand &operand, Value value) {
  RegionOp region = getRuntimeStridedRegion(value);
  if (!region)
    return success();
  int64_t atom =
      getRegionElementCount(value, std::max<unsigned>(operand.atom, 1));
  ArrayRef<int64_t> sizes = region.getStaticSizes();
  auto describe = [&]() {
    InFlightDiagnostic diag = op.emitOpError("operand #")
                              << operand.position << " (" << operand.name
                              << ") accesses a tile of a runtime-sized tensor "
                                 "whose rows are a runtime stride apart, ";
    diag.attachNote(region.getLoc()) << "the region is here";
    return diag;
  };
  if (sizes.back() % atom != 0)
    return describe() << atom
                      << " of its elements at a time, but the tile's "
                         "innermost size "
                      << sizes.back() << " is not a multiple of " << atom
                      << ": an access would span two rows";
  if (operand.vectorBytes <= 1)
    return success();
  tirx::TensorType source = region.getSource().getType();
  auto function = region->getParentOfType<FunctionOpInterface>();
  for (auto [dim, size] : llvm::enumerate(sizes)) {
    SmallVector<StringAttr> factors = source.getRuntimeStrideFactors(dim);
    if (size == 1 || factors.empty())
      continue;
    int64_t staticBytes =
        source.getElementBytes() * source.getStaticStrideFactor(dim);
    unsigned zeros = llvm::countr_zero(static_cast<uint64_t>(staticBytes));
    for (StringAttr name : factors) {
      BlockArgument argument = getSizeArgument(function, name);
      zeros += llvm::countr_zero(static_cast<uint64_t>(
          argument ? getSizeMultiple(function, argument.getArgNumber()) : 1));
    }
    int64_t known = int64_t(1) << std::min(zeros, 62u);
    if (known % operand.vectorBytes == 0)
      continue;
    InFlightDiagnostic diag = describe()
                              << operand.vectorBytes
                              << " bytes at a time, but dimension " << dim
                              << "'s stride is the runtime product "
                              << staticBytes << " bytes";
    for (StringAttr name : factors)
      diag << " · " << name.getValue();
    diag << ", known to be a multiple of only " << known << " bytes";
    if (factors.size() == 1) {
      // Both powers of two: what the size variable must contribute.
      int64_t staticPower = int64_t(1)
                            << llvm::countr_zero(
                                   static_cast<uint64_t>(staticBytes));
      int64_t needed =
          std::max<int64_t>(1, operand.vectorBytes / staticPower);
      diag << "; declare " << factors.front().getValue() << " a multiple of "
           << needed << " (tirx.multiple_of = " << needed
           << "; in Python T.dynamic(\"" << factors.front().getValue()
           << "\", multiple_of=" << needed << "))";
    }
    return diag;
  }
  return success();
}

LogicalResult ApplyOp::verify() {
  FailureOr<SmallVector<MixedOperand>> operands =
      getMixedOperands(*this, getArgs(), getOperandKinds());
  if (failed(operands))
    return failure();
  FailureOr<const ptx::Instruction *> selected =
      selectInstructionForm(*this, getInstruction(), *operands);
  if (failed(selected))
    return failure();
  const ptx::Instruction &instruction = **selected;

  // The floors are checked against the compilation target once one is named
  // (tirx.chip: set by tirx-to-gpu{chip=...}, which re-verifies every
  // tile.apply); tile-dispatch refuses to lower without one.
  FailureOr<std::optional<unsigned>> targetSM = getTargetSM(*this);
  if (failed(targetSM))
    return failure();
  FailureOr<unsigned> targetPTX = getTargetPTX(*this);
  if (failed(targetPTX))
    return failure();
  if (*targetSM &&
      failed(verifyTargetFloors(*this, instruction, **targetSM, *targetPTX)))
    return failure();

  bool collective = instruction.exec != ptx::ExecKind::Thread;
  if (collective && failed(verifyCollective(*this, instruction, *operands)))
    return failure();
  if (failed(verifyOperandValues(*this, instruction, *operands)))
    return failure();
  if (isBulkTensorCopy(instruction))
    return verifyBulkTensorCopy(*this, instruction, *operands);

  SmallVector<TileTensorOperand> tensors;
  for (const MixedOperand &operand : *operands) {
    const ptx::OperandInfo &info = instruction.operands[operand.position];
    auto describe = [&]() {
      return emitOpError("operand #")
             << operand.position << " (" << info.name << ") of '"
             << instruction.spelling << "': ";
    };
    Type type = operand.getType();
    auto tensor = dyn_cast<tirx::TensorType>(type);
    Type elementType = tensor ? tensor.getElementType() : type;
    if (!tensor) {
      if (info.isDestination)
        return describe() << "is written, so it must be a tensor, got "
                          << (operand.immediate ? "an immediate" : "a scalar");
      if (info.isMemory)
        return describe() << "is a memory operand and must be a tensor";
      if (!info.allowsImmediate)
        return describe() << "cannot be a scalar";
    }
    if (!acceptsOperandType(info.element, elementType, bool(tensor)))
      return describe() << "needs " << info.element.describe() << ", got "
                        << elementType;
    if (!tensor)
      continue;
    if (info.isMemory) {
      bool spaceMatches = false;
      switch (info.space) {
      case ptx::MemorySpace::Global:
        spaceMatches = tensor.isGlobal();
        break;
      case ptx::MemorySpace::Shared:
      case ptx::MemorySpace::SharedCluster:
        spaceMatches = tensor.isShared();
        break;
      case ptx::MemorySpace::Generic:
        spaceMatches = tensor.isGlobal() || tensor.isShared();
        break;
      case ptx::MemorySpace::Local:
        spaceMatches =
            tensor.isLocal() && tensor.getLayoutOrDefault().isMemoryOnly();
        break;
      case ptx::MemorySpace::None:
        break;
      }
      if (!spaceMatches)
        return describe() << "accesses " << ptx::getMemorySpaceName(info.space)
                          << " memory, but the tensor is "
                          << stringifyMemorySpace(tensor.getMemorySpace());
    }
    bool descriptor = info.descriptor != ptx::DescriptorMatrix::None;
    if (collective && info.fragment.empty() && !descriptor)
      return describe() << "is a per-lane value of a collective and must be "
                           "an immediate or a scalar, got a tensor";
    unsigned atom = info.atom;
    unsigned vectorBytes = info.isMemory ? instruction.vectorBytes : 0;
    if (info.chunkOperand >= 0) {
      // The value rule proved the chunk an immediate of 4, 8 or 16 bytes.
      int64_t bytes = getChunkBytes(*operands, info.chunkOperand);
      int64_t elementBytes = tensor.getElementBytes();
      if (bytes % elementBytes != 0)
        return describe() << "a " << bytes << "-byte chunk is not a whole "
                          << "number of " << elementType << " elements";
      atom = bytes / elementBytes;
      vectorBytes = bytes;
    } else if (info.isMemory && !info.fragment.empty()) {
      // A collective's memory rows: each lane's row is one access.
      vectorBytes = getFragment(info.fragment).registersPerLane *
                    tensor.getElementBytes();
    }
    tensors.push_back({operand.position, info.name, tensor, info.isDestination,
                       info.isMemory, atom, vectorBytes, info.fragment,
                       info.atomShape});
    if (descriptor) {
      // imm-trans-a/b (an immediate, by its value rule) picks MN-major.
      tensors.back().isDescriptor = true;
      tensors.back().mnMajor =
          getMatrixTranspose(instruction, *operands, info.descriptor);
    }
  }
  // Structured repeats (mma's M x N x K, its family module): each operand's
  // repeat shape follows from D's and A's (a wrong rank or group is the
  // checker's to report).
  bool structured = false;
  if (tensors.size() == 4) {
    size_t groupRank = getScope() == Scope::warp ? 0 : 1;
    SmallVector<SmallVector<int64_t>> repeatShapes;
    for (const TileTensorOperand &tensor : tensors) {
      ArrayRef<int64_t> shape = tensor.type.getShape();
      size_t atomRank = tensor.getAtomShape().size();
      if (shape.size() < groupRank + atomRank)
        break;
      repeatShapes.emplace_back(
          shape.drop_front(groupRank).drop_back(atomRank));
    }
    std::optional<MmaRepeats> mnk;
    if (repeatShapes.size() == 4)
      mnk = getMmaRepeats(instruction, repeatShapes[0], repeatShapes[1]);
    if (mnk) {
      structured = true;
      SmallVector<int64_t> expected[] = {mnk->getD(), mnk->getA(), mnk->getB(),
                                         mnk->getD()};
      const char *roles[] = {"(batch..., M_repeat, N_repeat)",
                             "(batch..., M_repeat, K_repeat)",
                             "(batch..., N_repeat, K_repeat)",
                             "D's (batch..., M_repeat, N_repeat)"};
      for (auto [index, tensor] : llvm::enumerate(tensors)) {
        if (repeatShapes[index] == expected[index])
          continue;
        InFlightDiagnostic diag = emitOpError("operand #")
                                  << tensor.position << " (" << tensor.name
                                  << "): mma's repeats are " << roles[index]
                                  << " = (";
        llvm::interleaveComma(expected[index], diag);
        diag << ") (M_repeat " << mnk->m << " and N_repeat " << mnk->n
             << " from D, K_repeat " << mnk->k << " from A), but its repeat "
             << "shape is (";
        llvm::interleaveComma(repeatShapes[index], diag);
        return diag << ")";
      }
    }
  }
  if (failed(checkTileTensorOperands(
          *this, getScope(), tensors, collective, /*sameRepeats=*/!structured,
          /*warpgroupInAtom=*/instruction.exec == ptx::ExecKind::Warpgroup)))
    return failure();
  for (const TileTensorOperand &tensor : tensors) {
    if (!tensor.isMemory)
      continue;
    Value value = (*operands)[tensor.position].value;
    if (failed(verifyRuntimeStridedOperand(*this, tensor, value)) ||
        failed(verifyMaskedOperand(*this, tensor, value)))
      return failure();
  }
  // The wgmma fence check walks the whole kernel: tirx-verify-kernels.
  return success();
}

//===----------------------------------------------------------------------===//
// EwiseOp
//===----------------------------------------------------------------------===//

// tile.ewise @fn scope(s) (operands) attr-dict [: types]
ParseResult EwiseOp::parse(OpAsmParser &parser, OperationState &result) {
  FlatSymbolRefAttr callee;
  ScopeAttr scope;
  SmallVector<OpAsmParser::UnresolvedOperand> args;
  ArrayAttr kinds;
  if (parser.parseAttribute(callee) || parseScope(parser, scope))
    return failure();
  SMLoc argsLoc = parser.getCurrentLocation();
  if (parseMixedOperands(parser, args, kinds) ||
      parser.parseOptionalAttrDict(result.attributes) ||
      resolveArgs(parser, args, argsLoc, result))
    return failure();
  result.addAttribute(getCalleeAttrName(result.name), callee);
  result.addAttribute(getScopeAttrName(result.name), scope);
  result.addAttribute(getOperandKindsAttrName(result.name), kinds);
  return success();
}

void EwiseOp::print(OpAsmPrinter &printer) {
  printer << ' ';
  printer.printAttributeWithoutType(getCalleeAttr());
  printer << " scope(" << stringifyScope(getScope()) << ") ";
  printMixedOperands(printer, getArgs(), getOperandKinds());
  printer.printOptionalAttrDict(
      (*this)->getAttrs(),
      {getCalleeAttrName(), getScopeAttrName(), getOperandKindsAttrName()});
  if (!getArgs().empty()) {
    printer << " : ";
    llvm::interleaveComma(getArgs().getTypes(), printer);
  }
}

void EwiseOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  unsigned nextArg = 0;
  for (auto [position, kind] : llvm::enumerate(getOperandKinds())) {
    if (!isa<UnitAttr>(kind) || nextArg >= getArgs().size())
      continue;
    OpOperand &operand = getArgsMutable()[nextArg++];
    if (!isa<tirx::TensorType>(operand.get().getType()))
      continue;
    if (position == 0)
      effects.emplace_back(MemoryEffects::Write::get(), &operand);
    else
      effects.emplace_back(MemoryEffects::Read::get(), &operand);
  }
}

LogicalResult EwiseOp::verify() {
  FailureOr<SmallVector<MixedOperand>> operands =
      getMixedOperands(*this, getArgs(), getOperandKinds());
  if (failed(operands))
    return failure();
  if (operands->empty())
    return emitOpError("needs a destination tensor");
  const MixedOperand &destination = operands->front();
  auto dstType = dyn_cast<tirx::TensorType>(destination.getType());
  if (!dstType || !dstType.isLocal())
    return emitOpError("destination (operand #0) must be a local tensor, got ")
           << destination.getType();
  return success();
}

/// Checks that `fn` is a scalar function TirX can inline: scalar parameters,
/// one scalar result, a single-block body of arith/math/scf.if ops and calls
/// to other such functions, no recursion. `chain` holds the callers.
static LogicalResult
verifyScalarFunction(Operation *user, func::FuncOp fn,
                     SymbolTableCollection &symbolTable,
                     SmallVectorImpl<func::FuncOp> &chain) {
  StringRef name = fn.getSymName();
  auto describe = [&]() { return user->emitOpError("callee @") << name; };
  if (llvm::is_contained(chain, fn)) {
    InFlightDiagnostic diag = user->emitOpError("scalar functions cannot be "
                                                "recursive: ");
    for (func::FuncOp caller : chain)
      diag << "@" << caller.getSymName() << " -> ";
    return diag << "@" << name;
  }
  FunctionType fnType = fn.getFunctionType();
  for (auto [index, type] : llvm::enumerate(fnType.getInputs()))
    if (!isTirXScalarType(type))
      return describe() << " must take scalars, but parameter #" << index
                        << " has type " << type;
  if (fnType.getNumResults() != 1 || !isTirXScalarType(fnType.getResult(0)))
    return describe() << " must return exactly one scalar, but returns "
                      << fnType.getResults();
  if (fn.isExternal())
    return describe() << " has no body to inline";
  if (!fn.getBody().hasOneBlock())
    return describe() << " must have a single block (use scf.if or "
                         "arith.select for branches)";
  chain.push_back(fn);
  WalkResult result = fn.getBody().walk([&](Operation *op) {
    if (auto call = dyn_cast<func::CallOp>(op)) {
      auto callee = symbolTable.lookupNearestSymbolFrom<func::FuncOp>(
          fn, call.getCalleeAttr());
      if (!callee) {
        describe() << " calls " << call.getCalleeAttr()
                   << ", which is not a func.func";
        return WalkResult::interrupt();
      }
      return failed(verifyScalarFunction(user, callee, symbolTable, chain))
                 ? WalkResult::interrupt()
                 : WalkResult::advance();
    }
    StringRef dialect =
        op->getDialect() ? op->getDialect()->getNamespace() : StringRef();
    bool allowed = dialect == "arith" || dialect == "math" ||
                   isa<scf::IfOp, scf::YieldOp, func::ReturnOp>(op);
    if (!allowed) {
      describe() << " contains '" << op->getName()
                 << "'; a scalar function may use only arith and math ops, "
                    "scf.if and calls to other scalar functions";
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  chain.pop_back();
  return failure(result.wasInterrupted());
}

LogicalResult EwiseOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  auto callee =
      symbolTable.lookupNearestSymbolFrom<func::FuncOp>(*this, getCalleeAttr());
  if (!callee)
    return emitOpError("callee ")
           << getCalleeAttr() << " does not name a func.func";
  SmallVector<func::FuncOp> chain;
  if (failed(verifyScalarFunction(*this, callee, symbolTable, chain)))
    return failure();
  FunctionType fnType = callee.getFunctionType();

  // operands: destination, then one per parameter.
  FailureOr<SmallVector<MixedOperand>> operands =
      getMixedOperands(*this, getArgs(), getOperandKinds());
  if (failed(operands))
    return failure();
  unsigned numParams = fnType.getNumInputs();
  if (operands->size() != numParams + 1)
    return emitOpError("callee ")
           << getCalleeAttr() << " takes " << numParams
           << " argument(s), so the op needs " << numParams + 1
           << " operands (destination first), got " << operands->size();

  SmallVector<TileTensorOperand> tensors;
  for (const MixedOperand &operand : *operands) {
    bool isDestination = operand.position == 0;
    Type expected = isDestination ? fnType.getResult(0)
                                  : fnType.getInput(operand.position - 1);
    auto tensor = dyn_cast<tirx::TensorType>(operand.getType());
    Type elementType = tensor ? tensor.getElementType() : operand.getType();
    if (elementType != expected)
      return emitOpError("operand #")
             << operand.position << " has element type " << elementType
             << " but "
             << (isDestination ? "the callee returns "
                               : "the callee's parameter is ")
             << expected << "; ewise performs no implicit casts";
    if (!tensor)
      continue;
    if (!tensor.isLocal())
      return emitOpError("operand #")
             << operand.position << " must be a local tensor, got a "
             << stringifyMemorySpace(tensor.getMemorySpace()) << " tensor";
    tensors.push_back({operand.position,
                       isDestination
                           ? std::string("destination")
                           : "input #" + std::to_string(operand.position),
                       tensor, isDestination, /*isMemory=*/false, /*atom=*/0,
                       /*vectorBytes=*/0});
  }
  return checkTileTensorOperands(*this, getScope(), tensors);
}
