//===- InitAll.h - Everything an embedder registers and builds --*- C++ -*-===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//
//
// The whole C++ surface an embedder needs to make TirX available in its own
// MLIR tool, in one header:
//
//   dialects   registerAllTirXDialects(registry)
//   passes     registerAllTirXPasses() (every pass, and the pipelines)
//   pipelines  registerTirXPipelines() (just `--tirx-to-ptx` and
//              `--tirx-to-llvm-host`), or built in C++ with TirXToPTXOptions,
//              verifyTirXToPTXOptions and buildTirXToPTXPipeline /
//              buildTirXToLLVMHostPipeline (from TirX/Pipelines/Pipelines.h,
//              included here)
//
// The dialect classes and pass constructors have their own headers
// (TirX/Dialect/..., TirX/Transforms/Passes.h, TirX/Conversion/Passes.h) for
// code that works on TirX IR itself; registering and running TirX needs none
// of them, and this header stays cheap to include.
//
//===----------------------------------------------------------------------===//

#ifndef TIRX_INITALL_H
#define TIRX_INITALL_H

#include "TirX/Pipelines/Pipelines.h"

namespace mlir {
class DialectRegistry;

namespace tirx {
/// Inserts the tirx and tile dialects, the upstream dialects their IR and
/// its lowering use (func, arith, math, scf, cf, ub, memref, gpu, llvm, nvvm)
/// and the translations to LLVM IR into `registry`.
void registerAllTirXDialects(DialectRegistry &registry);
/// Registers every TirX pass, the upstream GPU passes the pipelines are made
/// of, and the pipelines (registerTirXPipelines) with the global registry.
void registerAllTirXPasses();
} // namespace tirx
} // namespace mlir

#endif // TIRX_INITALL_H
