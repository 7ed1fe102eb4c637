//===- PTXSerializer.h - gpu.module to PTX, libdevice on demand -*- C++ -*-===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//

#ifndef TIRX_LIB_CONVERSION_PTXSERIALIZER_H
#define TIRX_LIB_CONVERSION_PTXSERIALIZER_H

#include "mlir/Dialect/GPU/IR/CompilationInterfaces.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::tirx {

/// Every gpu.module of `top` ⇒ a gpu.binary whose objects are the PTX of each
/// of its targets, as upstream gpu-module-to-binary with format=isa, except
/// that an #nvvm.target module links libdevice only when it calls one of its
/// functions: parsing libdevice costs milliseconds per compile that a module
/// without math does not need.
LogicalResult serializeGPUModulesToPTX(ModuleOp top,
                                       const gpu::TargetOptions &options);

} // namespace mlir::tirx

#endif // TIRX_LIB_CONVERSION_PTXSERIALIZER_H
