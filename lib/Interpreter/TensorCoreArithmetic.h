//===- TensorCoreArithmetic.h - sm_90 tensor-core dot products --*- C++ -*-===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//
//
// How an sm_90 tensor core computes one element of D = A B + C, bit for bit
// (docs/interpreter.md, "Tensor cores"; fitted to and checked against the
// H100/H200 goldens of test/gpu/matrix and test/gpu/wgmma):
//
// - f16, bf16 and tf32 inputs: the products of a block of k (16 for f16 and
//   bf16, 8 for tf32) and the accumulator are aligned to the largest
//   exponent among them, a product's exponent being the sum of its inputs'
//   (so its significand may reach 4); each term is truncated toward zero to
//   25 bits below that exponent, the truncated terms are summed exactly, and
//   the sum is rounded to the accumulator: toward zero to f32, to nearest
//   even to f16. Longer k chains blocks through the rounded accumulator.
// - fp8 inputs (e4m3, e5m2) of mma.sync: C plus the products, summed
//   exactly and rounded once to nearest even.
// - A NaN operand, 0 times infinity or infinities of both signs give the
//   canonical NaN (0x7fffffff, 0x7fff); an exact zero sum is +0; a sum
//   beyond the accumulator's range is an infinity (truncation included).
//
//===----------------------------------------------------------------------===//

#ifndef TIRX_LIB_INTERPRETER_TENSORCOREARITHMETIC_H
#define TIRX_LIB_INTERPRETER_TENSORCOREARITHMETIC_H

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/ArrayRef.h"

#include <optional>

namespace mlir::tirx::interp {

/// The formats of one tensor-core instruction and how it sums.
struct TensorCoreFormat {
  const llvm::fltSemantics *inputA;
  const llvm::fltSemantics *inputB;
  const llvm::fltSemantics *accumulator;
  /// Products summed per block with truncated alignment; 0: fp8's exact sum
  /// rounded once.
  unsigned blockSize;
};

/// The format of an mma.sync or wgmma with input types `atype`, `btype`
/// ("f16", "bf16", "tf32", "e4m3", "e5m2") and accumulator `ctype` ("f32",
/// "f16"); nullopt for other types.
std::optional<TensorCoreFormat> getTensorCoreFormat(llvm::StringRef atype,
                                                    llvm::StringRef btype,
                                                    llvm::StringRef ctype);

/// c + sum over i of a[i] * b[i] as the tensor core computes it; a and b are
/// in the format's input semantics, c and the result in its accumulator's.
llvm::APFloat tensorCoreDot(const TensorCoreFormat &format,
                            llvm::ArrayRef<llvm::APFloat> a,
                            llvm::ArrayRef<llvm::APFloat> b,
                            const llvm::APFloat &c);

} // namespace mlir::tirx::interp

#endif // TIRX_LIB_INTERPRETER_TENSORCOREARITHMETIC_H
