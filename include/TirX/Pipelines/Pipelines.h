//===- Pipelines.h - Named end-to-end TirX pipelines ------------*- C++ -*-===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//

#ifndef TIRX_PIPELINES_PIPELINES_H
#define TIRX_PIPELINES_PIPELINES_H

#include "mlir/Pass/PassOptions.h"
#include "llvm/Support/Error.h"

#include <string>

namespace mlir {
class OpPassManager;
namespace tirx {

/// Options of `--tirx-to-ptx`.
struct TirXToPTXOptions : public PassPipelineOptions<TirXToPTXOptions> {
  PassOptions::Option<std::string> chip{
      *this, "chip", llvm::cl::desc("Target chip, e.g. sm_90"),
      llvm::cl::init("sm_90")};
  PassOptions::Option<std::string> features{
      *this, "features",
      llvm::cl::desc("PTX ISA version as target features, e.g. +ptx86; "
                     "default: +ptx80, or the chip's first PTX ISA when "
                     "newer (sm_100a: +ptx86)"),
      llvm::cl::init("")};
  PassOptions::Option<unsigned> optLevel{
      *this, "opt-level", llvm::cl::desc("LLVM optimization level (0-3)"),
      llvm::cl::init(3)};
  PassOptions::Option<std::string> format{
      *this, "format",
      llvm::cl::desc("Output of gpu-module-to-binary: isa (PTX text), bin "
                     "(cubin through ptxas) or fatbin"),
      llvm::cl::init("isa")};
  PassOptions::Option<bool> fastMath{
      *this, "fast-math",
      llvm::cl::desc("Approximate f32 math instructions instead of libdevice "
                     "(see docs/math.md)"),
      llvm::cl::init(false)};
  PassOptions::Option<std::string> cudaPath{
      *this, "cuda-path",
      llvm::cl::desc("CUDA toolkit (libdevice, ptxas); default: "
                     "$TIRX_CUDA_PATH, $CUDA_HOME, $CUDA_PATH, $CUDA_ROOT, "
                     "then /usr/local/cuda"),
      llvm::cl::init("")};
  PassOptions::Option<bool> ptxasReport{
      *this, "ptxas-report",
      llvm::cl::desc("With format=isa, also run ptxas -v (when found) for "
                     "its register and spill report (docs/registers.md); "
                     "format=bin always reports"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> keepCubin{
      *this, "keep-cubin",
      llvm::cl::desc("With format=isa and ptxas found: keep the cubin of "
                     "the report's ptxas run as a second object after the "
                     "PTX (a loader then needs no JIT; implies ptxas-report)"),
      llvm::cl::init(false)};
  PassOptions::Option<unsigned> maxRegisters{
      *this, "max-registers",
      llvm::cl::desc("Registers per thread a kernel may use (.maxnreg; "
                     "0: ptxas's choice), e.g. to see ptxas spill"),
      llvm::cl::init(0)};
  PassOptions::Option<bool> strictRaces{
      *this, "strict-races",
      llvm::cl::desc("Refuse a kernel whose synchronization the race proof "
                     "does not model, instead of warning (docs/races.md)"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> raceProof{
      *this, "race-proof",
      llvm::cl::desc("Prove shared memory race-free (docs/races.md); 0 skips "
                     "the proof, e.g. to run a refused kernel under "
                     "compute-sanitizer"),
      llvm::cl::init(true)};
  PassOptions::Option<std::string> ptxOutput{
      *this, "ptx-output",
      llvm::cl::desc("Also write the bare PTX (or cubin) to this file; '-' "
                     "for stdout"),
      llvm::cl::init("")};
};

/// tirx-verify-kernels, tirx-to-gpu, tile-dispatch, tirx-lower-tensors,
/// cleanup, then upstream convert-gpu-to-nvvm, nvvm-attach-target and
/// gpu-module-to-binary.
/// Checks that `options` build a pipeline that works: a chip LLVM's NVPTX
/// backend knows, `+ptxNN` features it knows and that reach the chip's
/// minimum PTX ISA, opt-level 0-3, a gpu-module-to-binary format, an
/// existing cuda-path. The error names the option and what to write instead.
/// The registered pipelines and the C API check before building; embedders
/// that build from their own options should too (LLVM's backend aborts the
/// process on some bad combinations).
llvm::Error verifyTirXToPTXOptions(const TirXToPTXOptions &options);

/// Builds the pipeline; `options` must pass verifyTirXToPTXOptions.
void buildTirXToPTXPipeline(OpPassManager &pm, const TirXToPTXOptions &options);

/// `--tirx-to-llvm-host`: the device side as `--tirx-to-ptx` (the PTX or
/// cubin embedded in a gpu.binary), then the host side (functions launching
/// kernels with tirx.launch / gpu.launch_func, gpu memory ops, memrefs) to the
/// LLVM dialect, ready for tirx-runner or mlir-translate.
void buildTirXToLLVMHostPipeline(OpPassManager &pm,
                                 const TirXToPTXOptions &options);

/// Options of `--tirx-interpret-host`.
struct TirXInterpretHostOptions
    : public PassPipelineOptions<TirXInterpretHostOptions> {
  PassOptions::Option<std::string> interpreterOptions{
      *this, "interpreter-options",
      llvm::cl::desc("The interpreter's options for every launch (races=0, "
                     "uninitialized=0, block=N, trace=1; space-separated)"),
      llvm::cl::init("")};
};

/// `--tirx-interpret-host`: host code whose tirx.launch runs each kernel on
/// the CPU interpreter (tirx-interpret-launches: the kernels verified, then
/// carried as IR text), lowered to the LLVM dialect for tirx-runner, which
/// provides the interpreter; no GPU, CUDA toolkit or ptxas is needed.
void buildTirXInterpretHostPipeline(OpPassManager &pm,
                                    const TirXInterpretHostOptions &options);

/// Registers `--tirx-to-ptx`, `--tirx-to-llvm-host` and
/// `--tirx-interpret-host` with the global pipeline registry.
void registerTirXPipelines();

} // namespace tirx
} // namespace mlir

#endif // TIRX_PIPELINES_PIPELINES_H
