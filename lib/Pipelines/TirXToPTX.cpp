//===- TirXToPTX.cpp - The tirx-to-ptx pipeline ---------------------------===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//

#include "TirX/Conversion/CUDAToolkit.h"
#include "TirX/Conversion/Passes.h"
#include "TirX/Pipelines/Pipelines.h"
#include "TirX/Transforms/Passes.h"

#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVMPass.h"
#include "mlir/Conversion/GPUCommon/GPUCommonPass.h"
#include "mlir/Conversion/GPUToNVVM/GPUToNVVMPass.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/TargetParser/Triple.h"

#include <cstdlib>

using namespace mlir;

/// The PTX ISA version of a `ptxNN` feature name, or 0.
static unsigned getPTXFeatureVersion(StringRef feature) {
  unsigned version = 0;
  if (!feature.consume_front("ptx") || feature.getAsInteger(10, version))
    return 0;
  return version;
}

/// The first PTX ISA version that supports `chip` ("sm_90a" ⇒ 80). LLVM's
/// NVPTX backend aborts the process on an older one and does not export its
/// table (getMinPTXVersionForSM in NVPTXSubtarget.cpp); this is a copy of it,
/// from NVIDIA's "PTX Release History".
static unsigned getMinimumPTXForChip(StringRef chip) {
  unsigned sm = 0;
  if (!chip.consume_front("sm_") || chip.consumeInteger(10, sm))
    return 0;
  if (chip == "f") // family-specific targets
    return sm == 110 ? 90 : 88;
  if (chip == "a" && sm == 90) // other sm_XXa need what sm_XX needs
    return 80;
  switch (sm) {
  case 20:
  case 21:
  case 30:
  case 35:
    return 32;
  case 32:
  case 50:
    return 40;
  case 37:
  case 52:
    return 41;
  case 53:
    return 42;
  case 60:
  case 61:
  case 62:
    return 50;
  case 70:
    return 60;
  case 72:
    return 61;
  case 75:
    return 63;
  case 80:
    return 70;
  case 86:
    return 71;
  case 87:
    return 74;
  case 89:
  case 90:
    return 78;
  case 100:
  case 101:
    return 86;
  case 120:
    return 87;
  case 103:
  case 121:
    return 88;
  case 88:
  case 110:
    return 90;
  default:
    return 0;
  }
}

/// The target features: the option, or by default PTX ISA 8.0 (what the
/// instruction table is checked against) or the chip's first PTX ISA when
/// that is newer.
static std::string getFeatures(const tirx::TirXToPTXOptions &options) {
  if (!options.features.empty())
    return options.features;
  unsigned version = std::max(80u, getMinimumPTXForChip(options.chip));
  return "+ptx" + std::to_string(version);
}

llvm::Error
mlir::tirx::verifyTirXToPTXOptions(const TirXToPTXOptions &options) {
  auto fail = [](const Twine &message) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
  };
  // LLVM's NVPTX backend knows the chips and PTX versions; asking it keeps
  // this check in step with the LLVM TirX is built against.
  // Once per process (a thread-safe static): LLVM's target registration is
  // not thread-safe, and compiles may run in several threads at once.
  static const bool initialized = [] {
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTargetMC();
    return true;
  }();
  (void)initialized;
  llvm::Triple triple("nvptx64-nvidia-cuda");
  std::string lookupError;
  const llvm::Target *target =
      llvm::TargetRegistry::lookupTarget(triple, lookupError);
  if (!target)
    // check-diagnostics: internal, TirX links LLVM's NVPTX backend
    return fail("LLVM has no NVPTX backend: " + lookupError);
  std::unique_ptr<llvm::MCSubtargetInfo> subtarget(
      target->createMCSubtargetInfo(triple, "", ""));

  StringRef chip = options.chip;
  if (!subtarget->isCPUStringValid(chip))
    return fail("chip '" + chip +
                "' is not an NVIDIA GPU that LLVM knows; write e.g. "
                "chip=sm_90 or chip=sm_90a");
  unsigned chipPTX = getMinimumPTXForChip(chip);

  std::string features = getFeatures(options);
  unsigned ptxVersion = 0;
  for (StringRef feature : llvm::split(features, ',')) {
    StringRef name = feature.trim();
    unsigned version = 0;
    if (name.consume_front("+"))
      version = getPTXFeatureVersion(name);
    bool known = llvm::any_of(
        subtarget->getAllProcessorFeatures(),
        [&](const llvm::SubtargetFeatureKV &kv) { return name == kv.Key; });
    if (!version || !known)
      return fail("features '" + features + "': '" + feature.trim() +
                  "' is not a PTX ISA version LLVM knows; write e.g. "
                  "features=+ptx80");
    ptxVersion = std::max(ptxVersion, version);
  }
  if (ptxVersion < chipPTX)
    return fail("chip " + chip + " needs PTX ISA " + Twine(chipPTX / 10) + "." +
                Twine(chipPTX % 10) + " or newer, but features '" + features +
                "' ask for " + Twine(ptxVersion / 10) + "." +
                Twine(ptxVersion % 10) + "; write features=+ptx" +
                Twine(chipPTX));
  if (options.optLevel > 3)
    return fail("opt-level " + Twine(options.optLevel) +
                " is not an LLVM optimization level (0-3)");
  StringRef format = options.format;
  if (!llvm::is_contained({"isa", "assembly", "bin", "binary", "fatbin",
                           "fatbinary", "llvm", "offloading"},
                          format))
    return fail("format '" + format +
                "' is not an output of gpu-module-to-binary; write isa (PTX "
                "text), bin (cubin) or fatbin");
  if (options.maxRegisters > 255)
    return fail("max-registers " + Twine(options.maxRegisters) +
                " is more than the 255 registers a thread can have");
  if (!options.cudaPath.empty() &&
      !llvm::sys::fs::is_directory(options.cudaPath.getValue()))
    return fail("cuda-path '" + options.cudaPath +
                "' is not a directory (the CUDA toolkit)");
  return llvm::Error::success();
}

void mlir::tirx::buildTirXToPTXPipeline(OpPassManager &pm,
                                        const TirXToPTXOptions &options) {
  // The PTX version of `features` ("+ptx80" ⇒ 80) checks instruction floors.
  std::string features = getFeatures(options);
  unsigned ptxVersion = 0;
  for (StringRef feature : llvm::split(StringRef(features), ','))
    if (feature.consume_front("+ptx"))
      (void)feature.getAsInteger(10, ptxVersion);
  // The whole-kernel checks, once, on the kernels as written.
  TirXVerifyKernelsOptions verifyOptions;
  verifyOptions.strictRaces = options.strictRaces;
  verifyOptions.raceProof = options.raceProof;
  pm.addPass(createTirXVerifyKernels(verifyOptions));
  pm.addPass(createTirXToGPU({options.chip, ptxVersion}));
  pm.addPass(createTileDispatch());
  pm.addPass(createTileJoinAccumulatorChains());
  pm.addPass(createTirXLowerTensors());
  if (options.fastMath)
    pm.addNestedPass<gpu::GPUModuleOp>(createTirXFastMath());
  pm.addNestedPass<gpu::GPUModuleOp>(createTirXPreciseMath());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());

  ConvertGpuOpsToNVVMOpsOptions toNVVM;
  pm.addNestedPass<gpu::GPUModuleOp>(createConvertGpuOpsToNVVMOps(toNVVM));
  pm.nest<gpu::GPUModuleOp>().addNestedPass<LLVM::LLVMFuncOp>(
      createTirXTensorMapParams());
  pm.addPass(createReconcileUnrealizedCastsPass());

  GpuNVVMAttachTargetOptions target;
  target.chip = options.chip;
  target.features = features;
  target.optLevel = options.optLevel;
  pm.addPass(createGpuNVVMAttachTarget(target));

  // PTX and cubins through tirx-module-to-binary, which marks inline PTX
  // convergent and keeps ptxas's register and spill report
  // (docs/registers.md); fatbins upstream.
  StringRef format = options.format;
  bool isBinary = format == "bin" || format == "binary";
  bool isISA = format == "isa" || format == "assembly";
  if (isBinary || isISA) {
    tirx::TirXModuleToBinaryOptions binary;
    binary.format = isBinary ? "bin" : "isa";
    binary.toolkit = tirx::findCUDAToolkit(options.cudaPath);
    binary.maxRegisters = options.maxRegisters;
    binary.ptxasReport =
        options.ptxasReport || options.keepCubin || options.maxRegisters;
    binary.keepCubin = isISA && options.keepCubin;
    pm.addPass(tirx::createTirXModuleToBinary(binary));
  } else {
    GpuModuleToBinaryPassOptions binary;
    binary.compilationTarget = options.format;
    binary.toolkitPath = tirx::findCUDAToolkit(options.cudaPath);
    pm.addPass(createGpuModuleToBinaryPass(binary));
  }

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

void mlir::tirx::buildTirXInterpretHostPipeline(
    OpPassManager &pm, const TirXInterpretHostOptions &options) {
  // The whole-kernel checks at compile time, as --tirx-to-ptx runs them
  // (the interpreter runs them again on the text it parses), but the race
  // proof: the interpreter checks races as they happen, and referees the
  // proof, so it runs kernels the proof refuses.
  TirXVerifyKernelsOptions verifyOptions;
  verifyOptions.raceProof = false;
  pm.addPass(createTirXVerifyKernels(verifyOptions));
  pm.addPass(createTirXInterpretLaunches({options.interpreterOptions}));
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  // Host references (silu's expf) as gpu-to-llvm lowers them on the GPU path.
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
}

/// Registers a pipeline whose options are verified before it is built, so a
/// bad option is one error line instead of an LLVM abort mid-pipeline.
static void registerVerifiedPipeline(
    StringRef name, StringRef description,
    void (*build)(OpPassManager &, const tirx::TirXToPTXOptions &)) {
  registerPassPipeline(
      name, description,
      [build](OpPassManager &pm, StringRef text,
              function_ref<LogicalResult(const Twine &)> errorHandler) {
        tirx::TirXToPTXOptions options;
        if (failed(options.parseFromString(text)))
          return failure();
        if (llvm::Error error = tirx::verifyTirXToPTXOptions(options))
          return errorHandler(llvm::toString(std::move(error)));
        build(pm, options);
        return success();
      },
      [](function_ref<void(const detail::PassOptions &)> printOptions) {
        printOptions(tirx::TirXToPTXOptions());
      });
}

void mlir::tirx::registerTirXPipelines() {
  PassPipelineRegistration<TirXInterpretHostOptions>(
      "tirx-interpret-host",
      "Lower host code launching tirx kernels to the LLVM dialect for "
      "tirx-runner, each launch running the kernel on the CPU interpreter",
      buildTirXInterpretHostPipeline);
  registerVerifiedPipeline(
      "tirx-to-llvm-host",
      "Compile kernels to PTX/cubin and lower host code launching them to "
      "the LLVM dialect (input of tirx-runner)",
      buildTirXToLLVMHostPipeline);
  registerVerifiedPipeline(
      "tirx-to-ptx",
      "Compile tirx kernels to PTX (or cubin) through gpu and nvvm",
      buildTirXToPTXPipeline);
}
