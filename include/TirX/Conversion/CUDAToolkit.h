//===- CUDAToolkit.h - Where the CUDA toolkit and ptxas are -----*- C++ -*-===//
//
// Part of the TirX project.
//
// One search for the toolkit the pipeline compiles with (libdevice for
// precise math, ptxas for cubins and the register report), used by the
// pipeline, tirx-module-to-binary and, through the C API, Python's compile
// cache key.
//
//===----------------------------------------------------------------------===//

#ifndef TIRX_CONVERSION_CUDATOOLKIT_H
#define TIRX_CONVERSION_CUDATOOLKIT_H

#include "llvm/ADT/StringRef.h"

#include <string>

namespace mlir::tirx {

/// The CUDA toolkit: `option` (the pipeline's cuda-path) when given, else
/// $CUDA_HOME, $CUDA_PATH or $CUDA_ROOT, else /usr/local/cuda when it has
/// libdevice; "" when there is none.
std::string findCUDAToolkit(llvm::StringRef option);

/// ptxas in `toolkit`/bin, then on PATH; "" when there is none.
std::string findPtxas(llvm::StringRef toolkit);

} // namespace mlir::tirx

#endif // TIRX_CONVERSION_CUDATOOLKIT_H
