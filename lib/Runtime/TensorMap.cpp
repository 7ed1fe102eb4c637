//===- TensorMap.cpp - TMA tensor maps for launchers ----------------------===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//
//
// tirxTensorMapEncode: the CUtensorMap a kernel's TMA copy reads, encoded by
// the driver's cuTensorMapEncodeTiled (reached through the runtime's entry
// point query, like cuLaunchKernel). The limits are checked here first, so
// that a wrong launch argument is reported by name rather than as the
// driver's CUDA_ERROR_INVALID_VALUE.
//
//===----------------------------------------------------------------------===//

#include "DriverEntryPoint.h"
#include "RuntimeError.h"
#include "TirX/Runtime/TirXRuntime.h"

#include <cuda.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

using EncodeFn = decltype(&cuTensorMapEncodeTiled);

static EncodeFn getEncode() {
  static EncodeFn fn = tirx::runtime::getDriverEntryPoint<EncodeFn>(
      "cuTensorMapEncodeTiled", 12000);
  return fn;
}

/// The CUDA data type of a TMA reduction's element type of `bytes` bytes,
/// or std::nullopt for another name or width.
static std::optional<CUtensorMapDataType>
getDeclaredDataType(std::string_view name, unsigned bytes) {
  struct Declared {
    const char *name;
    unsigned bytes;
    CUtensorMapDataType type;
  };
  static const Declared kTypes[] = {
      {"f16", 2, CU_TENSOR_MAP_DATA_TYPE_FLOAT16},
      {"bf16", 2, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16},
      {"f32", 4, CU_TENSOR_MAP_DATA_TYPE_FLOAT32},
      {"u32", 4, CU_TENSOR_MAP_DATA_TYPE_UINT32},
      {"s32", 4, CU_TENSOR_MAP_DATA_TYPE_INT32},
      {"u64", 8, CU_TENSOR_MAP_DATA_TYPE_UINT64},
      {"s64", 8, CU_TENSOR_MAP_DATA_TYPE_INT64}};
  for (const Declared &declared : kTypes)
    if (name == declared.name && bytes == declared.bytes)
      return declared.type;
  return std::nullopt;
}

extern "C" __attribute__((visibility("default"))) TirxStatus
tirxTensorMapEncode(void *map, const void *address, unsigned elementBytes,
                    unsigned rank, const unsigned long long *extents,
                    const unsigned long long *strides, const unsigned *box,
                    unsigned swizzleBytes) {
  return tirxTensorMapEncodeTyped(map, address, elementBytes, nullptr, rank,
                                  extents, strides, box, swizzleBytes);
}

extern "C" __attribute__((visibility("default"))) TirxStatus
tirxTensorMapEncodeTyped(void *map, const void *address, unsigned elementBytes,
                         const char *elementType, unsigned rank,
                         const unsigned long long *extents,
                         const unsigned long long *strides, const unsigned *box,
                         unsigned swizzleBytes) {
  using tirx::runtime::fail;
  if (!map || !extents || (rank > 1 && !strides) || !box)
    return fail(
        TIRX_ERROR_INVALID_ARGUMENT,
        std::string(
            "tirxTensorMapEncode: map, extents, strides or box is null"));
  if (reinterpret_cast<uintptr_t>(map) % 64)
    return fail(
        TIRX_ERROR_INVALID_ARGUMENT,
        std::string("tirxTensorMapEncode: the map must be 64-byte aligned"));
  if (rank < 1 || rank > 5)
    return fail(TIRX_ERROR_INVALID_ARGUMENT,
                std::string("tirxTensorMapEncode: rank ") +
                    std::to_string(rank) + " is not 1 to 5");
  CUtensorMapDataType type;
  switch (elementBytes) {
  case 1:
    type = CU_TENSOR_MAP_DATA_TYPE_UINT8;
    break;
  case 2:
    type = CU_TENSOR_MAP_DATA_TYPE_UINT16;
    break;
  case 4:
    type = CU_TENSOR_MAP_DATA_TYPE_UINT32;
    break;
  case 8:
    type = CU_TENSOR_MAP_DATA_TYPE_UINT64;
    break;
  default:
    return fail(TIRX_ERROR_INVALID_ARGUMENT,
                "tirxTensorMapEncode: " + std::to_string(elementBytes) +
                    "-byte elements; a tensor map holds 1, 2, 4 or 8");
  }
  if (elementType && *elementType) {
    std::optional<CUtensorMapDataType> declared =
        getDeclaredDataType(elementType, elementBytes);
    if (!declared)
      return fail(TIRX_ERROR_INVALID_ARGUMENT,
                  std::string("tirxTensorMapEncode: element type '") +
                      elementType + "' of " + std::to_string(elementBytes) +
                      "-byte elements is none of f16, bf16 (2 bytes), f32, "
                      "u32, s32 (4), u64, s64 (8)");
    type = *declared;
  }
  CUtensorMapSwizzle swizzle;
  switch (swizzleBytes) {
  case 0:
    swizzle = CU_TENSOR_MAP_SWIZZLE_NONE;
    break;
  case 32:
    swizzle = CU_TENSOR_MAP_SWIZZLE_32B;
    break;
  case 64:
    swizzle = CU_TENSOR_MAP_SWIZZLE_64B;
    break;
  case 128:
    swizzle = CU_TENSOR_MAP_SWIZZLE_128B;
    break;
  default:
    return fail(TIRX_ERROR_INVALID_ARGUMENT,
                std::string("tirxTensorMapEncode: swizzle of ") +
                    std::to_string(swizzleBytes) +
                    " bytes; it is 0, 32, 64 or 128");
  }
  if (reinterpret_cast<uintptr_t>(address) % 16)
    return fail(TIRX_ERROR_INVALID_ARGUMENT,
                std::string("tirxTensorMapEncode: the tensor's address is not "
                            "16-byte aligned"));
  // The driver's order is innermost first; ours, the tensor's, outermost.
  cuuint64_t dims[5], steps[4];
  cuuint32_t boxDims[5], elementStrides[5];
  for (unsigned dim = 0; dim < rank; ++dim) {
    unsigned reversed = rank - 1 - dim;
    if (extents[dim] < 1 || extents[dim] > (uint64_t(1) << 32))
      return fail(TIRX_ERROR_INVALID_ARGUMENT,
                  std::string("tirxTensorMapEncode: extent ") +
                      std::to_string(extents[dim]) + " of dimension " +
                      std::to_string(dim) + " is not 1 to 2^32");
    if (box[dim] < 1 || box[dim] > 256)
      return fail(TIRX_ERROR_INVALID_ARGUMENT,
                  std::string("tirxTensorMapEncode: box extent ") +
                      std::to_string(box[dim]) + " of dimension " +
                      std::to_string(dim) + " is not 1 to 256");
    dims[reversed] = extents[dim];
    boxDims[reversed] = box[dim];
    elementStrides[reversed] = 1;
  }
  for (unsigned dim = 0; dim + 1 < rank; ++dim) {
    if (strides[dim] % 16 || strides[dim] >= (uint64_t(1) << 40))
      return fail(TIRX_ERROR_INVALID_ARGUMENT,
                  std::string("tirxTensorMapEncode: the stride of dimension ") +
                      std::to_string(dim) + " is " +
                      std::to_string(strides[dim]) +
                      " bytes; a tensor map's strides are multiples of 16 "
                      "bytes below 2^40");
    // Rows must not overlap: a stride spans the dimension inside it.
    uint64_t inner = dim + 2 < rank ? strides[dim + 1] * extents[dim + 1]
                                    : extents[dim + 1] * elementBytes;
    if (strides[dim] < inner)
      return fail(TIRX_ERROR_INVALID_ARGUMENT,
                  "tirxTensorMapEncode: the stride of dimension " +
                      std::to_string(dim) + " is " +
                      std::to_string(strides[dim]) + " bytes, less than the " +
                      std::to_string(inner) + " bytes of dimension " +
                      std::to_string(dim + 1));
    steps[rank - 2 - dim] = strides[dim];
  }
  if ((box[rank - 1] * elementBytes) % 16)
    return fail(
        TIRX_ERROR_INVALID_ARGUMENT,
        std::string("tirxTensorMapEncode: the box's innermost row is ") +
            std::to_string(box[rank - 1] * elementBytes) +
            " bytes, not a multiple of 16");
  if (swizzleBytes && box[rank - 1] * elementBytes > swizzleBytes)
    return fail(
        TIRX_ERROR_INVALID_ARGUMENT,
        std::string("tirxTensorMapEncode: the box's innermost row is ") +
            std::to_string(box[rank - 1] * elementBytes) +
            " bytes, more than the " + std::to_string(swizzleBytes) +
            "-byte swizzle");
  if (TirxStatus status = tirx::runtime::checkDevice("tirxTensorMapEncode"))
    return status;
  // The driver encodes in a context: the runtime's primary one, made current
  // once per thread (a context the caller made current stays).
  static thread_local bool initialized = false;
  if (!initialized) {
    if (cudaError_t error = cudaFree(nullptr))
      return tirx::runtime::check(error, "tirxTensorMapEncode: cudaFree",
                                  TIRX_ERROR_CUDA);
    initialized = true;
  }
  EncodeFn encode = getEncode();
  if (!encode)
    // check-diagnostics: internal, CUDA 12's drivers have it; TirX needs 12
    return fail(TIRX_ERROR_NO_DEVICE,
                "tirxTensorMapEncode: the CUDA driver has no "
                "cuTensorMapEncodeTiled (a driver for CUDA 12 or later is "
                "needed)");
  CUresult result = encode(static_cast<CUtensorMap *>(map), type, rank,
                           const_cast<void *>(address), dims, steps, boxDims,
                           elementStrides, CU_TENSOR_MAP_INTERLEAVE_NONE,
                           swizzle, CU_TENSOR_MAP_L2_PROMOTION_L2_128B,
                           CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (result != CUDA_SUCCESS)
    // check-diagnostics: internal, the checks above cover the documented limits
    return fail(TIRX_ERROR_INVALID_ARGUMENT,
                "tirxTensorMapEncode: cuTensorMapEncodeTiled failed with "
                "CUDA driver error " +
                    std::to_string(static_cast<int>(result)));
  return tirx::runtime::succeed();
}
