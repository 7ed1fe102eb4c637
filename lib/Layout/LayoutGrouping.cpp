//===- LayoutGrouping.cpp - Shard iters grouped by a logical shape --------===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//

#include "TirX/Layout/LayoutGrouping.h"

#include "llvm/Support/FormatVariadic.h"

#include <deque>

using namespace mlir::tirx;

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

llvm::Expected<llvm::SmallVector<llvm::SmallVector<Iter>>>
mlir::tirx::groupByShape(const TileLayout &layout,
                         llvm::ArrayRef<int64_t> shape) {
  llvm::SmallVector<llvm::SmallVector<Iter>> groups(shape.size());
  std::deque<Iter> iters;
  for (const Iter &iter : layout.getShard())
    if (iter.extent != 1)
      iters.push_back(iter);
  for (int64_t dim = static_cast<int64_t>(shape.size()) - 1; dim >= 0; --dim) {
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
            "({2}, {3}); the layout cannot be grouped by this shape",
            dim, shape[dim], iter.extent,
            formatStride(iter.stride, iter.axis)));
      // The dimension boundary falls inside this iter: split it.
      group.push_front(Iter{need, iter.stride, iter.axis});
      iters.push_back(Iter{iter.extent / need, iter.stride * need, iter.axis});
      need = 1;
    }
    groups[dim].assign(group.begin(), group.end());
  }
  if (!iters.empty())
    return makeError("the layout has more elements than the shape");
  return groups;
}
