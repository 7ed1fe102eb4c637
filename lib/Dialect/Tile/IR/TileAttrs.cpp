//===- TileAttrs.cpp - tile attributes ------------------------------------===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//

#include "TirX/Dialect/Tile/IR/TileAttrs.h"
#include "TirX/Dialect/Tile/IR/TileDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::tirx;
using namespace mlir::tirx::tile;

#define GET_ATTRDEF_CLASSES
#include "TirX/Dialect/Tile/IR/TileAttrs.cpp.inc"

tile::detail::PTXInstructionAttrStorage *
tile::detail::PTXInstructionAttrStorage::construct(
    AttributeStorageAllocator &allocator, KeyTy &&key) {
  StringRef spelling = allocator.copyInto(std::get<0>(key));
  SmallVector<ptx::Instruction, 1> forms;
  llvm::Expected<SmallVector<ptx::Instruction, 1>> parsed =
      ptx::parseInstructionForms(spelling);
  if (parsed)
    forms = std::move(*parsed);
  else
    // An attribute made unchecked from an illegal spelling keeps no forms;
    // the op verifier reports it (verify() below gives the reason).
    llvm::consumeError(parsed.takeError());
  return new (allocator.allocate<PTXInstructionAttrStorage>())
      PTXInstructionAttrStorage(spelling, std::move(forms));
}

LogicalResult
PTXInstructionAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                           StringRef spelling) {
  llvm::Expected<SmallVector<ptx::Instruction, 1>> parsed =
      ptx::parseInstructionForms(spelling);
  if (!parsed)
    return emitError() << llvm::toString(parsed.takeError());
  return success();
}

StringRef PTXInstructionAttr::getSpelling() const {
  return getImpl()->spelling;
}

ArrayRef<ptx::Instruction> PTXInstructionAttr::getForms() const {
  return getImpl()->forms;
}

StringRef PTXInstructionAttr::getCanonicalSpelling() const {
  ArrayRef<ptx::Instruction> forms = getForms();
  return forms.empty() ? getSpelling() : StringRef(forms.front().spelling);
}

void TileDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "TirX/Dialect/Tile/IR/TileAttrs.cpp.inc"
      >();
}
