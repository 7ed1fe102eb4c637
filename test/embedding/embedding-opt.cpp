//===- embedding-opt.cpp - A downstream opt tool that embeds TirX ---------===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//
//
// What a compiler built on MLIR does to take TirX in, with TirX/InitAll.h as
// its only TirX header: register the TirX dialects and passes next to its own
// and upstream ones, run `--tirx-to-ptx` like tirx-opt, and build TirX's
// pipeline into one of its own (`--embedding-to-ptx`: its own cleanup, then
// TirX's pipeline, with TirX's options verified first).
//
//===----------------------------------------------------------------------===//

#include "TirX/InitAll.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"

#include <type_traits>

// The rest of the registration surface this tool does not call: the build
// checks that TirX/InitAll.h alone declares it.
static_assert(
    std::is_same_v<decltype(&mlir::tirx::registerTirXPipelines), void (*)()>);
static_assert(std::is_same_v<decltype(&mlir::tirx::buildTirXToLLVMHostPipeline),
                             void (*)(mlir::OpPassManager &,
                                      const mlir::tirx::TirXToPTXOptions &)>);

/// `--embedding-to-ptx`: the embedder's own passes, then TirX's pipeline
/// built in C++. It takes --tirx-to-ptx's options and verifies them first,
/// so a bad chip is an error naming the option, not an LLVM abort.
static void registerEmbeddingToPTXPipeline() {
  mlir::registerPassPipeline(
      "embedding-to-ptx", "Canonicalize and CSE, then TirX's --tirx-to-ptx",
      [](mlir::OpPassManager &pm, llvm::StringRef text,
         llvm::function_ref<mlir::LogicalResult(const llvm::Twine &)>
             errorHandler) {
        mlir::tirx::TirXToPTXOptions options;
        if (mlir::failed(options.parseFromString(text)))
          return mlir::failure();
        if (llvm::Error error = mlir::tirx::verifyTirXToPTXOptions(options))
          return errorHandler(llvm::toString(std::move(error)));
        pm.addPass(mlir::createCanonicalizerPass());
        pm.addPass(mlir::createCSEPass());
        mlir::tirx::buildTirXToPTXPipeline(pm, options);
        return mlir::success();
      },
      [](llvm::function_ref<void(const mlir::detail::PassOptions &)> print) {
        print(mlir::tirx::TirXToPTXOptions());
      });
}

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  registry.insert<mlir::func::FuncDialect>(); // the embedder's own dialects
  mlir::tirx::registerAllTirXDialects(registry);
  mlir::tirx::registerAllTirXPasses();
  mlir::registerCanonicalizerPass();
  mlir::registerCSEPass();
  registerEmbeddingToPTXPipeline();
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "An MLIR tool embedding TirX\n", registry));
}
