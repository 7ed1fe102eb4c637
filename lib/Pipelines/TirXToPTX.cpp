//===- TirXToPTX.cpp - The tirx-to-ptx pipeline ---------------------------===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//

#include "TirX/Conversion/Passes.h"
#include "TirX/Pipelines/Pipelines.h"

#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVMPass.h"
#include "mlir/Conversion/GPUCommon/GPUCommonPass.h"
#include "mlir/Conversion/GPUToNVVM/GPUToNVVMPass.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/FileSystem.h"

#include <cstdlib>

using namespace mlir;

/// The CUDA toolkit whose libdevice precise math links and whose ptxas makes
/// cubins: the option, the usual environment variables, /usr/local/cuda.
static std::string findCUDAToolkit(StringRef option) {
  if (!option.empty())
    return option.str();
  for (const char *variable : {"CUDA_HOME", "CUDA_PATH", "CUDA_ROOT"})
    if (const char *value = std::getenv(variable); value && *value)
      return value;
  if (llvm::sys::fs::exists("/usr/local/cuda/nvvm/libdevice"))
    return "/usr/local/cuda";
  return "";
}

void mlir::tirx::buildTirXToPTXPipeline(OpPassManager &pm,
                                        const TirXToPTXOptions &options) {
  // The PTX version of `features` ("+ptx80" ⇒ 80) checks instruction floors.
  unsigned ptxVersion = 0;
  for (StringRef feature : llvm::split(StringRef(options.features), ','))
    if (feature.consume_front("+ptx"))
      (void)feature.getAsInteger(10, ptxVersion);
  pm.addPass(createTirXToGPU({options.chip, ptxVersion}));
  pm.addPass(createTileDispatch());
  pm.addPass(createTirXLowerTensors());
  if (options.fastMath)
    pm.addNestedPass<gpu::GPUModuleOp>(createTirXFastMath());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());

  ConvertGpuOpsToNVVMOpsOptions toNVVM;
  pm.addNestedPass<gpu::GPUModuleOp>(createConvertGpuOpsToNVVMOps(toNVVM));
  pm.addPass(createReconcileUnrealizedCastsPass());

  GpuNVVMAttachTargetOptions target;
  target.chip = options.chip;
  target.features = options.features;
  target.optLevel = options.optLevel;
  pm.addPass(createGpuNVVMAttachTarget(target));

  GpuModuleToBinaryPassOptions binary;
  binary.compilationTarget = options.format;
  binary.toolkitPath = findCUDAToolkit(options.cudaPath);
  pm.addPass(createGpuModuleToBinaryPass(binary));

  if (!options.ptxOutput.empty())
    pm.addPass(createTirXExtractPTX({options.ptxOutput}));
}

void mlir::tirx::buildTirXToLLVMHostPipeline(OpPassManager &pm,
                                             const TirXToPTXOptions &options) {
  buildTirXToPTXPipeline(pm, options);
  // gpu-to-llvm lowers the asynchronous forms of gpu.alloc/memcpy/launch.
  pm.addNestedPass<func::FuncOp>(createGpuAsyncRegionPass());
  pm.addPass(createGpuToLLVMConversionPass());
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
}

void mlir::tirx::registerTirXPipelines() {
  PassPipelineRegistration<TirXToPTXOptions>(
      "tirx-to-llvm-host",
      "Compile kernels to PTX/cubin and lower host code launching them to "
      "the LLVM dialect (input of tirx-runner)",
      buildTirXToLLVMHostPipeline);
  PassPipelineRegistration<TirXToPTXOptions>(
      "tirx-to-ptx",
      "Compile tirx kernels to PTX (or cubin) through gpu and nvvm",
      buildTirXToPTXPipeline);
}
