//===- TirXDialect.cpp - The tirx dialect ---------------------------------===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//

#include "TirX/Dialect/TirX/IR/TirXDialect.h"
#include "TirX/Dialect/TirX/IR/TirXOps.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::tirx;

#include "TirX/Dialect/TirX/IR/TirXDialect.cpp.inc"

namespace {
/// Gives layouts short aliases (`#layout`, `#layout1`, ...) in printed IR.
struct TirXOpAsmDialectInterface : public OpAsmDialectInterface {
  using OpAsmDialectInterface::OpAsmDialectInterface;

  AliasResult getAlias(Attribute attr, raw_ostream &os) const override {
    if (isa<TileLayoutAttr>(attr)) {
      os << "layout";
      return AliasResult::OverridableAlias;
    }
    return AliasResult::NoAlias;
  }
};
} // namespace

void TirXDialect::initialize() {
  registerAttributes();
  registerTypes();
  addOperations<
#define GET_OP_LIST
#include "TirX/Dialect/TirX/IR/TirXOps.cpp.inc"
      >();
  addInterfaces<TirXOpAsmDialectInterface>();
}
