//===- InterpretLaunch.cpp - tirxInterpretLaunch for JIT-run host code ----===//
//
// Part of the TirX project.
//
// The function host code lowered by --tirx-interpret-host calls for each
// tirx.launch: parses the kernels' IR text (once per text), checks the
// kernels as the compiler does, and runs one on the CPU interpreter over
// host memory. Diagnostics go to stderr at the user's source lines; a launch
// that reports an error ends the program with exit code 1.
//
//===----------------------------------------------------------------------===//

#include "InterpretLaunch.h"

#include "TirX/InitAll.h"
#include "TirX/Interpreter/Interpreter.h"
#include "TirX/Transforms/Passes.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <memory>
#include <mutex>

using namespace mlir;

namespace {
/// The kernels of one IR text, parsed and checked once.
struct ParsedKernels {
  OwningOpRef<ModuleOp> module;
  bool valid = false;
};

/// One context for every launch of the program: a launch in a loop parses
/// its text once.
struct InterpreterSession {
  MLIRContext context;
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler diagnostics{sourceMgr, &context, llvm::errs()};
  llvm::DenseMap<const char *, ParsedKernels> parsed;
  std::mutex mutex;

  InterpreterSession() : context(makeRegistry()) {
    context.loadAllAvailableDialects();
    // The diagnostics show the user's source lines, not the generic IR.
    context.printOpOnDiagnostic(false);
  }

  static DialectRegistry makeRegistry() {
    DialectRegistry registry;
    tirx::registerAllTirXDialects(registry);
    return registry;
  }

  ParsedKernels &parse(const char *ir, int64_t irSize) {
    auto [it, inserted] = parsed.try_emplace(ir);
    if (!inserted)
      return it->second;
    ParserConfig config(&context);
    it->second.module = parseSourceString<ModuleOp>(
        StringRef(ir, irSize), config, "<tirx-interpret-host kernels>");
    if (!it->second.module)
      return it->second;
    PassManager pm(&context);
    // The interpreter checks races as they happen (the race proof's
    // referee): it runs kernels the proof refuses.
    tirx::TirXVerifyKernelsOptions verifyOptions;
    verifyOptions.raceProof = false;
    pm.addPass(tirx::createTirXVerifyKernels(verifyOptions));
    it->second.valid = succeeded(pm.run(*it->second.module));
    return it->second;
  }
};
} // namespace

extern "C" int32_t tirxInterpretLaunch(const char *ir, int64_t irSize,
                                       const char *kernel,
                                       const TirxInterpretArgument *args,
                                       int64_t numArgs, const char *options) {
  static InterpreterSession session;
  std::lock_guard<std::mutex> lock(session.mutex);
  std::string optionsError;
  FailureOr<tirx::interp::InterpreterOptions> parsedOptions =
      tirx::interp::parseInterpreterOptions(options ? options : "",
                                            optionsError);
  if (failed(parsedOptions)) {
    llvm::errs() << "tirx-runner: invalid interpreter-options '" << options
                 << "': " << optionsError << "\n";
    std::exit(1);
  }
  const tirx::interp::InterpreterOptions &interpreterOptions = *parsedOptions;
  ParsedKernels &kernels = session.parse(ir, irSize);
  bool ran = false;
  if (kernels.valid) {
    SmallVector<tirx::interp::KernelArgument> arguments(numArgs);
    for (int64_t index = 0; index < numArgs; ++index) {
      arguments[index].data = args[index].data;
      arguments[index].bytes = args[index].bytes;
      arguments[index].scalarBits = args[index].scalar;
    }
    ran = succeeded(tirx::interp::runKernel(*kernels.module, kernel, arguments,
                                            interpreterOptions));
  }
  if (ran)
    return 0;
  llvm::errs() << "tirx-runner: tirx.launch @" << kernel
               << " stopped the program: the interpreter reported the errors "
                  "above\n";
  llvm::errs().flush();
  std::exit(1);
}
