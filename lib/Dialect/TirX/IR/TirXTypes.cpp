//===- TirXTypes.cpp - tirx types -----------------------------------------===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//

#include "TirX/Dialect/TirX/IR/TirXTypes.h"
#include "TirX/Dialect/TirX/IR/TirXDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tirx;

#define GET_TYPEDEF_CLASSES
#include "TirX/Dialect/TirX/IR/TirXTypes.cpp.inc"

void TirXDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "TirX/Dialect/TirX/IR/TirXTypes.cpp.inc"
      >();
}

bool mlir::tirx::isTirXScalarType(Type type) {
  if (type.isF16() || type.isBF16() || type.isF32() || type.isF64())
    return true;
  auto intType = dyn_cast<IntegerType>(type);
  return intType && llvm::is_contained({8u, 16u, 32u, 64u}, intType.getWidth());
}

Type mlir::tirx::getStorageType(Type type) {
  if (auto intType = dyn_cast<IntegerType>(type))
    return IntegerType::get(type.getContext(), intType.getWidth());
  return type;
}

//===----------------------------------------------------------------------===//
// Assembly: !tirx.tensor<2x32x4xf32, local, #tirx.layout<...>, align = 16>
//===----------------------------------------------------------------------===//

Type tirx::TensorType::parse(AsmParser &parser) {
  SMLoc loc = parser.getCurrentLocation();
  SmallVector<int64_t> shape;
  Type elementType;
  if (parser.parseLess() ||
      parser.parseDimensionList(shape, /*allowDynamic=*/true,
                                /*withTrailingX=*/true) ||
      parser.parseType(elementType) || parser.parseComma())
    return {};
  StringRef spaceName;
  SMLoc spaceLoc = parser.getCurrentLocation();
  if (parser.parseKeyword(&spaceName))
    return {};
  std::optional<MemorySpace> space = symbolizeMemorySpace(spaceName);
  if (!space)
    return parser.emitError(spaceLoc, "unknown memory space '")
               << spaceName << "'; expected global, shared or local",
           Type();

  TileLayoutAttr layout;
  int64_t alignment = 0;
  ArrayAttr sizeNames;
  while (succeeded(parser.parseOptionalComma())) {
    if (succeeded(parser.parseOptionalKeyword("sizes"))) {
      SmallVector<Attribute> names;
      if (parser.parseEqual() ||
          parser.parseCommaSeparatedList(
              AsmParser::Delimiter::Square, [&]() -> ParseResult {
                StringRef name;
                if (parser.parseKeyword(&name))
                  return failure();
                names.push_back(StringAttr::get(parser.getContext(), name));
                return success();
              }))
        return {};
      sizeNames = ArrayAttr::get(parser.getContext(), names);
      continue;
    }
    if (succeeded(parser.parseOptionalKeyword("align"))) {
      SMLoc alignLoc = parser.getCurrentLocation();
      if (parser.parseEqual() || parser.parseInteger(alignment))
        return {};
      if (alignment < 1)
        return parser.emitError(alignLoc, "align must be positive"), Type();
      continue;
    }
    SMLoc attrLoc = parser.getCurrentLocation();
    Attribute attr;
    if (parser.parseAttribute(attr))
      return {};
    layout = dyn_cast<TileLayoutAttr>(attr);
    if (!layout)
      return parser.emitError(attrLoc, "expected a #tirx.layout or "
                                       "'align = N', got ")
                 << attr,
             Type();
  }
  if (parser.parseGreater())
    return {};
  return parser.getChecked<tirx::TensorType>(loc, parser.getContext(), shape,
                                             elementType, *space, layout,
                                             alignment, sizeNames);
}

void tirx::TensorType::print(AsmPrinter &printer) const {
  printer << '<';
  for (int64_t extent : getShape()) {
    if (ShapedType::isDynamic(extent))
      printer << '?';
    else
      printer << extent;
    printer << 'x';
  }
  printer << getElementType() << ", " << stringifyMemorySpace(getMemorySpace());
  if (getLayout())
    printer << ", " << getLayout();
  if (getSizeNames()) {
    printer << ", sizes = [";
    llvm::interleaveComma(getSizeNames(), printer, [&](Attribute name) {
      printer << cast<StringAttr>(name).getValue();
    });
    printer << ']';
  }
  if (getAlignment())
    printer << ", align = " << getAlignment();
  printer << '>';
}

//===----------------------------------------------------------------------===//
// Verification and helpers
//===----------------------------------------------------------------------===//

LogicalResult
tirx::TensorType::verify(function_ref<InFlightDiagnostic()> emitError,
                         ArrayRef<int64_t> shape, Type elementType,
                         MemorySpace memorySpace, TileLayoutAttr layout,
                         int64_t alignment, ArrayAttr sizeNames) {
  if (shape.empty())
    return emitError() << "tensor must have at least one dimension";
  int64_t numDynamic = llvm::count_if(shape, ShapedType::isDynamic);
  int64_t numNames = sizeNames ? sizeNames.size() : 0;
  if (numDynamic != numNames)
    return emitError() << "tensor has " << numDynamic
                       << " runtime extents ('?') but " << numNames
                       << " size names; write one name per '?' (sizes = "
                          "[n, ...])";
  if (numDynamic && memorySpace != MemorySpace::global)
    return emitError() << "a " << stringifyMemorySpace(memorySpace)
                       << " tensor needs constant extents; only global "
                          "tensors (kernel parameters) have runtime sizes";
  if (numDynamic && layout)
    return emitError() << "a tensor with runtime extents is dense row-major "
                          "and takes no layout";
  if (sizeNames) {
    llvm::SmallDenseSet<Attribute> seen;
    for (Attribute name : sizeNames) {
      // The parser reads keywords; builders pass StringAttrs.
      auto text = cast<StringAttr>(name);
      if (!seen.insert(text).second)
        return emitError() << "size variable '" << text.getValue()
                           << "' names two extents of one tensor";
    }
  }
  int64_t numElements = 1;
  for (auto [dim, extent] : llvm::enumerate(shape)) {
    if (ShapedType::isDynamic(extent))
      continue;
    if (extent < 1)
      return emitError() << "dimension " << dim << " has extent " << extent
                         << "; extents must be positive";
    if (llvm::MulOverflow(numElements, extent, numElements))
      return emitError() << "tensor element count overflows int64";
  }
  // i1 is a predicate register (.pred): it has no memory representation.
  bool isPredicate = elementType.isInteger(1);
  if (!isTirXScalarType(elementType) && !isPredicate)
    return emitError() << "element type " << elementType
                       << " is not a scalar type (f16, bf16, f32, f64, an "
                          "integer of 8, 16, 32 or 64 bits, or i1 for "
                          "predicates)";
  if (isPredicate && memorySpace != MemorySpace::local)
    return emitError() << "an i1 (predicate) tensor lives in registers and "
                          "must be local, not "
                       << stringifyMemorySpace(memorySpace);
  if (alignment < 0 || (alignment && !llvm::isPowerOf2_64(alignment)))
    return emitError() << "align = " << alignment << " is not a power of two";
  int64_t elementBytes = (elementType.getIntOrFloatBitWidth() + 7) / 8;
  int64_t bytes;
  if (llvm::MulOverflow(numElements, elementBytes, bytes))
    return emitError() << "tensor byte size overflows int64";
  if (!layout)
    return success();

  const TileLayout &value = layout.getValue();
  if (value.size() != numElements)
    return emitError() << "layout " << layout << " has " << value.size()
                       << " elements but the shape has " << numElements;
  if (memorySpace != MemorySpace::local && value.hasThreadAxes())
    return emitError() << "a " << stringifyMemorySpace(memorySpace)
                       << " tensor's layout may use only the memory axis m, "
                          "but "
                       << layout << " uses thread axes";
  if (value.isSwizzled() && memorySpace != MemorySpace::shared)
    return emitError() << "a swizzled layout is for shared memory (the way "
                          "TMA and wgmma store tiles), but "
                       << layout << " is on a "
                       << stringifyMemorySpace(memorySpace) << " tensor";
  if (memorySpace == MemorySpace::local) {
    for (const Iter &iter : value.getReplica())
      if (iter.axis == Axis::m)
        return emitError() << "a local layout cannot replicate along the "
                              "memory axis m (one element, one slot)";
    for (const Iter &iter : value.getShard())
      if (isBlockAxis(iter.axis))
        return emitError() << "a local layout cannot distribute over block "
                              "axis "
                           << getAxisName(iter.axis)
                           << "; registers belong to threads of one CTA";
    llvm::Expected<std::pair<ExecScope, ExecScope>> scope = value.getScope();
    if (!scope)
      return emitError() << "layout " << layout << " is not well formed: "
                         << llvm::toString(scope.takeError());
  }
  return success();
}

bool tirx::TensorType::hasStaticShape() const { return !getSizeNames(); }

StringAttr tirx::TensorType::getSizeName(unsigned dim) const {
  if (!ShapedType::isDynamic(getShape()[dim]))
    return {};
  unsigned index =
      llvm::count_if(getShape().take_front(dim), ShapedType::isDynamic);
  return cast<StringAttr>(getSizeNames()[index]);
}

int64_t tirx::TensorType::getStaticStrideFactor(unsigned dim) const {
  int64_t product = 1;
  for (int64_t inner : getShape().drop_front(dim + 1))
    if (!ShapedType::isDynamic(inner))
      product *= inner; // the verifier bounds the constant extents' product
  return product;
}

SmallVector<StringAttr>
tirx::TensorType::getRuntimeStrideFactors(unsigned dim) const {
  SmallVector<StringAttr> names;
  for (unsigned inner = dim + 1, rank = getShape().size(); inner < rank;
       ++inner)
    if (StringAttr name = getSizeName(inner))
      names.push_back(name);
  return names;
}

TileLayout tirx::TensorType::getLayoutOrDefault() const {
  assert(hasStaticShape() && "a runtime-sized tensor has no static layout");
  if (TileLayoutAttr layout = getLayout())
    return layout.getValue();
  // The type verifier proved the element count fits, so row-major does too.
  return llvm::cantFail(TileLayout::getRowMajor(getShape()));
}

int64_t tirx::TensorType::getElementBytes() const {
  return (getElementType().getIntOrFloatBitWidth() + 7) / 8;
}

int64_t tirx::TensorType::getAlignmentOrDefault() const {
  return getAlignment() ? getAlignment() : getElementBytes();
}

int64_t tirx::TensorType::getNumElements() const {
  assert(hasStaticShape() && "a runtime-sized tensor has no static size");
  int64_t numElements = 1;
  for (int64_t extent : getShape())
    numElements *= extent; // verified not to overflow
  return numElements;
}

unsigned tirx::TensorType::getLLVMAddressSpace() const {
  switch (getMemorySpace()) {
  case MemorySpace::global:
    return 1;
  case MemorySpace::shared:
    return 3;
  case MemorySpace::local:
    return 0;
  }
  return 0;
}

Type tirx::TensorType::getStorageElementType() const {
  return getStorageType(getElementType());
}
