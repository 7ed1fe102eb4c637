//===- TirXOps.cpp - tirx operations --------------------------------------===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//

#include "TirX/Dialect/TirX/IR/TirXOps.h"
#include "TirX/Dialect/TirX/IR/RegionAccess.h"
#include "TirX/Layout/LayoutRegion.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/FunctionImplementation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/CheckedArithmetic.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tirx;

#include "TirX/Dialect/TirX/IR/TirXInterfaces.cpp.inc"

#define GET_OP_CLASSES
#include "TirX/Dialect/TirX/IR/TirXOps.cpp.inc"

//===----------------------------------------------------------------------===//
// Target chip
//===----------------------------------------------------------------------===//

FailureOr<std::optional<unsigned>> mlir::tirx::getTargetSM(Operation *op) {
  for (Operation *current = op; current; current = current->getParentOp()) {
    Attribute attr = current->getAttr(TirXDialect::kChipAttrName);
    if (!attr)
      continue;
    auto chip = dyn_cast<StringAttr>(attr);
    unsigned sm = 0;
    StringRef digits = chip ? chip.getValue() : StringRef();
    if (!chip || !digits.consume_front("sm_") ||
        digits.consumeInteger(10, sm) ||
        !(digits.empty() || digits == "a" || digits == "f"))
      return current->emitError()
             << "'" << TirXDialect::kChipAttrName
             << "' must be a chip name such as \"sm_90\" or \"sm_90a\", got "
             << attr;
    return std::optional<unsigned>(sm);
  }
  return std::optional<unsigned>();
}

FailureOr<unsigned> mlir::tirx::getTargetPTX(Operation *op) {
  for (Operation *current = op; current; current = current->getParentOp()) {
    Attribute attr = current->getAttr(TirXDialect::kPTXAttrName);
    if (!attr)
      continue;
    auto version = dyn_cast<IntegerAttr>(attr);
    if (!version || version.getValue().isNegative() ||
        version.getValue().getZExtValue() > 1000)
      return current->emitError()
             << "'" << TirXDialect::kPTXAttrName
             << "' must be the PTX ISA version times ten, e.g. 80, got "
             << attr;
    return static_cast<unsigned>(version.getValue().getZExtValue());
  }
  return TirXDialect::kDefaultPTX;
}

SmallVector<int64_t, 3> mlir::tirx::getEnclosingBlockExtents(Operation *op) {
  if (auto kernel = op->getParentOfType<KernelOp>())
    return SmallVector<int64_t, 3>(kernel.getLaunch().getBlock());
  if (auto func = op->getParentOfType<gpu::GPUFuncOp>())
    if (DenseI32ArrayAttr known = func.getKnownBlockSizeAttr())
      return SmallVector<int64_t, 3>(known.asArrayRef());
  return {};
}

std::optional<int64_t> mlir::tirx::getEnclosingBlockThreads(Operation *op) {
  SmallVector<int64_t, 3> extents = getEnclosingBlockExtents(op);
  if (extents.empty())
    return std::nullopt;
  int64_t threads = 1;
  for (int64_t extent : extents)
    threads *= extent;
  return threads;
}

int64_t mlir::tirx::getSharedMemoryBytes(Operation *kernel,
                                         SmallVectorImpl<int64_t> *offsets) {
  int64_t bytes = 0;
  kernel->walk([&](AllocSharedOp alloc) {
    TensorType type = alloc.getResult().getType();
    int64_t align = type.getAlignmentOrDefault();
    bytes = llvm::alignTo(bytes, align);
    if (offsets)
      offsets->push_back(bytes);
    bytes += type.getLayoutOrDefault().span(Axis::m) * type.getElementBytes();
  });
  return bytes;
}

int64_t mlir::tirx::getDynamicSharedMemoryBytes(Operation *kernel) {
  int64_t bytes = getSharedMemoryBytes(kernel);
  return bytes > kMaxStaticSharedBytes ? bytes : 0;
}

//===----------------------------------------------------------------------===//
// KernelOp
//===----------------------------------------------------------------------===//

// tirx.kernel @name(%a: T, ...) launch(grid = [...], block = [...])
//     attributes {...} { body }

static ParseResult parseExtentList(OpAsmParser &parser, StringRef keyword,
                                   SmallVectorImpl<int64_t> &extents) {
  if (parser.parseKeyword(keyword) || parser.parseEqual())
    return failure();
  return parser.parseCommaSeparatedList(OpAsmParser::Delimiter::Square, [&]() {
    return parser.parseInteger(extents.emplace_back());
  });
}

/// `grid = [4, %n ceildiv 1024]`: constants, or affine expressions of the
/// kernel's arguments (stored with symbol i = argument i).
static ParseResult parseGridList(OpAsmParser &parser,
                                 ArrayRef<OpAsmParser::Argument> arguments,
                                 SmallVectorImpl<int64_t> &grid,
                                 SmallVectorImpl<AffineExpr> &gridExprs) {
  if (parser.parseKeyword("grid") || parser.parseEqual())
    return failure();
  MLIRContext *context = parser.getContext();
  return parser.parseCommaSeparatedList(
      OpAsmParser::Delimiter::Square, [&]() -> ParseResult {
        int64_t extent;
        OptionalParseResult constant = parser.parseOptionalInteger(extent);
        if (constant.has_value()) {
          grid.push_back(extent);
          return *constant;
        }
        SMLoc loc = parser.getCurrentLocation();
        SmallVector<OpAsmParser::UnresolvedOperand> dims, symbols;
        AffineExpr expr;
        if (parser.parseAffineExprOfSSAIds(dims, symbols, expr))
          return failure();
        // Both the bare (%n) and the symbol(%n) operands name arguments.
        SmallVector<AffineExpr> dimReplacements, symbolReplacements;
        auto argumentExpr = [&](const OpAsmParser::UnresolvedOperand &operand)
            -> FailureOr<AffineExpr> {
          for (auto [index, argument] : llvm::enumerate(arguments))
            if (argument.ssaName.name == operand.name)
              return getAffineSymbolExpr(index, context);
          return FailureOr<AffineExpr>(
              parser.emitError(loc, "grid extent uses '")
              << operand.name << "', which is not an argument of the kernel");
        };
        for (auto &operand : dims) {
          FailureOr<AffineExpr> replacement = argumentExpr(operand);
          if (failed(replacement))
            return failure();
          dimReplacements.push_back(*replacement);
        }
        for (auto &operand : symbols) {
          FailureOr<AffineExpr> replacement = argumentExpr(operand);
          if (failed(replacement))
            return failure();
          symbolReplacements.push_back(*replacement);
        }
        expr = expr.replaceDimsAndSymbols(dimReplacements, symbolReplacements);
        if (auto value = dyn_cast<AffineConstantExpr>(expr)) {
          grid.push_back(value.getValue());
          return success();
        }
        grid.push_back(ShapedType::kDynamic);
        gridExprs.push_back(expr);
        return success();
      });
}

/// Prints an affine expression whose symbols are the kernel's arguments, in
/// the form parseGridList reads.
static void printGridExpr(OpAsmPrinter &printer, KernelOp kernel,
                          AffineExpr expr, bool nested) {
  if (auto constant = dyn_cast<AffineConstantExpr>(expr)) {
    printer << constant.getValue();
    return;
  }
  if (auto symbol = dyn_cast<AffineSymbolExpr>(expr)) {
    printer.printOperand(kernel.getArgument(symbol.getPosition()));
    return;
  }
  auto binary = cast<AffineBinaryOpExpr>(expr);
  StringRef op;
  switch (expr.getKind()) {
  case AffineExprKind::Add:
    op = "+";
    break;
  case AffineExprKind::Mul:
    op = "*";
    break;
  case AffineExprKind::Mod:
    op = "mod";
    break;
  case AffineExprKind::FloorDiv:
    op = "floordiv";
    break;
  default:
    op = "ceildiv";
    break;
  }
  if (nested)
    printer << '(';
  printGridExpr(printer, kernel, binary.getLHS(), true);
  printer << ' ' << op << ' ';
  printGridExpr(printer, kernel, binary.getRHS(), true);
  if (nested)
    printer << ')';
}

ParseResult KernelOp::parse(OpAsmParser &parser, OperationState &result) {
  StringAttr name;
  if (parser.parseSymbolName(name, getSymNameAttrName(result.name),
                             result.attributes))
    return failure();

  SmallVector<OpAsmParser::Argument> arguments;
  SmallVector<Type> resultTypes;
  SmallVector<DictionaryAttr> resultAttrs;
  bool isVariadic = false;
  if (function_interface_impl::parseFunctionSignatureWithArguments(
          parser, /*allowVariadic=*/false, arguments, isVariadic, resultTypes,
          resultAttrs))
    return failure();
  SmallVector<Type> argumentTypes =
      llvm::map_to_vector(arguments, [](auto &arg) { return arg.type; });
  result.addAttribute(getFunctionTypeAttrName(result.name),
                      TypeAttr::get(parser.getBuilder().getFunctionType(
                          argumentTypes, resultTypes)));
  call_interface_impl::addArgAndResultAttrs(
      parser.getBuilder(), result, arguments, resultAttrs,
      getArgAttrsAttrName(result.name), getResAttrsAttrName(result.name));

  SmallVector<int64_t> grid, block, cluster;
  SmallVector<AffineExpr> gridExprs;
  SMLoc launchLoc = parser.getCurrentLocation();
  if (parser.parseKeyword("launch") || parser.parseLParen() ||
      parseGridList(parser, arguments, grid, gridExprs) ||
      parser.parseComma() || parseExtentList(parser, "block", block))
    return failure();
  if (succeeded(parser.parseOptionalComma()) &&
      parseExtentList(parser, "cluster", cluster))
    return failure();
  if (parser.parseRParen())
    return failure();
  auto emitLaunchError = [&] { return parser.emitError(launchLoc); };
  AffineMap gridSizes;
  if (!gridExprs.empty())
    gridSizes =
        AffineMap::get(0, arguments.size(), gridExprs, parser.getContext());
  auto launch = LaunchConfigAttr::getChecked(
      function_ref<InFlightDiagnostic()>(emitLaunchError), parser.getContext(),
      ArrayRef<int64_t>(grid), ArrayRef<int64_t>(block), gridSizes,
      ArrayRef<int64_t>(cluster));
  if (!launch)
    return failure();
  result.addAttribute(getLaunchAttrName(result.name), launch);

  if (parser.parseOptionalAttrDictWithKeyword(result.attributes))
    return failure();
  return parser.parseRegion(*result.addRegion(), arguments,
                            /*enableNameShadowing=*/false);
}

void KernelOp::print(OpAsmPrinter &printer) {
  printer << ' ';
  printer.printSymbolName(getSymName());
  function_interface_impl::printFunctionSignature(
      printer, *this, getArgumentTypes(), /*isVariadic=*/false,
      getResultTypes());
  printer << " launch(grid = [";
  llvm::interleaveComma(llvm::seq<unsigned>(0, getLaunch().getGrid().size()),
                        printer, [&](unsigned dim) {
                          printGridExpr(printer, *this,
                                        getLaunch().getGridExpr(dim), false);
                        });
  printer << "], block = [";
  llvm::interleaveComma(getLaunch().getBlock(), printer);
  if (getLaunch().hasCluster()) {
    printer << "], cluster = [";
    llvm::interleaveComma(getLaunch().getCluster(), printer);
  }
  printer << "])";
  function_interface_impl::printFunctionAttributes(
      printer, *this,
      {getFunctionTypeAttrName(), getLaunchAttrName(), getArgAttrsAttrName(),
       getResAttrsAttrName()});
  printer << ' ';
  printer.printRegion(getBody(), /*printEntryBlockArgs=*/false,
                      /*printBlockTerminators=*/true);
}

LogicalResult KernelOp::verify() {
  if (!getResultTypes().empty())
    return emitOpError("must not return values; write results through "
                       "global tensor arguments");
  if (getLaunch().hasCluster()) {
    FailureOr<std::optional<unsigned>> sm = getTargetSM(*this);
    if (failed(sm))
      return failure();
    if (*sm && **sm < 90)
      return emitOpError("runs in thread-block clusters, which need sm_90 "
                         "or later, but the target is sm_")
             << **sm;
  }
  for (auto [index, type] : llvm::enumerate(getArgumentTypes())) {
    if (auto tensor = dyn_cast<tirx::TensorType>(type)) {
      if (!tensor.isGlobal())
        return emitOpError("argument #")
               << index << " is a "
               << stringifyMemorySpace(tensor.getMemorySpace())
               << " tensor; kernel arguments must be global tensors or "
                  "scalars";
      continue;
    }
    if (!isTirXScalarType(type) && !type.isIndex() && !type.isInteger(1))
      return emitOpError("argument #")
             << index << " has type " << type
             << "; kernel arguments must be global tensors or scalars";
  }
  return verifySizeVariables();
}

/// Size variables (docs/sizes.md): each is an `index` argument with a unique
/// name and a positive divisor, named by an extent of some tensor argument
/// (the launcher binds it from that shape); every name in a tensor type is
/// one of them; the grid's expressions use only them.
LogicalResult KernelOp::verifySizeVariables() {
  llvm::StringMap<unsigned> sizeArgs;
  for (unsigned index = 0, e = getNumArguments(); index < e; ++index) {
    Attribute multiple = getArgAttr(index, TirXDialect::kMultipleOfAttrName);
    Attribute atMost = getArgAttr(index, TirXDialect::kAtMostAttrName);
    Attribute attr = getArgAttr(index, TirXDialect::kSizeAttrName);
    if (!attr) {
      for (auto [present, attrName] :
           {std::pair(multiple, TirXDialect::kMultipleOfAttrName),
            std::pair(atMost, TirXDialect::kAtMostAttrName)})
        if (present)
          return emitOpError("argument #")
                 << index << " has '" << attrName
                 << "' but is not a size variable (no '"
                 << TirXDialect::kSizeAttrName << "')";
      continue;
    }
    auto name = dyn_cast<StringAttr>(attr);
    if (!name || name.getValue().empty())
      return emitOpError("argument #")
             << index << ": '" << TirXDialect::kSizeAttrName
             << "' must be the size variable's name, got " << attr;
    if (!getArgument(index).getType().isIndex())
      return emitOpError("size variable '")
             << name.getValue() << "' (argument #" << index
             << ") must have type index, got " << getArgument(index).getType();
    if (multiple) {
      auto value = dyn_cast<IntegerAttr>(multiple);
      if (!value || value.getValue().getSExtValue() < 1 ||
          value.getValue().getSExtValue() > (int64_t(1) << 30))
        return emitOpError("size variable '")
               << name.getValue() << "': '" << TirXDialect::kMultipleOfAttrName
               << "' must be an integer in [1, 2^30], got " << multiple;
    }
    if (atMost) {
      // At most 2^62: the launchers' checks and the bounds proof's
      // arithmetic stay far from int64 overflow.
      auto value = dyn_cast<IntegerAttr>(atMost);
      int64_t divisor = getSizeMultiple(*this, index);
      if (!value || value.getValue().getSExtValue() < 1 ||
          value.getValue().getSExtValue() > (int64_t(1) << 62))
        return emitOpError("size variable '")
               << name.getValue() << "': '" << TirXDialect::kAtMostAttrName
               << "' must be an integer in [1, 2^62], got " << atMost;
      if (value.getValue().getSExtValue() % divisor)
        return emitOpError("size variable '")
               << name.getValue() << "': '" << TirXDialect::kAtMostAttrName
               << "' = " << value.getValue().getSExtValue()
               << " is not a multiple of its '"
               << TirXDialect::kMultipleOfAttrName << "' = " << divisor;
    }
    if (!sizeArgs.try_emplace(name.getValue(), index).second)
      return emitOpError("size variable '")
             << name.getValue() << "' is declared twice (arguments #"
             << sizeArgs.lookup(name.getValue()) << " and #" << index << ")";
  }
  llvm::StringSet<> bound;
  for (auto [index, type] : llvm::enumerate(getArgumentTypes())) {
    auto tensor = dyn_cast<tirx::TensorType>(type);
    if (!tensor || !tensor.getSizeNames())
      continue;
    for (Attribute attr : tensor.getSizeNames()) {
      StringRef name = cast<StringAttr>(attr).getValue();
      if (!sizeArgs.contains(name))
        return emitOpError("argument #")
               << index << " has an extent named '" << name
               << "', but no argument declares size variable '" << name
               << "' (an index argument with {" << TirXDialect::kSizeAttrName
               << " = \"" << name << "\"})";
      bound.insert(name);
    }
  }
  for (auto &entry : sizeArgs)
    if (!bound.contains(entry.getKey()))
      return emitOpError("size variable '")
             << entry.getKey()
             << "' is no extent of any tensor argument, so a launch cannot "
                "know its value";
  if (AffineMap gridSizes = getLaunch().getGridSizes()) {
    if (gridSizes.getNumSymbols() != getNumArguments())
      return emitOpError("grid_sizes must have one symbol per argument (")
             << getNumArguments() << "), got " << gridSizes.getNumSymbols();
    for (AffineExpr expr : gridSizes.getResults()) {
      std::optional<unsigned> other;
      expr.walk([&](AffineExpr sub) {
        auto symbol = dyn_cast<AffineSymbolExpr>(sub);
        if (symbol &&
            !getArgAttr(symbol.getPosition(), TirXDialect::kSizeAttrName))
          other = symbol.getPosition();
      });
      if (other)
        return emitOpError("a grid extent may use only size variables, but "
                           "it uses argument #")
               << *other;
      // Products of sizes and divisions by anything but a positive constant
      // are beyond the bounds proof (and beyond affine maps' semantics).
      std::optional<std::string> problem;
      expr.walk([&](AffineExpr sub) {
        auto binary = dyn_cast<AffineBinaryOpExpr>(sub);
        if (!binary || problem)
          return;
        auto divisor = dyn_cast<AffineConstantExpr>(binary.getRHS());
        if (sub.getKind() == AffineExprKind::Mul &&
            !isa<AffineConstantExpr>(binary.getLHS()) && !divisor)
          problem = "multiplies two size variables";
        else if (sub.getKind() != AffineExprKind::Add &&
                 sub.getKind() != AffineExprKind::Mul &&
                 (!divisor || divisor.getValue() <= 0))
          problem = "divides by something other than a positive constant";
      });
      if (problem)
        return emitOpError("a grid extent ") << *problem;
    }
  }
  return success();
}

BlockArgument mlir::tirx::getSizeArgument(FunctionOpInterface func,
                                          StringAttr name) {
  for (unsigned index = 0, e = func.getNumArguments(); index < e; ++index)
    if (func.getArgAttr(index, TirXDialect::kSizeAttrName) == name)
      return func.getArgument(index);
  return {};
}

int64_t mlir::tirx::getSizeMultiple(FunctionOpInterface func, unsigned index) {
  auto multiple = dyn_cast_if_present<IntegerAttr>(
      func.getArgAttr(index, TirXDialect::kMultipleOfAttrName));
  return multiple ? multiple.getValue().getSExtValue() : 1;
}

int64_t mlir::tirx::getSizeAtMost(FunctionOpInterface func, unsigned index) {
  auto atMost = dyn_cast_if_present<IntegerAttr>(
      func.getArgAttr(index, TirXDialect::kAtMostAttrName));
  return atMost ? atMost.getValue().getSExtValue() : 0;
}

//===----------------------------------------------------------------------===//
// LaunchOp
//===----------------------------------------------------------------------===//

LogicalResult LaunchOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  auto kernel =
      symbolTable.lookupNearestSymbolFrom<KernelOp>(*this, getKernelAttr());
  if (!kernel)
    return emitOpError("'") << getKernel() << "' does not name a tirx.kernel";
  // Size variables are not passed: they are the extents of the memrefs.
  SmallVector<unsigned> params;
  for (unsigned index = 0, e = kernel.getNumArguments(); index < e; ++index)
    if (!kernel.getArgAttr(index, TirXDialect::kSizeAttrName))
      params.push_back(index);
  if (params.size() != getArgs().size()) {
    InFlightDiagnostic diag = emitOpError("kernel @")
                              << getKernel() << " takes " << params.size()
                              << " argument(s), got " << getArgs().size();
    if (params.size() != kernel.getNumArguments())
      diag << " (its size variables are not passed: they are the extents of "
              "the memrefs)";
    return diag;
  }
  llvm::StringSet<> bound;
  for (auto [param, arg] : llvm::zip(params, getArgs())) {
    Type paramType = kernel.getArgument(param).getType();
    Type type = arg.getType();
    if (auto tensor = dyn_cast<tirx::TensorType>(paramType)) {
      auto ptr = dyn_cast<LLVM::LLVMPointerType>(type);
      auto memref = dyn_cast<MemRefType>(type);
      if (!memref && !(ptr && ptr.getAddressSpace() == 1))
        return emitOpError("argument #")
               << param << " of @" << getKernel()
               << " is a global tensor: pass a memref or an !llvm.ptr<1>, "
                  "got "
               << type;
      // A static tensor takes any memref of its storage (e.g. a flat one);
      // a runtime-sized one, a memref whose dimensions are its own.
      if (memref && !tensor.hasStaticShape() &&
          memref.getRank() != static_cast<int64_t>(tensor.getShape().size()))
        return emitOpError("argument #")
               << param << " of @" << getKernel() << " has rank "
               << tensor.getShape().size() << ", got " << type;
      for (unsigned dim = 0, rank = tensor.getShape().size(); dim < rank;
           ++dim) {
        StringAttr name = tensor.getSizeName(dim);
        if (memref && name)
          bound.insert(name.getValue());
        if (memref && !tensor.hasStaticShape() && !name &&
            !memref.isDynamicDim(dim) &&
            memref.getDimSize(dim) != tensor.getShape()[dim])
          return emitOpError("argument #")
                 << param << " of @" << getKernel() << " has type " << tensor
                 << ", got " << type;
      }
      continue;
    }
    if (type != paramType)
      return emitOpError("argument #")
             << param << " of @" << getKernel() << " has type " << paramType
             << ", got " << type;
  }
  for (unsigned index = 0, e = kernel.getNumArguments(); index < e; ++index)
    if (auto name = dyn_cast_if_present<StringAttr>(
            kernel.getArgAttr(index, TirXDialect::kSizeAttrName)))
      if (!bound.contains(name.getValue()))
        return emitOpError("size variable '")
               << name.getValue() << "' of @" << getKernel()
               << " is an extent only of tensors passed as pointers; pass "
                  "one of them as a memref";
  return success();
}

//===----------------------------------------------------------------------===//
// Allocation
//===----------------------------------------------------------------------===//

static LogicalResult verifyAlloc(Operation *op, tirx::TensorType type,
                                 MemorySpace expected) {
  if (type.getMemorySpace() != expected)
    return op->emitOpError("result must be a ")
           << stringifyMemorySpace(expected) << " tensor, got " << type;
  if (!getEnclosingBlockThreads(op))
    return op->emitOpError("must be inside a tirx.kernel");
  return success();
}

LogicalResult AllocLocalOp::verify() {
  return verifyAlloc(*this, getResult().getType(), MemorySpace::local);
}

LogicalResult AllocSharedOp::verify() {
  return verifyAlloc(*this, getResult().getType(), MemorySpace::shared);
}

void AllocLocalOp::getAsmResultNames(OpAsmSetValueNameFn setNameFn) {
  setNameFn(getResult(), "regs");
}

void AllocSharedOp::getAsmResultNames(OpAsmSetValueNameFn setNameFn) {
  setNameFn(getResult(), "smem");
}

//===----------------------------------------------------------------------===//
// ReinterpretOp
//===----------------------------------------------------------------------===//

Value ReinterpretOp::getViewSource() { return getSource(); }

LogicalResult ReinterpretOp::verify() {
  tirx::TensorType source = getSource().getType(),
                   result = getResult().getType();
  if (!source.hasStaticShape() || !result.hasStaticShape())
    return emitOpError("cannot reinterpret a tensor with runtime extents; "
                       "select a tile of static size with tirx.region first");
  if (source.getMemorySpace() != result.getMemorySpace())
    return emitOpError("cannot change the memory space (")
           << stringifyMemorySpace(source.getMemorySpace()) << " -> "
           << stringifyMemorySpace(result.getMemorySpace()) << ")";
  if (source.getElementType() != result.getElementType())
    return emitOpError("keeps the element type (")
           << source.getElementType() << " -> " << result.getElementType()
           << "); reinterpret bits with tirx.view";
  if (source.getAlignment() != result.getAlignment())
    return emitOpError("cannot change the alignment (")
           << source.getAlignment() << " -> " << result.getAlignment() << ")";
  // Layouts place elements at absolute storage positions (a static region
  // folds its offset into its layout): the result's positions must lie in
  // the source's, [offset(m), span(m)).
  int64_t sourceStart = at(source.getLayoutOrDefault().getOffset(), Axis::m);
  int64_t resultStart = at(result.getLayoutOrDefault().getOffset(), Axis::m);
  if (resultStart < sourceStart)
    return emitOpError("the result starts at storage position ")
           << resultStart << " but the source's storage starts at "
           << sourceStart
           << " (a static region's offset): add it to the result's layout";
  // A swizzle permutes offsets within its periods (counted from the
  // storage's start): an affine start inside a period, such as a k16 slice
  // of a swizzled row, may place elements from the period's start on.
  if (std::optional<Swizzle> swizzle =
          result.getLayoutOrDefault().getSwizzle()) {
    int64_t lowest = resultStart - resultStart % swizzle->getPeriod();
    if (lowest < sourceStart)
      return emitOpError("a swizzled result layout starting at storage "
                         "position ")
             << resultStart << " may place elements from position " << lowest
             << " on (its swizzle permutes periods of " << swizzle->getPeriod()
             << " elements), but the source's storage starts at "
             << sourceStart;
  }
  int64_t sourceSpan = source.getLayoutOrDefault().span(Axis::m);
  int64_t resultSpan = result.getLayoutOrDefault().span(Axis::m);
  if (resultSpan > sourceSpan)
    return emitOpError("the result reaches ")
           << resultSpan << (source.isLocal() ? " register slots" : " elements")
           << " of storage but the source has only " << sourceSpan;
  return success();
}

//===----------------------------------------------------------------------===//
// ViewOp
//===----------------------------------------------------------------------===//

Value ViewOp::getViewSource() { return getSource(); }

//===----------------------------------------------------------------------===//
// PrintOp
//===----------------------------------------------------------------------===//

llvm::Expected<SmallVector<PrintConversion>>
mlir::tirx::parsePrintFormat(StringRef format) {
  SmallVector<PrintConversion> conversions;
  for (size_t i = 0; i < format.size(); ++i) {
    if (format[i] != '%')
      continue;
    size_t start = i++;
    if (i < format.size() && format[i] == '%')
      continue;
    while (i < format.size() && StringRef("-+ #0").contains(format[i]))
      ++i;
    while (i < format.size() && (isdigit(format[i]) || format[i] == '.'))
      ++i;
    PrintConversion conversion;
    while (i < format.size() && StringRef("hljztL").contains(format[i])) {
      conversion.isWide |= StringRef("ljzt").contains(format[i]);
      ++i;
    }
    if (i >= format.size())
      return llvm::createStringError("the format ends inside the conversion '" +
                                     format.substr(start).str() + "'");
    char type = format[i];
    if (StringRef("diuxXoc").contains(type)) {
      conversion.isFloat = false;
    } else if (StringRef("fFeEgGaA").contains(type)) {
      conversion.isFloat = true;
    } else {
      return llvm::createStringError(
          "the conversion '" + format.substr(start, i + 1 - start).str() +
          "' is not supported: tirx.print prints integers (d i u x X o c) and "
          "floats (f e g a)");
    }
    conversion.text = format.substr(start, i + 1 - start).str();
    conversion.offset = start;
    conversions.push_back(std::move(conversion));
  }
  return conversions;
}

LogicalResult PrintOp::verify() {
  llvm::Expected<SmallVector<PrintConversion>> conversions =
      parsePrintFormat(getFormat());
  if (!conversions)
    return emitOpError() << llvm::toString(conversions.takeError());
  if (conversions->size() != getArgs().size())
    return emitOpError("the format has ")
           << conversions->size() << " conversion(s) but " << getArgs().size()
           << " value(s) are given";
  for (auto [index, pair] :
       llvm::enumerate(llvm::zip(*conversions, getArgs()))) {
    auto [conversion, value] = pair;
    bool isFloat = isa<FloatType>(value.getType());
    if (isFloat != conversion.isFloat)
      return emitOpError("value #")
             << index << " is " << value.getType() << " but its conversion '"
             << conversion.text << "' takes "
             << (conversion.isFloat ? "a float" : "an integer");
  }
  return success();
}

LogicalResult ViewOp::verify() {
  tirx::TensorType source = getSource().getType(),
                   result = getResult().getType();
  if (!source.hasStaticShape() || !result.hasStaticShape())
    return emitOpError("cannot view a tensor with runtime extents; select a "
                       "tile of static size with tirx.region first");
  if (source.getMemorySpace() != result.getMemorySpace())
    return emitOpError("cannot change the memory space (")
           << stringifyMemorySpace(source.getMemorySpace()) << " -> "
           << stringifyMemorySpace(result.getMemorySpace()) << ")";
  if (source.getAlignment() != result.getAlignment())
    return emitOpError("cannot change the alignment (")
           << source.getAlignment() << " -> " << result.getAlignment() << ")";

  TileLayout sourceLayout = source.getLayoutOrDefault();
  unsigned sourceBits = source.getElementType().getIntOrFloatBitWidth();
  unsigned resultBits = result.getElementType().getIntOrFloatBitWidth();

  // The layout and element count a view must have.
  TileLayout expectedLayout = sourceLayout;
  int64_t expectedElements = source.getNumElements();
  if (sourceBits != resultBits) {
    ArrayRef<int64_t> sourceShape = source.getShape(),
                      resultShape = result.getShape();
    if (sourceShape.size() != resultShape.size() ||
        sourceShape.drop_back() != resultShape.drop_back())
      return emitOpError("a dtype view keeps every dimension but the "
                         "innermost; got ")
             << source << " -> " << result;
    if (sourceBits > resultBits) {
      int64_t ratio = sourceBits / resultBits;
      llvm::Expected<TileLayout> unpacked = sourceLayout.unpack(ratio);
      if (!unpacked)
        return emitOpError("cannot unpack the layout: ")
               << llvm::toString(unpacked.takeError());
      expectedLayout = std::move(*unpacked);
      if (resultShape.back() != sourceShape.back() * ratio)
        return emitOpError("viewing ")
               << sourceBits << "-bit elements as " << resultBits
               << "-bit multiplies the innermost extent by " << ratio
               << ": expected " << sourceShape.back() * ratio << ", got "
               << resultShape.back();
    } else {
      int64_t ratio = resultBits / sourceBits;
      if (sourceShape.back() % ratio != 0)
        return emitOpError("viewing ")
               << sourceBits << "-bit elements as " << resultBits
               << "-bit needs the innermost extent (" << sourceShape.back()
               << ") to be divisible by " << ratio;
      llvm::Expected<TileLayout> packed = sourceLayout.pack(ratio);
      if (!packed)
        return emitOpError("cannot pack the layout: ")
               << llvm::toString(packed.takeError());
      expectedLayout = std::move(*packed);
      if (resultShape.back() != sourceShape.back() / ratio)
        return emitOpError("viewing ")
               << sourceBits << "-bit elements as " << resultBits
               << "-bit divides the innermost extent by " << ratio
               << ": expected " << sourceShape.back() / ratio << ", got "
               << resultShape.back();
    }
    expectedElements = expectedLayout.size();
  }

  if (result.getNumElements() != expectedElements)
    return emitOpError("a shape view keeps the element count: ")
           << source << " has " << source.getNumElements() << ", " << result
           << " has " << result.getNumElements();
  // Without an explicit layout on both sides, row-major stays row-major.
  if (!source.getLayout() && !result.getLayout() && sourceBits == resultBits)
    return success();
  // Layouts are equal when they place every element alike: a view may
  // write the layout for its own shape (a unit axis dropped or added).
  TileLayout resultLayout = result.getLayoutOrDefault();
  if (resultLayout.canonicalize() != expectedLayout.canonicalize())
    return emitOpError("result layout must be ")
           << TileLayoutAttr::get(getContext(), expectedLayout) << ", got "
           << TileLayoutAttr::get(getContext(), resultLayout);
  return success();
}

//===----------------------------------------------------------------------===//
// RegionOp
//===----------------------------------------------------------------------===//

Value RegionOp::getViewSource() { return getSource(); }

static SmallVector<std::optional<int64_t>>
getOffsetList(ArrayRef<int64_t> staticOffsets) {
  return llvm::map_to_vector(staticOffsets,
                             [](int64_t offset) -> std::optional<int64_t> {
                               if (ShapedType::isDynamic(offset))
                                 return std::nullopt;
                               return offset;
                             });
}

/// Largest power of two dividing `value` (value > 0).
static int64_t lowestSetBit(int64_t value) { return value & -value; }

/// Largest power of two dividing the product of nonzero `factors`, capped
/// at 2^62 (the product itself may overflow).
static int64_t powerOfTwoFactor(ArrayRef<int64_t> factors) {
  unsigned zeros = 0;
  for (int64_t factor : factors)
    zeros += llvm::countr_zero(static_cast<uint64_t>(factor));
  return int64_t(1) << std::min(zeros, 62u);
}

/// The region of a tensor with runtime extents (docs/sizes.md). Its strides
/// are row-major: dimensions inside the innermost runtime extent have
/// constant strides, the others' strides are runtime products. Every offset
/// moves the base at run time; the result is a static tensor. Where the
/// region selects one index outside the innermost runtime extent, the result
/// is the dense-strided tile it addresses. Where it spans several there, its
/// elements are a runtime stride apart, which no static layout describes:
/// such a region is a TMA box (the hardware addresses it through the tensor
/// map, with the tensor's real strides), its layout is the box's own
/// row-major order, and RegionOp::verify accepts it only as a box.
static FailureOr<tirx::TensorType>
inferRuntimeRegionType(function_ref<InFlightDiagnostic()> emitError,
                       tirx::TensorType source, ArrayRef<int64_t> staticOffsets,
                       ArrayRef<int64_t> sizes,
                       std::optional<int64_t> claimedAlign) {
  ArrayRef<int64_t> shape = source.getShape();
  int64_t innermostRuntime = -1;
  for (auto [dim, extent] : llvm::enumerate(shape))
    if (ShapedType::isDynamic(extent))
      innermostRuntime = dim;
  SmallVector<Iter> shard;
  int64_t alignment = source.getAlignment();
  int64_t elementBytes = source.getElementBytes();
  for (auto [dim, extent] : llvm::enumerate(shape)) {
    int64_t size = sizes[dim], offset = staticOffsets[dim];
    if (size < 1)
      return emitError() << "invalid region: dimension " << dim << " has size "
                         << size << "; sizes must be positive";
    if (!ShapedType::isDynamic(extent) && !ShapedType::isDynamic(offset) &&
        (offset < 0 || offset > extent - size)) {
      std::optional<int64_t> end = llvm::checkedAdd(offset, size);
      InFlightDiagnostic diag = emitError()
                                << "invalid region: dimension " << dim
                                << " selects [" << offset << ", ";
      if (end)
        diag << *end;
      else
        diag << offset << " + " << size;
      return diag << ") of extent " << extent;
    }
    if (!ShapedType::isDynamic(offset) && offset < 0)
      return emitError() << "invalid region: dimension " << dim
                         << " has offset " << offset;
    if (static_cast<int64_t>(dim) < innermostRuntime) {
      if (offset == 0)
        continue;
      // The base moves by a runtime stride: only its constant factor is
      // known without a claim.
      int64_t strideBytes = elementBytes * source.getStaticStrideFactor(dim);
      if (alignment)
        alignment =
            std::min(alignment, ShapedType::isDynamic(offset)
                                    ? lowestSetBit(strideBytes)
                                    : powerOfTwoFactor({strideBytes, offset}));
      continue;
    }
    // Static: the dimension is inside every runtime one.
    int64_t stride = source.getStaticStrideFactor(dim);
    if (offset != 0 && alignment) {
      int64_t moveBytes = stride * elementBytes;
      alignment =
          std::min(alignment, ShapedType::isDynamic(offset)
                                  ? lowestSetBit(moveBytes)
                                  : powerOfTwoFactor({moveBytes, offset}));
    }
    if (size > 1)
      shard.push_back(Iter{size, stride, Axis::m});
  }
  if (getRuntimeStridedDim(source, sizes) >= 0) {
    // A TMA box: the box's own row-major order.
    shard.clear();
    int64_t stride = 1;
    for (int64_t size : llvm::reverse(sizes)) {
      if (size > 1)
        shard.insert(shard.begin(), Iter{size, stride, Axis::m});
      stride *= size;
    }
  }
  if (shard.empty())
    shard.push_back(Iter{1, 1, Axis::m});
  llvm::Expected<TileLayout> layout = TileLayout::get(shard, {}, {});
  if (!layout) {
    emitError() << "invalid region: " << llvm::toString(layout.takeError());
    return failure();
  }
  if (claimedAlign)
    alignment = *claimedAlign;
  MLIRContext *context = source.getContext();
  return tirx::TensorType::get(
      context, sizes, source.getElementType(), source.getMemorySpace(),
      TileLayoutAttr::get(context, *layout), alignment);
}

FailureOr<tirx::TensorType> mlir::tirx::inferRegionType(
    function_ref<InFlightDiagnostic()> emitError, tirx::TensorType source,
    ArrayRef<int64_t> staticOffsets, ArrayRef<int64_t> sizes,
    std::optional<int64_t> claimedAlign) {
  if (claimedAlign) {
    int64_t limit = source.getAlignmentOrDefault();
    if (*claimedAlign < 1 || !llvm::isPowerOf2_64(*claimedAlign) ||
        *claimedAlign > limit) {
      emitError() << "align " << *claimedAlign
                  << " must be a power of two no larger than the source's "
                     "alignment ("
                  << limit << " bytes)";
      return failure();
    }
    if (source.isLocal()) {
      emitError() << "a local tensor's region takes no align claim";
      return failure();
    }
  }
  if (!source.hasStaticShape())
    return inferRuntimeRegionType(emitError, source, staticOffsets, sizes,
                                  claimedAlign);
  llvm::Expected<LayoutRegion> region =
      restrictLayout(source.getLayoutOrDefault(), source.getShape(),
                     getOffsetList(staticOffsets), sizes);
  if (!region) {
    emitError() << "invalid region: " << llvm::toString(region.takeError());
    return failure();
  }
  // The swizzle is relative to the base; the base may move only by whole
  // periods (pipeline stages of one buffer), which keeps it.
  if (std::optional<Swizzle> swizzle = region->layout.getSwizzle()) {
    int64_t period = swizzle->getPeriod();
    int64_t start = at(region->layout.getOffset(), Axis::m);
    if (start % period != 0) {
      emitError() << "a region of a swizzled tensor must start at a multiple "
                     "of the swizzle period ("
                  << period << " elements), but it starts at element " << start;
      return failure();
    }
    for (const Iter &iter : region->dynamicIters)
      if (iter.stride % period != 0) {
        emitError() << "a region of a swizzled tensor must start at a "
                       "multiple of the swizzle period ("
                    << period
                    << " elements), but a dynamic offset moves it by "
                       "multiples of "
                    << iter.stride << " elements";
        return failure();
      }
  }
  int64_t alignment = source.getAlignment();
  for (const Iter &iter : region->dynamicIters) {
    if (iter.axis != Axis::m) {
      emitError() << "a dynamic offset must index the memory axis m, but its "
                     "dimension maps to "
                  << getAxisName(iter.axis);
      return failure();
    }
    if (source.isLocal()) {
      emitError() << "a local tensor's region needs constant offsets: "
                     "register slots are fixed at compile time";
      return failure();
    }
    // The base moves by value·stride elements; only the stride's power-of-two
    // factor survives as provable alignment (without a claim).
    int64_t strideBytes = iter.stride * source.getElementBytes();
    if (alignment && strideBytes)
      alignment = std::min(alignment, lowestSetBit(strideBytes));
  }
  if (claimedAlign)
    alignment = *claimedAlign;
  MLIRContext *context = source.getContext();
  return tirx::TensorType::get(
      context, sizes, source.getElementType(), source.getMemorySpace(),
      TileLayoutAttr::get(context, region->layout), alignment);
}

LogicalResult RegionOp::inferReturnTypes(
    MLIRContext *context, std::optional<Location> location, ValueRange operands,
    DictionaryAttr attributes, OpaqueProperties properties, RegionRange regions,
    SmallVectorImpl<Type> &inferredReturnTypes) {
  RegionOp::Adaptor adaptor(operands, attributes, properties, regions);
  auto source = dyn_cast_if_present<tirx::TensorType>(
      operands.empty() ? Type() : operands.front().getType());
  if (!source)
    return failure();
  ArrayRef<int64_t> offsets = adaptor.getStaticOffsets();
  ArrayRef<int64_t> sizes = adaptor.getStaticSizes();
  if (offsets.size() != source.getShape().size() ||
      sizes.size() != source.getShape().size())
    return emitOptionalError(location, "region needs one offset and one size "
                                       "per dimension");
  auto emitError = [&]() {
    return location ? mlir::emitError(*location)
                    : mlir::emitError(UnknownLoc::get(context));
  };
  std::optional<int64_t> claimedAlign;
  if (IntegerAttr align = adaptor.getAlignAttr())
    claimedAlign = align.getValue().getSExtValue();
  FailureOr<tirx::TensorType> type =
      inferRegionType(emitError, source, offsets, sizes, claimedAlign);
  if (failed(type))
    return failure();
  inferredReturnTypes.push_back(*type);
  return success();
}

/// A region of a runtime-sized tensor that spans several indices of a
/// dimension with a runtime stride has no static layout: its type is the
/// tile's own row-major order. It is accepted as a TMA box, an operand whose
/// accesses the hardware addresses and clips itself
/// (TensorAccessOpInterface::isAccessClipped), directly or through further
/// regions of it; or as a memory operand of a thread-level tile.apply
/// (TensorAccessOpInterface::canMaskAccess), directly or through views that
/// do not split its elements, each element addressed with the tensor's
/// runtime strides (docs/sizes.md).
static LogicalResult verifyRuntimeStridedBox(RegionOp region) {
  tirx::TensorType source = region.getSource().getType();
  int64_t dim = getRuntimeStridedDim(source, region.getStaticSizes());
  if (dim < 0)
    return success();
  // (value, whether it is a further region: then only a box may use it)
  SmallVector<std::pair<Value, bool>> worklist = {{region.getResult(), false}};
  while (!worklist.empty()) {
    auto [value, inBox] = worklist.pop_back_val();
    for (OpOperand &use : value.getUses()) {
      Operation *user = use.getOwner();
      if (auto inner = dyn_cast<RegionOp>(user)) {
        worklist.push_back({inner.getResult(), true});
        continue;
      }
      auto view = dyn_cast<ViewOp>(user);
      if (view && !inBox &&
          view.getResult().getType().getElementBytes() >=
              view.getSource().getType().getElementBytes()) {
        worklist.push_back({view.getResult(), false});
        continue;
      }
      auto access = dyn_cast<TensorAccessOpInterface>(user);
      if (access && access.isAccessClipped(use.getOperandNumber()))
        continue;
      if (access && !inBox && access.canMaskAccess(use.getOperandNumber()))
        continue;
      // What tile-dispatch makes of those accesses: tirx-lower-tensors
      // addresses the element with the runtime strides.
      if (isa<ElementPtrOp>(user) && !inBox)
        continue;
      InFlightDiagnostic diag =
          region.emitOpError("spans ")
          << region.getStaticSizes()[dim] << " indices of dimension " << dim
          << " of a runtime-sized tensor, whose stride there is the runtime "
             "product of the extents inside it: such a region can only be a "
             "TMA box (the tensor map of a cp.async.bulk.tensor copy or a "
             "prefetch.tensormap) or a memory operand of a thread-level "
             "tile.apply (directly or through tirx.views), but it is used by ";
      if (access)
        diag << access.describeAccessOperand(use.getOperandNumber());
      else
        diag << "operand #" << use.getOperandNumber() << " of '"
             << user->getName() << "'";
      diag << "; select one index there, as in A[i, j:j + n]";
      diag.attachNote(user->getLoc()) << "the use is here";
      return diag;
    }
  }
  return success();
}

/// A masked region is read and written only by ops that skip the accesses
/// outside its source (TensorAccessOpInterface::canMaskAccess), directly or
/// through reshaping views: any other use would read past the tensor.
static LogicalResult verifyMaskedUses(RegionOp region) {
  if (!region.getSource().getType().isGlobal())
    return region.emitOpError("is masked, which needs a global tensor, got ")
           << region.getSource().getType();
  SmallVector<Value> worklist = {region.getResult()};
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    for (OpOperand &use : value.getUses()) {
      Operation *user = use.getOwner();
      if (auto view = dyn_cast<ViewOp>(user)) {
        worklist.push_back(view.getResult());
        continue;
      }
      auto access = dyn_cast<TensorAccessOpInterface>(user);
      if (access && access.canMaskAccess(use.getOperandNumber()))
        continue;
      InFlightDiagnostic diag =
          region.emitOpError("is masked (it may overhang its tensor), so it "
                             "can only be a memory operand of a thread-level "
                             "tile.apply, directly or through tirx.views, "
                             "which skips the accesses outside the tensor; "
                             "but it is used by ");
      if (access)
        diag << access.describeAccessOperand(use.getOperandNumber());
      else
        diag << "operand #" << use.getOperandNumber() << " of '"
             << user->getName() << "'";
      diag.attachNote(user->getLoc()) << "the use is here";
      return diag;
    }
  }
  return success();
}

LogicalResult RegionOp::verify() {
  tirx::TensorType source = getSource().getType();
  size_t rank = source.getShape().size();
  if (getStaticOffsets().size() != rank || getStaticSizes().size() != rank)
    return emitOpError("needs one offset and one size per dimension (rank ")
           << rank << "), got " << getStaticOffsets().size() << " and "
           << getStaticSizes().size();
  if (failed(verifyListOfOperandsOrIntegers(*this, "offset", rank,
                                            getStaticOffsets(), getOffsets())))
    return failure();
  FailureOr<tirx::TensorType> expected =
      inferRegionType([&] { return emitOpError(); }, source, getStaticOffsets(),
                      getStaticSizes(), getAlign());
  if (failed(expected))
    return failure();
  if (*expected != getResult().getType())
    return emitOpError("result type must be ")
           << *expected << ", got " << getResult().getType();
  if (getMasked() && failed(verifyMaskedUses(*this)))
    return failure();
  if (!source.hasStaticShape())
    return verifyRuntimeStridedBox(*this);
  return success();
}

SmallVector<int64_t> RegionOp::getDynamicOffsetStrides() {
  assert(getSource().getType().hasStaticShape() &&
         "a runtime-sized source's strides are runtime values");
  llvm::Expected<LayoutRegion> region =
      restrictLayout(getSource().getType().getLayoutOrDefault(),
                     getSource().getType().getShape(),
                     getOffsetList(getStaticOffsets()), getStaticSizes());
  if (!region) {
    llvm::consumeError(region.takeError());
    return {};
  }
  return llvm::map_to_vector(region->dynamicIters,
                             [](const Iter &iter) { return iter.stride; });
}

//===----------------------------------------------------------------------===//
// Indices
//===----------------------------------------------------------------------===//

void ThreadIdxOp::getAsmResultNames(OpAsmSetValueNameFn setNameFn) {
  setNameFn(getResult(), std::string("t") + stringifyDim(getDim()).str());
}

void BlockIdxOp::getAsmResultNames(OpAsmSetValueNameFn setNameFn) {
  setNameFn(getResult(), std::string("b") + stringifyDim(getDim()).str());
}

//===----------------------------------------------------------------------===//
// Per-thread element access
//===----------------------------------------------------------------------===//

static LogicalResult verifySlotAccess(Operation *op, tirx::TensorType tile,
                                      int64_t slot, Type valueType) {
  if (!tile.isLocal())
    return op->emitOpError("needs a local tensor, got ") << tile;
  int64_t span = tile.getLayoutOrDefault().storage().span(Axis::m);
  if (slot < 0 || slot >= span)
    return op->emitOpError("slot ")
           << slot << " is outside the thread's " << span << " slots";
  // Integers are accessed signless (LLVM has no signed/unsigned types).
  Type storageType = tile.getStorageElementType();
  if (valueType != storageType)
    return op->emitOpError("value type ")
           << valueType << " differs from the storage type " << storageType
           << " of " << tile;
  return success();
}

LogicalResult SlotLoadOp::verify() {
  return verifySlotAccess(*this, getTile().getType(), getSlot(),
                          getValue().getType());
}

LogicalResult SlotStoreOp::verify() {
  return verifySlotAccess(*this, getTile().getType(), getSlot(),
                          getValue().getType());
}

LogicalResult ElementPtrOp::verify() {
  tirx::TensorType type = getTensor().getType();
  if (type.isLocal())
    return emitOpError("needs a global or shared tensor; register tiles are "
                       "accessed by slot");
  if (!type.hasStaticShape())
    return emitOpError("needs a tensor of static shape, got ")
           << type << "; take a tirx.region of it";
  if (getIndices().size() != type.getShape().size())
    return emitOpError("needs ")
           << type.getShape().size() << " indices, got " << getIndices().size();
  auto ptrType = cast<LLVM::LLVMPointerType>(getPtr().getType());
  if (ptrType.getAddressSpace() != type.getLLVMAddressSpace())
    return emitOpError("a ") << stringifyMemorySpace(type.getMemorySpace())
                             << " tensor's address is a !llvm.ptr<"
                             << type.getLLVMAddressSpace() << ">";
  return success();
}
