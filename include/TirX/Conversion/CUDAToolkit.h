//===- CUDAToolkit.h - Where the CUDA toolkit and ptxas are -----*- C++ -*-===//
//
// Part of the TirX project.
//
// The one search for the toolkit the pipeline compiles with (libdevice for
// precise math, ptxas for cubins and the register report), used by the
// pipeline, tirx-module-to-binary and, through the C API, Python (the
// compile, its cache key, the tests) and the lit suite (test/lit.cfg.py),
// so that all of them find the same ptxas (docs/lowering.md, "The CUDA
// toolkit").
//
//===----------------------------------------------------------------------===//

#ifndef TIRX_CONVERSION_CUDATOOLKIT_H
#define TIRX_CONVERSION_CUDATOOLKIT_H

#include "llvm/ADT/StringRef.h"

#include <string>

namespace mlir::tirx {

/// The CUDA toolkit: `option` (the pipeline's cuda-path) when given, else
/// the first of $TIRX_CUDA_PATH, $CUDA_HOME, $CUDA_PATH and $CUDA_ROOT that
/// is set and not empty (whether or not it exists), else /usr/local/cuda
/// when it has libdevice; "" when there is none.
std::string findCUDAToolkit(llvm::StringRef option);

/// The toolkit program `name` (ptxas, nvcc): `toolkit`/bin/`name` when it
/// is a file that can run, else `name` on PATH; "" when there is none (or
/// `name` is empty or a path).
std::string findCUDATool(llvm::StringRef toolkit, llvm::StringRef name);

/// findCUDATool(toolkit, "ptxas").
std::string findPtxas(llvm::StringRef toolkit);

/// `toolkit`/nvvm/libdevice/libdevice.10.bc: the libdevice the NVVM target
/// links precise math from.
std::string getLibdevicePath(llvm::StringRef toolkit);

/// Where `toolkit`, a result of findCUDAToolkit, came from, for messages:
/// "$TIRX_CUDA_PATH" (or $CUDA_HOME, ...) when that variable names it, "the
/// default" for /usr/local/cuda, else "cuda-path".
std::string describeCUDAToolkit(llvm::StringRef toolkit);

} // namespace mlir::tirx

#endif // TIRX_CONVERSION_CUDATOOLKIT_H
