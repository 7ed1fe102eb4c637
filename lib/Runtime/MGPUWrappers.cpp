//===- MGPUWrappers.cpp - The mgpu* host ABI on the CUDA Runtime ----------===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//
//
// MLIR's `gpu-to-llvm` lowering and the GPU offloading translation call these
// `mgpu*` functions from host code (module load from the embedded binary,
// kernel lookup and launch, streams, events, memory). Upstream implements
// them on the CUDA driver API in a library Debian does not ship; TirX
// implements the same ABI on the CUDA Runtime, so JIT-compiled host code
// (tirx-runner) launches TirX kernels through libTirXRuntime.so.
//
// These functions return void or a handle, as the lowering expects, so a
// failure is reported on stderr with the CUDA error and recorded as the
// runtime's last error (tirxGetLastErrorMessage); it never aborts.
//
//===----------------------------------------------------------------------===//

#include "RuntimeError.h"

#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>

using namespace tirx::runtime;

#define TIRX_EXPORT extern "C" __attribute__((visibility("default")))

/// Reports a failed CUDA call; returns whether it succeeded.
static bool report(cudaError_t error, const char *what) {
  if (error == cudaSuccess)
    return true;
  check(error, what, TIRX_ERROR_CUDA);
  std::fprintf(stderr, "tirx-runtime: %s\n", getLastErrorMessage());
  return false;
}

/// Loads PTX (NUL-terminated on copy) or a cubin/fatbin.
static void *loadModule(const void *data, size_t size, const char *what) {
  if (checkDevice(what) != TIRX_SUCCESS) {
    std::fprintf(stderr, "tirx-runtime: %s\n", getLastErrorMessage());
    return nullptr;
  }
  const char *bytes = static_cast<const char *>(data);
  std::string text;
  bool binary = size >= 4 && (std::memcmp(bytes,
                                          "\x7f"
                                          "ELF",
                                          4) == 0 ||
                              std::memcmp(bytes, "\x50\xed\x55\xba", 4) == 0);
  if (!binary && size && bytes[size - 1] != '\0') {
    text.assign(bytes, size);
    data = text.c_str();
  }
  cudaLibrary_t library = nullptr;
  if (!report(cudaLibraryLoadData(&library, data, nullptr, nullptr, 0, nullptr,
                                  nullptr, 0),
              what))
    return nullptr;
  return library;
}

TIRX_EXPORT void *mgpuModuleLoad(void *data, size_t gpuBlobSize) {
  return loadModule(data, gpuBlobSize, "mgpuModuleLoad");
}

// PTX embedded by the offloading translation is NUL-terminated text; LLVM 22
// passes no size for it.
TIRX_EXPORT void *mgpuModuleLoadJIT(void *data, int /*optLevel*/) {
  return loadModule(data, std::strlen(static_cast<const char *>(data)) + 1,
                    "mgpuModuleLoadJIT");
}

TIRX_EXPORT void mgpuModuleUnload(void *module) {
  if (module)
    report(cudaLibraryUnload(static_cast<cudaLibrary_t>(module)),
           "mgpuModuleUnload");
}

TIRX_EXPORT void *mgpuModuleGetFunction(void *module, const char *name) {
  if (!module) {
    fail(TIRX_ERROR_INVALID_ARGUMENT,
         std::string("mgpuModuleGetFunction: no module for '") + name + "'");
    std::fprintf(stderr, "tirx-runtime: %s\n", getLastErrorMessage());
    return nullptr;
  }
  cudaKernel_t kernel = nullptr;
  if (!report(cudaLibraryGetKernel(&kernel, static_cast<cudaLibrary_t>(module),
                                   name),
              "mgpuModuleGetFunction"))
    return nullptr;
  return kernel;
}

TIRX_EXPORT void mgpuLaunchKernel(void *function, intptr_t gridX,
                                  intptr_t gridY, intptr_t gridZ,
                                  intptr_t blockX, intptr_t blockY,
                                  intptr_t blockZ, int32_t smem, void *stream,
                                  void **params, void **extra,
                                  size_t /*paramsCount*/) {
  if (!function) {
    fail(TIRX_ERROR_INVALID_ARGUMENT, "mgpuLaunchKernel: no kernel");
    std::fprintf(stderr, "tirx-runtime: %s\n", getLastErrorMessage());
    return;
  }
  if (extra) {
    fail(TIRX_ERROR_INVALID_ARGUMENT,
         "mgpuLaunchKernel: packed 'extra' arguments are not supported");
    std::fprintf(stderr, "tirx-runtime: %s\n", getLastErrorMessage());
    return;
  }
  // Dynamic shared memory past the 48 KiB default needs the kernel's opt-in.
  if (smem > static_cast<int32_t>(kDefaultDynamicSharedBytes) &&
      !report(cudaFuncSetAttribute(
                  function, cudaFuncAttributeMaxDynamicSharedMemorySize, smem),
              "mgpuLaunchKernel"))
    return;
  report(cudaLaunchKernel(function, dim3(gridX, gridY, gridZ),
                          dim3(blockX, blockY, blockZ), params, smem,
                          static_cast<cudaStream_t>(stream)),
         "mgpuLaunchKernel");
}

TIRX_EXPORT void *mgpuStreamCreate() {
  cudaStream_t stream = nullptr;
  report(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking),
         "mgpuStreamCreate");
  return stream;
}

TIRX_EXPORT void mgpuStreamDestroy(void *stream) {
  report(cudaStreamDestroy(static_cast<cudaStream_t>(stream)),
         "mgpuStreamDestroy");
}

TIRX_EXPORT void mgpuStreamSynchronize(void *stream) {
  report(cudaStreamSynchronize(static_cast<cudaStream_t>(stream)),
         "mgpuStreamSynchronize");
}

TIRX_EXPORT void mgpuStreamWaitEvent(void *stream, void *event) {
  report(cudaStreamWaitEvent(static_cast<cudaStream_t>(stream),
                             static_cast<cudaEvent_t>(event), 0),
         "mgpuStreamWaitEvent");
}

TIRX_EXPORT void *mgpuEventCreate() {
  cudaEvent_t event = nullptr;
  report(cudaEventCreateWithFlags(&event, cudaEventDisableTiming),
         "mgpuEventCreate");
  return event;
}

TIRX_EXPORT void mgpuEventDestroy(void *event) {
  report(cudaEventDestroy(static_cast<cudaEvent_t>(event)), "mgpuEventDestroy");
}

TIRX_EXPORT void mgpuEventSynchronize(void *event) {
  report(cudaEventSynchronize(static_cast<cudaEvent_t>(event)),
         "mgpuEventSynchronize");
}

TIRX_EXPORT void mgpuEventRecord(void *event, void *stream) {
  report(cudaEventRecord(static_cast<cudaEvent_t>(event),
                         static_cast<cudaStream_t>(stream)),
         "mgpuEventRecord");
}

TIRX_EXPORT void *mgpuMemAlloc(uint64_t sizeBytes, void *stream,
                               bool isHostShared) {
  void *ptr = nullptr;
  if (sizeBytes == 0)
    return nullptr;
  if (isHostShared)
    report(cudaMallocManaged(&ptr, sizeBytes), "mgpuMemAlloc (managed)");
  else
    report(cudaMallocAsync(&ptr, sizeBytes, static_cast<cudaStream_t>(stream)),
           "mgpuMemAlloc");
  return ptr;
}

TIRX_EXPORT void mgpuMemFree(void *ptr, void *stream) {
  if (ptr)
    report(cudaFreeAsync(ptr, static_cast<cudaStream_t>(stream)),
           "mgpuMemFree");
}

TIRX_EXPORT void mgpuMemcpy(void *dst, void *src, size_t sizeBytes,
                            void *stream) {
  report(cudaMemcpyAsync(dst, src, sizeBytes, cudaMemcpyDefault,
                         static_cast<cudaStream_t>(stream)),
         "mgpuMemcpy");
}

TIRX_EXPORT void mgpuMemset32(void *dst, unsigned int value, size_t count,
                              void *stream) {
  // cudaMemset sets bytes; 32-bit patterns go through a host staging copy
  // unless all four bytes are equal.
  unsigned char byte = value & 0xff;
  if (value == byte * 0x01010101u) {
    report(cudaMemsetAsync(dst, byte, count * 4,
                           static_cast<cudaStream_t>(stream)),
           "mgpuMemset32");
    return;
  }
  std::string host(count * 4, '\0');
  for (size_t i = 0; i < count; ++i)
    std::memcpy(&host[i * 4], &value, 4);
  report(cudaMemcpyAsync(dst, host.data(), host.size(), cudaMemcpyHostToDevice,
                         static_cast<cudaStream_t>(stream)),
         "mgpuMemset32");
  report(cudaStreamSynchronize(static_cast<cudaStream_t>(stream)),
         "mgpuMemset32");
}

TIRX_EXPORT void mgpuMemset16(void *dst, unsigned short value, size_t count,
                              void *stream) {
  unsigned char byte = value & 0xff;
  if (value == byte * 0x0101u) {
    report(cudaMemsetAsync(dst, byte, count * 2,
                           static_cast<cudaStream_t>(stream)),
           "mgpuMemset16");
    return;
  }
  std::string host(count * 2, '\0');
  for (size_t i = 0; i < count; ++i)
    std::memcpy(&host[i * 2], &value, 2);
  report(cudaMemcpyAsync(dst, host.data(), host.size(), cudaMemcpyHostToDevice,
                         static_cast<cudaStream_t>(stream)),
         "mgpuMemset16");
  report(cudaStreamSynchronize(static_cast<cudaStream_t>(stream)),
         "mgpuMemset16");
}

TIRX_EXPORT void mgpuMemHostRegister(void *ptr, uint64_t sizeBytes) {
  report(cudaHostRegister(ptr, sizeBytes, cudaHostRegisterDefault),
         "mgpuMemHostRegister");
}

TIRX_EXPORT void mgpuMemHostUnregister(void *ptr) {
  report(cudaHostUnregister(ptr), "mgpuMemHostUnregister");
}

namespace {
/// The ranked memref descriptor the lowering passes (rank from the caller).
struct MemRefDescriptor {
  char *allocated;
  char *aligned;
  int64_t offset;
  int64_t sizesAndStrides[1];
};

int64_t getMemRefBytes(int64_t rank, const MemRefDescriptor *descriptor,
                       int64_t elementSizeBytes) {
  const int64_t *sizes = descriptor->sizesAndStrides;
  const int64_t *strides = sizes + rank;
  int64_t extent = 1; // span in elements: 1 + Σ (size-1)·stride
  for (int64_t dim = 0; dim < rank; ++dim)
    extent += (sizes[dim] - 1) * strides[dim];
  return rank == 0 ? elementSizeBytes : extent * elementSizeBytes;
}
} // namespace

TIRX_EXPORT void mgpuMemHostRegisterMemRef(int64_t rank, void *descriptor,
                                           int64_t elementSizeBytes) {
  auto *memref = static_cast<MemRefDescriptor *>(descriptor);
  mgpuMemHostRegister(memref->aligned + memref->offset * elementSizeBytes,
                      getMemRefBytes(rank, memref, elementSizeBytes));
}

TIRX_EXPORT void mgpuMemHostUnregisterMemRef(int64_t /*rank*/, void *descriptor,
                                             int64_t elementSizeBytes) {
  auto *memref = static_cast<MemRefDescriptor *>(descriptor);
  mgpuMemHostUnregister(memref->aligned + memref->offset * elementSizeBytes);
}

TIRX_EXPORT void mgpuSetDefaultDevice(int32_t device) {
  report(cudaSetDevice(device), "mgpuSetDefaultDevice");
}
