//===- LayoutRegion.cpp - Restricting a layout to a sub-tile --------------===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//

#include "TirX/Layout/LayoutRegion.h"
#include "TirX/Layout/LayoutGrouping.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir::tirx;

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

llvm::Expected<LayoutRegion>
mlir::tirx::restrictLayout(const TileLayout &layout,
                           llvm::ArrayRef<int64_t> shape,
                           llvm::ArrayRef<std::optional<int64_t>> offsets,
                           llvm::ArrayRef<int64_t> sizes) {
  if (offsets.size() != shape.size() || sizes.size() != shape.size())
    return makeError(llvm::formatv(
        "region has {0} offsets and {1} sizes for a rank-{2} tensor",
        offsets.size(), sizes.size(), shape.size()));
  auto groups = groupByShape(layout, shape);
  if (!groups)
    return groups.takeError();

  llvm::SmallVector<Iter> shard;
  LayoutRegion region{layout, {}};
  PhysicalCoord offset = layout.getOffset();
  for (auto [dim, group] : llvm::enumerate(*groups)) {
    int64_t extent = shape[dim], size = sizes[dim];
    if (size < 1 || size > extent)
      return makeError(
          llvm::formatv("dimension {0}: size {1} is out of range [1, {2}]", dim,
                        size, extent));
    if (group.empty())
      group.push_back(Iter{1, 1, Axis::m}); // an extent-1 dimension

    if (!offsets[dim]) {
      if (group.size() != 1)
        return makeError(llvm::formatv(
            "dimension {0}: a dynamic offset needs the dimension to map to "
            "one layout iter, but it maps to {1}",
            dim, group.size()));
      region.dynamicIters.push_back(group.front());
      shard.push_back(Iter{size, group.front().stride, group.front().axis});
      continue;
    }

    int64_t start = *offsets[dim];
    if (start < 0 || start > extent - size)
      return makeError(llvm::formatv(
          "dimension {0}: region [{1}, {1} + {2}) is out of bounds [0, {3})",
          dim, start, size, extent));
    // Find the level j whose sub-range [start, start + size) is (step 2).
    int64_t inner = 1; // P_j
    int64_t level = -1, count = 0;
    for (int64_t j = static_cast<int64_t>(group.size()) - 1; j >= 0; --j) {
      int64_t e = group[j].extent;
      if (size % inner == 0 && start % inner == 0) {
        int64_t a = size / inner, first = (start / inner) % e;
        if (a <= e && first + a <= e) {
          level = j;
          count = a;
          break;
        }
      }
      inner *= e;
    }
    if (level < 0)
      return makeError(llvm::formatv(
          "dimension {0}: region [{1}, {1} + {2}) is not a sub-range of one "
          "layout iter, so it has no tile layout",
          dim, start, size));
    // Digits of `start` move into the offset (inner digits are zero).
    int64_t rest = start;
    for (int64_t j = static_cast<int64_t>(group.size()) - 1; j >= 0; --j) {
      int64_t digit = j == 0 ? rest : rest % group[j].extent;
      rest = j == 0 ? 0 : rest / group[j].extent;
      at(offset, group[j].axis) += digit * group[j].stride;
    }
    shard.push_back(Iter{count, group[level].stride, group[level].axis});
    shard.append(group.begin() + level + 1, group.end());
  }
  // The swizzle applies to the whole affine offset, which the restricted
  // layout keeps, so it stays exact (callers decide whether a region of a
  // swizzled tensor may move its base).
  auto restricted =
      TileLayout::get(shard, layout.getReplica(), offset, layout.getSwizzle());
  if (!restricted)
    return restricted.takeError();
  region.layout = std::move(*restricted);
  return region;
}
