//===- Modules.h - The family modules, by name ------------------*- C++ -*-===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//
//
// One accessor per PTX_MODULE line of PTXTable.def, each defined in that
// module's file (`mbarrierModule()` in Mbarrier.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef TIRX_LIB_DIALECT_TILE_FAMILIES_MODULES_H
#define TIRX_LIB_DIALECT_TILE_FAMILIES_MODULES_H

#include "TirX/Dialect/Tile/Families/FamilyModule.h"

#include "llvm/Support/raw_ostream.h"

namespace mlir::tirx::ptx::families {

#define PTX_MODULE(NAME) const FamilyModule &NAME##Module();
#include "TirX/Dialect/Tile/PTX/PTXTable.def"

/// `value` as `type` (same width: a bit cast). The table's .b32 operands
/// accept f32 tiles and immediates, but NVVM's masks, offsets and integer
/// reductions take i32, and its results have the op's type, not the
/// destination tile's.
Value castBits(OpBuilder &builder, Location loc, Value value, Type type);

/// A check's message, built with a stream.
template <typename... Parts> std::string formatMessage(const Parts &...parts) {
  std::string text;
  llvm::raw_string_ostream os(text);
  (os << ... << parts);
  return text;
}

} // namespace mlir::tirx::ptx::families

#endif // TIRX_LIB_DIALECT_TILE_FAMILIES_MODULES_H
