//===- ModuleToBinary.cpp - PTX/cubin with ptxas's register report --------===//
//
// Part of the TirX project.
//
// gpu.module ⇒ gpu.binary through the NVVM target (PTX), then ptxas -v: the
// cubin (format=bin) and, for every kernel, ptxas's registers and spills
// (docs/registers.md). Upstream gpu-module-to-binary runs ptxas too, but
// drops its report.
//
//===----------------------------------------------------------------------===//

#include "PTXSerializer.h"
#include "TirX/Conversion/CUDAToolkit.h"
#include "TirX/Conversion/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir::tirx {
#define GEN_PASS_DEF_TIRXMODULETOBINARY
#include "TirX/Conversion/Passes.h.inc"
} // namespace mlir::tirx

using namespace mlir;

namespace {
/// ptxas -v's lines about one function.
struct PtxasReport {
  int64_t registers = -1;
  int64_t stackFrame = 0, spillStores = 0, spillLoads = 0;
};
} // namespace

/// The number before `unit` in `line` ("0 bytes spill stores" ⇒ 0), or -1.
static int64_t numberBefore(StringRef line, StringRef unit) {
  size_t at = line.find(unit);
  if (at == StringRef::npos)
    return -1;
  StringRef head = line.take_front(at).rtrim();
  StringRef digits = head.substr(head.find_last_not_of("0123456789") + 1);
  int64_t value = -1;
  if (digits.getAsInteger(10, value))
    return -1;
  return value;
}

/// Parses ptxas -v's log:
///   ptxas info    : Function properties for NAME
///       0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
///   ptxas info    : Used 18 registers, used 0 barriers
/// ("Used" follows the entry function's properties.)
static llvm::StringMap<PtxasReport> parsePtxasLog(StringRef log) {
  llvm::StringMap<PtxasReport> reports;
  std::string current;
  SmallVector<StringRef> lines;
  log.split(lines, '\n');
  for (StringRef line : lines) {
    if (size_t at = line.find("Function properties for ");
        at != StringRef::npos) {
      current = line.substr(at + strlen("Function properties for ")).trim();
      reports[current];
      continue;
    }
    if (current.empty())
      continue;
    PtxasReport &report = reports[current];
    if (line.contains("bytes stack frame")) {
      report.stackFrame = numberBefore(line, " bytes stack frame");
      report.spillStores = numberBefore(line, " bytes spill stores");
      report.spillLoads = numberBefore(line, " bytes spill loads");
    } else if (line.contains(": Used ")) {
      report.registers = numberBefore(line, " registers");
    }
  }
  return reports;
}

namespace {
struct ModuleToBinaryPass
    : public tirx::impl::TirXModuleToBinaryBase<ModuleToBinaryPass> {
  using Base::Base;

  void runOnOperation() override;

  /// Runs ptxas on `ptx`; the log in `log`, the cubin in `cubin`. A
  /// function ptxas finds unresolved is reported where `calls` (the first
  /// call of each external function of the module) says it is called.
  LogicalResult assemble(Location loc, StringRef ptxas, StringRef chip,
                         unsigned opt, StringRef ptx,
                         const llvm::StringMap<Location> &calls,
                         std::string &log, std::string &cubin);
};
} // namespace

/// The first call, in program order, of each function `module` declares
/// without a body (libdevice's `__nv_*`, linked after translation): the
/// location of the user's math op that needed it.
static llvm::StringMap<Location> getExternalCalls(gpu::GPUModuleOp module) {
  llvm::StringMap<Location> calls;
  module.walk([&](LLVM::CallOp call) {
    std::optional<StringRef> callee = call.getCallee();
    if (!callee)
      return;
    auto function = SymbolTable::lookupNearestSymbolFrom<LLVM::LLVMFuncOp>(
        call, call.getCalleeAttr());
    if (function && function.isExternal())
      calls.try_emplace(*callee, call.getLoc());
  });
  return calls;
}

/// Where libdevice was looked for, and how to provide it.
static void describeLibdevice(InFlightDiagnostic &diag, StringRef toolkit) {
  if (toolkit.empty())
    diag << "no CUDA toolkit was found ($TIRX_CUDA_PATH, $CUDA_HOME, "
            "$CUDA_PATH and $CUDA_ROOT are unset, and /usr/local/cuda has no "
            "nvvm/libdevice)";
  else
    diag << "looked for " << tirx::getLibdevicePath(toolkit)
         << " (in the CUDA toolkit " << toolkit << ", from "
         << tirx::describeCUDAToolkit(toolkit) << ")";
  diag << "; point $TIRX_CUDA_PATH (or the pipeline's cuda-path) at a CUDA "
          "toolkit that has nvvm/libdevice/libdevice.10.bc";
}

LogicalResult
ModuleToBinaryPass::assemble(Location loc, StringRef ptxas, StringRef chip,
                             unsigned opt, StringRef ptx,
                             const llvm::StringMap<Location> &calls,
                             std::string &log, std::string &cubin) {
  SmallString<128> ptxPath, cubinPath, logPath;
  int fd = -1;
  if (llvm::sys::fs::createTemporaryFile("tirx", "ptx", fd, ptxPath))
    return emitError(loc) << "ptxas: cannot create a temporary file";
  {
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    os << ptx;
  }
  auto removeFiles = llvm::make_scope_exit([&] {
    for (StringRef path : {ptxPath.str(), cubinPath.str(), logPath.str()})
      if (!path.empty())
        llvm::sys::fs::remove(path);
  });
  if (llvm::sys::fs::createTemporaryFile("tirx", "cubin", cubinPath) ||
      llvm::sys::fs::createTemporaryFile("tirx", "log", logPath))
    return emitError(loc) << "ptxas: cannot create a temporary file";
  std::string arch = "-arch=" + chip.str();
  std::string level = "--opt-level=" + std::to_string(std::min(opt, 3u));
  SmallVector<StringRef> args = {ptxas,         arch, level,          "-v",
                                 ptxPath.str(), "-o", cubinPath.str()};
  std::optional<StringRef> redirects[] = {std::nullopt, logPath.str(),
                                          logPath.str()};
  std::string message;
  int status = llvm::sys::ExecuteAndWait(ptxas, args, std::nullopt, redirects,
                                         0, 0, &message);
  if (auto buffer = llvm::MemoryBuffer::getFile(logPath))
    log = (*buffer)->getBuffer().str();
  if (status != 0) {
    // "ptxas fatal : Unresolved extern function '__nv_erff'": at the call.
    StringRef unresolved;
    StringRef marker = "Unresolved extern function '";
    if (size_t at = log.find(marker); at != std::string::npos)
      unresolved = StringRef(log).substr(at + marker.size()).split('\'').first;
    auto call = calls.find(unresolved);
    InFlightDiagnostic diag =
        emitError(call == calls.end() ? loc : call->second)
        << "ptxas (" << ptxas << ") failed" << (message.empty() ? "" : ": ")
        << message << "\n"
        << StringRef(log).trim();
    if (unresolved.starts_with("__nv_")) {
      std::string libdevice = tirx::getLibdevicePath(toolkit);
      if (!toolkit.empty() && llvm::sys::fs::is_regular_file(libdevice)) {
        diag << "\nthis call's " << unresolved << " is not in libdevice ("
             << libdevice << ")";
      } else {
        diag << "\nthis math function calls libdevice's " << unresolved
             << ", which was not linked: ";
        describeLibdevice(diag, toolkit);
      }
    }
    return diag;
  }
  auto buffer = llvm::MemoryBuffer::getFile(cubinPath, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!buffer)
    // check-diagnostics: internal, ptxas succeeded, so it wrote the file
    return emitError(loc) << "ptxas wrote no cubin";
  cubin = (*buffer)->getBuffer().str();
  return success();
}

/// Marks every inline-asm call of `module` convergent (clang does so for
/// CUDA device code): TirX's inline PTX includes warp- and warpgroup-wide
/// `.sync`/`.aligned` instructions, which LLVM must not move into or
/// duplicate across divergent control flow.
static void markInlineAsmConvergent(llvm::Module &module) {
  for (llvm::Function &function : module)
    for (llvm::BasicBlock &block : function)
      for (llvm::Instruction &instruction : block)
        if (auto *call = llvm::dyn_cast<llvm::CallBase>(&instruction);
            call && call->isInlineAsm())
          call->addFnAttr(llvm::Attribute::Convergent);
}

void ModuleToBinaryPass::runOnOperation() {
  ModuleOp top = getOperation();
  MLIRContext *context = &getContext();
  bool binary = format == "bin" || format == "binary";
  if (!binary && format != "isa" && format != "assembly") {
    top.emitError("tirx-module-to-binary: format '")
        << format << "' is not bin or isa";
    return signalPassFailure();
  }

  // The kernels' locations, before their modules become binaries; with
  // max-registers, a .maxnreg on each (ptxas ignores -maxrregcount for a
  // kernel with .maxntid, which every TirX kernel has).
  llvm::StringMap<llvm::StringMap<Location>> kernels;
  for (auto module : top.getOps<gpu::GPUModuleOp>())
    module.walk([&](Operation *op) {
      auto symbol = dyn_cast<SymbolOpInterface>(op);
      if (!symbol || op == module ||
          !(isa<gpu::GPUFuncOp>(op) ||
            op->hasAttr(NVVM::NVVMDialect::getKernelFuncAttrName()) ||
            op->hasAttr(gpu::GPUDialect::getKernelFuncAttrName())))
        return;
      kernels[module.getName()].try_emplace(symbol.getName(), op->getLoc());
      if (maxRegisters)
        op->setAttr(NVVM::NVVMDialect::getMaxnregAttrName(),
                    Builder(context).getI32IntegerAttr(maxRegisters));
    });

  // Precise math calls libdevice's __nv_* functions, which the NVVM target
  // links from the toolkit's libdevice: without it, it warns at the module
  // and ptxas fails on an unresolved function. Refuse at the first call
  // instead, the user's math op, saying what was looked for where.
  llvm::StringMap<llvm::StringMap<Location>> externalCalls;
  for (auto module : top.getOps<gpu::GPUModuleOp>())
    externalCalls[module.getName()] = getExternalCalls(module);
  if (!toolkit.empty() &&
      !llvm::sys::fs::is_regular_file(tirx::getLibdevicePath(toolkit))) {
    for (auto module : top.getOps<gpu::GPUModuleOp>()) {
      std::optional<std::pair<StringRef, Location>> first;
      module.walk([&](LLVM::CallOp call) {
        std::optional<StringRef> callee = call.getCallee();
        if (first || !callee || !callee->starts_with("__nv_") ||
            !externalCalls[module.getName()].count(*callee))
          return;
        first = {*callee, call.getLoc()};
      });
      if (!first)
        continue;
      InFlightDiagnostic diag = emitError(first->second)
                                << "this math function calls libdevice's "
                                << first->first
                                << ", but libdevice is not there: ";
      describeLibdevice(diag, toolkit);
      return signalPassFailure();
    }
  }

  std::unique_ptr<SymbolTable> table;
  auto getTable = [&]() -> SymbolTable * {
    if (!table)
      table = std::make_unique<SymbolTable>(top);
    return table.get();
  };
  gpu::TargetOptions options(toolkit, {}, "", "",
                             gpu::CompilationTarget::Assembly, getTable,
                             markInlineAsmConvergent);
  if (failed(tirx::serializeGPUModulesToPTX(top, options)))
    return signalPassFailure();
  if (!binary && !ptxasReport)
    return;

  std::string ptxas = tirx::findPtxas(toolkit);
  if (ptxas.empty() && binary) {
    top.emitError("cannot assemble a cubin: no ptxas in ")
        << (toolkit.empty() ? StringRef("(no toolkit)") : StringRef(toolkit))
        << "/bin or on PATH; set cuda-path or install the CUDA toolkit";
    return signalPassFailure();
  }
  if (ptxas.empty())
    return; // format=isa without ptxas: the PTX, no report.

  for (auto op : llvm::make_early_inc_range(top.getOps<gpu::BinaryOp>())) {
    SmallVector<Attribute> objects;
    for (Attribute attr : op.getObjects()) {
      auto object = dyn_cast<gpu::ObjectAttr>(attr);
      auto target = object ? dyn_cast<NVVM::NVVMTargetAttr>(object.getTarget())
                           : NVVM::NVVMTargetAttr();
      if (!target || object.getFormat() != gpu::CompilationTarget::Assembly) {
        objects.push_back(attr);
        continue;
      }
      std::string log, cubin;
      if (failed(assemble(op.getLoc(), ptxas, target.getChip(), target.getO(),
                          object.getObject().getValue(),
                          externalCalls[op.getName()], log, cubin)))
        return signalPassFailure();

      const llvm::StringMap<Location> &locations = kernels[op.getName()];
      NamedAttrList report;
      for (auto &[name, entry] : parsePtxasLog(log)) {
        auto location = locations.find(name);
        if (location == locations.end())
          continue; // a device function, not a kernel
        Builder builder(context);
        auto field = [&](StringRef key, int64_t value) {
          return builder.getNamedAttr(key, builder.getI64IntegerAttr(value));
        };
        report.append(name, builder.getDictionaryAttr(
                                {field("registers", entry.registers),
                                 field("spill_loads", entry.spillLoads),
                                 field("spill_stores", entry.spillStores),
                                 field("stack_frame", entry.stackFrame)}));
        if (entry.spillStores > 0 || entry.spillLoads > 0)
          emitWarning(location->second)
              << "ptxas spills registers of kernel '" << name
              << "' to local memory: " << entry.spillStores
              << " bytes of spill stores and " << entry.spillLoads
              << " bytes of spill loads per thread, with " << entry.registers
              << " registers";
      }
      NamedAttrList properties(object.getProperties()
                                   ? object.getProperties()
                                   : DictionaryAttr::get(context));
      properties.set("tirx.ptxas", report.getDictionary(context));
      DictionaryAttr dict = properties.getDictionary(context);
      auto cubinObject = [&] {
        return gpu::ObjectAttr::get(context, target,
                                    gpu::CompilationTarget::Binary,
                                    StringAttr::get(context, cubin), dict,
                                    object.getKernels());
      };
      if (binary) {
        objects.push_back(cubinObject());
        continue;
      }
      objects.push_back(gpu::ObjectAttr::get(context, target,
                                             object.getFormat(),
                                             object.getObject(), dict,
                                             object.getKernels()));
      if (keepCubin)
        objects.push_back(cubinObject());
    }
    op.setObjectsAttr(ArrayAttr::get(context, objects));
  }
}
