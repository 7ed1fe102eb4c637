//===- LayoutViews.cpp - Human-readable views of a TileLayout -------------===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//

#include "TirX/Layout/LayoutViews.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/MathExtras.h"

#include <numeric>
#include <vector>

using namespace mlir::tirx;

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

llvm::SmallVector<Axis>
mlir::tirx::getViewThreadAxes(const TileLayout &layout) {
  // Outermost first: by scope, then by subscope, block axes z before x.
  static constexpr Axis kOrder[] = {
      Axis::bz, Axis::by,        Axis::bx,        Axis::wgid,  Axis::warpid,
      Axis::tx, Axis::wid_in_wg, Axis::tid_in_wg, Axis::laneid};
  std::array<bool, kNumAxes> used{};
  for (const Iter &iter : layout.getShard())
    used[static_cast<unsigned>(iter.axis)] = true;
  for (const Iter &iter : layout.getReplica())
    used[static_cast<unsigned>(iter.axis)] = true;
  for (unsigned a = 0; a < kNumAxes; ++a)
    if (layout.getOffset()[a] != 0)
      used[a] = true;
  llvm::SmallVector<Axis> axes;
  for (Axis axis : kOrder)
    if (used[static_cast<unsigned>(axis)])
      axes.push_back(axis);
  return axes;
}

static void printShape(llvm::raw_ostream &os, llvm::ArrayRef<int64_t> shape) {
  os << '(';
  llvm::interleaveComma(shape, os);
  os << ')';
}

llvm::Error mlir::tirx::checkViewShape(const TileLayout &layout,
                                       llvm::ArrayRef<int64_t> shape) {
  int64_t count = 1;
  for (auto [index, extent] : llvm::enumerate(shape)) {
    if (extent <= 0)
      return makeError("shape dimension " + llvm::Twine(index) + " is " +
                       llvm::Twine(extent) + "; dimensions must be positive");
    if (llvm::MulOverflow(count, extent, count))
      return makeError("shape element count overflows int64");
  }
  if (count != layout.size()) {
    std::string text;
    llvm::raw_string_ostream os(text);
    os << "shape ";
    printShape(os, shape);
    os << " has " << count << " elements but the layout has " << layout.size();
    return makeError(text);
  }
  return llvm::Error::success();
}

llvm::Error mlir::tirx::checkViewPrintable(const TileLayout &layout,
                                           llvm::ArrayRef<int64_t> shape) {
  if (llvm::Error err = checkViewShape(layout, shape))
    return err;
  if (layout.size() > kMaxViewEntries)
    return makeError("too many elements to print (" +
                     llvm::Twine(layout.size()) + " > " +
                     llvm::Twine(kMaxViewEntries) + ")");
  int64_t copies;
  if (llvm::MulOverflow(layout.size(), layout.getNumReplicas(), copies) ||
      copies > kMaxViewEntries)
    return makeError("too many element copies to print (" +
                     llvm::Twine(layout.size()) + " elements x " +
                     llvm::Twine(layout.getNumReplicas()) + " replicas > " +
                     llvm::Twine(kMaxViewEntries) + ")");
  return llvm::Error::success();
}

/// Writes the row-major coordinate of `flat` in `shape`, e.g. `[0, 3, 1]`.
static void printElement(llvm::raw_ostream &os, int64_t flat,
                         llvm::ArrayRef<int64_t> shape) {
  llvm::SmallVector<int64_t, 4> coord(shape.size());
  for (size_t d = shape.size(); d-- > 0;) {
    coord[d] = flat % shape[d];
    flat /= shape[d];
  }
  os << '[';
  llvm::interleaveComma(coord, os);
  os << ']';
}

static void printThread(llvm::raw_ostream &os, llvm::ArrayRef<Axis> axes,
                        llvm::ArrayRef<int64_t> values) {
  llvm::ListSeparator sep(" ");
  for (auto [axis, value] : llvm::zip(axes, values))
    os << sep << getAxisName(axis) << '=' << value;
}

void mlir::tirx::printTensorView(llvm::raw_ostream &os,
                                 const TileLayout &layout,
                                 llvm::ArrayRef<int64_t> shape) {
  if (llvm::Error err = checkViewPrintable(layout, shape)) {
    llvm::consumeError(std::move(err));
    return;
  }
  llvm::SmallVector<Axis> axes = getViewThreadAxes(layout);
  os << "tensor view of " << layout << " over shape ";
  printShape(os, shape);
  os << ": " << layout.size()
     << (layout.size() == 1 ? " element\n" : " elements\n");
  llvm::SmallVector<int64_t> values(axes.size());
  for (int64_t flat = 0, e = layout.size(); flat < e; ++flat) {
    printElement(os, flat, shape);
    os << " ->";
    llvm::ListSeparator sep(" |");
    layout.forEachOwner(flat, [&](const PhysicalCoord &coord) {
      os << sep;
      for (Axis axis : axes)
        os << ' ' << getAxisName(axis) << '=' << at(coord, axis);
      os << " slot " << at(coord, Axis::m);
    });
    os << '\n';
  }
}

static const char *plural(int64_t count, const char *one, const char *many) {
  return count == 1 ? one : many;
}

void mlir::tirx::printThreadView(llvm::raw_ostream &os,
                                 const TileLayout &layout,
                                 llvm::ArrayRef<int64_t> shape) {
  if (llvm::Error err = checkViewPrintable(layout, shape)) {
    llvm::consumeError(std::move(err));
    return;
  }
  llvm::SmallVector<Axis> axes = getViewThreadAxes(layout);
  // One row per element copy: thread coordinate, slot, flat element index.
  const size_t width = axes.size() + 2;
  std::vector<int64_t> rows;
  rows.reserve(layout.size() * layout.getNumReplicas() * width);
  for (int64_t flat = 0, e = layout.size(); flat < e; ++flat)
    layout.forEachOwner(flat, [&](const PhysicalCoord &coord) {
      for (Axis axis : axes)
        rows.push_back(at(coord, axis));
      rows.push_back(at(coord, Axis::m));
      rows.push_back(flat);
    });
  std::vector<size_t> order(rows.size() / width);
  std::iota(order.begin(), order.end(), size_t(0));
  auto row = [&](size_t index) {
    return llvm::ArrayRef<int64_t>(rows).slice(index * width, width);
  };
  // Rows that compare equal are identical, so an unstable sort is fine.
  llvm::sort(order, [&](size_t lhs, size_t rhs) {
    llvm::ArrayRef<int64_t> l = row(lhs), r = row(rhs);
    return std::lexicographical_compare(l.begin(), l.end(), r.begin(), r.end());
  });

  // Group consecutive rows of the same thread.
  struct Group {
    size_t begin, end;
  };
  std::vector<Group> groups;
  for (size_t i = 0; i < order.size(); ++i) {
    if (groups.empty() ||
        row(order[i]).take_front(axes.size()) !=
            row(order[groups.back().begin]).take_front(axes.size()))
      groups.push_back({i, i});
    groups.back().end = i + 1;
  }
  int64_t minSlots = INT64_MAX, maxSlots = 0;
  for (const Group &group : groups) {
    int64_t count = group.end - group.begin;
    minSlots = std::min(minSlots, count);
    maxSlots = std::max(maxSlots, count);
  }

  int64_t numThreads = groups.size();
  if (axes.empty())
    os << "thread view: no thread axes; one line for all threads, " << maxSlots
       << plural(maxSlots, " slot\n", " slots\n");
  else if (minSlots == maxSlots)
    os << "thread view: " << numThreads
       << plural(numThreads, " thread x ", " threads x ") << maxSlots
       << plural(maxSlots, " slot\n", " slots\n");
  else
    os << "thread view: " << numThreads
       << plural(numThreads, " thread, ", " threads, ") << minSlots << " to "
       << maxSlots << " slots each\n";

  for (const Group &group : groups) {
    if (axes.empty())
      os << "(all threads)";
    else
      printThread(os, axes, row(order[group.begin]).take_front(axes.size()));
    os << ':';
    llvm::ListSeparator sep(",");
    for (size_t i = group.begin; i < group.end; ++i) {
      llvm::ArrayRef<int64_t> r = row(order[i]);
      os << sep << " slot " << r[axes.size()] << " = ";
      printElement(os, r[axes.size() + 1], shape);
    }
    os << '\n';
  }
}

std::string mlir::tirx::describeSwizzle(const TileLayout &layout) {
  if (!layout.isSwizzled())
    return "";
  const Swizzle &swizzle = *layout.getSwizzle();
  std::string text;
  llvm::raw_string_ostream os(text);
  os << swizzle << ": period " << swizzle.getPeriod() << " elements, blocks of "
     << (int64_t(1) << swizzle.getPerElement()) << "; ";
  // per_element fixes the element size a hardware mode can be for.
  for (int64_t bytes : {1, 2, 4, 8, 16})
    if (std::optional<int64_t> mode = swizzle.getHardwareModeBytes(bytes)) {
      os << "TMA/wgmma " << *mode << "B swizzle of " << bytes << "-byte "
         << plural(bytes, "element", "elements");
      return text;
    }
  os << "no TMA/wgmma mode";
  return text;
}

void mlir::tirx::printSwizzleView(llvm::raw_ostream &os,
                                  const TileLayout &layout) {
  if (!layout.isSwizzled())
    return;
  const Swizzle &swizzle = *layout.getSwizzle();
  int64_t p = swizzle.getPerElement(), a = swizzle.getAtomLen(),
          s = swizzle.getSwizzleLen();
  if (a + s > 12) { // 2^12 == kMaxSwizzleViewBlocks
    os << "swizzle view: " << swizzle << " has 2^" << a + s
       << " blocks per period, too many to print (at most "
       << kMaxSwizzleViewBlocks << ")\n";
    return;
  }
  int64_t rows = int64_t(1) << s, blocks = int64_t(1) << a;
  os << "swizzle view: " << swizzle << ", period " << swizzle.getPeriod()
     << " elements = " << rows << plural(rows, " row x ", " rows x ") << blocks
     << plural(blocks, " block", " blocks") << " of " << (int64_t(1) << p)
     << plural(int64_t(1) << p, " element", " elements") << "; "
     << (swizzle.isSwizzleInner() ? "the block of its row each block lands in"
                                  : "the row each block moves to")
     << '\n';
  for (int64_t row = 0; row < rows; ++row) {
    os << "row " << row << ':';
    for (int64_t block = 0; block < blocks; ++block) {
      int64_t moved = swizzle.apply(((row << a) + block) << p) >> p;
      os << ' ' << (swizzle.isSwizzleInner() ? moved % blocks : moved >> a);
    }
    os << '\n';
  }
}
