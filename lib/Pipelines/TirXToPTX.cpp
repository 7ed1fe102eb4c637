//===- TirXToPTX.cpp - The tirx-to-ptx pipeline ---------------------------===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//

#include "TirX/Conversion/Passes.h"
#include "TirX/Pipelines/Pipelines.h"

#include "mlir/Conversion/GPUToNVVM/GPUToNVVMPass.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

void mlir::tirx::buildTirXToPTXPipeline(OpPassManager &pm,
                                        const TirXToPTXOptions &options) {
  pm.addPass(createTirXToGPU({options.chip}));
  pm.addPass(createTileDispatch());
  pm.addPass(createTirXLowerTensors());
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
  pm.addPass(createGpuModuleToBinaryPass(binary));

  if (!options.ptxOutput.empty())
    pm.addPass(createTirXExtractPTX({options.ptxOutput}));
}

void mlir::tirx::registerTirXPipelines() {
  PassPipelineRegistration<TirXToPTXOptions>(
      "tirx-to-ptx",
      "Compile tirx kernels to PTX (or cubin) through gpu and nvvm",
      buildTirXToPTXPipeline);
}
