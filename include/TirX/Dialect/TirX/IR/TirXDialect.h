//===- TirXDialect.h - The tirx dialect -------------------------*- C++ -*-===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//

#ifndef TIRX_DIALECT_TIRX_IR_TIRXDIALECT_H
#define TIRX_DIALECT_TIRX_IR_TIRXDIALECT_H

#include "mlir/IR/Dialect.h"

#include "TirX/Dialect/TirX/IR/TirXDialect.h.inc"

#endif // TIRX_DIALECT_TIRX_IR_TIRXDIALECT_H
