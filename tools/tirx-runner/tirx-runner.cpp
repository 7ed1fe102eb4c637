//===- tirx-runner.cpp - JIT-run host code that launches TirX kernels -----===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//
//
// MLIR's JIT runner with the TirX dialects and the LLVM IR translations of
// the GPU dialects registered. Its input is the output of
// `tirx-opt --tirx-to-llvm-host`: host code in the LLVM dialect with the
// kernels embedded as a gpu.binary. The process links libTirXRuntime.so,
// which provides the mgpu* functions the host code calls and
// printMemrefF32, so no --shared-libs are needed.
//
// Host code lowered by --tirx-interpret-host runs its kernels on the CPU
// interpreter instead: the runner gives the JIT tirxInterpretLaunch.
//
// --help lists the JIT runner's own options (entry point, -O, --mattr,
// --shared-libs, object dumps), which JitRunnerMain registers when it runs;
// every option registered before it (LLVM's backends and passes: hundreds)
// is hidden from --help and --help-hidden, though it still works.
//
//===----------------------------------------------------------------------===//

#include "InterpretLaunch.h"

#include "TirX/InitAll.h"

#include "mlir/ExecutionEngine/JitRunner.h"
#include "mlir/IR/DialectRegistry.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/TargetSelect.h"

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  // JitRunnerMain's own options do not exist yet: they are registered, and
  // stay visible, when it runs. This category is only the marker of what
  // --help keeps of the options registered so far (the generic ones).
  static llvm::cl::OptionCategory runnerCategory("tirx-runner options");
  llvm::cl::HideUnrelatedOptions(runnerCategory);
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  mlir::DialectRegistry registry;
  mlir::tirx::registerAllTirXDialects(registry);
  // The JIT finds tirxInterpretLaunch among the process's dynamic symbols
  // (CMakeLists.txt exports it); referencing it keeps it linked.
  volatile auto keep = &tirxInterpretLaunch;
  (void)keep;
  return mlir::JitRunnerMain(argc, argv, registry);
}
