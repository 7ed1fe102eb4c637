//===- TileAttrs.h - tile attributes ----------------------------*- C++ -*-===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//
//
// `#tile.ptx<"...">`: a PTX instruction spelling and its parsed forms. The
// storage parses the spelling once, when the attribute is uniqued; every
// later reader (op verifier, side-effect interface, tile-dispatch) reads the
// forms from it.
//
//===----------------------------------------------------------------------===//

#ifndef TIRX_DIALECT_TILE_IR_TILEATTRS_H
#define TIRX_DIALECT_TILE_IR_TILEATTRS_H

#include "TirX/Dialect/Tile/PTX/PTXInstruction.h"

#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"

namespace mlir::tirx::tile::detail {

/// Uniqued by the spelling; holds the forms it names.
struct PTXInstructionAttrStorage : public AttributeStorage {
  using KeyTy = std::tuple<StringRef>;

  PTXInstructionAttrStorage(StringRef spelling,
                            SmallVector<ptx::Instruction, 1> forms)
      : spelling(spelling), forms(std::move(forms)) {}

  KeyTy getAsKey() const { return KeyTy(spelling); }
  bool operator==(const KeyTy &key) const {
    return std::get<0>(key) == spelling;
  }
  static llvm::hash_code hashKey(const KeyTy &key) {
    return llvm::hash_value(std::get<0>(key));
  }
  static PTXInstructionAttrStorage *
  construct(AttributeStorageAllocator &allocator, KeyTy &&key);

  StringRef spelling;
  SmallVector<ptx::Instruction, 1> forms;
};

} // namespace mlir::tirx::tile::detail

#define GET_ATTRDEF_CLASSES
#include "TirX/Dialect/Tile/IR/TileAttrs.h.inc"

#endif // TIRX_DIALECT_TILE_IR_TILEATTRS_H
