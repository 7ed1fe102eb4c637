//===- RuntimeError.h - Error state of the TirX runtime ---------*- C++ -*-===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//

#ifndef TIRX_LIB_RUNTIME_RUNTIMEERROR_H
#define TIRX_LIB_RUNTIME_RUNTIMEERROR_H

#include "TirX/Runtime/TirXRuntime.h"

#include <cuda_runtime.h>

#include <string>

namespace tirx::runtime {

/// Records `message` as this thread's last error and returns `status`.
TirxStatus fail(TirxStatus status, const std::string &message);
/// Clears the last error and returns TIRX_SUCCESS.
TirxStatus succeed();
/// TIRX_SUCCESS for cudaSuccess; otherwise records "<what>: <CUDA name>:
/// <CUDA text>" and returns `status` (TIRX_ERROR_NO_DEVICE for the
/// no-driver/no-device errors).
TirxStatus check(cudaError_t error, const char *what, TirxStatus status);
/// TIRX_ERROR_NO_DEVICE, with a clear message, when no GPU can be used.
TirxStatus checkDevice(const char *what);
const char *getLastErrorMessage();

/// Dynamic shared memory a kernel may use without opting in (CUDA's
/// default); past it, launches set the function's maximum first.
constexpr unsigned kDefaultDynamicSharedBytes = 48 * 1024;

} // namespace tirx::runtime

#endif // TIRX_LIB_RUNTIME_RUNTIMEERROR_H
