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

llvm::SmallVector<int64_t>
mlir::tirx::getRepeatAddressClasses(const TileLayout &layout,
                                    int64_t numElements, int64_t perGroup,
                                    int64_t perRepeat) {
  auto offsetOf = [&](int64_t flat) { return at(layout.apply(flat), Axis::m); };
  int64_t numGroups = numElements / perGroup;
  int64_t numRepeats = perGroup / perRepeat;
  auto distanceIsConstant = [&](int64_t from, int64_t to) {
    int64_t distance = offsetOf(to * perRepeat) - offsetOf(from * perRepeat);
    if (distance < 0)
      return false;
    for (int64_t group = 0; group < numGroups; ++group)
      for (int64_t position = 0; position < perRepeat; ++position) {
        int64_t base = group * perGroup + position;
        if (offsetOf(base + to * perRepeat) -
                offsetOf(base + from * perRepeat) !=
            distance)
          return false;
      }
    return true;
  };
  llvm::SmallVector<int64_t> classOf(numRepeats);
  llvm::SmallVector<int64_t> firsts;
  for (int64_t repeat = 0; repeat < numRepeats; ++repeat) {
    auto *found = llvm::find_if(firsts, [&](int64_t first) {
      return distanceIsConstant(first, repeat);
    });
    if (found == firsts.end()) {
      firsts.push_back(repeat);
      classOf[repeat] = repeat;
    } else {
      classOf[repeat] = *found;
    }
  }
  return classOf;
}
