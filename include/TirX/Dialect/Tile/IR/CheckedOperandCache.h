//===- CheckedOperandCache.h - Register operands already checked -*- C++ -*-===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//
//
// The ownership and register-slot checks of a register operand
// (TileOperands.cpp) enumerate every element of the tile and every thread
// executing it. What they read is the tensor type (uniqued in the context,
// its layout included), the instruction's fragment and atom, and the
// execution domain; op verifiers re-run after every pass of a pipeline, and
// a kernel repeats the same tiles. The tile dialect keeps the keys of the
// operands that passed, so each distinct one is enumerated once per context.
// Only successes are kept: a failure is diagnosed afresh at its op.
//
//===----------------------------------------------------------------------===//

#ifndef TIRX_DIALECT_TILE_IR_CHECKEDOPERANDCACHE_H
#define TIRX_DIALECT_TILE_IR_CHECKEDOPERANDCACHE_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/StringSet.h"

#include <mutex>

namespace mlir::tirx::tile {

/// Keys of register operands whose checks passed; safe to use from the
/// threads of a multithreaded verifier.
class CheckedOperandCache {
public:
  bool contains(StringRef key) const {
    std::lock_guard<std::mutex> lock(mutex);
    return keys.contains(key);
  }
  void insert(StringRef key) {
    std::lock_guard<std::mutex> lock(mutex);
    keys.insert(key);
  }

private:
  mutable std::mutex mutex;
  llvm::StringSet<> keys;
};

} // namespace mlir::tirx::tile

#endif // TIRX_DIALECT_TILE_IR_CHECKEDOPERANDCACHE_H
