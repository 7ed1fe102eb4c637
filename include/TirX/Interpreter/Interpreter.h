//===- Interpreter.h - Running tirx kernels on the CPU ----------*- C++ -*-===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//
//
// The interpreter executes a verified `tirx.kernel` (the IR before lowering,
// so messages point at the user's lines) on host memory, thread by thread,
// instruction by instruction, as the hardware runs it:
//
//   - every CTA of the grid runs in turn; inside a CTA each warp is a
//     cooperative task (its 32 lanes in lockstep, with an active mask for
//     divergent branches), and warps switch only where the hardware can make
//     one wait for another: barriers and other synchronization points;
//   - `tile.apply` gathers each operand's atom per lane and repeat exactly as
//     `tile-dispatch` addresses it, and executes the named instruction through
//     its family's semantics (InstructionSemantics.h);
//   - `tile.ewise` runs its scalar function per element.
//
// While it runs it checks what compute-sanitizer checks: shared-memory data
// races between synchronization points (per-byte shadow state and per-warp
// vector clocks), reads of uninitialized shared memory and registers,
// accesses outside a tensor, barriers reached by part of their threads, and
// deadlocks (naming every blocked warp and the line it waits on). Each is a
// diagnostic located at the op, with notes for the other access.
//
// docs/interpreter.md says what is modelled and what is approximate.
//
//===----------------------------------------------------------------------===//

#ifndef TIRX_INTERPRETER_INTERPRETER_H
#define TIRX_INTERPRETER_INTERPRETER_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"

#include "llvm/Support/raw_ostream.h"

#include <cstddef>
#include <cstdint>

namespace mlir::tirx {
class KernelOp;

namespace interp {

/// One argument of a kernel launch, in the kernel's parameter order.
struct KernelArgument {
  /// A global tensor: its host storage (row-major, as the tensor type says)
  /// and size in bytes. Null for a scalar argument.
  void *data = nullptr;
  size_t bytes = 0;
  /// A scalar (size variables included): its bits, low-aligned.
  uint64_t scalarBits = 0;
};

struct InterpreterOptions {
  /// Report reads of shared memory and registers never written.
  bool checkUninitialized = true;
  /// Report shared-memory data races.
  bool checkRaces = true;
  /// Print every executed operation with its warp and active lanes here.
  llvm::raw_ostream *trace = nullptr;
  /// Only the CTA with this flat index runs (all when negative): a debugging
  /// aid for large grids.
  int64_t onlyBlock = -1;
};

/// Parses the options' text form, space-separated `races=0|1
/// uninitialized=0|1 block=N trace=0|1` (trace to stderr), as tirx-runner's
/// launches and the C API take it. On failure, `error` says which word is
/// wrong.
FailureOr<InterpreterOptions> parseInterpreterOptions(StringRef text,
                                                      std::string &error);

/// Runs `kernel` over its whole grid. Tensor arguments are read and written
/// in place. Fails after emitting a located diagnostic: bad arguments, an
/// operation the interpreter does not model, or a check that fails.
LogicalResult runKernel(KernelOp kernel, ArrayRef<KernelArgument> arguments,
                        const InterpreterOptions &options = {});

/// Finds `name` (or the only kernel when `name` is empty) in `module` and
/// runs it; a diagnostic on the module when there is no such kernel.
LogicalResult runKernel(ModuleOp module, StringRef name,
                        ArrayRef<KernelArgument> arguments,
                        const InterpreterOptions &options = {});

} // namespace interp
} // namespace mlir::tirx

#endif // TIRX_INTERPRETER_INTERPRETER_H
