//===- tirx-ir-fuzzer.cpp - libFuzzer target for TirX IR ------------------===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//
//
// Bytes -> parse as IR with the TirX dialects -> verify -> `--tirx-to-ptx`
// when it verifies. Every failure must be a diagnostic, never a crash.
//
//===----------------------------------------------------------------------===//

#include "TirX/InitAll.h"
#include "TirX/Pipelines/Pipelines.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"

#include <cstdint>
#include <string>

using namespace mlir;

static MLIRContext &getContext() {
  static MLIRContext *context = [] {
    DialectRegistry registry;
    tirx::registerAllTirXDialects(registry);
    auto *created = new MLIRContext(registry);
    created->loadAllAvailableDialects();
    // Diagnostics are the expected outcome of bad input; drop them.
    created->getDiagEngine().registerHandler([](Diagnostic &) {});
    return created;
  }();
  return *context;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  MLIRContext &context = getContext();
  std::string text(reinterpret_cast<const char *>(data), size);
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(text, &context);
  if (!module || failed(verify(*module)))
    return 0;
  PassManager pm(&context);
  tirx::TirXToPTXOptions options;
  options.format = "isa"; // PTX text; no ptxas in the loop
  tirx::buildTirXToPTXPipeline(pm, options);
  (void)pm.run(*module);
  return 0;
}
