//===- Passes.h - tirx/tile-level passes ------------------------*- C++ -*-===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//

#ifndef TIRX_TRANSFORMS_PASSES_H
#define TIRX_TRANSFORMS_PASSES_H

#include "mlir/Pass/Pass.h"

namespace mlir::tirx {

#define GEN_PASS_DECL
#include "TirX/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "TirX/Transforms/Passes.h.inc"

} // namespace mlir::tirx

#endif // TIRX_TRANSFORMS_PASSES_H
