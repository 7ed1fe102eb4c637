//===- TirXAttributes.h - tirx attributes and enums -------------*- C++ -*-===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//

#ifndef TIRX_DIALECT_TIRX_IR_TIRXATTRIBUTES_H
#define TIRX_DIALECT_TIRX_IR_TIRXATTRIBUTES_H

#include "TirX/Layout/TileLayout.h"
#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectImplementation.h"

#include "TirX/Dialect/TirX/IR/TirXEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "TirX/Dialect/TirX/IR/TirXAttrs.h.inc"

#endif // TIRX_DIALECT_TIRX_IR_TIRXATTRIBUTES_H
