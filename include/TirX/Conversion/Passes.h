//===- Passes.h - TirX conversion passes ------------------------*- C++ -*-===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//

#ifndef TIRX_CONVERSION_PASSES_H
#define TIRX_CONVERSION_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir {
class RewritePatternSet;
namespace tirx {

#define GEN_PASS_DECL
#include "TirX/Conversion/Passes.h.inc"

/// tile.apply ⇒ per-repeat slot/element accesses + one instruction each.
void populateTileApplyDispatchPatterns(RewritePatternSet &patterns);
/// tile.ewise ⇒ the scalar function's body inlined per element.
void populateTileEwiseDispatchPatterns(RewritePatternSet &patterns);
/// Two inline-PTX statements on the same accumulator slots, one after the
/// other ⇒ one statement (tile-join-accumulator-chains).
void populateJoinAccumulatorChainPatterns(RewritePatternSet &patterns);

#define GEN_PASS_REGISTRATION
#include "TirX/Conversion/Passes.h.inc"

} // namespace tirx
} // namespace mlir

#endif // TIRX_CONVERSION_PASSES_H
