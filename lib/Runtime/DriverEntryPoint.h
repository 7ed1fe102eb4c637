//===- DriverEntryPoint.h - CUDA driver functions through cudart -*- C++ -*-===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//

#ifndef TIRX_LIB_RUNTIME_DRIVERENTRYPOINT_H
#define TIRX_LIB_RUNTIME_DRIVERENTRYPOINT_H

#include <cuda_runtime.h>

namespace tirx::runtime {

/// A driver function found through the runtime (the library links only the
/// static cudart), or null when the driver lacks it.
template <typename Fn>
Fn getDriverEntryPoint(const char *name, unsigned cudaVersion) {
  void *symbol = nullptr;
  cudaDriverEntryPointQueryResult result;
  if (cudaGetDriverEntryPointByVersion(name, &symbol, cudaVersion,
                                       cudaEnableDefault,
                                       &result) != cudaSuccess ||
      result != cudaDriverEntryPointSuccess)
    return nullptr;
  return reinterpret_cast<Fn>(symbol);
}

} // namespace tirx::runtime

#endif // TIRX_LIB_RUNTIME_DRIVERENTRYPOINT_H
