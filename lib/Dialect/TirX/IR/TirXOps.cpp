//===- TirXOps.cpp - tirx operations --------------------------------------===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//

#include "TirX/Dialect/TirX/IR/TirXOps.h"
#include "TirX/Dialect/TirX/IR/RegisterBudget.h"
#include "TirX/Layout/LayoutRegion.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/FunctionImplementation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tirx;

#include "TirX/Dialect/TirX/IR/TirXInterfaces.cpp.inc"

#define GET_OP_CLASSES
#include "TirX/Dialect/TirX/IR/TirXOps.cpp.inc"

//===----------------------------------------------------------------------===//
// Target chip
//===----------------------------------------------------------------------===//

FailureOr<unsigned> mlir::tirx::getTargetSM(Operation *op) {
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
    return sm;
  }
  return 90u;
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

std::optional<int64_t> mlir::tirx::getEnclosingBlockThreads(Operation *op) {
  if (auto kernel = op->getParentOfType<KernelOp>())
    return kernel.getLaunch().getNumThreads();
  if (auto func = op->getParentOfType<gpu::GPUFuncOp>()) {
    if (DenseI32ArrayAttr known = func.getKnownBlockSizeAttr()) {
      int64_t threads = 1;
      for (int32_t extent : known.asArrayRef())
        threads *= extent;
      return threads;
    }
  }
  return std::nullopt;
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
  return parser.parseCommaSeparatedList(
      OpAsmParser::Delimiter::Square,
      [&]() { return parser.parseInteger(extents.emplace_back()); });
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

  SmallVector<int64_t> grid, block;
  SMLoc launchLoc = parser.getCurrentLocation();
  if (parser.parseKeyword("launch") || parser.parseLParen() ||
      parseExtentList(parser, "grid", grid) || parser.parseComma() ||
      parseExtentList(parser, "block", block) || parser.parseRParen())
    return failure();
  auto emitLaunchError = [&] { return parser.emitError(launchLoc); };
  auto launch = LaunchConfigAttr::getChecked(
      function_ref<InFlightDiagnostic()>(emitLaunchError), parser.getContext(),
      ArrayRef<int64_t>(grid), ArrayRef<int64_t>(block));
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
  llvm::interleaveComma(getLaunch().getGrid(), printer);
  printer << "], block = [";
  llvm::interleaveComma(getLaunch().getBlock(), printer);
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
  for (auto [index, type] : llvm::enumerate(getArgumentTypes())) {
    if (auto tensor = dyn_cast<tirx::TensorType>(type)) {
      if (!tensor.isGlobal())
        return emitOpError("argument #")
               << index << " is a " << stringifyMemorySpace(
                                           tensor.getMemorySpace())
               << " tensor; kernel arguments must be global tensors or "
                  "scalars";
      continue;
    }
    if (!isTirXScalarType(type) && !type.isIndex() && !type.isInteger(1))
      return emitOpError("argument #")
             << index << " has type " << type
             << "; kernel arguments must be global tensors or scalars";
  }
  return success();
}

// After every nested op verified: the register tiles fit (RegisterBudget.h),
// and every memory access is inside its tensor (BoundsProof.h).
LogicalResult KernelOp::verifyRegions() {
  if (failed(verifyRegisterBudget(*this)))
    return failure();
  return verifyAccessBounds(*this);
}

//===----------------------------------------------------------------------===//
// LaunchOp
//===----------------------------------------------------------------------===//

LogicalResult LaunchOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  auto kernel =
      symbolTable.lookupNearestSymbolFrom<KernelOp>(*this, getKernelAttr());
  if (!kernel)
    return emitOpError("'")
           << getKernel() << "' does not name a tirx.kernel";
  ArrayRef<Type> params = kernel.getArgumentTypes();
  if (params.size() != getArgs().size())
    return emitOpError("kernel @")
           << getKernel() << " takes " << params.size()
           << " argument(s), got " << getArgs().size();
  for (auto [index, pair] : llvm::enumerate(llvm::zip(params, getArgs()))) {
    auto [param, arg] = pair;
    Type type = arg.getType();
    if (isa<tirx::TensorType>(param)) {
      auto ptr = dyn_cast<LLVM::LLVMPointerType>(type);
      if (isa<MemRefType>(type) || (ptr && ptr.getAddressSpace() == 1))
        continue;
      return emitOpError("argument #")
             << index << " of @" << getKernel()
             << " is a global tensor: pass a memref or an !llvm.ptr<1>, "
                "got "
             << type;
    }
    if (type != param)
      return emitOpError("argument #")
             << index << " of @" << getKernel() << " has type " << param
             << ", got " << type;
  }
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
// ViewOp
//===----------------------------------------------------------------------===//

Value ViewOp::getViewSource() { return getSource(); }

LogicalResult ViewOp::verify() {
  tirx::TensorType source = getSource().getType(), result = getResult().getType();
  if (source.getMemorySpace() != result.getMemorySpace())
    return emitOpError("cannot change the memory space (")
           << stringifyMemorySpace(source.getMemorySpace()) << " -> "
           << stringifyMemorySpace(result.getMemorySpace()) << ")";
  if (source.getAlignment() != result.getAlignment())
    return emitOpError("cannot change the alignment (")
           << source.getAlignment() << " -> " << result.getAlignment()
           << ")";

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
           << source << " has " << source.getNumElements() << ", "
           << result << " has " << result.getNumElements();
  // Without an explicit layout on both sides, row-major stays row-major.
  if (!source.getLayout() && !result.getLayout() && sourceBits == resultBits)
    return success();
  TileLayout resultLayout = result.getLayoutOrDefault();
  if (resultLayout != expectedLayout)
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
  return llvm::map_to_vector(
      staticOffsets, [](int64_t offset) -> std::optional<int64_t> {
        if (ShapedType::isDynamic(offset))
          return std::nullopt;
        return offset;
      });
}

/// Largest power of two dividing `value` (value > 0).
static int64_t lowestSetBit(int64_t value) { return value & -value; }

FailureOr<tirx::TensorType>
mlir::tirx::inferRegionType(function_ref<InFlightDiagnostic()> emitError,
                tirx::TensorType source, ArrayRef<int64_t> staticOffsets,
                ArrayRef<int64_t> sizes) {
  llvm::Expected<LayoutRegion> region =
      restrictLayout(source.getLayoutOrDefault(), source.getShape(),
                     getOffsetList(staticOffsets), sizes);
  if (!region) {
    emitError() << "invalid region: " << llvm::toString(region.takeError());
    return failure();
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
    // factor survives as provable alignment.
    int64_t strideBytes = iter.stride * source.getElementBytes();
    if (alignment && strideBytes)
      alignment = std::min(alignment, lowestSetBit(strideBytes));
  }
  MLIRContext *context = source.getContext();
  return tirx::TensorType::get(context, sizes, source.getElementType(),
                         source.getMemorySpace(),
                         TileLayoutAttr::get(context, region->layout),
                         alignment);
}

LogicalResult RegionOp::inferReturnTypes(
    MLIRContext *context, std::optional<Location> location,
    ValueRange operands, DictionaryAttr attributes,
    OpaqueProperties properties, RegionRange regions,
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
  FailureOr<tirx::TensorType> type =
      inferRegionType(emitError, source, offsets, sizes);
  if (failed(type))
    return failure();
  inferredReturnTypes.push_back(*type);
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
                                            getStaticOffsets(),
                                            getOffsets())))
    return failure();
  FailureOr<tirx::TensorType> expected = inferRegionType(
      [&] { return emitOpError(); }, source, getStaticOffsets(),
      getStaticSizes());
  if (failed(expected))
    return failure();
  if (*expected != getResult().getType())
    return emitOpError("result type must be ")
           << *expected << ", got " << getResult().getType();
  return success();
}

SmallVector<int64_t> RegionOp::getDynamicOffsetStrides() {
  llvm::Expected<LayoutRegion> region = restrictLayout(
      getSource().getType().getLayoutOrDefault(),
      getSource().getType().getShape(), getOffsetList(getStaticOffsets()),
      getStaticSizes());
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
  if (getIndices().size() != type.getShape().size())
    return emitOpError("needs ")
           << type.getShape().size() << " indices, got "
           << getIndices().size();
  auto ptrType = cast<LLVM::LLVMPointerType>(getPtr().getType());
  if (ptrType.getAddressSpace() != type.getLLVMAddressSpace())
    return emitOpError("a ")
           << stringifyMemorySpace(type.getMemorySpace())
           << " tensor's address is a !llvm.ptr<" << type.getLLVMAddressSpace()
           << ">";
  return success();
}
