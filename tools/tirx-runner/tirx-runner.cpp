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
//===----------------------------------------------------------------------===//

#include "TirX/InitAll.h"

#include "mlir/ExecutionEngine/JitRunner.h"
#include "mlir/IR/DialectRegistry.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/TargetSelect.h"

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  mlir::DialectRegistry registry;
  mlir::tirx::registerAllTirXDialects(registry);
  return mlir::JitRunnerMain(argc, argv, registry);
}
