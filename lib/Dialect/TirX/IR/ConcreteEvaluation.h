//===- ConcreteEvaluation.h - a kernel's index arithmetic at one point ----===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//
//
// Evaluates the integer arithmetic of a `tirx.kernel` (arith ops on index and
// iN values, comparisons, block and thread indices, loop indices, size
// variables, loaded values) at one assignment of its leaves, exactly as the
// hardware computes it: two's complement at each value's width (index is 64
// bits), wrapping on overflow. The static proofs use it to re-check every
// counterexample before printing it: a witness that does not reproduce here
// is a bug of the proof, never shown to the user as a fact.
//
//===----------------------------------------------------------------------===//

#ifndef TIRX_LIB_DIALECT_TIRX_IR_CONCRETEEVALUATION_H
#define TIRX_LIB_DIALECT_TIRX_IR_CONCRETEEVALUATION_H

#include "TirX/Dialect/TirX/IR/TirXOps.h"

#include "llvm/ADT/APInt.h"
#include "llvm/ADT/DenseMap.h"

#include <optional>
#include <string>

namespace mlir::tirx {

/// The width the hardware computes an integer or index value in.
unsigned getComputeBitWidth(Type type);

/// The largest value of a size variable. It is the extent of a dense tensor
/// in memory, and no device's address space holds 2^62 bytes.
constexpr int64_t kLargestSizeValue = int64_t(1) << 62;

class ConcreteEvaluator {
public:
  explicit ConcreteEvaluator(KernelOp kernel) : kernel(kernel) {}

  /// Fixes a leaf: a kernel argument, a loop index, a loaded value.
  void bind(Value leaf, int64_t value);
  /// Fixes `tirx.block_idx` (or `tirx.thread_idx`) of dimension `dim`.
  void bindLaunchIndex(bool thread, unsigned dim, int64_t value);

  /// The value of `value` at the bound point, or nothing where it depends on
  /// an unbound leaf or on an operation outside integer arithmetic.
  std::optional<llvm::APInt> evaluate(Value value);
  /// `evaluate` read as a signed integer.
  std::optional<int64_t> evaluateSigned(Value value);
  /// Whether the i1 `condition` holds at the bound point.
  std::optional<bool> holds(Value condition);

  /// Whether the bound point is a state some execution reaches: every bound
  /// block and thread index inside the launch, every size variable allowed
  /// by its declaration, every loop index one of its loop's iterations.
  /// Returns the first violation, or an empty string.
  std::string checkDomain();

private:
  std::optional<llvm::APInt> evaluateOp(Operation *op, unsigned width);
  std::optional<int64_t> evaluateGridExtent(unsigned dim);

  KernelOp kernel;
  llvm::DenseMap<Value, llvm::APInt> values;
  llvm::DenseMap<unsigned, int64_t> launchIndices; // dim, +3 for threads
};

} // namespace mlir::tirx

#endif // TIRX_LIB_DIALECT_TIRX_IR_CONCRETEEVALUATION_H
