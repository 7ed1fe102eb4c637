//===- TirXCAPI.cpp - The TirX C API --------------------------------------===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//

#include "TirX-c/TirX.h"
#include "TirX/Conversion/CUDAToolkit.h"
#include "TirX/Dialect/Tile/IR/BulkTensorCopy.h"
#include "TirX/Dialect/Tile/IR/TileDialect.h"
#include "TirX/Dialect/Tile/PTX/PTXInstruction.h"
#include "TirX/Dialect/TirX/IR/TirXDialect.h"
#include "TirX/Dialect/TirX/IR/TirXOps.h"
#include "TirX/InitAll.h"
#include "TirX/Interpreter/Interpreter.h"
#include "TirX/Layout/LayoutAlgebra.h"
#include "TirX/Layout/LayoutPicture.h"
#include "TirX/Layout/LayoutViews.h"
#include "TirX/Layout/TileLayout.h"
#include "TirX/Pipelines/Pipelines.h"
#include "TirX/Transforms/Passes.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/CAPI/Registration.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassInstrumentation.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CheckedArithmetic.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <elf.h>
#include <link.h>
#include <mutex>
#include <string>
#include <vector>

#define TIRX_CAPI extern "C" __attribute__((visibility("default")))

using namespace mlir;
using namespace mlir::tirx;

namespace {
struct DiagnosticRecord {
  int severity;
  std::string file;
  unsigned line = 0, column = 0;
  std::string message;
};

struct KernelReport {
  std::string name;
  int64_t registers = -1, spillStores = 0, spillLoads = 0, stackFrame = 0;
};

/// One node of a grid extent's expression over the kernel's arguments.
struct GridNode {
  AffineExprKind kind;
  int64_t value = 0; // a constant, or the argument of a symbol
  unsigned lhs = 0, rhs = 0;
  bool isSymbol = false, isConstant = false;
};

/// What a launcher needs to know of a kernel (docs/sizes.md).
struct KernelInfo {
  std::string name;
  int64_t block[3] = {1, 1, 1};
  /// Per parameter: the size variable it declares ("" if none), its
  /// declared multiple and its declared largest value (0: none).
  std::vector<std::string> sizeNames;
  std::vector<int64_t> sizeMultiples;
  std::vector<int64_t> sizeAtMost;
  std::vector<GridNode> nodes;
  unsigned grid[3] = {0, 0, 0}; // roots in `nodes`
  /// Dynamic shared memory every launch passes (0: static only).
  int64_t dynamicSharedBytes = 0;
  /// The TMA tensor maps passed after the parameters.
  SmallVector<tile::TensorMapKey> tensorMaps;
};

struct StageRecord {
  std::string name;
  std::string ir;
  double seconds = 0;
};
} // namespace

struct TirxCompileResultImpl {
  bool succeeded = false;
  std::string output;
  /// keep-cubin's cubin of `output` (empty: none).
  std::string cubin;
  std::vector<DiagnosticRecord> diagnostics;
  std::vector<StageRecord> stages;
  std::vector<KernelReport> kernels;
  std::vector<KernelInfo> kernelInfos;
};

struct TirxLayoutImpl {
  TileLayout layout;
};

static char *copyString(llvm::StringRef text) {
  char *copy = static_cast<char *>(std::malloc(text.size() + 1));
  std::memcpy(copy, text.data(), text.size());
  copy[text.size()] = '\0';
  return copy;
}

static void setError(char **error, llvm::StringRef message) {
  if (error)
    *error = copyString(message);
}

static unsigned addGridNode(KernelInfo &info, AffineExpr expr) {
  GridNode node;
  node.kind = expr.getKind();
  if (auto constant = dyn_cast<AffineConstantExpr>(expr)) {
    node.isConstant = true;
    node.value = constant.getValue();
  } else if (auto symbol = dyn_cast<AffineSymbolExpr>(expr)) {
    node.isSymbol = true;
    node.value = symbol.getPosition();
  } else {
    auto binary = cast<AffineBinaryOpExpr>(expr);
    node.lhs = addGridNode(info, binary.getLHS());
    node.rhs = addGridNode(info, binary.getRHS());
  }
  info.nodes.push_back(node);
  return info.nodes.size() - 1;
}

static KernelInfo describeKernel(KernelOp kernel) {
  KernelInfo info;
  info.name = kernel.getSymName().str();
  LaunchConfigAttr launch = kernel.getLaunch();
  for (auto [dim, extent] : llvm::enumerate(launch.getBlock()))
    info.block[dim] = extent;
  for (unsigned index = 0, e = kernel.getNumArguments(); index < e; ++index) {
    auto name = dyn_cast_if_present<StringAttr>(
        kernel.getArgAttr(index, TirXDialect::kSizeAttrName));
    info.sizeNames.push_back(name ? name.getValue().str() : "");
    info.sizeMultiples.push_back(name ? getSizeMultiple(kernel, index) : 1);
    info.sizeAtMost.push_back(name ? getSizeAtMost(kernel, index) : 0);
  }
  for (unsigned dim = 0; dim < 3; ++dim)
    info.grid[dim] =
        addGridNode(info, dim < launch.getGrid().size()
                              ? launch.getGridExpr(dim)
                              : getAffineConstantExpr(1, kernel.getContext()));
  info.dynamicSharedBytes = getDynamicSharedMemoryBytes(kernel);
  info.tensorMaps = tile::collectTensorMaps(kernel.getBody());
  return info;
}

/// The value of node `index` for the kernel's argument values, or an error.
static llvm::Expected<int64_t> evaluateGridNode(const KernelInfo &info,
                                                unsigned index,
                                                const int64_t *args,
                                                size_t numArgs) {
  const GridNode &node = info.nodes[index];
  if (node.isConstant)
    return node.value;
  if (node.isSymbol) {
    if (static_cast<size_t>(node.value) >= numArgs || !args)
      return llvm::createStringError(
          "the grid needs argument #%lld, but %zu argument value(s) were given",
          static_cast<long long>(node.value), numArgs);
    return args[node.value];
  }
  llvm::Expected<int64_t> lhs = evaluateGridNode(info, node.lhs, args, numArgs);
  if (!lhs)
    return lhs.takeError();
  llvm::Expected<int64_t> rhs = evaluateGridNode(info, node.rhs, args, numArgs);
  if (!rhs)
    return rhs.takeError();
  std::optional<int64_t> value;
  switch (node.kind) {
  case AffineExprKind::Add:
    value = llvm::checkedAdd(*lhs, *rhs);
    break;
  case AffineExprKind::Mul:
    value = llvm::checkedMul(*lhs, *rhs);
    break;
  default:
    if (*rhs <= 0)
      // check-diagnostics: internal, KernelOp's verifier rejects it
      return llvm::createStringError("the grid divides by %lld",
                                     static_cast<long long>(*rhs));
    if (node.kind == AffineExprKind::FloorDiv)
      value = llvm::divideFloorSigned(*lhs, *rhs);
    else if (node.kind == AffineExprKind::CeilDiv)
      value = llvm::divideCeilSigned(*lhs, *rhs);
    else
      value = llvm::mod(*lhs, *rhs);
  }
  if (!value)
    return llvm::createStringError("the grid's arithmetic overflows int64");
  return *value;
}

/// The first file/line/column location inside `loc` (names, call sites and
/// fused locations are looked through).
static FileLineColLoc findFileLoc(Location loc) {
  FileLineColLoc found;
  loc->walk([&](Location inner) {
    if (auto file = dyn_cast<FileLineColLoc>(inner)) {
      found = file;
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return found;
}

static void record(TirxCompileResultImpl *result, Diagnostic &diagnostic) {
  DiagnosticRecord entry;
  switch (diagnostic.getSeverity()) {
  case DiagnosticSeverity::Error:
    entry.severity = TIRX_SEVERITY_ERROR;
    break;
  case DiagnosticSeverity::Warning:
    entry.severity = TIRX_SEVERITY_WARNING;
    break;
  case DiagnosticSeverity::Note:
    entry.severity = TIRX_SEVERITY_NOTE;
    break;
  case DiagnosticSeverity::Remark:
    entry.severity = TIRX_SEVERITY_REMARK;
    break;
  }
  if (FileLineColLoc file = findFileLoc(diagnostic.getLocation())) {
    entry.file = file.getFilename().str();
    entry.line = file.getLine();
    entry.column = file.getColumn();
  }
  entry.message = diagnostic.str();
  result->diagnostics.push_back(std::move(entry));
  for (Diagnostic &note : diagnostic.getNotes())
    record(result, note);
}

namespace {
/// Records every pass on the top-level module with its time and, when
/// `captureIR`, the IR after it (printing it costs more than most passes).
/// Passes nest (a `gpu.module` pipeline runs inside its adaptor), so start
/// times form a stack; the adaptors themselves have no pass argument and are
/// not stages: the passes they run are.
class StageRecorder : public PassInstrumentation {
public:
  StageRecorder(TirxCompileResultImpl *result, bool captureIR)
      : result(result), captureIR(captureIR) {}

  void runBeforePass(Pass *, Operation *) override {
    starts.push_back(std::chrono::steady_clock::now());
  }
  void runAfterPassFailed(Pass *, Operation *) override { starts.pop_back(); }
  void runAfterPass(Pass *pass, Operation *op) override {
    std::chrono::duration<double> elapsed =
        std::chrono::steady_clock::now() - starts.pop_back_val();
    if (pass->getArgument().empty())
      return;
    StageRecord stage;
    stage.name = pass->getArgument().str();
    stage.seconds = elapsed.count();
    if (captureIR) {
      Operation *root = op;
      while (root->getParentOp())
        root = root->getParentOp();
      llvm::raw_string_ostream os(stage.ir);
      root->print(os);
    }
    result->stages.push_back(std::move(stage));
  }

private:
  TirxCompileResultImpl *result;
  bool captureIR;
  llvm::SmallVector<std::chrono::steady_clock::time_point> starts;
};
} // namespace

/// The context of the type helpers (tirxInferRegionType), shared by every
/// thread: its callers hold getContextMutex(), since a diagnostic handler is
/// the context's, not the thread's. tirxCompile makes its own context per
/// call and takes no lock (docs/python.md, "Threads").
static std::mutex &getContextMutex() {
  static std::mutex mutex;
  return mutex;
}

static MLIRContext &getContext() {
  static MLIRContext *context = [] {
    DialectRegistry registry;
    registerAllTirXDialects(registry);
    auto *created = new MLIRContext(registry);
    created->loadAllAvailableDialects();
    return created;
  }();
  return *context;
}

//===----------------------------------------------------------------------===//
// Registration
//===----------------------------------------------------------------------===//

MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(TirX, tirx, mlir::tirx::TirXDialect)
MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(Tile, tile, mlir::tirx::tile::TileDialect)

TIRX_CAPI void tirxRegisterAllPasses(void) { registerAllTirXPasses(); }

//===----------------------------------------------------------------------===//
// Compilation
//===----------------------------------------------------------------------===//

namespace {
/// A context of every TirX dialect whose diagnostics `result` records.
struct RecordingContext {
  explicit RecordingContext(TirxCompileResultImpl *result)
      : context(getRegistry()),
        handler(&context, [result](Diagnostic &diagnostic) {
          record(result, diagnostic);
          return success();
        }) {
    context.disableMultithreading();
    context.printOpOnDiagnostic(false);
  }
  static DialectRegistry getRegistry() {
    DialectRegistry registry;
    registerAllTirXDialects(registry);
    return registry;
  }
  MLIRContext context;
  ScopedDiagnosticHandler handler;
};
} // namespace

/// Parses and verifies `ir` (diagnostics go to `context`'s handler) and
/// records its kernels' launch information in `result`.
static OwningOpRef<ModuleOp> parseInput(TirxCompileResultImpl *result,
                                        MLIRContext &context, const char *ir,
                                        size_t irSize, const char *name) {
  if (!ir && irSize) {
    emitError(UnknownLoc::get(&context))
        << "no IR: the text is NULL but its size is " << irSize;
    return nullptr;
  }
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(
          llvm::StringRef(ir ? ir : "", irSize), name ? name : "<tirx>"),
      llvm::SMLoc());
  OwningOpRef<ModuleOp> module =
      parseSourceFile<ModuleOp>(sourceMgr, ParserConfig(&context));
  if (!module)
    return nullptr;
  module->walk([&](KernelOp kernel) {
    result->kernelInfos.push_back(describeKernel(kernel));
  });
  return module;
}

TIRX_CAPI TirxCompileResult tirxCompile(const char *ir, size_t irSize,
                                        const char *name, const char *options,
                                        int keepStages) {
  auto *result = new TirxCompileResultImpl;
  RecordingContext recording(result);
  MLIRContext &context = recording.context;

  OwningOpRef<ModuleOp> module = parseInput(result, context, ir, irSize, name);
  if (!module)
    return result;

  // LLVM's option parser prints its complaints; check the names first so
  // that every problem comes back as a diagnostic.
  static constexpr llvm::StringLiteral kOptionNames[] = {
      "chip",          "features",   "opt-level",    "format",
      "fast-math",     "cuda-path",  "ptxas-report", "keep-cubin",
      "max-registers", "ptx-output", "strict-races", "race-proof"};
  llvm::SmallVector<llvm::StringRef> words;
  llvm::StringRef(options ? options : "").split(words, ' ', -1, false);
  for (llvm::StringRef word : words) {
    llvm::StringRef key = word.split('=').first;
    if (!llvm::is_contained(kOptionNames, key)) {
      InFlightDiagnostic diag = emitError(UnknownLoc::get(&context))
                                << "invalid compile options '"
                                << (options ? options : "")
                                << "': unknown option '" << key << "' (known: ";
      llvm::interleaveComma(kOptionNames, diag);
      diag << ")";
      return result;
    }
  }
  auto pipelineOptions =
      TirXToPTXOptions::createFromString(options ? options : "");
  if (!pipelineOptions) {
    emitError(UnknownLoc::get(&context))
        << "invalid compile options '" << (options ? options : "") << "'";
    return result;
  }
  if (llvm::Error error = verifyTirXToPTXOptions(*pipelineOptions)) {
    emitError(UnknownLoc::get(&context)) << llvm::toString(std::move(error));
    return result;
  }
  PassManager pm(&context);
  buildTirXToPTXPipeline(pm, *pipelineOptions);
  if (keepStages) {
    StageRecord input;
    input.name = "input";
    llvm::raw_string_ostream os(input.ir);
    module->print(os);
    result->stages.push_back(std::move(input));
  }
  pm.addInstrumentation(std::make_unique<StageRecorder>(result, keepStages));
  if (failed(pm.run(*module)))
    return result;
  module->walk([&](gpu::BinaryOp binary) {
    for (auto [index, object] : llvm::enumerate(binary.getObjects())) {
      auto gpuObject = dyn_cast<gpu::ObjectAttr>(object);
      if (!gpuObject)
        continue;
      // keep-cubin's cubin follows the PTX (tirx-module-to-binary).
      if (index > 0 &&
          gpuObject.getFormat() == gpu::CompilationTarget::Binary) {
        result->cubin += gpuObject.getObject().getValue().str();
        continue;
      }
      result->output += gpuObject.getObject().getValue().str();
      // ptxas's report (tirx-module-to-binary, docs/registers.md).
      DictionaryAttr properties = gpuObject.getProperties();
      auto reports = properties ? properties.getAs<DictionaryAttr>("tirx.ptxas")
                                : DictionaryAttr();
      for (NamedAttribute kernel :
           reports ? reports.getValue() : ArrayRef<NamedAttribute>()) {
        auto fields = dyn_cast<DictionaryAttr>(kernel.getValue());
        if (!fields)
          continue;
        auto get = [&](StringRef key, int64_t otherwise) {
          auto value = fields.getAs<IntegerAttr>(key);
          return value ? value.getInt() : otherwise;
        };
        result->kernels.push_back({kernel.getName().str(), get("registers", -1),
                                   get("spill_stores", 0),
                                   get("spill_loads", 0),
                                   get("stack_frame", 0)});
      }
    }
  });
  result->succeeded = !result->output.empty();
  if (!result->succeeded)
    emitError(module->getLoc()) << "the module has no tirx.kernel to compile";
  return result;
}

TIRX_CAPI TirxCompileResult tirxInterpret(const char *ir, size_t irSize,
                                          const char *name, const char *kernel,
                                          const TirxInterpretArgument *args,
                                          size_t numArgs, const char *options) {
  auto *result = new TirxCompileResultImpl;
  RecordingContext recording(result);
  MLIRContext &context = recording.context;
  std::string optionsError;
  FailureOr<interp::InterpreterOptions> interpreterOptions =
      interp::parseInterpreterOptions(options ? options : "", optionsError);
  if (failed(interpreterOptions)) {
    emitError(UnknownLoc::get(&context))
        << "invalid interpreter options '" << options << "': " << optionsError;
    return result;
  }
  OwningOpRef<ModuleOp> module = parseInput(result, context, ir, irSize, name);
  if (!module)
    return result;
  PassManager pm(&context);
  // The interpreter checks races as they happen (the race proof's
  // referee): it runs kernels the proof refuses.
  tirx::TirXVerifyKernelsOptions verifyOptions;
  verifyOptions.raceProof = false;
  pm.addPass(tirx::createTirXVerifyKernels(verifyOptions));
  if (failed(pm.run(*module)))
    return result;
  llvm::SmallVector<interp::KernelArgument> arguments(numArgs);
  for (size_t index = 0; index < numArgs; ++index) {
    arguments[index].data = args[index].data;
    arguments[index].bytes = args[index].bytes;
    arguments[index].scalarBits = args[index].scalar;
  }
  // The run is the result's one stage: callers tell a kernel that did not
  // verify from a run whose check failed by its presence.
  auto start = std::chrono::steady_clock::now();
  result->succeeded = succeeded(interp::runKernel(
      *module, kernel ? kernel : "", arguments, *interpreterOptions));
  StageRecord run;
  run.name = "interpret";
  run.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  result->stages.push_back(std::move(run));
  return result;
}

TIRX_CAPI int tirxCompileResultSucceeded(TirxCompileResult result) {
  return result && result->succeeded;
}

// Accessors take NULL results and out-of-range indices: "", 0 or NULL.

TIRX_CAPI const char *tirxCompileResultGetOutput(TirxCompileResult result,
                                                 size_t *size) {
  if (size)
    *size = result ? result->output.size() : 0;
  return result ? result->output.c_str() : "";
}

TIRX_CAPI const char *tirxCompileResultGetCubin(TirxCompileResult result,
                                                size_t *size) {
  if (size)
    *size = result ? result->cubin.size() : 0;
  return result ? result->cubin.data() : "";
}

TIRX_CAPI size_t tirxCompileResultGetNumDiagnostics(TirxCompileResult result) {
  return result ? result->diagnostics.size() : 0;
}

TIRX_CAPI void tirxCompileResultGetDiagnostic(TirxCompileResult result,
                                              size_t index, int *severity,
                                              const char **file, unsigned *line,
                                              unsigned *column,
                                              const char **message) {
  static const DiagnosticRecord none{TIRX_SEVERITY_ERROR, "", 0, 0, ""};
  const DiagnosticRecord &entry = result && index < result->diagnostics.size()
                                      ? result->diagnostics[index]
                                      : none;
  if (severity)
    *severity = entry.severity;
  if (file)
    *file = entry.file.c_str();
  if (line)
    *line = entry.line;
  if (column)
    *column = entry.column;
  if (message)
    *message = entry.message.c_str();
}

TIRX_CAPI size_t tirxCompileResultGetNumStages(TirxCompileResult result) {
  return result ? result->stages.size() : 0;
}

/// The stage `index` of `result`, or null.
static const StageRecord *getStage(TirxCompileResult result, size_t index) {
  return result && index < result->stages.size() ? &result->stages[index]
                                                 : nullptr;
}

TIRX_CAPI const char *tirxCompileResultGetStageName(TirxCompileResult result,
                                                    size_t index) {
  const StageRecord *stage = getStage(result, index);
  return stage ? stage->name.c_str() : nullptr;
}

TIRX_CAPI const char *tirxCompileResultGetStageIR(TirxCompileResult result,
                                                  size_t index) {
  const StageRecord *stage = getStage(result, index);
  return stage ? stage->ir.c_str() : nullptr;
}

TIRX_CAPI double tirxCompileResultGetStageSeconds(TirxCompileResult result,
                                                  size_t index) {
  const StageRecord *stage = getStage(result, index);
  return stage ? stage->seconds : 0.0;
}

TIRX_CAPI size_t
tirxCompileResultGetNumKernelReports(TirxCompileResult result) {
  return result ? result->kernels.size() : 0;
}

TIRX_CAPI int tirxCompileResultGetKernelReport(TirxCompileResult result,
                                               size_t index, const char **name,
                                               int64_t *registers,
                                               int64_t *spillStores,
                                               int64_t *spillLoads,
                                               int64_t *stackFrame) {
  if (!result || index >= result->kernels.size())
    return 1;
  const KernelReport &report = result->kernels[index];
  if (name)
    *name = report.name.c_str();
  if (registers)
    *registers = report.registers;
  if (spillStores)
    *spillStores = report.spillStores;
  if (spillLoads)
    *spillLoads = report.spillLoads;
  if (stackFrame)
    *stackFrame = report.stackFrame;
  return 0;
}

TIRX_CAPI size_t tirxCompileResultGetNumKernels(TirxCompileResult result) {
  return result ? result->kernelInfos.size() : 0;
}

TIRX_CAPI int tirxCompileResultGetKernel(TirxCompileResult result, size_t index,
                                         const char **name, size_t *numParams,
                                         int64_t *block) {
  if (!result || index >= result->kernelInfos.size())
    return 1;
  const KernelInfo &info = result->kernelInfos[index];
  if (name)
    *name = info.name.c_str();
  if (numParams)
    *numParams = info.sizeNames.size();
  if (block)
    std::copy(std::begin(info.block), std::end(info.block), block);
  return 0;
}

TIRX_CAPI int tirxCompileResultGetKernelSharedBytes(TirxCompileResult result,
                                                    size_t index,
                                                    int64_t *bytes) {
  if (!result || index >= result->kernelInfos.size() || !bytes)
    return 1;
  *bytes = result->kernelInfos[index].dynamicSharedBytes;
  return 0;
}

TIRX_CAPI int tirxCompileResultGetKernelNumTensorMaps(TirxCompileResult result,
                                                      size_t index,
                                                      size_t *count) {
  if (!result || index >= result->kernelInfos.size() || !count)
    return 1;
  *count = result->kernelInfos[index].tensorMaps.size();
  return 0;
}

TIRX_CAPI int tirxCompileResultGetKernelTensorMap(TirxCompileResult result,
                                                  size_t index, size_t map,
                                                  size_t *tensorParam,
                                                  size_t *rank, int64_t box[5],
                                                  int64_t *swizzleBytes) {
  if (!result || index >= result->kernelInfos.size() ||
      map >= result->kernelInfos[index].tensorMaps.size())
    return 1;
  const tile::TensorMapKey &key = result->kernelInfos[index].tensorMaps[map];
  if (tensorParam)
    *tensorParam = key.argIndex;
  if (rank)
    *rank = key.box.size();
  if (box)
    std::copy(key.box.begin(), key.box.end(), box);
  if (swizzleBytes)
    *swizzleBytes = key.swizzleBytes;
  return 0;
}

TIRX_CAPI const char *
tirxCompileResultGetKernelTensorMapType(TirxCompileResult result, size_t index,
                                        size_t map) {
  if (!result || index >= result->kernelInfos.size() ||
      map >= result->kernelInfos[index].tensorMaps.size())
    return nullptr;
  return result->kernelInfos[index].tensorMaps[map].elementType.c_str();
}

TIRX_CAPI int tirxCompileResultGetKernelSizeParam(TirxCompileResult result,
                                                  size_t index, size_t param,
                                                  const char **sizeName,
                                                  int64_t *multiple) {
  if (!result || index >= result->kernelInfos.size() ||
      param >= result->kernelInfos[index].sizeNames.size())
    return 1;
  const KernelInfo &info = result->kernelInfos[index];
  if (sizeName)
    *sizeName =
        info.sizeNames[param].empty() ? nullptr : info.sizeNames[param].c_str();
  if (multiple)
    *multiple = info.sizeMultiples[param];
  return 0;
}

TIRX_CAPI int tirxCompileResultGetKernelSizeAtMost(TirxCompileResult result,
                                                   size_t index, size_t param,
                                                   int64_t *atMost) {
  if (!result || index >= result->kernelInfos.size() ||
      param >= result->kernelInfos[index].sizeNames.size() || !atMost)
    return 1;
  *atMost = result->kernelInfos[index].sizeAtMost[param];
  return 0;
}

TIRX_CAPI int tirxCompileResultEvaluateGrid(TirxCompileResult result,
                                            size_t index, const int64_t *args,
                                            size_t numArgs, int64_t *grid,
                                            char **error) {
  if (!result || index >= result->kernelInfos.size() || !grid) {
    setError(error, "no such kernel, or grid is NULL");
    return 1;
  }
  const KernelInfo &info = result->kernelInfos[index];
  static constexpr int64_t kLimits[3] = {(int64_t(1) << 31) - 1, 65535, 65535};
  for (unsigned dim = 0; dim < 3; ++dim) {
    llvm::Expected<int64_t> extent =
        evaluateGridNode(info, info.grid[dim], args, numArgs);
    if (!extent) {
      setError(error, llvm::toString(extent.takeError()));
      return 1;
    }
    if (*extent < 1 || *extent > kLimits[dim]) {
      setError(error, ("grid extent " + llvm::Twine("xyz"[dim]) + " = " +
                       llvm::Twine(*extent) + " is out of range [1, " +
                       llvm::Twine(kLimits[dim]) + "]")
                          .str());
      return 1;
    }
    grid[dim] = *extent;
  }
  return 0;
}

TIRX_CAPI void tirxCompileResultDestroy(TirxCompileResult result) {
  delete result;
}

TIRX_CAPI char *tirxInferRegionType(const char *sourceType,
                                    const int64_t *offsets,
                                    const int64_t *sizes, size_t rank,
                                    char **error) {
  if (!sourceType || (rank && (!offsets || !sizes))) {
    setError(error, "the source type, offsets or sizes are NULL");
    return nullptr;
  }
  std::lock_guard<std::mutex> lock(getContextMutex());
  MLIRContext &context = getContext();
  std::string message;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diagnostic) {
    if (message.empty())
      message = diagnostic.str();
    return success();
  });
  auto type =
      dyn_cast_if_present<tirx::TensorType>(parseType(sourceType, &context));
  if (!type) {
    setError(error, message.empty() ? "not a !tirx.tensor type" : message);
    return nullptr;
  }
  SmallVector<int64_t> staticOffsets;
  for (size_t dim = 0; dim < rank; ++dim)
    staticOffsets.push_back(offsets[dim] == INT64_MIN ? ShapedType::kDynamic
                                                      : offsets[dim]);
  if (rank != type.getShape().size()) {
    setError(error, "region needs one offset and one size per dimension");
    return nullptr;
  }
  FailureOr<tirx::TensorType> result =
      inferRegionType([&] { return emitError(UnknownLoc::get(&context)); },
                      type, staticOffsets, ArrayRef<int64_t>(sizes, rank));
  if (failed(result)) {
    setError(error, message);
    return nullptr;
  }
  std::string text;
  llvm::raw_string_ostream os(text);
  os << *result;
  return copyString(text);
}

//===----------------------------------------------------------------------===//
// Layouts
//===----------------------------------------------------------------------===//

static TirxLayout wrapOrError(llvm::Expected<TileLayout> layout, char **error) {
  if (!layout) {
    setError(error, llvm::toString(layout.takeError()));
    return nullptr;
  }
  return new TirxLayoutImpl{std::move(*layout)};
}

// Layout functions take NULL layouts: NULL, -1 or an error.
static constexpr llvm::StringLiteral kNoLayout = "no layout (NULL)";

TIRX_CAPI TirxLayout tirxLayoutParse(const char *text, char **error) {
  return wrapOrError(TileLayout::parse(text ? text : ""), error);
}

TIRX_CAPI void tirxLayoutDestroy(TirxLayout layout) { delete layout; }

TIRX_CAPI char *tirxLayoutToString(TirxLayout layout) {
  return layout ? copyString(layout->layout.toString()) : nullptr;
}

TIRX_CAPI int64_t tirxLayoutSize(TirxLayout layout, const char *axis) {
  if (!layout)
    return -1;
  if (!axis)
    return layout->layout.size();
  std::optional<Axis> parsed = parseAxisName(axis);
  return parsed ? layout->layout.size(*parsed) : -1;
}

TIRX_CAPI int64_t tirxLayoutSpan(TirxLayout layout, const char *axis) {
  std::optional<Axis> parsed = parseAxisName(axis ? axis : "m");
  return layout && parsed ? layout->layout.span(*parsed) : -1;
}

TIRX_CAPI int tirxLayoutApply(TirxLayout layout, const int64_t *coord,
                              const int64_t *shape, size_t rank,
                              int64_t *physical, char **error) {
  if (!layout || !physical || (rank && (!coord || !shape))) {
    setError(error, layout ? "coordinate, shape or output is NULL" : kNoLayout);
    return 1;
  }
  int64_t elements = 1;
  for (size_t dim = 0; dim < rank; ++dim) {
    if (shape[dim] < 1 || coord[dim] < 0 || coord[dim] >= shape[dim]) {
      setError(error, "coordinate " + std::to_string(coord[dim]) +
                          " is outside dimension " + std::to_string(dim) +
                          " of extent " + std::to_string(shape[dim]));
      return 1;
    }
    if (llvm::MulOverflow(elements, shape[dim], elements)) {
      setError(error, "the shape's element count overflows int64");
      return 1;
    }
  }
  if (elements != layout->layout.size()) {
    setError(error, "the shape has " + std::to_string(elements) +
                        " elements but the layout has " +
                        std::to_string(layout->layout.size()));
    return 1;
  }
  PhysicalCoord result =
      layout->layout.apply(llvm::ArrayRef<int64_t>(coord, rank),
                           llvm::ArrayRef<int64_t>(shape, rank));
  std::copy(result.begin(), result.end(), physical);
  return 0;
}

TIRX_CAPI TirxLayout tirxLayoutCanonicalize(TirxLayout layout) {
  return layout ? new TirxLayoutImpl{layout->layout.canonicalize()} : nullptr;
}

TIRX_CAPI TirxLayout tirxLayoutPack(TirxLayout layout, int64_t factor,
                                    char **error) {
  if (!layout) {
    setError(error, kNoLayout);
    return nullptr;
  }
  return wrapOrError(layout->layout.pack(factor), error);
}

TIRX_CAPI TirxLayout tirxLayoutUnpack(TirxLayout layout, int64_t factor,
                                      char **error) {
  if (!layout) {
    setError(error, kNoLayout);
    return nullptr;
  }
  return wrapOrError(layout->layout.unpack(factor), error);
}

TIRX_CAPI TirxLayout tirxLayoutCompose(TirxLayout outer, TirxLayout inner,
                                       char **error) {
  if (!outer || !inner) {
    setError(error, kNoLayout);
    return nullptr;
  }
  return wrapOrError(compose(outer->layout, inner->layout), error);
}

TIRX_CAPI TirxLayout tirxLayoutComplement(TirxLayout layout,
                                          int64_t cosizeTarget, char **error) {
  if (!layout) {
    setError(error, kNoLayout);
    return nullptr;
  }
  return wrapOrError(complement(layout->layout, cosizeTarget), error);
}

TIRX_CAPI TirxLayout tirxLayoutCoalesce(TirxLayout layout) {
  return layout ? new TirxLayoutImpl{coalesce(layout->layout)} : nullptr;
}

TIRX_CAPI TirxLayout tirxLayoutRightInverse(TirxLayout layout, char **error) {
  if (!layout) {
    setError(error, kNoLayout);
    return nullptr;
  }
  return wrapOrError(rightInverse(layout->layout), error);
}

TIRX_CAPI TirxLayout tirxLayoutLogicalProduct(TirxLayout a, TirxLayout b,
                                              char **error) {
  if (!a || !b) {
    setError(error, kNoLayout);
    return nullptr;
  }
  return wrapOrError(logicalProduct(a->layout, b->layout), error);
}

TIRX_CAPI TirxLayout tirxLayoutLogicalDivide(TirxLayout a, TirxLayout tiler,
                                             char **error) {
  if (!a || !tiler) {
    setError(error, kNoLayout);
    return nullptr;
  }
  return wrapOrError(logicalDivide(a->layout, tiler->layout), error);
}

/// The layout of a by-mode result, its shape copied to `resultShape`.
static TirxLayout wrapShapedOrError(llvm::Expected<ShapedLayout> result,
                                    int64_t *resultShape, char **error) {
  if (!result) {
    setError(error, llvm::toString(result.takeError()));
    return nullptr;
  }
  llvm::copy(result->shape, resultShape);
  return new TirxLayoutImpl{std::move(result->layout)};
}

TIRX_CAPI TirxLayout tirxLayoutTileProduct(TirxLayout a, const int64_t *shapeA,
                                           TirxLayout b, const int64_t *shapeB,
                                           size_t rank, int raked,
                                           int64_t *resultShape, char **error) {
  if (!a || !b || !resultShape || (rank && (!shapeA || !shapeB))) {
    setError(error, a && b ? "a shape or the output is NULL" : kNoLayout);
    return nullptr;
  }
  llvm::ArrayRef<int64_t> dimsA(shapeA, rank), dimsB(shapeB, rank);
  return wrapShapedOrError(
      raked ? rakedProduct(a->layout, dimsA, b->layout, dimsB)
            : blockedProduct(a->layout, dimsA, b->layout, dimsB),
      resultShape, error);
}

TIRX_CAPI TirxLayout tirxLayoutZippedDivide(TirxLayout a, const int64_t *shape,
                                            const int64_t *tile, size_t rank,
                                            int64_t *resultShape,
                                            char **error) {
  if (!a || !resultShape || (rank && (!shape || !tile))) {
    setError(error, a ? "the shape, tile or output is NULL" : kNoLayout);
    return nullptr;
  }
  return wrapShapedOrError(zippedDivide(a->layout,
                                        llvm::ArrayRef<int64_t>(shape, rank),
                                        llvm::ArrayRef<int64_t>(tile, rank)),
                           resultShape, error);
}

TIRX_CAPI char *tirxLayoutPrintView(TirxLayout layout, const int64_t *shape,
                                    size_t rank, int which, char **error) {
  if (!layout || (rank && !shape)) {
    setError(error, layout ? "shape is NULL" : kNoLayout);
    return nullptr;
  }
  llvm::ArrayRef<int64_t> dims(shape, rank);
  if (llvm::Error failure = checkViewShape(layout->layout, dims)) {
    setError(error, llvm::toString(std::move(failure)));
    return nullptr;
  }
  if (llvm::Error failure = checkViewPrintable(layout->layout, dims)) {
    setError(error, llvm::toString(std::move(failure)));
    return nullptr;
  }
  std::string text;
  llvm::raw_string_ostream os(text);
  if (which == 0)
    printTensorView(os, layout->layout, dims);
  else
    printThreadView(os, layout->layout, dims);
  return copyString(text);
}

TIRX_CAPI char *tirxLayoutDrawPicture(TirxLayout layout, const int64_t *shape,
                                      size_t rank, int html, char **error) {
  if (!layout) {
    setError(error, kNoLayout);
    return nullptr;
  }
  llvm::SmallVector<int64_t> dims;
  if (shape)
    dims.assign(shape, shape + rank);
  else
    for (const Iter &iter : layout->layout.getShard())
      dims.push_back(iter.extent);
  if (llvm::Error failure = checkPictureDrawable(layout->layout, dims)) {
    setError(error, llvm::toString(std::move(failure)));
    return nullptr;
  }
  std::string text;
  llvm::raw_string_ostream os(text);
  if (html)
    printLayoutHtml(os, layout->layout, dims);
  else
    printLayoutSvg(os, layout->layout, dims);
  return copyString(text);
}

TIRX_CAPI const char *tirxLayoutAxisName(size_t index) {
  if (index >= kNumAxes)
    return nullptr;
  // Filled once (a thread-safe static), read by any thread.
  static const std::vector<std::string> names = [] {
    std::vector<std::string> all;
    for (size_t axis = 0; axis < kNumAxes; ++axis)
      all.push_back(getAxisName(static_cast<Axis>(axis)).str());
    return all;
  }();
  return names[index].c_str();
}

TIRX_CAPI char *tirxFindCUDAToolkit(void) {
  return copyString(mlir::tirx::findCUDAToolkit(""));
}

TIRX_CAPI char *tirxFindPtxas(void) {
  return copyString(mlir::tirx::findPtxas(mlir::tirx::findCUDAToolkit("")));
}

TIRX_CAPI char *tirxFindCUDATool(const char *name) {
  return copyString(mlir::tirx::findCUDATool(mlir::tirx::findCUDAToolkit(""),
                                             name ? name : ""));
}

//===----------------------------------------------------------------------===//
// Build identity
//===----------------------------------------------------------------------===//

namespace {
/// The loaded object (shared library or program) holding a code address.
struct LoadedObject {
  explicit LoadedObject(const void *code)
      : address(reinterpret_cast<uintptr_t>(code)) {}
  uintptr_t address;
  bool found = false;
  std::string path;
  std::string buildID; // hex; "" when it has none
};
} // namespace

/// The GNU build ID among the notes of a PT_NOTE segment, as hex.
static std::string findBuildID(const char *note, const char *end,
                               size_t align) {
  while (end - note >= static_cast<ptrdiff_t>(sizeof(ElfW(Nhdr)))) {
    const auto *header = reinterpret_cast<const ElfW(Nhdr) *>(note);
    const char *name = note + sizeof(ElfW(Nhdr));
    const char *desc = name + llvm::alignTo(header->n_namesz, align);
    const char *next = desc + llvm::alignTo(header->n_descsz, align);
    if (next > end)
      break;
    if (header->n_type == NT_GNU_BUILD_ID && header->n_namesz == 4 &&
        std::memcmp(name, "GNU", 4) == 0)
      return llvm::toHex(llvm::StringRef(desc, header->n_descsz),
                         /*LowerCase=*/true);
    note = next;
  }
  return "";
}

static int visitLoadedObject(dl_phdr_info *info, size_t, void *data) {
  auto *object = static_cast<LoadedObject *>(data);
  for (ElfW(Half) i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr) &segment = info->dlpi_phdr[i];
    uintptr_t start = info->dlpi_addr + segment.p_vaddr;
    object->found |= segment.p_type == PT_LOAD && object->address >= start &&
                     object->address - start < segment.p_memsz;
  }
  if (!object->found)
    return 0;
  object->path = info->dlpi_name ? info->dlpi_name : "";
  for (ElfW(Half) i = 0; i < info->dlpi_phnum && object->buildID.empty(); ++i) {
    const ElfW(Phdr) &segment = info->dlpi_phdr[i];
    if (segment.p_type != PT_NOTE)
      continue;
    const char *note =
        reinterpret_cast<const char *>(info->dlpi_addr + segment.p_vaddr);
    object->buildID =
        findBuildID(note, note + segment.p_memsz, segment.p_align == 8 ? 8 : 4);
  }
  return 1;
}

/// "<path> build-id <hex>" of the object holding `address`, else (no build
/// ID) "<path> size <bytes> mtime <ns>".
static std::string describeObjectHolding(const void *address) {
  LoadedObject object(address);
  dl_iterate_phdr(visitLoadedObject, &object);
  if (!object.buildID.empty())
    return object.path + " build-id " + object.buildID;
  llvm::sys::fs::file_status status;
  if (object.path.empty() || llvm::sys::fs::status(object.path, status))
    return object.path + " unknown";
  return object.path + " size " + std::to_string(status.getSize()) + " mtime " +
         std::to_string(
             status.getLastModificationTime().time_since_epoch().count());
}

TIRX_CAPI char *tirxBuildIdentity(void) {
  // Code of TirX, of MLIR and of LLVM (NVPTX included): all in this library
  // when it is statically linked, in libMLIR.so and libLLVM.so when not.
  const void *code[] = {
      reinterpret_cast<const void *>(&tirxBuildIdentity),
      reinterpret_cast<const void *>(
          static_cast<InFlightDiagnostic (*)(Location)>(&mlir::emitError)),
      reinterpret_cast<const void *>(&llvm::outs)};
  std::string identity;
  for (const void *address : code) {
    std::string line = describeObjectHolding(address) + "\n";
    if (identity.find(line) == std::string::npos)
      identity += line;
  }
  return copyString(identity);
}

TIRX_CAPI void tirxStringDestroy(char *string) { std::free(string); }

//===----------------------------------------------------------------------===//
// Instructions of the PTX table
//===----------------------------------------------------------------------===//

struct TirxInstructionImpl {
  ptx::Instruction instruction;
  /// Per operand: the element types it takes, in words, and its atom.
  std::vector<std::string> elements;
  std::vector<llvm::SmallVector<int64_t, 2>> atomShapes;
};

TIRX_CAPI TirxInstruction tirxInstructionParse(const char *spelling,
                                               int numOperands, char **error) {
  if (!spelling) {
    setError(error, "no spelling (NULL)");
    return nullptr;
  }
  llvm::Expected<ptx::Instruction> parsed = ptx::parseInstruction(
      spelling,
      numOperands >= 0 ? std::optional<unsigned>(numOperands) : std::nullopt);
  if (!parsed) {
    setError(error, llvm::toString(parsed.takeError()));
    return nullptr;
  }
  auto *result = new TirxInstructionImpl{std::move(*parsed), {}, {}};
  for (const ptx::OperandInfo &operand : result->instruction.operands) {
    result->elements.push_back(operand.element.describe());
    llvm::SmallVector<int64_t, 2> shape(operand.atomShape);
    if (shape.empty())
      shape.push_back(operand.atom);
    result->atomShapes.push_back(std::move(shape));
  }
  return result;
}

TIRX_CAPI void tirxInstructionDestroy(TirxInstruction instruction) {
  delete instruction;
}

TIRX_CAPI const char *tirxInstructionGetSpelling(TirxInstruction instruction) {
  return instruction ? instruction->instruction.spelling.c_str() : "";
}

TIRX_CAPI const char *tirxInstructionGetFormName(TirxInstruction instruction) {
  return instruction ? instruction->instruction.formName.c_str() : "";
}

TIRX_CAPI const char *tirxInstructionGetExecKind(TirxInstruction instruction) {
  // The names are string literals of the table.
  return instruction
             ? ptx::getExecKindName(instruction->instruction.exec).data()
             : "";
}

TIRX_CAPI const char *tirxInstructionGetSpace(TirxInstruction instruction) {
  return instruction
             ? ptx::getMemorySpaceName(instruction->instruction.space).data()
             : "";
}

TIRX_CAPI int tirxInstructionGetFloors(TirxInstruction instruction,
                                       unsigned *minSM, unsigned *minPTX,
                                       int *archSpecific) {
  if (!instruction)
    return 1;
  if (minSM)
    *minSM = instruction->instruction.minSM;
  if (minPTX)
    *minPTX = instruction->instruction.minPTX;
  if (archSpecific)
    *archSpecific = instruction->instruction.archSpecific;
  return 0;
}

TIRX_CAPI size_t tirxInstructionGetNumOperands(TirxInstruction instruction) {
  return instruction ? instruction->instruction.operands.size() : 0;
}

TIRX_CAPI int tirxInstructionGetOperandBits(TirxInstruction instruction,
                                            size_t index) {
  if (!instruction || index >= instruction->instruction.operands.size())
    return -1;
  const ptx::ElementClass &element =
      instruction->instruction.operands[index].element;
  return element.kind == ptx::ElementClass::Kind::Any ? 0 : element.bitWidth;
}

TIRX_CAPI int tirxInstructionGetOperand(
    TirxInstruction instruction, size_t index, const char **name,
    const char **element, int *isDestination, int *isReadWrite, int *isMemory,
    size_t *atomRank, const int64_t **atomShape, const char **fragment) {
  if (!instruction || index >= instruction->instruction.operands.size())
    return 1;
  const ptx::OperandInfo &operand = instruction->instruction.operands[index];
  if (name)
    *name = operand.name.c_str();
  if (element)
    *element = instruction->elements[index].c_str();
  if (isDestination)
    *isDestination = operand.isDestination;
  if (isReadWrite)
    *isReadWrite = operand.isReadWrite;
  if (isMemory)
    *isMemory = operand.isMemory;
  if (atomRank)
    *atomRank = instruction->atomShapes[index].size();
  if (atomShape)
    *atomShape = instruction->atomShapes[index].data();
  if (fragment)
    *fragment = operand.fragment.c_str();
  return 0;
}
