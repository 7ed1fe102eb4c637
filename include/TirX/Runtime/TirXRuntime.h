/*===- TirXRuntime.h - Load and launch TirX kernels (C ABI) -------*- C -*-===*\
|*                                                                            *|
|* Part of the TirX project.                                                  *|
|*                                                                            *|
|* A small C ABI over the CUDA Runtime, implemented in libTirXRuntime.so     *|
|* (statically linked cudart, so the library needs only the CUDA driver).    *|
|* Every function returns a TirxStatus; on failure the calling thread's      *|
|* message (tirxGetLastErrorMessage) says what failed and why. Nothing here  *|
|* prints or exits. Usable from C, C++ and Python (ctypes).                  *|
\*===----------------------------------------------------------------------===*/

#ifndef TIRX_RUNTIME_TIRXRUNTIME_H
#define TIRX_RUNTIME_TIRXRUNTIME_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum TirxStatus {
  TIRX_SUCCESS = 0,
  /// No CUDA driver or no CUDA-capable device.
  TIRX_ERROR_NO_DEVICE = 1,
  /// The PTX/cubin image could not be loaded (bad text, wrong architecture).
  TIRX_ERROR_INVALID_IMAGE = 2,
  /// No kernel of that name in the module.
  TIRX_ERROR_NOT_FOUND = 3,
  /// A bad argument: null handle, wrong argument count, zero extents.
  TIRX_ERROR_INVALID_ARGUMENT = 4,
  /// The launch or the kernel itself failed.
  TIRX_ERROR_LAUNCH = 5,
  /// Any other CUDA error (the message has CUDA's name for it).
  TIRX_ERROR_CUDA = 6
} TirxStatus;

typedef struct TirxModuleImpl *TirxModule;
typedef struct TirxKernelImpl *TirxKernel;

/// The message of the last failure on this thread ("" if none).
const char *tirxGetLastErrorMessage(void);

/// Number of CUDA devices (TIRX_ERROR_NO_DEVICE when there are none).
TirxStatus tirxGetDeviceCount(int *count);
/// The compute capability of the current device as major*10+minor (90).
TirxStatus tirxGetComputeCapability(int *smVersion);

/// Loads a module from PTX text (NUL-terminated or `size` bytes) or a cubin.
TirxStatus tirxModuleLoadData(const void *image, size_t size,
                              TirxModule *module);
TirxStatus tirxModuleUnload(TirxModule module);
/// Looks up a kernel (`.entry`) by name; its parameter count is read from
/// the module's image (PTX `.entry` signature or cubin attribute table).
TirxStatus tirxModuleGetKernel(TirxModule module, const char *name,
                               TirxKernel *kernel);
/// Number of parameters the kernel takes, as its image declares them.
TirxStatus tirxKernelGetParamCount(TirxKernel kernel, size_t *count);
/// Number of parameters of the kernel `name` in a PTX text or ELF cubin
/// image, read from the image alone (no GPU needed): TIRX_ERROR_NOT_FOUND
/// when it has no such kernel, TIRX_ERROR_INVALID_IMAGE when it is neither.
TirxStatus tirxImageGetKernelParamCount(const void *image, size_t size,
                                        const char *name, size_t *count);

/// Launches `kernel` on `stream` (NULL: the default stream). `args` holds
/// `numArgs` pointers to the argument values, as cudaLaunchKernel wants;
/// `numArgs` must equal the kernel's parameter count.
TirxStatus tirxKernelLaunch(TirxKernel kernel, const unsigned grid[3],
                            const unsigned block[3], unsigned sharedMemBytes,
                            void *stream, void **args, size_t numArgs);

/*===--- Prepared launches: one device, repeated with new arguments ------===*\
|* The fast path of the Python launcher: a kernel is loaded once per device  *|
|* in that device's primary context; a launch is then one call that takes a  *|
|* struct the caller keeps and updates (stream, grid, argument slots).       *|
\*===----------------------------------------------------------------------===*/

/// A launch of one kernel on one device. tirxKernelPrepareLaunch fills
/// `name`, `function`, `context` and `numArgs` (and sets grid and block to
/// 1, the stream to NULL); the caller sets grid, block, sharedMemBytes,
/// stream and args before each tirxLaunchPrepared.
typedef struct TirxPreparedLaunch {
  /// The kernel's name (owned by the TirxKernel), for error messages.
  const char *name;
  /// The kernel's function in `context` (a CUfunction).
  void *function;
  /// The device's primary context (a CUcontext), retained for the process.
  void *context;
  unsigned grid[3];
  unsigned block[3];
  unsigned sharedMemBytes;
  /// A stream of the device (NULL: its default stream).
  void *stream;
  /// `numArgs` pointers to the argument values, as cuLaunchKernel wants.
  void **args;
  size_t numArgs;
} TirxPreparedLaunch;

/// The calling thread's current device (cudaGetDevice).
TirxStatus tirxGetDevice(int *device);
/// The device whose memory `pointer` points into (cudaPointerGetAttributes):
/// TIRX_ERROR_INVALID_ARGUMENT when it is not device or managed memory.
TirxStatus tirxPointerGetDevice(const void *pointer, int *device);
/// tirxModuleLoadData in `device`'s primary context: the module's kernels are
/// loaded on that device. The calling thread's current context is unchanged.
TirxStatus tirxModuleLoadDataOnDevice(const void *image, size_t size,
                                      int device, TirxModule *module);
/// Prepares launches of `kernel` on `device`: the kernel is loaded in the
/// device's primary context (a bad image fails here, not at a launch) and
/// `numArgs` is checked against its parameter count. The calling thread's
/// current context is unchanged.
TirxStatus tirxKernelPrepareLaunch(TirxKernel kernel, int device,
                                   size_t numArgs, TirxPreparedLaunch *launch);
/// Sets the dynamic shared memory every launch of `launch` passes; past
/// 48 KiB the function opts in to that much (cuFuncSetAttribute), which
/// fails (TIRX_ERROR_LAUNCH) beyond what the device allows.
TirxStatus tirxPreparedLaunchSetSharedBytes(TirxPreparedLaunch *launch,
                                            unsigned bytes);
/// Launches a prepared launch through the driver's cuLaunchKernel, with the
/// launch's context current for the call (the caller's is restored after).
/// Checks only what costs nothing: null fields and zero extents.
TirxStatus tirxLaunchPrepared(const TirxPreparedLaunch *launch);

/*===--- TMA tensor maps ------------------------------------------------===*\
|* A kernel with TMA copies takes, after its own parameters, one 128-byte    *|
|* tensor map (CUtensorMap) per box it copies, in the order its compile      *|
|* result lists them (tirxCompileResultGetKernelTensorMap): its args hold a  *|
|* pointer to each map, like any other argument value (docs/hopper.md).      *|
\*===----------------------------------------------------------------------===*/

/// Bytes and alignment of a tensor map.
#define TIRX_TENSOR_MAP_BYTES 128
#define TIRX_TENSOR_MAP_ALIGNMENT 64

/// Encodes into `map` (TIRX_TENSOR_MAP_BYTES, 64-byte aligned) the tensor
/// map of a `rank`-dimensional (1-5) tensor of `elementBytes`-byte elements
/// (1, 2, 4, 8) at `address` (16-byte aligned), tiled by `box` with the
/// shared image's swizzle (0, 32, 64 or 128 bytes). Dimensions are
/// outermost first: `extents[rank]`, `strides[rank - 1]` in bytes (of every
/// dimension but the innermost, whose elements are contiguous; multiples of
/// 16), `box[rank]` (1 to 256; the innermost a multiple of 16 bytes, at most
/// the swizzle). Out-of-bounds elements of a box read as zeros. No GPU call:
/// the map is host memory. TIRX_ERROR_INVALID_ARGUMENT names the first value
/// out of range.
TirxStatus tirxTensorMapEncode(void *map, const void *address,
                               unsigned elementBytes, unsigned rank,
                               const unsigned long long *extents,
                               const unsigned long long *strides,
                               const unsigned *box, unsigned swizzleBytes);
/// As tirxTensorMapEncode, the map declaring the elements' type: "" or NULL
/// for bits of `elementBytes` (what a copy needs), else "f16", "bf16", "f32",
/// "u32", "s32", "u64" or "s64" of that width (a TMA reduction's operation
/// type: tirxCompileResultGetKernelTensorMapType).
TirxStatus tirxTensorMapEncodeTyped(void *map, const void *address,
                                    unsigned elementBytes,
                                    const char *elementType, unsigned rank,
                                    const unsigned long long *extents,
                                    const unsigned long long *strides,
                                    const unsigned *box,
                                    unsigned swizzleBytes);

TirxStatus tirxStreamSynchronize(void *stream);
TirxStatus tirxDeviceSynchronize(void);

/// Device memory helpers for hosts without another CUDA library.
TirxStatus tirxMalloc(void **devicePtr, size_t bytes);
TirxStatus tirxFree(void *devicePtr);
TirxStatus tirxMemcpyHostToDevice(void *dst, const void *src, size_t bytes);
TirxStatus tirxMemcpyDeviceToHost(void *dst, const void *src, size_t bytes);

#ifdef __cplusplus
}
#endif

#endif /* TIRX_RUNTIME_TIRXRUNTIME_H */
