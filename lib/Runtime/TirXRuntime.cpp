//===- TirXRuntime.cpp - Load and launch TirX kernels ---------------------===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//
//
// The C ABI of TirXRuntime.h on the CUDA Runtime. Modules are CUDA
// libraries (cudaLibraryLoadData), kernels cudaKernel_t; the parameter count
// is read from the image (KernelImage.h) and launches go through the
// driver's cuLaunchKernel, reached through the runtime's entry-point query so
// that the library links only the static cudart.
//
//===----------------------------------------------------------------------===//

#include "TirX/Runtime/TirXRuntime.h"
#include "DriverEntryPoint.h"
#include "KernelImage.h"
#include "RuntimeError.h"

#include <cuda.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <cstring>
#include <mutex>
#include <string>
#include <vector>

using namespace tirx::runtime;

struct TirxModuleImpl {
  cudaLibrary_t library;
  /// The image it was loaded from: kernels' parameter counts are read there.
  std::string image;
};

struct TirxKernelImpl {
  cudaKernel_t kernel;
  std::string name;
  /// Counted once: every launch checks the argument count against it.
  size_t paramCount;
};

extern "C" __attribute__((visibility("default"))) const char *
tirxGetLastErrorMessage(void) {
  return getLastErrorMessage();
}

extern "C" __attribute__((visibility("default"))) TirxStatus
tirxGetDeviceCount(int *count) {
  if (!count)
    return fail(TIRX_ERROR_INVALID_ARGUMENT,
                "tirxGetDeviceCount: count is null");
  *count = 0;
  if (TirxStatus status = checkDevice("tirxGetDeviceCount"))
    return status;
  cudaGetDeviceCount(count);
  return succeed();
}

extern "C" __attribute__((visibility("default"))) TirxStatus
tirxGetComputeCapability(int *smVersion) {
  if (!smVersion)
    return fail(TIRX_ERROR_INVALID_ARGUMENT,
                "tirxGetComputeCapability: smVersion is null");
  if (TirxStatus status = checkDevice("tirxGetComputeCapability"))
    return status;
  int device = 0, major = 0, minor = 0;
  if (TirxStatus status =
          check(cudaGetDevice(&device), "cudaGetDevice", TIRX_ERROR_CUDA))
    return status;
  cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device);
  cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device);
  *smVersion = major * 10 + minor;
  return succeed();
}

extern "C" __attribute__((visibility("default"))) TirxStatus
tirxModuleLoadData(const void *image, size_t size, TirxModule *module) {
  if (!image || !module)
    return fail(TIRX_ERROR_INVALID_ARGUMENT,
                "tirxModuleLoadData: image or module is null");
  *module = nullptr;
  if (TirxStatus status = checkDevice("tirxModuleLoadData"))
    return status;
  // PTX must be NUL-terminated for the JIT; copy when the caller's text is
  // not (a cubin starts with the ELF magic and carries its own size).
  const char *bytes = static_cast<const char *>(image);
  bool isElf = size >= 4 && std::memcmp(bytes,
                                        "\x7f"
                                        "ELF",
                                        4) == 0;
  std::string text;
  if (!isElf && size && bytes[size - 1] != '\0') {
    text.assign(bytes, size);
    image = text.c_str();
  }
  auto invalid = [&](cudaError_t error) {
    return fail(TIRX_ERROR_INVALID_IMAGE,
                std::string("tirxModuleLoadData: the ") +
                    (isElf ? "cubin" : "PTX") + " image could not be loaded: " +
                    cudaGetErrorName(error) + ": " + cudaGetErrorString(error));
  };
  cudaLibrary_t library;
  cudaError_t error = cudaLibraryLoadData(&library, image, nullptr, nullptr, 0,
                                          nullptr, nullptr, 0);
  if (error != cudaSuccess)
    return invalid(error);
  // With CUDA's lazy loading the image is only compiled when a kernel is
  // first used: load every kernel now, so a bad image fails here.
  unsigned int count = 0;
  error = cudaLibraryGetKernelCount(&count, library);
  std::vector<cudaKernel_t> kernels(count);
  if (error == cudaSuccess && count)
    error = cudaLibraryEnumerateKernels(kernels.data(), count, library);
  for (cudaKernel_t kernel : kernels) {
    cudaFuncAttributes attributes;
    if (error == cudaSuccess)
      error = cudaFuncGetAttributes(&attributes,
                                    reinterpret_cast<const void *>(kernel));
  }
  if (error == cudaSuccess && count == 0)
    error = cudaErrorInvalidPtx;
  if (error != cudaSuccess) {
    cudaGetLastError(); // clear the sticky-free error state
    cudaLibraryUnload(library);
    return invalid(error);
  }
  *module = new TirxModuleImpl{
      library,
      std::string(static_cast<const char *>(image),
                  isElf ? size
                        : std::strlen(static_cast<const char *>(image)))};
  return succeed();
}

extern "C" __attribute__((visibility("default"))) TirxStatus
tirxModuleUnload(TirxModule module) {
  if (!module)
    return fail(TIRX_ERROR_INVALID_ARGUMENT,
                "tirxModuleUnload: module is null");
  cudaError_t error = cudaLibraryUnload(module->library);
  delete module;
  return check(error, "cudaLibraryUnload", TIRX_ERROR_CUDA);
}

using tirx::runtime::getDriverEntryPoint;

using LaunchFn = decltype(&cuLaunchKernel);

/// The driver's cuLaunchKernel (null if absent).
static LaunchFn getDriverLaunch() {
  static LaunchFn fn = getDriverEntryPoint<LaunchFn>("cuLaunchKernel", 12000);
  return fn;
}

/// Whether the calling thread has a current CUDA context, which the driver's
/// launch needs (a thread that never used the runtime has none).
static bool hasCurrentContext() {
  using GetCurrentFn = decltype(&cuCtxGetCurrent);
  static GetCurrentFn fn =
      getDriverEntryPoint<GetCurrentFn>("cuCtxGetCurrent", 4000);
  CUcontext context = nullptr;
  return fn && fn(&context) == CUDA_SUCCESS && context;
}

/// The parameter count of `name` in `image`, or a failure whose message
/// starts with `caller`.
static TirxStatus readParamCount(const char *caller, std::string_view image,
                                 const char *name, size_t *count) {
  KernelParamCount result = getKernelParamCount(image, name);
  switch (result.kind) {
  case KernelParamCount::Found:
    *count = result.count;
    return succeed();
  case KernelParamCount::NoSuchKernel:
    return fail(TIRX_ERROR_NOT_FOUND, std::string(caller) +
                                          ": no kernel named '" + name +
                                          "' in the image");
  case KernelParamCount::Unreadable:
    break;
  }
  return fail(TIRX_ERROR_INVALID_IMAGE,
              std::string(caller) + ": cannot read the parameters of '" + name +
                  "': " + result.reason);
}

extern "C" __attribute__((visibility("default"))) TirxStatus
tirxImageGetKernelParamCount(const void *image, size_t size, const char *name,
                             size_t *count) {
  if (!image || !name || !count)
    return fail(TIRX_ERROR_INVALID_ARGUMENT,
                "tirxImageGetKernelParamCount: image, name or count is null");
  return readParamCount(
      "tirxImageGetKernelParamCount",
      std::string_view(static_cast<const char *>(image), size), name, count);
}

extern "C" __attribute__((visibility("default"))) TirxStatus
tirxModuleGetKernel(TirxModule module, const char *name, TirxKernel *kernel) {
  if (!module || !name || !kernel)
    return fail(TIRX_ERROR_INVALID_ARGUMENT,
                "tirxModuleGetKernel: module, name or kernel is null");
  *kernel = nullptr;
  cudaKernel_t handle;
  cudaError_t error = cudaLibraryGetKernel(&handle, module->library, name);
  if (error != cudaSuccess)
    return fail(TIRX_ERROR_NOT_FOUND, std::string("tirxModuleGetKernel: no "
                                                  "kernel named '") +
                                          name + "' in the module (" +
                                          cudaGetErrorName(error) + ")");
  size_t paramCount = 0;
  if (TirxStatus status = readParamCount("tirxModuleGetKernel", module->image,
                                         name, &paramCount))
    return status;
  *kernel = new TirxKernelImpl{handle, name, paramCount};
  return succeed();
}

extern "C" __attribute__((visibility("default"))) TirxStatus
tirxKernelGetParamCount(TirxKernel kernel, size_t *count) {
  if (!kernel || !count)
    return fail(TIRX_ERROR_INVALID_ARGUMENT,
                "tirxKernelGetParamCount: kernel or count is null");
  *count = kernel->paramCount;
  return succeed();
}

extern "C" __attribute__((visibility("default"))) TirxStatus tirxKernelLaunch(
    TirxKernel kernel, const unsigned grid[3], const unsigned block[3],
    unsigned sharedMemBytes, void *stream, void **args, size_t numArgs) {
  if (!kernel || !grid || !block || (numArgs && !args))
    return fail(TIRX_ERROR_INVALID_ARGUMENT,
                "tirxKernelLaunch: kernel, grid, block or args is null");
  size_t expected = kernel->paramCount;
  if (expected != numArgs)
    return fail(TIRX_ERROR_INVALID_ARGUMENT,
                "tirxKernelLaunch: kernel '" + kernel->name + "' takes " +
                    std::to_string(expected) + " argument(s), got " +
                    std::to_string(numArgs));
  for (int dim = 0; dim < 3; ++dim)
    if (!grid[dim] || !block[dim])
      return fail(TIRX_ERROR_INVALID_ARGUMENT,
                  "tirxKernelLaunch: grid and block extents must be positive");
  // The driver's cuLaunchKernel takes the library kernel as is and costs
  // less per call than the runtime's launch. It needs a current context: a
  // thread without one (and any launch the driver declines) goes through the
  // runtime, which makes its context current and names any error.
  // Dynamic shared memory past the 48 KiB default needs the kernel's opt-in
  // (through the runtime, which takes the library kernel as is).
  if (sharedMemBytes > kDefaultDynamicSharedBytes) {
    cudaError_t error =
        cudaFuncSetAttribute(reinterpret_cast<const void *>(kernel->kernel),
                             cudaFuncAttributeMaxDynamicSharedMemorySize,
                             static_cast<int>(sharedMemBytes));
    if (error != cudaSuccess)
      return fail(TIRX_ERROR_LAUNCH,
                  "tirxKernelLaunch: '" + kernel->name + "' cannot use " +
                      std::to_string(sharedMemBytes) +
                      " bytes of shared memory: " + cudaGetErrorName(error) +
                      ": " + cudaGetErrorString(error));
  }
  LaunchFn launch = getDriverLaunch();
  if (launch && hasCurrentContext())
    if (launch(reinterpret_cast<CUfunction>(kernel->kernel), grid[0], grid[1],
               grid[2], block[0], block[1], block[2], sharedMemBytes,
               static_cast<CUstream>(stream), args, nullptr) == CUDA_SUCCESS)
      return succeed();
  cudaError_t error = cudaLaunchKernel(
      reinterpret_cast<const void *>(kernel->kernel),
      dim3(grid[0], grid[1], grid[2]), dim3(block[0], block[1], block[2]), args,
      sharedMemBytes, static_cast<cudaStream_t>(stream));
  if (error != cudaSuccess)
    return fail(TIRX_ERROR_LAUNCH,
                "tirxKernelLaunch: launching '" + kernel->name + "' failed: " +
                    cudaGetErrorName(error) + ": " + cudaGetErrorString(error));
  return succeed();
}

//===----------------------------------------------------------------------===//
// Prepared launches: per-device primary contexts, one driver call per launch
//===----------------------------------------------------------------------===//

namespace {
/// The driver functions of prepared launches, found once (null when the
/// driver lacks one: CUDA 12.0 is needed for cuKernelGetFunction).
struct Driver {
  decltype(&cuCtxGetCurrent) ctxGetCurrent;
  decltype(&cuCtxSetCurrent) ctxSetCurrent;
  decltype(&cuDeviceGet) deviceGet;
  decltype(&cuDevicePrimaryCtxRetain) primaryCtxRetain;
  decltype(&cuKernelGetFunction) kernelGetFunction;
  decltype(&cuFuncGetAttribute) funcGetAttribute;
  decltype(&cuFuncSetAttribute) funcSetAttribute;
  decltype(&cuGetErrorName) getErrorName;
  LaunchFn launch;

  /// The first function the driver lacks, or null.
  const char *missing() const {
    if (!ctxGetCurrent)
      return "cuCtxGetCurrent";
    if (!ctxSetCurrent)
      return "cuCtxSetCurrent";
    if (!deviceGet)
      return "cuDeviceGet";
    if (!primaryCtxRetain)
      return "cuDevicePrimaryCtxRetain";
    if (!kernelGetFunction)
      return "cuKernelGetFunction";
    if (!funcGetAttribute)
      return "cuFuncGetAttribute";
    if (!funcSetAttribute)
      return "cuFuncSetAttribute";
    if (!getErrorName)
      return "cuGetErrorName";
    if (!launch)
      return "cuLaunchKernel";
    return nullptr;
  }
};

const Driver &driver() {
  static const Driver table = {
      getDriverEntryPoint<decltype(&cuCtxGetCurrent)>("cuCtxGetCurrent", 12000),
      getDriverEntryPoint<decltype(&cuCtxSetCurrent)>("cuCtxSetCurrent", 12000),
      getDriverEntryPoint<decltype(&cuDeviceGet)>("cuDeviceGet", 12000),
      getDriverEntryPoint<decltype(&cuDevicePrimaryCtxRetain)>(
          "cuDevicePrimaryCtxRetain", 12000),
      getDriverEntryPoint<decltype(&cuKernelGetFunction)>("cuKernelGetFunction",
                                                          12000),
      getDriverEntryPoint<decltype(&cuFuncGetAttribute)>("cuFuncGetAttribute",
                                                         12000),
      getDriverEntryPoint<decltype(&cuFuncSetAttribute)>("cuFuncSetAttribute",
                                                         12000),
      getDriverEntryPoint<decltype(&cuGetErrorName)>("cuGetErrorName", 12000),
      getDriverLaunch()};
  return table;
}

/// "NAME" of a driver error.
std::string driverErrorName(CUresult result) {
  const char *name = nullptr;
  if (driver().getErrorName &&
      driver().getErrorName(result, &name) == CUDA_SUCCESS && name)
    return name;
  return "CUDA driver error " + std::to_string(static_cast<int>(result));
}

/// The primary context of `device`, retained once for the process (the
/// context PyTorch, CuPy and the CUDA Runtime use on that device).
TirxStatus primaryContext(const char *caller, int device, CUcontext *context) {
  if (TirxStatus status = checkDevice(caller))
    return status;
  const Driver &d = driver();
  if (const char *missing = d.missing())
    // check-diagnostics: internal, the static cudart (CUDA 12+) refuses an
    // older driver in checkDevice above; a driver it accepts has these
    return fail(TIRX_ERROR_CUDA, std::string(caller) +
                                     ": the CUDA driver lacks " + missing +
                                     " (TirX needs a CUDA 12 driver or newer)");
  int count = 0;
  cudaGetDeviceCount(&count);
  if (device < 0 || device >= count)
    return fail(TIRX_ERROR_INVALID_ARGUMENT,
                std::string(caller) + ": no device " + std::to_string(device) +
                    " (this machine has " + std::to_string(count) +
                    " device(s))");
  static std::mutex mutex;
  static std::vector<CUcontext> contexts;
  std::lock_guard<std::mutex> lock(mutex);
  contexts.resize(count, nullptr);
  if (!contexts[device]) {
    CUdevice handle;
    CUresult result = d.deviceGet(&handle, device);
    if (result == CUDA_SUCCESS)
      result = d.primaryCtxRetain(&contexts[device], handle);
    if (result != CUDA_SUCCESS) {
      contexts[device] = nullptr;
      // check-diagnostics: internal, only an unusable device (lost, or no
      // memory left for a context) fails here; no test can arrange one
      return fail(TIRX_ERROR_CUDA,
                  std::string(caller) + ": the primary context of device " +
                      std::to_string(device) +
                      " could not be retained: " + driverErrorName(result));
    }
  }
  *context = contexts[device];
  return succeed();
}

/// Makes `context` current for its lifetime, then restores the caller's.
class ContextScope {
public:
  explicit ContextScope(CUcontext context) {
    driver().ctxGetCurrent(&previous);
    switched = previous != context;
    if (switched)
      driver().ctxSetCurrent(context);
  }
  ~ContextScope() {
    if (switched)
      driver().ctxSetCurrent(previous);
  }
  ContextScope(const ContextScope &) = delete;
  ContextScope &operator=(const ContextScope &) = delete;

private:
  CUcontext previous = nullptr;
  bool switched = false;
};
} // namespace

extern "C" __attribute__((visibility("default"))) TirxStatus
tirxGetDevice(int *device) {
  if (!device)
    return fail(TIRX_ERROR_INVALID_ARGUMENT, "tirxGetDevice: device is null");
  if (TirxStatus status = checkDevice("tirxGetDevice"))
    return status;
  return check(cudaGetDevice(device), "cudaGetDevice", TIRX_ERROR_CUDA);
}

extern "C" __attribute__((visibility("default"))) TirxStatus
tirxPointerGetDevice(const void *pointer, int *device) {
  if (!device)
    return fail(TIRX_ERROR_INVALID_ARGUMENT,
                "tirxPointerGetDevice: device is null");
  if (TirxStatus status = checkDevice("tirxPointerGetDevice"))
    return status;
  cudaPointerAttributes attributes;
  cudaError_t error = cudaPointerGetAttributes(&attributes, pointer);
  if (error != cudaSuccess) {
    cudaGetLastError(); // not sticky: clear it
    return check(error, "tirxPointerGetDevice: cudaPointerGetAttributes",
                 TIRX_ERROR_INVALID_ARGUMENT);
  }
  if (attributes.type != cudaMemoryTypeDevice &&
      attributes.type != cudaMemoryTypeManaged) {
    char address[32];
    std::snprintf(address, sizeof address, "%p", pointer);
    return fail(TIRX_ERROR_INVALID_ARGUMENT,
                std::string("tirxPointerGetDevice: ") + address +
                    " is not device memory (CUDA memory type " +
                    std::to_string(static_cast<int>(attributes.type)) + ")");
  }
  *device = attributes.device;
  return succeed();
}

extern "C" __attribute__((visibility("default"))) TirxStatus
tirxModuleLoadDataOnDevice(const void *image, size_t size, int device,
                           TirxModule *module) {
  if (!image || !module)
    return fail(TIRX_ERROR_INVALID_ARGUMENT,
                "tirxModuleLoadDataOnDevice: image or module is null");
  *module = nullptr;
  CUcontext context;
  if (TirxStatus status =
          primaryContext("tirxModuleLoadDataOnDevice", device, &context))
    return status;
  ContextScope scope(context);
  return tirxModuleLoadData(image, size, module);
}

extern "C" __attribute__((visibility("default"))) TirxStatus
tirxKernelPrepareLaunch(TirxKernel kernel, int device, size_t numArgs,
                        TirxPreparedLaunch *launch) {
  if (!kernel || !launch)
    return fail(TIRX_ERROR_INVALID_ARGUMENT,
                "tirxKernelPrepareLaunch: kernel or launch is null");
  if (kernel->paramCount != numArgs)
    return fail(TIRX_ERROR_INVALID_ARGUMENT,
                "tirxKernelPrepareLaunch: kernel '" + kernel->name +
                    "' takes " + std::to_string(kernel->paramCount) +
                    " argument(s), got " + std::to_string(numArgs));
  CUcontext context;
  if (TirxStatus status =
          primaryContext("tirxKernelPrepareLaunch", device, &context))
    return status;
  const Driver &d = driver();
  ContextScope scope(context);
  CUfunction function = nullptr;
  CUresult result = d.kernelGetFunction(
      &function, reinterpret_cast<CUkernel>(kernel->kernel));
  // Loads the kernel on the device now (CUDA loads lazily otherwise), so a
  // kernel that cannot run there fails here.
  int registers = 0;
  if (result == CUDA_SUCCESS)
    result =
        d.funcGetAttribute(&registers, CU_FUNC_ATTRIBUTE_NUM_REGS, function);
  if (result != CUDA_SUCCESS)
    // check-diagnostics: internal, the image was loaded on this device by
    // tirxModuleLoadDataOnDevice (which names its error); only two GPUs of
    // different architectures could fail here
    return fail(TIRX_ERROR_INVALID_IMAGE,
                "tirxKernelPrepareLaunch: kernel '" + kernel->name +
                    "' could not be loaded on device " +
                    std::to_string(device) + ": " + driverErrorName(result));
  *launch = TirxPreparedLaunch{};
  launch->name = kernel->name.c_str();
  launch->function = function;
  launch->context = context;
  for (int dim = 0; dim < 3; ++dim)
    launch->grid[dim] = launch->block[dim] = 1;
  launch->numArgs = numArgs;
  return succeed();
}

extern "C" __attribute__((visibility("default"))) TirxStatus
tirxPreparedLaunchSetSharedBytes(TirxPreparedLaunch *launch, unsigned bytes) {
  if (!launch || !launch->function || !launch->context)
    return fail(TIRX_ERROR_INVALID_ARGUMENT,
                "tirxPreparedLaunchSetSharedBytes: launch, or its function or "
                "context, is null");
  // Past the 48 KiB default, the function opts in (once, here).
  CUresult result = CUDA_SUCCESS;
  if (bytes > kDefaultDynamicSharedBytes) {
    ContextScope scope(static_cast<CUcontext>(launch->context));
    result = driver().funcSetAttribute(
        static_cast<CUfunction>(launch->function),
        CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
        static_cast<int>(bytes));
  }
  if (result != CUDA_SUCCESS)
    return fail(TIRX_ERROR_LAUNCH,
                std::string("tirxPreparedLaunchSetSharedBytes: '") +
                    (launch->name ? launch->name : "?") + "' cannot use " +
                    std::to_string(bytes) +
                    " bytes of shared memory: " + driverErrorName(result));
  launch->sharedMemBytes = bytes;
  return succeed();
}

extern "C" __attribute__((visibility("default"))) TirxStatus
tirxLaunchPrepared(const TirxPreparedLaunch *launch) {
  if (!launch || !launch->function || !launch->context ||
      (launch->numArgs && !launch->args))
    return fail(TIRX_ERROR_INVALID_ARGUMENT,
                "tirxLaunchPrepared: launch, or its function, context or args, "
                "is null");
  for (int dim = 0; dim < 3; ++dim)
    if (!launch->grid[dim] || !launch->block[dim])
      return fail(
          TIRX_ERROR_INVALID_ARGUMENT,
          "tirxLaunchPrepared: grid and block extents must be positive");
  const Driver &d = driver();
  CUcontext context = static_cast<CUcontext>(launch->context);
  CUcontext previous = nullptr;
  d.ctxGetCurrent(&previous);
  if (previous != context)
    d.ctxSetCurrent(context);
  CUresult result =
      d.launch(static_cast<CUfunction>(launch->function), launch->grid[0],
               launch->grid[1], launch->grid[2], launch->block[0],
               launch->block[1], launch->block[2], launch->sharedMemBytes,
               static_cast<CUstream>(launch->stream), launch->args, nullptr);
  if (previous != context)
    d.ctxSetCurrent(previous);
  if (result != CUDA_SUCCESS)
    return fail(TIRX_ERROR_LAUNCH,
                std::string("tirxLaunchPrepared: launching '") +
                    (launch->name ? launch->name : "?") +
                    "' failed: " + driverErrorName(result));
  return succeed();
}

extern "C" __attribute__((visibility("default"))) TirxStatus
tirxStreamSynchronize(void *stream) {
  return check(cudaStreamSynchronize(static_cast<cudaStream_t>(stream)),
               "cudaStreamSynchronize", TIRX_ERROR_LAUNCH);
}

extern "C" __attribute__((visibility("default"))) TirxStatus
tirxDeviceSynchronize(void) {
  if (TirxStatus status = checkDevice("tirxDeviceSynchronize"))
    return status;
  return check(cudaDeviceSynchronize(), "cudaDeviceSynchronize",
               TIRX_ERROR_LAUNCH);
}

extern "C" __attribute__((visibility("default"))) TirxStatus
tirxMalloc(void **devicePtr, size_t bytes) {
  if (!devicePtr)
    return fail(TIRX_ERROR_INVALID_ARGUMENT, "tirxMalloc: devicePtr is null");
  if (TirxStatus status = checkDevice("tirxMalloc"))
    return status;
  return check(cudaMalloc(devicePtr, bytes), "cudaMalloc", TIRX_ERROR_CUDA);
}

extern "C" __attribute__((visibility("default"))) TirxStatus
tirxFree(void *devicePtr) {
  return check(cudaFree(devicePtr), "cudaFree", TIRX_ERROR_CUDA);
}

extern "C" __attribute__((visibility("default"))) TirxStatus
tirxMemcpyHostToDevice(void *dst, const void *src, size_t bytes) {
  return check(cudaMemcpy(dst, src, bytes, cudaMemcpyHostToDevice),
               "cudaMemcpy (host to device)", TIRX_ERROR_CUDA);
}

extern "C" __attribute__((visibility("default"))) TirxStatus
tirxMemcpyDeviceToHost(void *dst, const void *src, size_t bytes) {
  return check(cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToHost),
               "cudaMemcpy (device to host)", TIRX_ERROR_CUDA);
}
