//===- RuntimeError.cpp - Error state of the TirX runtime -----------------===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//

#include "RuntimeError.h"

namespace {
thread_local std::string lastError;
} // namespace

TirxStatus tirx::runtime::fail(TirxStatus status, const std::string &message) {
  lastError = message;
  return status;
}

TirxStatus tirx::runtime::succeed() {
  lastError.clear();
  return TIRX_SUCCESS;
}

static bool isNoDeviceError(cudaError_t error) {
  return error == cudaErrorNoDevice || error == cudaErrorInsufficientDriver ||
         error == cudaErrorInitializationError ||
         error == cudaErrorCallRequiresNewerDriver ||
         error == cudaErrorStubLibrary || error == cudaErrorDevicesUnavailable;
}

TirxStatus tirx::runtime::check(cudaError_t error, const char *what,
                                TirxStatus status) {
  if (error == cudaSuccess)
    return succeed();
  if (isNoDeviceError(error))
    status = TIRX_ERROR_NO_DEVICE;
  return fail(status, std::string(what) + ": " + cudaGetErrorName(error) +
                          ": " + cudaGetErrorString(error));
}

TirxStatus tirx::runtime::checkDevice(const char *what) {
  int count = 0;
  cudaError_t error = cudaGetDeviceCount(&count);
  if (error == cudaSuccess && count > 0)
    return succeed();
  std::string reason = error == cudaSuccess
                           ? "no CUDA-capable device"
                           : std::string(cudaGetErrorName(error)) + ": " +
                                 cudaGetErrorString(error);
  return fail(TIRX_ERROR_NO_DEVICE,
              std::string(what) + ": no usable GPU (" + reason +
                  "); TirX kernels need an NVIDIA GPU and its driver");
}

const char *tirx::runtime::getLastErrorMessage() { return lastError.c_str(); }
