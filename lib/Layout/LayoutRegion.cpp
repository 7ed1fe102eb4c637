//===- LayoutRegion.cpp - Restricting a layout to a sub-tile --------------===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//

#include "TirX/Layout/LayoutRegion.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

#include <deque>

using namespace mlir::tirx;

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

/// Step 1 of the header comment: the shard iters of each dimension, outer to
/// inner, with unit iters dropped.
static llvm::Expected<llvm::SmallVector<llvm::SmallVector<Iter>>>
groupByShape(const TileLayout &layout, llvm::ArrayRef<int64_t> shape) {
  llvm::SmallVector<llvm::SmallVector<Iter>> groups(shape.size());
  std::deque<Iter> iters;
  for (const Iter &iter : layout.getShard())
    if (iter.extent != 1)
      iters.push_back(iter);
  for (int64_t dim = static_cast<int64_t>(shape.size()) - 1; dim >= 0;
       --dim) {
    int64_t need = shape[dim];
    std::deque<Iter> group;
    while (need > 1) {
      if (iters.empty())
        return makeError(llvm::formatv(
            "the layout has fewer elements than the shape at dimension {0}",
            dim));
      Iter iter = iters.back();
      iters.pop_back();
      if (need % iter.extent == 0) {
        group.push_front(iter);
        need /= iter.extent;
        continue;
      }
      if (iter.extent % need != 0)
        return makeError(llvm::formatv(
            "dimension {0} (extent {1}) does not align with layout iter "
            "({2}, {3}@{4}); the layout cannot be grouped by this shape",
            dim, shape[dim], iter.extent, iter.stride,
            getAxisName(iter.axis)));
      // The dimension boundary falls inside this iter: split it.
      group.push_front(Iter{need, iter.stride, iter.axis});
      iters.push_back(
          Iter{iter.extent / need, iter.stride * need, iter.axis});
      need = 1;
    }
    groups[dim].assign(group.begin(), group.end());
  }
  if (!iters.empty())
    return makeError("the layout has more elements than the shape");
  return groups;
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
      return makeError(llvm::formatv(
          "dimension {0}: size {1} is out of range [1, {2}]", dim, size,
          extent));
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
  auto restricted = TileLayout::get(shard, layout.getReplica(), offset);
  if (!restricted)
    return restricted.takeError();
  region.layout = std::move(*restricted);
  return region;
}
