//===- tirx-capi-fuzzer.cpp - libFuzzer target for the TirX C API ---------===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//
//
// The entry point Python (and any C caller) compiles through:
// bytes = "<options>\n<IR>" -> tirxCompile(IR, options) -> every accessor of
// the result. Bad options or IR must come back as diagnostics in the result,
// never as a crash or an LLVM abort of the calling process.
//
//===----------------------------------------------------------------------===//

#include "TirX-c/TirX.h"

#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string input(reinterpret_cast<const char *>(data), size);
  size_t newline = input.find('\n');
  if (newline == std::string::npos)
    return 0;
  std::string options = input.substr(0, newline);
  // A fuzzer must not write files wherever an input points.
  if (options.find("ptx-output") != std::string::npos ||
      options.find('\0') != std::string::npos)
    return -1;
  std::string ir = input.substr(newline + 1);
  TirxCompileResult result =
      tirxCompile(ir.data(), ir.size(), "fuzz.mlir", options.c_str(),
                  /*keepStages=*/size % 2);
  size_t outputSize = 0;
  (void)tirxCompileResultSucceeded(result);
  (void)tirxCompileResultGetOutput(result, &outputSize);
  for (size_t i = 0, e = tirxCompileResultGetNumDiagnostics(result); i < e;
       ++i) {
    int severity;
    const char *file, *message;
    unsigned line, column;
    tirxCompileResultGetDiagnostic(result, i, &severity, &file, &line, &column,
                                   &message);
  }
  for (size_t i = 0, e = tirxCompileResultGetNumStages(result); i < e; ++i) {
    (void)tirxCompileResultGetStageName(result, i);
    (void)tirxCompileResultGetStageIR(result, i);
    (void)tirxCompileResultGetStageSeconds(result, i);
  }
  for (size_t i = 0, e = tirxCompileResultGetNumKernelReports(result); i < e;
       ++i) {
    const char *name;
    int64_t registers, spillStores, spillLoads, stackFrame;
    (void)tirxCompileResultGetKernelReport(
        result, i, &name, &registers, &spillStores, &spillLoads, &stackFrame);
  }
  tirxCompileResultDestroy(result);
  return 0;
}
