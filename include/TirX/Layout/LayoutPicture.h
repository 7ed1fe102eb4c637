//===- LayoutPicture.h - A TileLayout drawn as an SVG picture ---*- C++ -*-===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//
//
// The picture of a layout over a logical shape: the tensor view and the
// thread view of LayoutViews.h side by side, as one self-contained SVG.
//
// Tensor view (left): the shape folded to 2-D as CuTe's printers do -- rows
// are the row-major product of the leading dimensions, columns the last
// dimension -- with a heavy line between the blocks of the second-to-last
// dimension (rank >= 3). Each element is one cell, filled with its owning
// thread's colour and labelled `thread:slot`, e.g. `T37:2`. The thread is
// named by the innermost scope the layout uses:
//   T<n>  a thread, n = getFlatThreadId (32·warpid + laneid, ...);
//   W<n>  a warp (warpid, or 4·wgid + wid_in_wg) when no thread axis is used;
//   G<n>  a warpgroup (wgid) when neither is used;
// prefixed with `b<bx>,<by>,<bz>` (the used block axes) when the layout
// distributes over CTAs; a memory-only layout's label is just the offset.
//
// Thread view (right): one row per owning thread, in the order of the text
// thread view, one column per slot the layout uses (ascending); each cell is
// labelled with the tensor coordinate it holds and filled with its thread's
// colour. A heavy line separates threads that differ in an outer axis (e.g.
// warps).
//
// Replicated elements (more than one owner) are hatched in both views; in
// the tensor view the label names the first owner and `+N` for the others,
// and every cell's <title> (the tooltip) lists all owners, as the text view
// does. Colours come from a fixed palette indexed by the thread's row in the
// thread view, so a picture is deterministic. A swizzled memory-only layout
// (a shared tile) is coloured instead by the bits its swizzle writes --
// for TMA / wgmma swizzles, the 16-byte chunk of its row an element lands
// in -- so that the XOR pattern is visible; the tooltip names the block.
//
//===----------------------------------------------------------------------===//

#ifndef TIRX_LAYOUT_LAYOUTPICTURE_H
#define TIRX_LAYOUT_LAYOUTPICTURE_H

#include "TirX/Layout/TileLayout.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>

namespace mlir::tirx {

/// Pictures with more element copies (size × replicas) than this are refused:
/// every copy is a cell of the thread view.
constexpr int64_t kMaxPictureEntries = 16384;

/// checkViewShape, and at most kMaxPictureEntries element copies.
llvm::Error checkPictureDrawable(const TileLayout &layout,
                                 llvm::ArrayRef<int64_t> shape);

/// Writes the SVG picture (see the file comment), a complete XML document.
/// Precondition: checkPictureDrawable(layout, shape) succeeds; otherwise
/// nothing is written.
void printLayoutSvg(llvm::raw_ostream &os, const TileLayout &layout,
                    llvm::ArrayRef<int64_t> shape);

/// Writes an HTML page that embeds printLayoutSvg's picture.
/// Precondition: as printLayoutSvg.
void printLayoutHtml(llvm::raw_ostream &os, const TileLayout &layout,
                     llvm::ArrayRef<int64_t> shape);

} // namespace mlir::tirx

#endif // TIRX_LAYOUT_LAYOUTPICTURE_H
