//===- TileLayout.cpp - Distribution of a tile over threads and slots -----===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//
//
// Construction checks every quantity that later accessors compute (size, span
// per axis, replica count) for int64 overflow once, so that apply(),
// forEachOwner(), span() and the derived layouts below never overflow:
// canonicalize() and storage() only shrink or regroup those sums, and
// pack()/unpack() go back through get().
//
//===----------------------------------------------------------------------===//

#include "TirX/Layout/TileLayout.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <iterator>
#include <tuple>

using namespace mlir::tirx;

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

//===----------------------------------------------------------------------===//
// Axes and execution scopes
//===----------------------------------------------------------------------===//

static constexpr const char *kAxisNames[kNumAxes] = {
    "laneid", "warpid", "wgid", "wid_in_wg", "tid_in_wg",
    "tx",     "bx",     "by",   "bz",        "m"};

static constexpr const char *kExecScopeNames[] = {"thread", "warp", "warpgroup",
                                                  "cta", "grid"};

llvm::StringRef mlir::tirx::getAxisName(Axis axis) {
  unsigned index = static_cast<unsigned>(axis);
  return index < kNumAxes ? kAxisNames[index] : "<invalid axis>";
}

std::optional<Axis> mlir::tirx::parseAxisName(llvm::StringRef name) {
  for (unsigned i = 0; i < kNumAxes; ++i)
    if (name == kAxisNames[i])
      return static_cast<Axis>(i);
  return std::nullopt;
}

bool mlir::tirx::isThreadAxis(Axis axis) { return axis != Axis::m; }

bool mlir::tirx::isBlockAxis(Axis axis) {
  return axis == Axis::bx || axis == Axis::by || axis == Axis::bz;
}

llvm::StringRef mlir::tirx::getExecScopeName(ExecScope scope) {
  unsigned index = static_cast<unsigned>(scope);
  return index < std::size(kExecScopeNames) ? kExecScopeNames[index]
                                            : "<invalid scope>";
}

std::optional<ExecScope> mlir::tirx::parseExecScopeName(llvm::StringRef name) {
  for (unsigned i = 0; i < std::size(kExecScopeNames); ++i)
    if (name == kExecScopeNames[i])
      return static_cast<ExecScope>(i);
  return std::nullopt;
}

std::pair<ExecScope, ExecScope> mlir::tirx::getAxisScopeEdge(Axis axis) {
  switch (axis) {
  case Axis::laneid:
    return {ExecScope::thread, ExecScope::warp};
  case Axis::warpid:
    return {ExecScope::warp, ExecScope::cta};
  case Axis::wgid:
    return {ExecScope::warpgroup, ExecScope::cta};
  case Axis::wid_in_wg:
    return {ExecScope::warp, ExecScope::warpgroup};
  case Axis::tid_in_wg:
    return {ExecScope::thread, ExecScope::warpgroup};
  case Axis::tx:
    return {ExecScope::thread, ExecScope::cta};
  case Axis::bx:
  case Axis::by:
  case Axis::bz:
    return {ExecScope::cta, ExecScope::grid};
  case Axis::m:
    break;
  }
  // `m` has no edge; callers only ask for thread axes.
  return {ExecScope::thread, ExecScope::thread};
}

int64_t mlir::tirx::getFlatThreadId(const PhysicalCoord &coord) {
  return at(coord, Axis::tx) + at(coord, Axis::tid_in_wg) +
         32 * at(coord, Axis::wid_in_wg) + 128 * at(coord, Axis::wgid) +
         at(coord, Axis::laneid) + 32 * at(coord, Axis::warpid);
}

llvm::hash_code mlir::tirx::hash_value(const Iter &iter) {
  return llvm::hash_combine(iter.extent, iter.stride,
                            static_cast<unsigned>(iter.axis));
}

//===----------------------------------------------------------------------===//
// Construction
//===----------------------------------------------------------------------===//

/// Checks extents and strides of one iter list; `kind` is "shard" or
/// "replica".
static llvm::Error checkIters(llvm::ArrayRef<Iter> iters,
                              llvm::StringRef kind) {
  for (auto [index, iter] : llvm::enumerate(iters)) {
    if (static_cast<unsigned>(iter.axis) >= kNumAxes)
      return makeError(kind + " iter " + llvm::Twine(index) +
                       " has an invalid axis");
    if (iter.extent <= 0)
      return makeError(kind + " iter " + llvm::Twine(index) + " has extent " +
                       llvm::Twine(iter.extent) + "; extents must be positive");
    if (iter.stride < 0)
      return makeError(kind + " iter " + llvm::Twine(index) + " has stride " +
                       formatStride(iter.stride, iter.axis) +
                       "; strides must be non-negative");
  }
  return llvm::Error::success();
}

/// Π extents, or nullopt on int64 overflow. Extents must be positive.
static std::optional<int64_t> checkedProduct(llvm::ArrayRef<Iter> iters) {
  int64_t product = 1;
  for (const Iter &iter : iters)
    if (llvm::MulOverflow(product, iter.extent, product))
      return std::nullopt;
  return product;
}

/// Adds Σ (e−1)·s of the iters on `axis` to `sum`; false on overflow.
static bool addFootprint(llvm::ArrayRef<Iter> iters, Axis axis, int64_t &sum) {
  for (const Iter &iter : iters) {
    if (iter.axis != axis)
      continue;
    int64_t term;
    if (llvm::MulOverflow(iter.extent - 1, iter.stride, term) ||
        llvm::AddOverflow(sum, term, sum))
      return false;
  }
  return true;
}

llvm::Expected<TileLayout> TileLayout::get(llvm::ArrayRef<Iter> shard,
                                           llvm::ArrayRef<Iter> replica,
                                           const PhysicalCoord &offset,
                                           std::optional<Swizzle> swizzle) {
  if (shard.empty())
    return makeError("layout has no shard iters; a layout needs at least one");
  if (llvm::Error err = checkIters(shard, "shard"))
    return std::move(err);
  if (llvm::Error err = checkIters(replica, "replica"))
    return std::move(err);
  for (unsigned a = 0; a < kNumAxes; ++a)
    if (offset[a] < 0)
      return makeError("offset on " + getAxisName(static_cast<Axis>(a)) +
                       " is " + llvm::Twine(offset[a]) +
                       "; offsets must be non-negative");
  if (!checkedProduct(shard))
    return makeError("layout size overflows int64 (product of the shard "
                     "extents)");
  if (!checkedProduct(replica))
    return makeError("replica count overflows int64 (product of the replica "
                     "extents)");
  // span(a) = 1 + Σ (e−1)·s + O[a]; it bounds every coordinate apply() and
  // forEachOwner() produce, so checking it here makes them overflow-free.
  for (unsigned a = 0; a < kNumAxes; ++a) {
    Axis axis = static_cast<Axis>(a);
    int64_t sum = 1;
    if (!addFootprint(shard, axis, sum) || !addFootprint(replica, axis, sum) ||
        llvm::AddOverflow(sum, offset[a], sum))
      return makeError("span on axis " + getAxisName(axis) +
                       " overflows int64");
    // The swizzled span rounds the affine one up; it must fit too.
    if (axis == Axis::m && swizzle && !swizzle->getSpanBound(sum))
      return makeError("span on axis m overflows int64 once rounded up to "
                       "the swizzle's blocks");
  }

  TileLayout layout;
  layout.shard.assign(shard.begin(), shard.end());
  layout.replica.assign(replica.begin(), replica.end());
  layout.offset = offset;
  if (swizzle && !swizzle->isIdentity())
    layout.swizzle = swizzle;
  return layout;
}

llvm::Expected<TileLayout>
TileLayout::getRowMajor(llvm::ArrayRef<int64_t> shape) {
  // A rank-0 shape is one element.
  if (shape.empty())
    return get({Iter{1, 1, Axis::m}}, {}, PhysicalCoord{});
  llvm::SmallVector<Iter, 4> iters;
  for (auto [index, extent] : llvm::enumerate(shape))
    if (extent <= 0)
      return makeError("shape dimension " + llvm::Twine(index) + " is " +
                       llvm::Twine(extent) + "; extents must be positive");
  iters.resize(shape.size());
  int64_t stride = 1;
  for (size_t i = shape.size(); i-- > 0;) {
    iters[i] = Iter{shape[i], stride, Axis::m};
    if (llvm::MulOverflow(stride, shape[i], stride))
      return makeError("layout size overflows int64 (product of the shard "
                       "extents)");
  }
  return get(iters, {}, PhysicalCoord{});
}

//===----------------------------------------------------------------------===//
// Derived quantities and the forward map
//===----------------------------------------------------------------------===//

int64_t TileLayout::size() const {
  int64_t product = 1;
  for (const Iter &iter : shard)
    product *= iter.extent;
  return product;
}

int64_t TileLayout::size(Axis axis) const {
  int64_t product = 1;
  for (const Iter &iter : shard)
    if (iter.axis == axis)
      product *= iter.extent;
  return product;
}

int64_t TileLayout::span(Axis axis) const {
  int64_t sum = 1 + at(offset, axis);
  for (const Iter &iter : shard)
    if (iter.axis == axis)
      sum += (iter.extent - 1) * iter.stride;
  for (const Iter &iter : replica)
    if (iter.axis == axis)
      sum += (iter.extent - 1) * iter.stride;
  if (axis == Axis::m && swizzle)
    return *swizzle->getSpanBound(sum); // checked by get()
  return sum;
}

TileLayout TileLayout::getAffinePart() const {
  TileLayout result = *this;
  result.swizzle.reset();
  return result;
}

std::optional<int64_t>
TileLayout::getSwizzleModeBytes(int64_t elementBytes) const {
  if (!swizzle)
    return 0;
  return swizzle->getHardwareModeBytes(elementBytes);
}

int64_t TileLayout::getNumReplicas() const {
  int64_t product = 1;
  for (const Iter &iter : replica)
    product *= iter.extent;
  return product;
}

PhysicalCoord TileLayout::apply(int64_t flatIndex) const {
  assert(flatIndex >= 0 && flatIndex < size() && "flat index out of range");
  PhysicalCoord coord = offset;
  // Last iter fastest; iter 0 takes the remaining quotient (no modulo).
  for (size_t k = shard.size(); k-- > 1;) {
    const Iter &iter = shard[k];
    at(coord, iter.axis) += (flatIndex % iter.extent) * iter.stride;
    flatIndex /= iter.extent;
  }
  at(coord, shard.front().axis) += flatIndex * shard.front().stride;
  if (swizzle)
    at(coord, Axis::m) = swizzle->apply(at(coord, Axis::m));
  return coord;
}

PhysicalCoord TileLayout::apply(llvm::ArrayRef<int64_t> coord,
                                llvm::ArrayRef<int64_t> shape) const {
  assert(coord.size() == shape.size() && "coordinate rank != shape rank");
  int64_t flat = 0;
  for (auto [x, extent] : llvm::zip(coord, shape))
    flat = flat * extent + x;
  return apply(flat);
}

void TileLayout::forEachOwner(
    int64_t flatIndex,
    llvm::function_ref<void(const PhysicalCoord &)> fn) const {
  PhysicalCoord coord = getAffinePart().apply(flatIndex);
  // The odometer below walks affine coordinates; each owner is swizzled.
  auto visit = [&] {
    if (!swizzle)
      return fn(coord);
    PhysicalCoord swizzled = coord;
    at(swizzled, Axis::m) = swizzle->apply(at(coord, Axis::m));
    fn(swizzled);
  };
  visit();
  // Odometer over the replica iters, last fastest; each step adjusts only the
  // axes of the digits that changed.
  llvm::SmallVector<int64_t, 2> counter(replica.size(), 0);
  while (true) {
    size_t k = replica.size();
    while (true) {
      if (k == 0)
        return;
      --k;
      const Iter &iter = replica[k];
      if (++counter[k] < iter.extent) {
        at(coord, iter.axis) += iter.stride;
        break;
      }
      at(coord, iter.axis) -= (iter.extent - 1) * iter.stride;
      counter[k] = 0;
    }
    visit();
  }
}

bool TileLayout::hasThreadAxes() const {
  auto onThreadAxis = [](const Iter &iter) { return isThreadAxis(iter.axis); };
  if (llvm::any_of(shard, onThreadAxis) || llvm::any_of(replica, onThreadAxis))
    return true;
  for (unsigned a = 0; a < kNumAxes; ++a)
    if (offset[a] != 0 && isThreadAxis(static_cast<Axis>(a)))
      return true;
  return false;
}

bool TileLayout::isTrivial() const {
  TileLayout canonical = canonicalize();
  return !swizzle && canonical.shard.size() == 1 &&
         canonical.shard[0].axis == Axis::m && canonical.shard[0].stride == 1 &&
         canonical.replica.empty() &&
         llvm::all_of(canonical.offset, [](int64_t o) { return o == 0; });
}

bool TileLayout::isContiguous() const {
  if (hasThreadAxes() || getNumReplicas() != 1 || swizzle)
    return false;
  int64_t expected = 1;
  for (const Iter &iter : llvm::reverse(shard)) {
    if (iter.extent == 1)
      continue;
    if (iter.stride != expected)
      return false;
    expected *= iter.extent;
  }
  return true;
}

//===----------------------------------------------------------------------===//
// Derived layouts
//===----------------------------------------------------------------------===//

TileLayout TileLayout::canonicalize() const {
  TileLayout result;
  result.offset = offset; // Step 2: zero offsets are already implicit.
  result.swizzle = swizzle;

  // Step 1 and 4 in one pass: skip unit iters, and fuse each iter into the
  // previous kept one when it continues it on the same axis. Fusing never
  // enables a fusion further out: (eo·ei, si) fuses with p iff eo·so == p.s,
  // which was already checked against the unfused outer iter.
  for (const Iter &iter : shard) {
    if (iter.extent == 1)
      continue;
    if (!result.shard.empty()) {
      Iter &outer = result.shard.back();
      int64_t reach;
      if (outer.axis == iter.axis &&
          !llvm::MulOverflow(iter.extent, iter.stride, reach) &&
          reach == outer.stride) {
        outer = Iter{outer.extent * iter.extent, iter.stride, iter.axis};
        continue;
      }
    }
    result.shard.push_back(iter);
  }
  // The stride of a unit iter is never observed; use 1 so that all
  // one-element layouts on the same axis agree.
  if (result.shard.empty())
    result.shard.push_back(Iter{1, 1, shard.front().axis});

  // Step 5: unit replica iters add no copy; the rest get a total order.
  for (const Iter &iter : replica)
    if (iter.extent != 1)
      result.replica.push_back(iter);
  llvm::sort(result.replica, [](const Iter &lhs, const Iter &rhs) {
    return std::make_tuple(lhs.axis, lhs.stride, lhs.extent) <
           std::make_tuple(rhs.axis, rhs.stride, rhs.extent);
  });
  return result;
}

TileLayout TileLayout::storage() const {
  TileLayout result;
  for (const Iter &iter : shard)
    if (!isThreadAxis(iter.axis))
      result.shard.push_back(iter);
  if (result.shard.empty())
    result.shard.push_back(Iter{1, 1, Axis::m});
  for (const Iter &iter : replica)
    if (!isThreadAxis(iter.axis))
      result.replica.push_back(iter);
  at(result.offset, Axis::m) = at(offset, Axis::m);
  result.swizzle = swizzle;
  return result;
}

llvm::Expected<TileLayout> TileLayout::unpack(int64_t factor) const {
  if (factor <= 0)
    return makeError("unpack factor must be positive, got " +
                     llvm::Twine(factor));
  if (factor == 1)
    return *this;
  std::optional<Swizzle> newSwizzle;
  if (swizzle) {
    llvm::Expected<Swizzle> scaled = swizzle->scaleElements(factor, true);
    if (!scaled)
      return scaled.takeError();
    newSwizzle = *scaled;
  }
  // Only memory positions scale: the owning threads stay the same, and slot
  // s of a wide element becomes slots factor·s .. factor·s + factor − 1.
  auto scale = [&](llvm::ArrayRef<Iter> iters,
                   llvm::SmallVectorImpl<Iter> &out) -> bool {
    for (const Iter &iter : iters) {
      Iter scaled = iter;
      if (iter.axis == Axis::m &&
          llvm::MulOverflow(iter.stride, factor, scaled.stride))
        return false;
      out.push_back(scaled);
    }
    return true;
  };
  llvm::SmallVector<Iter, 4> newShard;
  llvm::SmallVector<Iter, 2> newReplica;
  PhysicalCoord newOffset = offset;
  if (!scale(shard, newShard) || !scale(replica, newReplica) ||
      llvm::MulOverflow(at(offset, Axis::m), factor, at(newOffset, Axis::m)))
    return makeError("unpack by " + llvm::Twine(factor) +
                     " overflows int64 (memory strides or offset)");
  newShard.push_back(Iter{factor, 1, Axis::m});
  return get(newShard, newReplica, newOffset, newSwizzle);
}

llvm::Expected<TileLayout> TileLayout::pack(int64_t factor) const {
  if (factor <= 0)
    return makeError("pack factor must be positive, got " +
                     llvm::Twine(factor));
  if (factor == 1)
    return *this;
  const Iter &inner = shard.back();
  if (inner.axis != Axis::m || inner.stride != 1 || inner.extent % factor != 0)
    return makeError("cannot pack by " + llvm::Twine(factor) +
                     ": the innermost shard iter has extent " +
                     llvm::Twine(inner.extent) + " and stride " +
                     formatStride(inner.stride, inner.axis) +
                     "; it must be on m with stride 1 and an extent "
                     "divisible by " +
                     llvm::Twine(factor));
  TileLayout result;
  if (swizzle) {
    llvm::Expected<Swizzle> scaled = swizzle->scaleElements(factor, false);
    if (!scaled)
      return scaled.takeError();
    result.swizzle = *scaled;
  }
  auto divide = [&](llvm::ArrayRef<Iter> iters, llvm::StringRef kind,
                    llvm::SmallVectorImpl<Iter> &out) -> llvm::Error {
    for (auto [index, iter] : llvm::enumerate(iters)) {
      Iter divided = iter;
      if (iter.axis == Axis::m) {
        if (iter.stride % factor != 0)
          return makeError("cannot pack by " + llvm::Twine(factor) + ": " +
                           kind + " iter " + llvm::Twine(index) +
                           " has stride " + llvm::Twine(iter.stride) +
                           " on m, not divisible by " + llvm::Twine(factor));
        divided.stride /= factor;
      }
      out.push_back(divided);
    }
    return llvm::Error::success();
  };
  if (llvm::Error err = divide(llvm::ArrayRef<Iter>(shard).drop_back(), "shard",
                               result.shard))
    return std::move(err);
  if (llvm::Error err = divide(replica, "replica", result.replica))
    return std::move(err);
  result.offset = offset;
  if (at(offset, Axis::m) % factor != 0)
    return makeError("cannot pack by " + llvm::Twine(factor) +
                     ": offset on m is " + llvm::Twine(at(offset, Axis::m)) +
                     ", not divisible by " + llvm::Twine(factor));
  at(result.offset, Axis::m) /= factor;
  // A unit innermost iter is dropped so that unpack(n).pack(n) is the
  // identity; it stays when it is the only one.
  int64_t innerExtent = inner.extent / factor;
  if (innerExtent != 1 || result.shard.empty())
    result.shard.push_back(Iter{innerExtent, 1, Axis::m});
  return result;
}

//===----------------------------------------------------------------------===//
// Scope chain
//===----------------------------------------------------------------------===//

/// The thread axes the layout uses (in iters or nonzero offsets).
static std::array<bool, kNumAxes> getUsedAxes(llvm::ArrayRef<Iter> shard,
                                              llvm::ArrayRef<Iter> replica,
                                              const PhysicalCoord &offset) {
  std::array<bool, kNumAxes> used{};
  for (const Iter &iter : shard)
    used[static_cast<unsigned>(iter.axis)] = true;
  for (const Iter &iter : replica)
    used[static_cast<unsigned>(iter.axis)] = true;
  for (unsigned a = 0; a < kNumAxes; ++a)
    if (offset[a] != 0)
      used[a] = true;
  used[static_cast<unsigned>(Axis::m)] = false;
  return used;
}

llvm::Expected<std::pair<ExecScope, ExecScope>> TileLayout::getScope() const {
  constexpr unsigned kNumScopes = 5;
  std::array<bool, kNumAxes> used = getUsedAxes(shard, replica, offset);
  // outer[sub] is the scope the edges map `sub` to; owner[sub] the first
  // axis (in Axis order) that set it, for the error message.
  std::array<std::optional<ExecScope>, kNumScopes> outer;
  std::array<Axis, kNumScopes> owner{};
  unsigned numEdges = 0;
  std::optional<ExecScope> innermost;
  for (unsigned a = 0; a < kNumAxes; ++a) {
    if (!used[a])
      continue;
    Axis axis = static_cast<Axis>(a);
    auto [sub, scope] = getAxisScopeEdge(axis);
    unsigned subIndex = static_cast<unsigned>(sub);
    if (outer[subIndex]) {
      if (*outer[subIndex] != scope)
        return makeError("conflicting scopes: " + getAxisName(owner[subIndex]) +
                         " maps " + getExecScopeName(sub) + " to " +
                         getExecScopeName(*outer[subIndex]) + " but " +
                         getAxisName(axis) + " maps it to " +
                         getExecScopeName(scope));
      continue;
    }
    outer[subIndex] = scope;
    owner[subIndex] = axis;
    ++numEdges;
    if (!innermost || sub < *innermost)
      innermost = sub;
  }
  if (numEdges == 0)
    return std::make_pair(ExecScope::thread, ExecScope::thread);

  // Edges always point outward, so following them from the innermost
  // subscope terminates; it must visit every edge.
  ExecScope current = *innermost;
  unsigned visited = 0;
  while (outer[static_cast<unsigned>(current)]) {
    current = *outer[static_cast<unsigned>(current)];
    ++visited;
  }
  if (visited != numEdges) {
    std::string edges;
    llvm::raw_string_ostream os(edges);
    llvm::ListSeparator sep;
    for (unsigned a = 0; a < kNumAxes; ++a) {
      if (!used[a])
        continue;
      Axis axis = static_cast<Axis>(a);
      auto [sub, scope] = getAxisScopeEdge(axis);
      os << sep << getAxisName(axis) << " (" << getExecScopeName(sub) << " -> "
         << getExecScopeName(scope) << ")";
    }
    return makeError("disconnected scope chain: " + edges +
                     " do not form a single chain from " +
                     getExecScopeName(*innermost) + " outward");
  }
  return std::make_pair(*innermost, current);
}

//===----------------------------------------------------------------------===//
// Printing and hashing
//===----------------------------------------------------------------------===//

std::string mlir::tirx::formatStride(int64_t stride, Axis axis) {
  std::string text = std::to_string(stride);
  if (axis != Axis::m)
    text += "@" + getAxisName(axis).str();
  return text;
}

static void printStride(llvm::raw_ostream &os, int64_t stride, Axis axis) {
  os << formatStride(stride, axis);
}

/// `S[e : s]` for one iter, `S[(e0, e1) : (s0, s1)]` for several.
static void printTerm(llvm::raw_ostream &os, char letter,
                      llvm::ArrayRef<Iter> iters) {
  bool parens = iters.size() != 1;
  os << letter << '[' << (parens ? "(" : "");
  llvm::interleaveComma(iters, os,
                        [&](const Iter &iter) { os << iter.extent; });
  os << (parens ? ") : (" : " : ");
  llvm::interleaveComma(iters, os, [&](const Iter &iter) {
    printStride(os, iter.stride, iter.axis);
  });
  os << (parens ? ")]" : "]");
}

void TileLayout::print(llvm::raw_ostream &os) const {
  printTerm(os, 'S', shard);
  if (!replica.empty()) {
    os << " + ";
    printTerm(os, 'R', replica);
  }
  for (unsigned a = 0; a < kNumAxes; ++a) {
    if (offset[a] == 0)
      continue;
    os << " + ";
    printStride(os, offset[a], static_cast<Axis>(a));
  }
  if (swizzle)
    os << " + " << *swizzle;
}

std::string TileLayout::toString() const {
  std::string text;
  llvm::raw_string_ostream os(text);
  print(os);
  return text;
}

llvm::hash_code mlir::tirx::hash_value(const TileLayout &layout) {
  return llvm::hash_combine(
      llvm::hash_combine_range(layout.getShard().begin(),
                               layout.getShard().end()),
      llvm::hash_combine_range(layout.getReplica().begin(),
                               layout.getReplica().end()),
      llvm::hash_combine_range(layout.getOffset().begin(),
                               layout.getOffset().end()),
      layout.getSwizzle() ? hash_value(*layout.getSwizzle())
                          : llvm::hash_code(0));
}
