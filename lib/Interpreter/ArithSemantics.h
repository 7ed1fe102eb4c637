//===- ArithSemantics.h - arith and math ops on one lane --------*- C++ -*-===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//
//
// The SSA arithmetic of a kernel (index computations, conditions) and the
// bodies of `tile.ewise` functions, evaluated on one lane's bits: integers
// in two's complement at their width (index is 64 bits), floats through
// llvm::APFloat with round-to-nearest-even, as the lowering's LLVM IR
// computes them. `math` functions that lower to library approximations on
// the GPU are computed in double precision and rounded once: within the
// bounds docs/math.md measures on the hardware, not bit-identical to it.
//
//===----------------------------------------------------------------------===//

#ifndef TIRX_LIB_INTERPRETER_ARITHSEMANTICS_H
#define TIRX_LIB_INTERPRETER_ARITHSEMANTICS_H

#include "mlir/IR/Operation.h"

#include <cstdint>

namespace mlir::tirx::interp {

/// Whether `op` is an arith/math/index-cast op on scalars with one result
/// that `evaluateScalarOp` computes.
bool isScalarOp(Operation *op);

/// `op`'s result bits for operand bits `operands`; failure for an integer
/// division by zero (undefined behaviour) or an op outside the model.
FailureOr<uint64_t> evaluateScalarOp(Operation *op,
                                     llvm::ArrayRef<uint64_t> operands);

/// Bits of a scalar type: index is 64, f32 32, i1 1.
unsigned getScalarBitWidth(Type type);
/// `bits` truncated to `width` bits.
uint64_t truncateBits(uint64_t bits, unsigned width);
/// `a < b` at `width` bits, signed unless `isUnsigned`.
bool compareLess(uint64_t a, uint64_t b, unsigned width, bool isUnsigned);

} // namespace mlir::tirx::interp

#endif // TIRX_LIB_INTERPRETER_ARITHSEMANTICS_H
