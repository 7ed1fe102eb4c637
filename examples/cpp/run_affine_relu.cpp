//===- run_affine_relu.cpp - Compile and run a TirX kernel from C++ -------===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//
//
// The embedder's "hello world": compile a TirX IR file to PTX in-process with
// the C++ API, load it with libTirXRuntime, run the seed's affine-ReLU on 256
// floats and check the result.   run-affine-relu examples/affine_relu.mlir
//
//===----------------------------------------------------------------------===//

#include "TirX/InitAll.h"
#include "TirX/Pipelines/Pipelines.h"
#include "TirX/Runtime/TirXRuntime.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"

#include <cstdio>
#include <vector>

static int fail(const char *step) {
  std::fprintf(stderr, "%s: %s\n", step, tirxGetLastErrorMessage());
  return 2;
}

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s affine_relu.mlir\n", argv[0]);
    return 1;
  }
  // 1. Compile: parse, verify and run --tirx-to-ptx; the PTX is the object
  //    of the module's gpu.binary.
  mlir::DialectRegistry registry;
  mlir::tirx::registerAllTirXDialects(registry);
  mlir::MLIRContext context(registry);
  auto module = mlir::parseSourceFile<mlir::ModuleOp>(argv[1], &context);
  mlir::PassManager pm(&context);
  mlir::tirx::buildTirXToPTXPipeline(pm, mlir::tirx::TirXToPTXOptions());
  if (!module || mlir::failed(pm.run(*module)))
    return 1; // the diagnostics are already printed, with locations
  std::string ptx;
  module->walk([&](mlir::gpu::BinaryOp binary) {
    ptx = llvm::cast<mlir::gpu::ObjectAttr>(binary.getObjects()[0])
              .getObject()
              .str();
  });
  std::printf("compiled %zu bytes of PTX\n", ptx.size());
  std::fflush(stdout);

  // 2. Load and run on 256 floats in [-4, 4].
  TirxModule library;
  TirxKernel kernel;
  if (tirxModuleLoadData(ptx.data(), ptx.size(), &library))
    return fail("load");
  if (tirxModuleGetKernel(library, "affine_relu", &kernel))
    return fail("kernel");
  std::vector<float> a(256), b(256);
  for (int i = 0; i < 256; ++i)
    a[i] = -4.0f + 8.0f * i / 255;
  void *deviceA, *deviceB;
  unsigned grid[3] = {1, 1, 1}, block[3] = {64, 1, 1};
  void *args[] = {&deviceA, &deviceB};
  if (tirxMalloc(&deviceA, 1024) || tirxMalloc(&deviceB, 1024) ||
      tirxMemcpyHostToDevice(deviceA, a.data(), 1024) ||
      tirxKernelLaunch(kernel, grid, block, 0, nullptr, args, 2) ||
      tirxMemcpyDeviceToHost(b.data(), deviceB, 1024))
    return fail("run");

  // 3. Check: B = max(2A + 1, 0), exactly.
  int mismatches = 0;
  for (int i = 0; i < 256; ++i)
    mismatches += b[i] != std::max(2.0f * a[i] + 1.0f, 0.0f);
  std::printf("b[0..3] = %g %g %g %g, b[255] = %g: %d mismatches\n", b[0], b[1],
              b[2], b[3], b[255], mismatches);
  tirxFree(deviceA);
  tirxFree(deviceB);
  tirxModuleUnload(library);
  return mismatches != 0;
}
