//===- LayoutAlgebra.cpp - Composition, complement, products, divides -----===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//
//
// The algorithms work on *modes*: a layout's iters in CuTe's order, fastest
// first (the reverse of a TileLayout's shard, whose last iter is fastest).
// compose() follows one inner iter (extent N, stride d) through the outer
// modes: the first d elements' worth of modes are skipped (d must divide or be
// a multiple of each extent it meets), then the next N elements are taken
// (N likewise). The last outer mode never limits either step: the caller has
// checked that every index stays below the outer size, or made the last mode
// unbounded (a complement's repetition of the whole footprint).
//
//===----------------------------------------------------------------------===//

#include "TirX/Layout/LayoutAlgebra.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <limits>

using namespace mlir::tirx;

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

/// The extent of a mode that repeats without end.
static constexpr int64_t kUnbounded = std::numeric_limits<int64_t>::max();

using Modes = llvm::SmallVector<Iter, 8>;

static std::string iterText(const Iter &iter) {
  return std::to_string(iter.extent) + ":" +
         formatStride(iter.stride, iter.axis);
}

/// The shard iters of `layout` as modes, unit extents dropped.
static Modes getModes(const TileLayout &layout) {
  Modes modes;
  for (const Iter &iter : llvm::reverse(layout.getShard()))
    if (iter.extent > 1)
      modes.push_back(iter);
  return modes;
}

/// Appends `modes` (fastest first) to `shard` (fastest last).
static void appendAsShard(llvm::SmallVectorImpl<Iter> &shard,
                          llvm::ArrayRef<Iter> modes) {
  llvm::append_range(shard, llvm::reverse(modes));
}

/// Every shard iter on m, no replica, no offset, no swizzle.
static bool isIndexLayout(const TileLayout &layout) {
  return layout.isMemoryOnly() && layout.getNumReplicas() == 1 &&
         llvm::all_of(layout.getOffset(),
                      [](int64_t value) { return value == 0; }) &&
         !layout.isSwizzled();
}

/// The largest value of an index layout.
static int64_t getMaxIndex(const TileLayout &index) {
  return index.span(Axis::m) - 1;
}

/// The modes of outer(j * stride) for j in [0, extent), given the outer
/// modes (fastest first). `fallbackAxis` carries a stride-0 inner iter.
/// `digitMax[k]` grows by the largest digit value j * stride has in outer
/// mode k, for checkNoCarry.
static llvm::Expected<Modes>
composeIter(llvm::ArrayRef<Iter> outer, int64_t extent, int64_t stride,
            Axis fallbackAxis, llvm::StringRef op,
            llvm::MutableArrayRef<int64_t> digitMax) {
  Modes result;
  if (extent == 1)
    return result;
  if (stride == 0 || outer.empty()) {
    result.push_back({extent, 0, fallbackAxis});
    return result;
  }
  Modes modes(outer.begin(), outer.end());
  size_t k = 0;
  // Skip `stride` elements; the mode reached then moves by `unit` digits.
  int64_t rest = stride, unit = 1;
  while (rest > 1) {
    Iter &mode = modes[k];
    bool last = k + 1 == modes.size();
    if (!last && rest % mode.extent == 0) {
      rest /= mode.extent;
      ++k;
      continue;
    }
    if (!last && mode.extent % rest != 0)
      return makeError(op + ": inner stride " + llvm::Twine(stride) +
                       " splits the outer iter " + iterText(mode) +
                       " unevenly (" + llvm::Twine(rest) +
                       " elements into it, neither a divisor nor a multiple "
                       "of " +
                       llvm::Twine(mode.extent) + ")");
    if (llvm::MulOverflow(mode.stride, rest, mode.stride))
      return makeError(op + ": a stride overflows int64");
    mode.extent =
        last ? (mode.extent == kUnbounded ? kUnbounded
                                          : llvm::divideCeil(mode.extent, rest))
             : mode.extent / rest;
    unit = rest;
    rest = 1;
  }
  // Take `extent` elements.
  int64_t left = extent;
  for (; left > 1; ++k, unit = 1) {
    const Iter &mode = modes[k];
    bool last = k + 1 == modes.size();
    if (last || mode.extent % left == 0) {
      result.push_back({left, mode.stride, mode.axis});
      if (!last) // the last mode takes any value
        digitMax[k] += (left - 1) * unit;
      break;
    }
    if (left % mode.extent != 0)
      return makeError(op + ": inner iter " + llvm::Twine(extent) + ":" +
                       llvm::Twine(stride) + " splits the outer iter " +
                       iterText(mode) + " unevenly (" + llvm::Twine(left) +
                       " elements left, neither a divisor nor a multiple of " +
                       llvm::Twine(mode.extent) + ")");
    result.push_back(mode);
    digitMax[k] += (mode.extent - 1) * unit;
    left /= mode.extent;
  }
  return result;
}

/// The inner iters' values add up without a carry from one outer mode into
/// the next (the last mode takes any value): then outer(x + y) =
/// outer(x) + outer(y), and composing iter by iter composes the layout.
static llvm::Error checkNoCarry(llvm::ArrayRef<Iter> outer,
                                llvm::ArrayRef<int64_t> digitMax,
                                llvm::StringRef op) {
  for (size_t k = 0; k + 1 < outer.size(); ++k)
    if (digitMax[k] >= outer[k].extent)
      return makeError(op + ": inner iters overlap in the outer iter " +
                       iterText(outer[k]) +
                       ": their indices add up past its extent and carry "
                       "into the next iter, which no layout expresses");
  return llvm::Error::success();
}

llvm::Expected<TileLayout> mlir::tirx::compose(const TileLayout &outer,
                                               const TileLayout &inner) {
  if (!isIndexLayout(inner))
    return makeError("compose: the inner layout " + inner.toString() +
                     " is not an index layout (every iter on m, no replica, "
                     "offset or swizzle)");
  if (getMaxIndex(inner) >= outer.size())
    return makeError("compose: the inner layout " + inner.toString() +
                     " reaches index " + llvm::Twine(getMaxIndex(inner)) +
                     ", past the last index " + llvm::Twine(outer.size() - 1) +
                     " of " + outer.toString());
  // Coalesced, so that an inner stride meets the fewest iter boundaries.
  Modes outerModes = getModes(outer.canonicalize());
  Axis fallbackAxis = outerModes.empty() ? Axis::m : outerModes.front().axis;
  llvm::SmallVector<Iter, 8> shard;
  llvm::SmallVector<int64_t, 8> digitMax(outerModes.size(), 0);
  for (const Iter &iter : inner.getShard()) {
    llvm::Expected<Modes> modes =
        composeIter(outerModes, iter.extent, iter.stride, fallbackAxis,
                    "compose", digitMax);
    if (!modes)
      return modes.takeError();
    appendAsShard(shard, *modes);
  }
  if (llvm::Error err = checkNoCarry(outerModes, digitMax, "compose"))
    return std::move(err);
  if (shard.empty())
    shard.push_back({1, 1, fallbackAxis});
  return TileLayout::get(shard, outer.getReplica(), outer.getOffset(),
                         outer.getSwizzle());
}

/// The modes (fastest first) that fill the holes of `iters`, all on `axis`
/// (stride-0 and unit iters ignored), and the footprint `filled` they and
/// `iters` cover together: [holes, iters] is one-to-one onto [0, filled).
static llvm::Error complementModes(llvm::ArrayRef<Iter> iters, Axis axis,
                                   llvm::StringRef op, Modes &holes,
                                   int64_t &filled) {
  Modes sorted;
  for (const Iter &iter : iters)
    if (iter.extent > 1 && iter.stride != 0)
      sorted.push_back(iter);
  llvm::sort(sorted, [](const Iter &lhs, const Iter &rhs) {
    return std::make_pair(lhs.stride, lhs.extent) <
           std::make_pair(rhs.stride, rhs.extent);
  });
  filled = 1;
  const Iter *previous = nullptr;
  for (const Iter &iter : sorted) {
    if (iter.stride < filled)
      return makeError(op + ": iters " + iterText(*previous) + " and " +
                       iterText(iter) + " overlap on " + getAxisName(axis) +
                       ": the layout is not one-to-one there");
    if (iter.stride % filled != 0)
      return makeError(op + ": the gap below iter " + iterText(iter) +
                       " is no whole number of the " + llvm::Twine(filled) +
                       " positions the faster iters cover on " +
                       getAxisName(axis));
    if (iter.stride > filled)
      holes.push_back({iter.stride / filled, filled, axis});
    if (llvm::MulOverflow(iter.extent, iter.stride, filled))
      return makeError(op + ": a footprint overflows int64");
    previous = &iter;
  }
  return llvm::Error::success();
}

/// The one axis of `layout`'s iters that matter (extent > 1, stride > 0), or
/// an error; the first iter's axis for a layout without such iters.
static llvm::Expected<Axis> getSingleAxis(const TileLayout &layout,
                                          llvm::StringRef op) {
  std::optional<Axis> axis;
  for (const Iter &iter : layout.getShard()) {
    if (iter.extent == 1 || iter.stride == 0)
      continue;
    if (axis && *axis != iter.axis)
      return makeError(op + ": " + layout.toString() + " is on several axes (" +
                       getAxisName(*axis) + " and " + getAxisName(iter.axis) +
                       "); it must be on one");
    axis = iter.axis;
  }
  return axis.value_or(layout.getShard().front().axis);
}

/// No replica, offset or swizzle: what complement and rightInverse take.
static llvm::Error checkPlain(const TileLayout &layout, llvm::StringRef op,
                              llvm::StringRef role) {
  if (layout.getNumReplicas() != 1 ||
      llvm::any_of(layout.getOffset(),
                   [](int64_t value) { return value != 0; }) ||
      layout.isSwizzled())
    return makeError(op + ": " + role + " " + layout.toString() +
                     " must have no replica, offset or swizzle");
  return llvm::Error::success();
}

llvm::Expected<TileLayout> mlir::tirx::complement(const TileLayout &layout,
                                                  int64_t cosizeTarget) {
  if (cosizeTarget < 1)
    return makeError("complement: the target size must be at least 1, got " +
                     llvm::Twine(cosizeTarget));
  if (llvm::Error err = checkPlain(layout, "complement", "the layout"))
    return std::move(err);
  llvm::Expected<Axis> axis = getSingleAxis(layout, "complement");
  if (!axis)
    return axis.takeError();
  Modes modes;
  int64_t filled;
  if (llvm::Error err = complementModes(layout.getShard(), *axis, "complement",
                                        modes, filled))
    return std::move(err);
  int64_t repeats = llvm::divideCeil(cosizeTarget, filled);
  if (repeats > 1)
    modes.push_back({repeats, filled, *axis});
  llvm::SmallVector<Iter, 8> shard;
  appendAsShard(shard, modes);
  if (shard.empty())
    shard.push_back({1, 1, *axis});
  llvm::Expected<TileLayout> result = TileLayout::get(shard, {}, {});
  if (!result)
    return result.takeError();
  return result->canonicalize();
}

TileLayout mlir::tirx::coalesce(const TileLayout &layout) {
  return layout.canonicalize();
}

llvm::Expected<TileLayout> mlir::tirx::rightInverse(const TileLayout &layout) {
  if (llvm::Error err = checkPlain(layout, "right inverse", "the layout"))
    return std::move(err);
  if (llvm::Expected<Axis> axis = getSingleAxis(layout, "right inverse"); !axis)
    return axis.takeError();
  // Each iter with its stride in the flat index (row-major).
  struct Candidate {
    Iter iter;
    int64_t indexStride;
  };
  llvm::SmallVector<Candidate, 8> candidates;
  int64_t indexStride = 1;
  for (const Iter &iter : llvm::reverse(layout.getShard())) {
    if (iter.extent > 1 && iter.stride != 0)
      candidates.push_back({iter, indexStride});
    indexStride *= iter.extent; // size() fits in int64
  }
  llvm::sort(candidates, [](const Candidate &lhs, const Candidate &rhs) {
    return std::make_pair(lhs.iter.stride, lhs.indexStride) <
           std::make_pair(rhs.iter.stride, rhs.indexStride);
  });
  // The contiguous iters from stride 1 up: their values cover [0, reach).
  Modes modes;
  int64_t reach = 1;
  for (const Candidate &candidate : candidates) {
    if (candidate.iter.stride != reach)
      break;
    modes.push_back({candidate.iter.extent, candidate.indexStride, Axis::m});
    reach *= candidate.iter.extent;
  }
  llvm::SmallVector<Iter, 8> shard;
  appendAsShard(shard, modes);
  if (shard.empty())
    shard.push_back({1, 1, Axis::m});
  llvm::Expected<TileLayout> result = TileLayout::get(shard, {}, {});
  if (!result)
    return result.takeError();
  return result->canonicalize();
}

llvm::Expected<TileLayout> mlir::tirx::logicalProduct(const TileLayout &a,
                                                      const TileLayout &b) {
  if (llvm::Error err = checkPlain(b, "logical product", "the arrangement"))
    return std::move(err);
  // Per axis, A's complement with an unbounded last mode: where copies go.
  std::array<std::optional<Modes>, kNumAxes> places;
  std::array<llvm::SmallVector<int64_t, 8>, kNumAxes> digitMax;
  llvm::SmallVector<Iter, 8> shard;
  for (const Iter &iter : b.getShard()) {
    unsigned axis = static_cast<unsigned>(iter.axis);
    std::optional<Modes> &place = places[axis];
    if (!place) {
      llvm::SmallVector<Iter, 8> onAxis;
      for (llvm::ArrayRef<Iter> iters : {a.getShard(), a.getReplica()})
        for (const Iter &own : iters)
          if (own.axis == iter.axis)
            onAxis.push_back(own);
      Modes holes;
      int64_t filled;
      if (llvm::Error err = complementModes(onAxis, iter.axis,
                                            "logical product", holes, filled))
        return std::move(err);
      holes.push_back({kUnbounded, filled, iter.axis});
      place = std::move(holes);
      digitMax[axis].assign(place->size(), 0);
    }
    llvm::Expected<Modes> modes =
        composeIter(*place, iter.extent, iter.stride, iter.axis,
                    "logical product", digitMax[axis]);
    if (!modes)
      return modes.takeError();
    appendAsShard(shard, *modes);
  }
  for (unsigned axis = 0; axis < kNumAxes; ++axis)
    if (places[axis])
      if (llvm::Error err =
              checkNoCarry(*places[axis], digitMax[axis], "logical product"))
        return std::move(err);
  llvm::append_range(shard, a.getShard());
  return TileLayout::get(shard, a.getReplica(), a.getOffset(), a.getSwizzle());
}

llvm::Expected<TileLayout> mlir::tirx::logicalDivide(const TileLayout &a,
                                                     const TileLayout &tiler) {
  if (!isIndexLayout(tiler))
    return makeError("logical divide: the tiler " + tiler.toString() +
                     " is not an index layout (every iter on m, no replica, "
                     "offset or swizzle)");
  llvm::Expected<TileLayout> rest = complement(tiler, a.size());
  if (!rest)
    return makeError("logical divide: the tiler " + tiler.toString() +
                     " has no complement: " + llvm::toString(rest.takeError()));
  // [rest, tiler] is one-to-one onto [0, its size): it must be a's.
  int64_t covered;
  if (llvm::MulOverflow(rest->size(), tiler.size(), covered) ||
      covered != a.size())
    return makeError("logical divide: tiles " + tiler.toString() +
                     " do not divide the " + llvm::Twine(a.size()) +
                     " elements of " + a.toString());
  llvm::SmallVector<Iter, 8> shard(rest->getShard());
  llvm::append_range(shard, tiler.getShard());
  llvm::Expected<TileLayout> index = TileLayout::get(shard, {}, {});
  if (!index)
    return index.takeError();
  return compose(a, *index);
}

/// Row-major strides of `shape`.
static llvm::SmallVector<int64_t, 4>
getRowMajorStrides(llvm::ArrayRef<int64_t> shape) {
  llvm::SmallVector<int64_t, 4> strides(shape.size(), 1);
  for (size_t d = shape.size(); d-- > 1;)
    strides[d - 1] = strides[d] * shape[d];
  return strides;
}

static std::string shapeText(llvm::ArrayRef<int64_t> shape) {
  std::string text = "(";
  for (auto [i, dim] : llvm::enumerate(shape))
    text += (i ? ", " : "") + std::to_string(dim);
  return text + ")";
}

/// Checks that `shape` has positive dims whose product is `size`.
static llvm::Error checkShape(llvm::ArrayRef<int64_t> shape, int64_t size,
                              llvm::StringRef op, llvm::StringRef what) {
  int64_t product = 1;
  for (int64_t dim : shape)
    if (dim < 1 || llvm::MulOverflow(product, dim, product))
      return makeError(op + ": " + what + " " + shapeText(shape) +
                       " must have dims >= 1");
  if (product != size)
    return makeError(op + ": " + what + " " + shapeText(shape) + " has " +
                     llvm::Twine(product) + " elements, the layout " +
                     llvm::Twine(size));
  return llvm::Error::success();
}

/// a's copies arranged by b, each mode's coordinate ib * shapeA + ia
/// (blocked) or ia * shapeB + ib (raked).
static llvm::Expected<ShapedLayout>
tileProduct(const TileLayout &a, llvm::ArrayRef<int64_t> shapeA,
            const TileLayout &b, llvm::ArrayRef<int64_t> shapeB, bool raked) {
  llvm::StringRef op = raked ? "raked product" : "blocked product";
  if (shapeA.size() != shapeB.size())
    return makeError(op + ": shapes " + shapeText(shapeA) + " and " +
                     shapeText(shapeB) + " differ in rank");
  if (llvm::Error err = checkShape(shapeA, a.size(), op, "shape"))
    return std::move(err);
  if (llvm::Error err = checkShape(shapeB, b.size(), op, "shape"))
    return std::move(err);
  llvm::Expected<TileLayout> product = logicalProduct(a, b);
  if (!product)
    return product.takeError();
  // The product's flat index is ib * size(a) + ia; visit it mode by mode.
  llvm::SmallVector<int64_t, 4> stridesA = getRowMajorStrides(shapeA);
  llvm::SmallVector<int64_t, 4> stridesB = getRowMajorStrides(shapeB);
  llvm::SmallVector<Iter, 8> order;
  ShapedLayout result{*product, {}};
  for (size_t d = 0; d < shapeA.size(); ++d) {
    Iter inA{shapeA[d], stridesA[d], Axis::m};
    Iter inB{shapeB[d], stridesB[d] * a.size(), Axis::m};
    order.push_back(raked ? inA : inB);
    order.push_back(raked ? inB : inA);
    result.shape.push_back(shapeA[d] * shapeB[d]);
  }
  llvm::Expected<TileLayout> index = TileLayout::get(order, {}, {});
  if (!index)
    return index.takeError();
  llvm::Expected<TileLayout> layout = compose(*product, *index);
  if (!layout)
    return layout.takeError();
  result.layout = *layout;
  return result;
}

llvm::Expected<ShapedLayout>
mlir::tirx::blockedProduct(const TileLayout &a, llvm::ArrayRef<int64_t> shapeA,
                           const TileLayout &b,
                           llvm::ArrayRef<int64_t> shapeB) {
  return tileProduct(a, shapeA, b, shapeB, /*raked=*/false);
}

llvm::Expected<ShapedLayout>
mlir::tirx::rakedProduct(const TileLayout &a, llvm::ArrayRef<int64_t> shapeA,
                         const TileLayout &b, llvm::ArrayRef<int64_t> shapeB) {
  return tileProduct(a, shapeA, b, shapeB, /*raked=*/true);
}

llvm::Expected<ShapedLayout>
mlir::tirx::zippedDivide(const TileLayout &a, llvm::ArrayRef<int64_t> shape,
                         llvm::ArrayRef<int64_t> tile) {
  llvm::StringRef op = "zipped divide";
  if (llvm::Error err = checkShape(shape, a.size(), op, "shape"))
    return std::move(err);
  if (tile.size() != shape.size())
    return makeError(op + ": tile " + shapeText(tile) + " and shape " +
                     shapeText(shape) + " differ in rank");
  llvm::SmallVector<int64_t, 4> strides = getRowMajorStrides(shape);
  llvm::SmallVector<Iter, 8> order;
  ShapedLayout result{a, {}};
  for (size_t d = 0; d < shape.size(); ++d) {
    if (tile[d] < 1 || shape[d] % tile[d] != 0)
      return makeError(op + ": tile " + shapeText(tile) +
                       " does not divide shape " + shapeText(shape) +
                       " (mode " + llvm::Twine(d) + ")");
    order.push_back({shape[d] / tile[d], strides[d] * tile[d], Axis::m});
    result.shape.push_back(shape[d] / tile[d]);
  }
  for (size_t d = 0; d < shape.size(); ++d) {
    order.push_back({tile[d], strides[d], Axis::m});
    result.shape.push_back(tile[d]);
  }
  llvm::Expected<TileLayout> index = TileLayout::get(order, {}, {});
  if (!index)
    return index.takeError();
  llvm::Expected<TileLayout> layout = compose(a, *index);
  if (!layout)
    return layout.takeError();
  result.layout = *layout;
  return result;
}
