//===- RegionAccess.cpp - Tile accesses through tirx.regions --------------===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//

#include "TirX/Dialect/TirX/IR/RegionAccess.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace mlir::tirx;

RegionOp mlir::tirx::getMaskedRegion(Value tile) {
  while (Operation *def = tile.getDefiningOp()) {
    if (auto region = dyn_cast<RegionOp>(def))
      return region.getMasked() ? region : RegionOp();
    auto view = dyn_cast<ViewOp>(def);
    if (!view)
      return {};
    tile = view.getSource();
  }
  return {};
}

/// Element bits of a tensor value.
static int64_t getElementBits(Value tensor) {
  return cast<tirx::TensorType>(tensor.getType())
      .getElementType()
      .getIntOrFloatBitWidth();
}

int64_t mlir::tirx::getRegionElementCount(Value tile, int64_t count) {
  // Through each view to the region: element f of a view that packs k
  // elements into one is elements [k f, k f + k) of its source; of one that
  // splits an element into k, part of element f / k.
  int64_t first = 0, last = count - 1;
  while (auto view = tile.getDefiningOp<ViewOp>()) {
    int64_t from = getElementBits(view.getSource());
    int64_t to = getElementBits(view.getResult());
    if (to > from) {
      first = first * (to / from);
      last = (last + 1) * (to / from) - 1;
    } else if (to < from) {
      first /= from / to;
      last /= from / to;
    }
    tile = view.getSource();
  }
  return last - first + 1;
}

int64_t mlir::tirx::getRuntimeStridedDim(TensorType source,
                                         ArrayRef<int64_t> sizes) {
  ArrayRef<int64_t> shape = source.getShape();
  int64_t innermostRuntime = -1;
  for (auto [dim, extent] : llvm::enumerate(shape))
    if (ShapedType::isDynamic(extent))
      innermostRuntime = dim;
  for (int64_t dim = 0; dim < innermostRuntime; ++dim)
    if (sizes[dim] > 1)
      return dim;
  return -1;
}

RegionOp mlir::tirx::getRuntimeStridedRegion(Value tile) {
  while (Operation *def = tile.getDefiningOp()) {
    if (auto region = dyn_cast<RegionOp>(def))
      return getRuntimeStridedDim(region.getSource().getType(),
                                  region.getStaticSizes()) >= 0
                 ? region
                 : RegionOp();
    auto view = dyn_cast<ViewOp>(def);
    if (!view)
      return {};
    tile = view.getSource();
  }
  return {};
}

Value mlir::tirx::buildRegionPosition(OpBuilder &builder, Location loc,
                                      Value tile, Value flat) {
  for (Value value = tile; auto view = value.getDefiningOp<ViewOp>();
       value = view.getSource()) {
    int64_t from = getElementBits(view.getSource());
    int64_t to = getElementBits(view.getResult());
    if (to < from)
      return {};
    if (to > from)
      flat = builder.createOrFold<arith::MulIOp>(
          loc, flat, arith::ConstantIndexOp::create(builder, loc, to / from));
  }
  return flat;
}

SmallVector<Value> mlir::tirx::buildRegionCoordinates(OpBuilder &builder,
                                                      Location loc,
                                                      RegionOp region,
                                                      Value flat) {
  ArrayRef<int64_t> sizes = region.getStaticSizes();
  SmallVector<Value> coordinates(sizes.size());
  int64_t inner = 1;
  for (int64_t dim = sizes.size() - 1; dim >= 0; --dim) {
    Value coordinate = flat;
    if (inner != 1)
      coordinate = builder.createOrFold<arith::DivUIOp>(
          loc, coordinate, arith::ConstantIndexOp::create(builder, loc, inner));
    if (dim != 0)
      coordinate = builder.createOrFold<arith::RemUIOp>(
          loc, coordinate,
          arith::ConstantIndexOp::create(builder, loc, sizes[dim]));
    coordinates[dim] = coordinate;
    inner *= sizes[dim];
  }
  return coordinates;
}

bool mlir::tirx::mayOverhang(RegionOp region, unsigned dim) {
  return ShapedType::isDynamic(region.getStaticOffsets()[dim]) ||
         ShapedType::isDynamic(region.getSource().getType().getShape()[dim]);
}

Value mlir::tirx::buildMaskCondition(OpBuilder &builder, Location loc,
                                     Value tile, RegionOp region,
                                     ArrayRef<Value> indices, int64_t count) {
  auto constant = [&](int64_t value) -> Value {
    return arith::ConstantIndexOp::create(builder, loc, value);
  };
  // The last element's row-major position in the tile, in each view's
  // source down to the region (getRegionElementCount), then its
  // coordinates in the region.
  ArrayRef<int64_t> tileShape =
      cast<tirx::TensorType>(tile.getType()).getShape();
  Value flat = constant(count - 1);
  int64_t stride = 1;
  for (int64_t dim = tileShape.size() - 1; dim >= 0; --dim) {
    flat = builder.createOrFold<arith::AddIOp>(
        loc, flat,
        builder.createOrFold<arith::MulIOp>(loc, indices[dim],
                                            constant(stride)));
    stride *= tileShape[dim];
  }
  for (Value value = tile; auto view = value.getDefiningOp<ViewOp>();
       value = view.getSource()) {
    int64_t from = getElementBits(view.getSource());
    int64_t to = getElementBits(view.getResult());
    if (to > from)
      flat = builder.createOrFold<arith::SubIOp>(
          loc,
          builder.createOrFold<arith::MulIOp>(
              loc, builder.createOrFold<arith::AddIOp>(loc, flat, constant(1)),
              constant(to / from)),
          constant(1));
    else if (to < from)
      flat = builder.createOrFold<arith::DivUIOp>(loc, flat,
                                                  constant(from / to));
  }
  tirx::TensorType sourceType = region.getSource().getType();
  ArrayRef<int64_t> staticOffsets = region.getStaticOffsets();
  auto function = region->getParentOfType<FunctionOpInterface>();
  SmallVector<Value> coordinates =
      buildRegionCoordinates(builder, loc, region, flat);
  Value inside;
  unsigned nextDynamic = 0;
  for (auto [dim, coordinate] : llvm::enumerate(coordinates)) {
    Value offset;
    if (ShapedType::isDynamic(staticOffsets[dim]))
      offset = region.getOffsets()[nextDynamic++];
    if (!mayOverhang(region, dim))
      continue;
    Value extent;
    if (StringAttr name = sourceType.getSizeName(dim))
      extent = getSizeArgument(function, name);
    else
      extent = constant(sourceType.getShape()[dim]);
    // offset + coordinate < extent, as coordinate < extent − offset: the
    // proof showed offset ≥ 0 and sizes are below 2^62, so nothing wraps.
    Value left = builder.createOrFold<arith::SubIOp>(
        loc, extent, offset ? offset : constant(staticOffsets[dim]));
    Value fits = builder.createOrFold<arith::CmpIOp>(
        loc, arith::CmpIPredicate::slt, coordinate, left);
    inside =
        inside ? builder.createOrFold<arith::AndIOp>(loc, inside, fits) : fits;
  }
  return inside ? inside
                : arith::ConstantIntOp::create(builder, loc, builder.getI1Type(),
                                               1);
}
