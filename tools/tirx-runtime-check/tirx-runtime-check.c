/*===- tirx-runtime-check.c - Exercise the TirX runtime C ABI ------*- C
-*-===*\
|*                                                                            *|
|* Part of the TirX project.                                                  *|
|*                                                                            *|
|* Drives libTirXRuntime.so through its C ABI and prints one line per step   *|
|* ("<step>: <status> <message>"), for lit. Without arguments it checks the  *|
|* calls that need no GPU (null arguments; no device where there is none).   *|
|* With a PTX file of the affine-ReLU example it also loads bad PTX, looks   *|
|* up a missing kernel, launches with a wrong argument count, and runs the   *|
|* kernel, checking every result. `--param-count IMAGE KERNEL` prints the    *|
|* parameter count the runtime reads from a PTX or cubin file (no GPU).     *|
\*===----------------------------------------------------------------------===*/

#include "TirX/Runtime/TirXRuntime.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *statusName(TirxStatus status) {
  switch (status) {
  case TIRX_SUCCESS:
    return "SUCCESS";
  case TIRX_ERROR_NO_DEVICE:
    return "NO_DEVICE";
  case TIRX_ERROR_INVALID_IMAGE:
    return "INVALID_IMAGE";
  case TIRX_ERROR_NOT_FOUND:
    return "NOT_FOUND";
  case TIRX_ERROR_INVALID_ARGUMENT:
    return "INVALID_ARGUMENT";
  case TIRX_ERROR_LAUNCH:
    return "LAUNCH";
  case TIRX_ERROR_CUDA:
    return "CUDA";
  }
  return "?";
}

static TirxStatus show(const char *step, TirxStatus status) {
  printf("%s: %s %s\n", step, statusName(status), tirxGetLastErrorMessage());
  return status;
}

/* The mgpu* host ABI that MLIR's gpu-to-llvm lowering calls (no header). */
void *mgpuModuleGetFunction(void *module, const char *name);
void mgpuLaunchKernel(void *function, intptr_t gridX, intptr_t gridY,
                      intptr_t gridZ, intptr_t blockX, intptr_t blockY,
                      intptr_t blockZ, int32_t smem, void *stream,
                      void **params, void **extra, size_t paramsCount);

/* An mgpu* call reports through the last error (and stderr). */
static void showLastError(const char *step) {
  printf("%s: %s\n", step, tirxGetLastErrorMessage());
}

static char *readFile(const char *path, size_t *size) {
  FILE *file = fopen(path, "rb");
  if (!file)
    return NULL;
  fseek(file, 0, SEEK_END);
  long length = ftell(file);
  fseek(file, 0, SEEK_SET);
  char *data = malloc((size_t)length + 1);
  *size = fread(data, 1, (size_t)length, file);
  data[*size] = '\0';
  fclose(file);
  return data;
}

/* `--param-count IMAGE KERNEL`: what the runtime reads from an image. */
static int printParamCount(const char *path, const char *name) {
  size_t size = 0, params = 0;
  char *image = readFile(path, &size);
  if (!image) {
    fprintf(stderr, "cannot read %s\n", path);
    return 2;
  }
  TirxStatus status = tirxImageGetKernelParamCount(image, size, name, &params);
  if (status == TIRX_SUCCESS)
    printf("%s: %zu parameter(s)\n", name, params);
  else
    show("param-count", status);
  free(image);
  return status == TIRX_SUCCESS ? 0 : 1;
}

static const char *kUsage =
    "OVERVIEW: TirX runtime self-test (libTirXRuntime.so, "
    "TirX/Runtime/TirXRuntime.h)\n"
    "\n"
    "USAGE: tirx-runtime-check [<affine_relu.ptx>]\n"
    "       tirx-runtime-check --param-count <image> <kernel>\n"
    "       tirx-runtime-check --tensor-maps\n"
    "\n"
    "Prints one line per step (\"<step>: <status> <message>\"). Without a\n"
    "file: the calls that need no GPU. With the affine-ReLU example's PTX and\n"
    "a GPU: also loads, looks up, launches and checks the kernel.\n"
    "\n"
    "OPTIONS:\n"
    "  --help                          Print this help\n"
    "  --tensor-maps                   Check tirxTensorMapEncode's refusals\n"
    "  --param-count <image> <kernel>  Print the parameter count the runtime\n"
    "                                  reads from a PTX or cubin file (no "
    "GPU)\n";

/* tirxTensorMapEncode's refusals, one per argument it checks before the
   driver, then a valid map (which needs a GPU). */
static int checkTensorMaps(void) {
  static unsigned char storage[256];
  unsigned char *map = storage + (64 - (uintptr_t)storage % 64) % 64;
  const void *address = (const void *)(uintptr_t)0x10000;
  unsigned long long extents[2] = {256, 512}, strides[1] = {1024};
  unsigned long long zero[2] = {0, 512}, oddStride[1] = {1000},
                     shortStride[1] = {512};
  unsigned long long six[6] = {1, 1, 1, 1, 1, 1},
                     sixStrides[5] = {16, 16, 16, 16, 16};
  unsigned box[2] = {64, 64}, tall[2] = {512, 64}, narrow[2] = {64, 4},
           wide[2] = {64, 128}, boxSix[6] = {1, 1, 1, 1, 1, 1};
  show("map-null",
       tirxTensorMapEncode(NULL, address, 2, 2, extents, strides, box, 0));
  show("map-unaligned",
       tirxTensorMapEncode(map + 8, address, 2, 2, extents, strides, box, 0));
  show("map-rank",
       tirxTensorMapEncode(map, address, 2, 6, six, sixStrides, boxSix, 0));
  show("map-element",
       tirxTensorMapEncode(map, address, 3, 2, extents, strides, box, 0));
  show("map-type", tirxTensorMapEncodeTyped(map, address, 2, "f32", 2, extents,
                                            strides, box, 0));
  show("map-swizzle",
       tirxTensorMapEncode(map, address, 2, 2, extents, strides, box, 16));
  show("map-address", tirxTensorMapEncode(map, (const void *)(uintptr_t)0x10008,
                                          2, 2, extents, strides, box, 0));
  show("map-extent",
       tirxTensorMapEncode(map, address, 2, 2, zero, strides, box, 0));
  show("map-box",
       tirxTensorMapEncode(map, address, 2, 2, extents, strides, tall, 0));
  show("map-stride",
       tirxTensorMapEncode(map, address, 2, 2, extents, oddStride, box, 0));
  show("map-overlap",
       tirxTensorMapEncode(map, address, 2, 2, extents, shortStride, box, 0));
  show("map-row",
       tirxTensorMapEncode(map, address, 2, 2, extents, strides, narrow, 0));
  show("map-row-swizzle",
       tirxTensorMapEncode(map, address, 2, 2, extents, strides, wide, 128));
  show("map-valid",
       tirxTensorMapEncode(map, address, 2, 2, extents, strides, box, 128));
  show("map-valid-typed", tirxTensorMapEncodeTyped(map, address, 2, "bf16", 2,
                                                   extents, strides, box, 128));
  return 0;
}

int main(int argc, char **argv) {
  if (argc == 4 && strcmp(argv[1], "--param-count") == 0)
    return printParamCount(argv[2], argv[3]);
  if (argc == 2 && strcmp(argv[1], "--tensor-maps") == 0)
    return checkTensorMaps();
  if (argc >= 2 && argv[1][0] == '-') {
    int help = strcmp(argv[1], "--help") == 0 ||
               strcmp(argv[1], "-help") == 0 || strcmp(argv[1], "-h") == 0;
    if (!help)
      fprintf(stderr, "tirx-runtime-check: unknown option '%s'\n", argv[1]);
    fputs(kUsage, help ? stdout : stderr);
    return help ? 0 : 2;
  }
  int count = -1;
  TirxModule module = NULL;
  TirxKernel kernel = NULL;
  unsigned one[3] = {1, 1, 1};
  show("null-argument", tirxGetDeviceCount(NULL));
  show("null-module", tirxModuleGetKernel(NULL, "k", &kernel));
  show("null-capability", tirxGetComputeCapability(NULL));
  show("null-image", tirxModuleLoadData(NULL, 0, &module));
  show("null-unload", tirxModuleUnload(NULL));
  show("null-kernel-params", tirxKernelGetParamCount(NULL, NULL));
  show("null-image-params", tirxImageGetKernelParamCount(NULL, 0, "k", NULL));
  show("null-kernel-launch",
       tirxKernelLaunch(NULL, one, one, 0, NULL, NULL, 0));
  show("null-malloc", tirxMalloc(NULL, 4));
  mgpuModuleGetFunction(NULL, "k");
  showLastError("mgpu-no-module");
  mgpuLaunchKernel(NULL, 1, 1, 1, 1, 1, 1, 0, NULL, NULL, NULL, 0);
  showLastError("mgpu-no-kernel");
  void *extra[1] = {NULL};
  mgpuLaunchKernel((void *)one, 1, 1, 1, 1, 1, 1, 0, NULL, NULL, extra, 0);
  showLastError("mgpu-extra");
  TirxStatus devices = show("device-count", tirxGetDeviceCount(&count));
  show("load-without-check", tirxModuleLoadData("not ptx", 8, &module));
  if (argc < 2 || devices != TIRX_SUCCESS)
    return 0;

  size_t size = 0;
  char *ptx = readFile(argv[1], &size);
  if (!ptx) {
    fprintf(stderr, "cannot read %s\n", argv[1]);
    return 2;
  }
  show("bad-ptx", tirxModuleLoadData("this is not PTX", 16, &module));
  if (show("load", tirxModuleLoadData(ptx, size, &module)) != TIRX_SUCCESS)
    return 1;
  show("missing-kernel", tirxModuleGetKernel(module, "nope", &kernel));
  if (show("kernel", tirxModuleGetKernel(module, "affine_relu", &kernel)))
    return 1;
  size_t params = 0;
  tirxKernelGetParamCount(kernel, &params);
  printf("params: %zu\n", params);

  enum { N = 256 };
  float host[N], result[N];
  for (int i = 0; i < N; ++i)
    host[i] = -4.0f + 8.0f * (float)i / (N - 1);
  void *a = NULL, *b = NULL;
  tirxMalloc(&a, sizeof host);
  tirxMalloc(&b, sizeof host);
  tirxMemcpyHostToDevice(a, host, sizeof host);
  unsigned grid[3] = {1, 1, 1}, block[3] = {64, 1, 1};
  void *args[2] = {&a, &b};
  show("wrong-arg-count",
       tirxKernelLaunch(kernel, grid, block, 0, NULL, args, 1));
  unsigned emptyGrid[3] = {0, 1, 1}, hugeBlock[3] = {2048, 1, 1};
  show("empty-grid",
       tirxKernelLaunch(kernel, emptyGrid, block, 0, NULL, args, 2));
  show("huge-block",
       tirxKernelLaunch(kernel, grid, hugeBlock, 0, NULL, args, 2));
  /* More dynamic shared memory than a block may have: the opt-in fails. */
  show("huge-shared",
       tirxKernelLaunch(kernel, grid, block, 1u << 20, NULL, args, 2));
  show("launch", tirxKernelLaunch(kernel, grid, block, 0, NULL, args, 2));
  show("sync", tirxDeviceSynchronize());
  tirxMemcpyDeviceToHost(result, b, sizeof result);
  int mismatches = 0;
  for (int i = 0; i < N; ++i) {
    float expected = 2.0f * host[i] + 1.0f;
    if (expected < 0.0f)
      expected = 0.0f;
    mismatches += result[i] != expected;
  }
  printf("results: %d mismatches of %d\n", mismatches, N);
  tirxFree(a);
  tirxFree(b);
  show("unload", tirxModuleUnload(module));
  free(ptx);
  return mismatches != 0;
}
