//===- TirXAttributes.cpp - tirx attributes -------------------------------===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//

#include "TirX/Dialect/TirX/IR/TirXAttributes.h"
#include "TirX/Dialect/TirX/IR/TirXDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/CheckedArithmetic.h"
#include "llvm/Support/MathExtras.h"

#include <functional>

using namespace mlir;
using namespace mlir::tirx;

#include "TirX/Dialect/TirX/IR/TirXEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "TirX/Dialect/TirX/IR/TirXAttrs.cpp.inc"

void TirXDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "TirX/Dialect/TirX/IR/TirXAttrs.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// TileLayoutAttr
//===----------------------------------------------------------------------===//

// The notation is parsed from MLIR tokens (`1@warpid` lexes as an integer and
// a symbol name), filling the same `LayoutNotation` the text parser of the
// layout library produces; `TileLayout::get` then applies one set of rules.

static ParseResult parseNotationStride(AsmParser &parser,
                                       NotationStride &stride) {
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseInteger(stride.value))
    return failure();
  stride.axis = Axis::m;
  StringAttr axisName;
  if (succeeded(parser.parseOptionalSymbolName(axisName))) {
    std::optional<Axis> axis = parseAxisName(axisName.getValue());
    if (!axis)
      return parser.emitError(loc)
             << "unknown axis '" << axisName.getValue()
             << "'; expected one of laneid, warpid, wgid, wid_in_wg, "
                "tid_in_wg, tx, bx, by, bz, m";
    stride.axis = *axis;
  }
  return success();
}

/// `[dims (: strides)?]` after the `S`/`R` keyword.
static ParseResult parseNotationTerm(AsmParser &parser, NotationTerm &term) {
  if (parser.parseLSquare())
    return failure();
  auto parseExtent = [&]() -> ParseResult {
    return parser.parseInteger(term.extents.emplace_back());
  };
  if (succeeded(parser.parseOptionalLParen())) {
    if (parser.parseCommaSeparatedList(parseExtent) || parser.parseRParen())
      return failure();
  } else if (parseExtent()) {
    return failure();
  }
  if (succeeded(parser.parseOptionalColon())) {
    auto parseStride = [&]() -> ParseResult {
      return parseNotationStride(parser, term.strides.emplace_back());
    };
    if (succeeded(parser.parseOptionalLParen())) {
      if (parser.parseCommaSeparatedList(parseStride) || parser.parseRParen())
        return failure();
    } else if (parseStride()) {
      return failure();
    }
  }
  return parser.parseRSquare();
}

/// `[p, s, a (, inner | outer)?]` after the `Swizzle` keyword.
static ParseResult parseNotationSwizzle(AsmParser &parser,
                                        NotationSwizzle &swizzle) {
  if (parser.parseLSquare() || parser.parseInteger(swizzle.perElement) ||
      parser.parseComma() || parser.parseInteger(swizzle.swizzleLen) ||
      parser.parseComma() || parser.parseInteger(swizzle.atomLen))
    return failure();
  if (succeeded(parser.parseOptionalComma())) {
    StringRef side;
    SMLoc sideLoc = parser.getCurrentLocation();
    if (parser.parseKeyword(&side))
      return failure();
    if (side != "inner" && side != "outer")
      return parser.emitError(sideLoc)
             << "expected 'inner' or 'outer' after the swizzle's counts, "
                "found '"
             << side << "'";
    swizzle.swizzleInner = side == "inner";
  }
  return parser.parseRSquare();
}

Attribute TileLayoutAttr::parse(AsmParser &parser, Type) {
  SMLoc loc = parser.getCurrentLocation();
  LayoutNotation notation;
  if (parser.parseLess() || parser.parseKeyword("S") ||
      parseNotationTerm(parser, notation.shard.emplace()))
    return {};
  while (succeeded(parser.parseOptionalPlus())) {
    SMLoc termLoc = parser.getCurrentLocation();
    if (succeeded(parser.parseOptionalKeyword("Swizzle"))) {
      if (notation.swizzle)
        return parser.emitError(termLoc,
                                "a layout has at most one Swizzle[...] term"),
               Attribute();
      if (parseNotationSwizzle(parser, notation.swizzle.emplace()))
        return {};
      continue;
    }
    if (succeeded(parser.parseOptionalKeyword("R"))) {
      if (notation.replica)
        return parser.emitError(termLoc,
                                "a layout has at most one R[...] term"),
               Attribute();
      if (parseNotationTerm(parser, notation.replica.emplace()))
        return {};
      continue;
    }
    if (parseNotationStride(parser, notation.offsets.emplace_back()))
      return {};
  }
  if (parser.parseGreater())
    return {};
  llvm::Expected<TileLayout> layout = TileLayout::get(notation);
  if (!layout) {
    parser.emitError(loc) << "invalid layout: "
                          << llvm::toString(layout.takeError());
    return {};
  }
  return TileLayoutAttr::get(parser.getContext(), *layout);
}

void TileLayoutAttr::print(AsmPrinter &printer) const {
  printer << '<';
  getValue().print(printer.getStream());
  printer << '>';
}

//===----------------------------------------------------------------------===//
// LaunchConfigAttr
//===----------------------------------------------------------------------===//

static constexpr int64_t kMaxThreadsPerBlock = 1024;
static constexpr int64_t kMaxClusterSize = 8;

LogicalResult
LaunchConfigAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                         ArrayRef<int64_t> grid, ArrayRef<int64_t> block,
                         AffineMap gridSizes, ArrayRef<int64_t> cluster) {
  int64_t numDynamic = llvm::count_if(grid, ShapedType::isDynamic);
  if (gridSizes &&
      (gridSizes.getNumDims() != 0 || gridSizes.getNumResults() != numDynamic))
    return emitError() << "grid_sizes must have no dimensions and one "
                          "result per '?' grid extent ("
                       << numDynamic << "), got "
                       << AffineMapAttr::get(gridSizes);
  if (numDynamic && !gridSizes)
    return emitError() << "a '?' grid extent needs grid_sizes";
  // CUDA limits: grid x < 2^31, y/z <= 65535; block x/y <= 1024, z <= 64.
  static constexpr int64_t kGridLimits[] = {(int64_t(1) << 31) - 1, 65535,
                                            65535};
  static constexpr int64_t kBlockLimits[] = {1024, 1024, 64};
  auto check = [&](StringRef name, ArrayRef<int64_t> extents,
                   ArrayRef<int64_t> limits) -> LogicalResult {
    if (extents.empty() || extents.size() > 3)
      return emitError() << name << " must have 1 to 3 extents, got "
                         << extents.size();
    for (auto [index, extent] : llvm::enumerate(extents)) {
      if (ShapedType::isDynamic(extent) && name == "grid")
        continue;
      if (extent < 1 || extent > limits[index])
        return emitError() << name << " extent " << "xyz"[index] << " = "
                           << extent << " is out of range [1, " << limits[index]
                           << "]";
    }
    return success();
  };
  if (failed(check("grid", grid, kGridLimits)) ||
      failed(check("block", block, kBlockLimits)))
    return failure();
  int64_t threads = 1;
  for (int64_t extent : block)
    threads *= extent; // bounded by the per-dimension limits above
  if (threads > kMaxThreadsPerBlock)
    return emitError() << "block has " << threads << " threads; at most "
                       << kMaxThreadsPerBlock << " are allowed";
  if (cluster.empty())
    return success();
  // Clusters (sm_90+): one extent per grid extent, each dividing it; the
  // portable maximum is 8 CTAs (16 needs a non-portable opt-in at launch).
  if (cluster.size() != grid.size())
    return emitError() << "cluster must have one extent per grid extent ("
                       << grid.size() << "), got " << cluster.size();
  static constexpr int64_t kClusterLimits[] = {kMaxClusterSize, kMaxClusterSize,
                                               kMaxClusterSize};
  if (failed(check("cluster", cluster, kClusterLimits)))
    return failure();
  int64_t ctas = 1;
  for (auto [index, extent] : llvm::enumerate(cluster)) {
    ctas *= extent;
    if (!ShapedType::isDynamic(grid[index]) && grid[index] % extent != 0)
      return emitError() << "cluster extent " << "xyz"[index] << " = " << extent
                         << " does not divide grid extent " << grid[index];
  }
  if (ctas > kMaxClusterSize)
    return emitError() << "a cluster of " << ctas << " CTAs is over the "
                       << "portable maximum of " << kMaxClusterSize;
  return success();
}

int64_t LaunchConfigAttr::getNumThreads() const {
  int64_t threads = 1;
  for (int64_t extent : getBlock())
    threads *= extent;
  return threads;
}

int64_t LaunchConfigAttr::getNumClusterCTAs() const {
  int64_t ctas = 1;
  for (int64_t extent : getCluster())
    ctas *= extent;
  return ctas;
}

std::optional<int64_t> LaunchConfigAttr::evaluateGridExtent(
    unsigned dim,
    llvm::function_ref<std::optional<int64_t>(unsigned)> argument) const {
  if (dim >= getGrid().size())
    return 1;
  std::function<std::optional<int64_t>(AffineExpr)> walk =
      [&](AffineExpr expr) -> std::optional<int64_t> {
    if (auto value = dyn_cast<AffineConstantExpr>(expr))
      return value.getValue();
    if (auto symbol = dyn_cast<AffineSymbolExpr>(expr))
      return argument(symbol.getPosition());
    auto binary = cast<AffineBinaryOpExpr>(expr);
    std::optional<int64_t> lhs = walk(binary.getLHS());
    std::optional<int64_t> rhs = lhs ? walk(binary.getRHS()) : std::nullopt;
    if (!rhs)
      return std::nullopt;
    switch (expr.getKind()) {
    case AffineExprKind::Add:
      return llvm::checkedAdd(*lhs, *rhs);
    case AffineExprKind::Mul:
      return llvm::checkedMul(*lhs, *rhs);
    case AffineExprKind::FloorDiv:
      return *rhs > 0 ? std::optional(llvm::divideFloorSigned(*lhs, *rhs))
                      : std::nullopt;
    case AffineExprKind::CeilDiv:
      return *rhs > 0 ? std::optional(llvm::divideCeilSigned(*lhs, *rhs))
                      : std::nullopt;
    case AffineExprKind::Mod:
      return *rhs > 0 ? std::optional(llvm::mod(*lhs, *rhs)) : std::nullopt;
    default:
      return std::nullopt;
    }
  };
  return walk(getGridExpr(dim));
}

AffineExpr LaunchConfigAttr::getGridExpr(unsigned dim) const {
  int64_t extent = getGrid()[dim];
  if (!ShapedType::isDynamic(extent))
    return getAffineConstantExpr(extent, getContext());
  unsigned index =
      llvm::count_if(getGrid().take_front(dim), ShapedType::isDynamic);
  return getGridSizes().getResult(index);
}
