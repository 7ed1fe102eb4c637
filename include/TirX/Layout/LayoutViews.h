//===- LayoutViews.h - Human-readable views of a TileLayout -----*- C++ -*-===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//
//
// Printers that show where each element of a tile lives, used by the
// `tirx-layout` tool and by passes that dump layouts. A layout is viewed over
// a logical shape whose element count equals layout.size(); elements are
// written as row-major coordinates in that shape.
//
// Tensor view: one line per element, row-major,
//   [7, 15] -> warpid=6 laneid=31 slot 1 | warpid=10 laneid=31 slot 1
// listing every owner (base first, then each replica combination in
// forEachOwner order) as its thread coordinate followed by its `m`
// coordinate. For memory layouts `slot` is the element offset.
//
// Thread view: one line per owning thread, ordered by thread coordinate,
//   warpid=0 laneid=3: slot 0 = [0, 3, 0], slot 1 = [0, 3, 1], ...
// listing what the thread holds by ascending slot (ties by element order).
// A memory-only layout has no thread coordinate: its thread view is a single
// line `(all threads): slot 0 = [...], ...`.
//
// Swizzle view (swizzled layouts only): one period of the XOR pattern as a
// grid of 2^swizzle_len rows of 2^atom_len blocks of 2^per_element elements
// (for a TMA / wgmma swizzle: rows of 16-byte chunks, 128/64/32 bytes long),
//   row 1: 1 0 3 2 5 4 7 6
// giving for each block the block of its row it lands in (inner), or the
// row it moves to (outer).
//
// Thread coordinates name only the thread axes the layout uses, outermost
// first (bz, by, bx, wgid, warpid, tx, wid_in_wg, tid_in_wg, laneid), so that
// the lexicographic order is the natural thread order.
//
//===----------------------------------------------------------------------===//

#ifndef TIRX_LAYOUT_LAYOUTVIEWS_H
#define TIRX_LAYOUT_LAYOUTVIEWS_H

#include "TirX/Layout/TileLayout.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <string>

namespace mlir::tirx {

/// Views with more element copies (size × replicas) than this are refused.
constexpr int64_t kMaxViewEntries = int64_t(1) << 20;

/// The thread axes `layout` uses (in shard or replica iters, or as a nonzero
/// offset), outermost first; this is the order views print them in.
llvm::SmallVector<Axis> getViewThreadAxes(const TileLayout &layout);

/// Checks that `layout` can be viewed over `shape`: every dimension is
/// positive and Π shape == layout.size(); error otherwise.
llvm::Error checkViewShape(const TileLayout &layout,
                           llvm::ArrayRef<int64_t> shape);

/// checkViewShape, and the view has at most kMaxViewEntries element copies,
/// so that printing it is bounded.
llvm::Error checkViewPrintable(const TileLayout &layout,
                               llvm::ArrayRef<int64_t> shape);

/// Prints the header `tensor view of <layout> over shape (2, 32, 4): 256
/// elements` and one line per element (see the file comment).
/// Precondition: checkViewPrintable(layout, shape) succeeds; otherwise
/// nothing is printed.
void printTensorView(llvm::raw_ostream &os, const TileLayout &layout,
                     llvm::ArrayRef<int64_t> shape);

/// Prints the header `thread view: 64 threads x 4 slots` (or `N threads, 1 to
/// 4 slots each` when threads hold different counts, or `no thread axes; ...`
/// for a memory-only layout) and one line per thread (see the file comment).
/// Precondition: checkViewPrintable(layout, shape) succeeds; otherwise
/// nothing is printed.
void printThreadView(llvm::raw_ostream &os, const TileLayout &layout,
                     llvm::ArrayRef<int64_t> shape);

/// Swizzle views with more blocks per period than this are refused.
constexpr int64_t kMaxSwizzleViewBlocks = 4096;

/// A one-line description of a swizzled layout's swizzle: its period, block
/// size and hardware mode, e.g. `Swizzle[3, 3, 3]: period 1024 elements,
/// blocks of 8; TMA/wgmma 128B swizzle of 2-byte elements`. Empty when the
/// layout is not swizzled.
std::string describeSwizzle(const TileLayout &layout);

/// Prints the swizzle view (see the file comment); nothing when the layout
/// is not swizzled, one line saying so when the period has more than
/// kMaxSwizzleViewBlocks blocks.
void printSwizzleView(llvm::raw_ostream &os, const TileLayout &layout);

} // namespace mlir::tirx

#endif // TIRX_LAYOUT_LAYOUTVIEWS_H
