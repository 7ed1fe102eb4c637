//===- LayoutTestHelpers.h - Shared helpers of the layout unit tests ------===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//

#ifndef TIRX_UNITTESTS_LAYOUT_LAYOUTTESTHELPERS_H
#define TIRX_UNITTESTS_LAYOUT_LAYOUTTESTHELPERS_H

#include "TirX/Layout/TileLayout.h"

#include "gtest/gtest.h"

#include <string>

namespace mlir::tirx::layouttest {

/// The layout of `text`; a failed parse fails the test and gives S[1 : 1].
inline TileLayout parseOk(llvm::StringRef text) {
  llvm::Expected<TileLayout> layout = TileLayout::parse(text);
  if (!layout) {
    ADD_FAILURE() << "parse('" << text.str()
                  << "') failed: " << llvm::toString(layout.takeError());
    return *TileLayout::parse("S[1 : 1]");
  }
  return *layout;
}

/// The error message of a failed Expected, or "<success>".
template <typename T> std::string errorOf(llvm::Expected<T> value) {
  if (value)
    return "<success>";
  return llvm::toString(value.takeError());
}

/// The message of an Error, or "<success>".
inline std::string errorOf(llvm::Error err) {
  if (!err)
    return "<success>";
  return llvm::toString(std::move(err));
}

} // namespace mlir::tirx::layouttest

#endif // TIRX_UNITTESTS_LAYOUT_LAYOUTTESTHELPERS_H
