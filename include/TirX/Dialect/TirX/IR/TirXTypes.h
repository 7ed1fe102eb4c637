//===- TirXTypes.h - tirx types ---------------------------------*- C++ -*-===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//

#ifndef TIRX_DIALECT_TIRX_IR_TIRXTYPES_H
#define TIRX_DIALECT_TIRX_IR_TIRXTYPES_H

#include "TirX/Dialect/TirX/IR/TirXAttributes.h"
#include "mlir/IR/Types.h"

#define GET_TYPEDEF_CLASSES
#include "TirX/Dialect/TirX/IR/TirXTypes.h.inc"

namespace mlir::tirx {
/// Whether `type` can be the element type of a tirx tensor or a scalar
/// operand: f16, bf16, f32, f64 or an integer type of 8 to 64 bits.
bool isTirXScalarType(Type type);

/// The type a value of `type` has once lowered: integers become signless
/// (LLVM has no signed/unsigned integer types), floats stay.
Type getStorageType(Type type);
} // namespace mlir::tirx

#endif // TIRX_DIALECT_TIRX_IR_TIRXTYPES_H
