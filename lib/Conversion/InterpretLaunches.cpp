//===- InterpretLaunches.cpp - Host launches onto the CPU interpreter -----===//
//
// Part of the TirX project.
//
// Host code for tirx-runner without a GPU: each tirx.launch calls
// tirxInterpretLaunch(ir, irSize, kernel, args, numArgs, options), which the
// runner provides, with the kernels' IR as a string constant; the GPU's
// memory operations become host memory operations.
//
//===----------------------------------------------------------------------===//

#include "TirX/Conversion/Passes.h"
#include "TirX/Dialect/TirX/IR/TirXOps.h"
#include "TirXToGPU/LaunchOperands.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringSet.h"

namespace mlir::tirx {
#define GEN_PASS_DEF_TIRXINTERPRETLAUNCHES
#include "TirX/Conversion/Passes.h.inc"
} // namespace mlir::tirx

using namespace mlir;
using namespace mlir::tirx;

/// The function the host code calls (tirx-runner defines it):
///   int32_t tirxInterpretLaunch(const char *ir, int64_t irSize,
///                               const char *kernel,
///                               const TirxInterpretArgument *args,
///                               int64_t numArgs, const char *options);
static constexpr llvm::StringLiteral kLaunchFunction = "tirxInterpretLaunch";

/// The functions the kernels of `module` call (ewise bodies), and the
/// functions those call.
static llvm::SetVector<Operation *> collectKernelCallees(ModuleOp module) {
  SymbolTable symbols(module);
  llvm::SetVector<Operation *> callees;
  SmallVector<Operation *> worklist(module.getOps<KernelOp>());
  while (!worklist.empty()) {
    Operation *user = worklist.pop_back_val();
    if (std::optional<SymbolTable::UseRange> uses =
            SymbolTable::getSymbolUses(user))
      for (const SymbolTable::SymbolUse &use : *uses)
        if (auto callee = symbols.lookup<func::FuncOp>(
                use.getSymbolRef().getRootReference()))
          if (callees.insert(callee))
            worklist.push_back(callee);
  }
  return callees;
}

/// The kernels of `module` and `callees`, with the module's attributes, as
/// IR text with every location: what the interpreter parses.
static std::string printKernels(ModuleOp module,
                                const llvm::SetVector<Operation *> &callees) {
  OwningOpRef<ModuleOp> kernels = ModuleOp::create(module.getLoc());
  for (NamedAttribute attr : module->getAttrs())
    if (attr.getName() != SymbolTable::getSymbolAttrName())
      (*kernels)->setAttr(attr.getName(), attr.getValue());
  OpBuilder builder = OpBuilder::atBlockEnd(kernels->getBody());
  for (Operation &op : module.getOps())
    if (isa<KernelOp>(op) || callees.contains(&op))
      builder.clone(op);
  std::string text;
  llvm::raw_string_ostream os(text);
  kernels->print(os, OpPrintingFlags().enableDebugInfo());
  return text;
}

/// `value` as the 64 bits of a scalar argument, low-aligned.
static Value toScalarBits(OpBuilder &builder, Location loc, Value value) {
  Type i64 = builder.getI64Type();
  Type type = value.getType();
  if (type.isIndex())
    return arith::IndexCastUIOp::create(builder, loc, i64, value);
  unsigned width = type.getIntOrFloatBitWidth();
  if (isa<FloatType>(type))
    value = arith::BitcastOp::create(builder, loc,
                                     builder.getIntegerType(width), value);
  if (width < 64)
    value = arith::ExtUIOp::create(builder, loc, i64, value);
  return value;
}

namespace {
struct InterpretLaunchesPass
    : public tirx::impl::TirXInterpretLaunchesBase<InterpretLaunchesPass> {
  using Base::Base;

  void runOnOperation() override;

private:
  /// A global C string of `value` (a NUL is appended), made once per name.
  Value getString(OpBuilder &builder, Location loc, StringRef name,
                  StringRef value);
  LogicalResult convertLaunch(LaunchOp launch, KernelOp kernel, Value ir,
                              int64_t irSize);
  LogicalResult convertMemoryOp(Operation *op);

  llvm::StringSet<> strings;
};
} // namespace

Value InterpretLaunchesPass::getString(OpBuilder &builder, Location loc,
                                       StringRef name, StringRef value) {
  ModuleOp module = getOperation();
  auto pointer = LLVM::LLVMPointerType::get(&getContext());
  if (!strings.insert(name).second) {
    auto global = module.lookupSymbol<LLVM::GlobalOp>(name);
    return LLVM::AddressOfOp::create(builder, loc, pointer,
                                     global.getSymName());
  }
  std::string terminated = value.str();
  terminated.push_back('\0');
  return LLVM::createGlobalString(loc, builder, name, terminated,
                                  LLVM::Linkage::Internal);
}

LogicalResult InterpretLaunchesPass::convertLaunch(LaunchOp launch,
                                                   KernelOp kernel, Value ir,
                                                   int64_t irSize) {
  MLIRContext *context = &getContext();
  Location loc = launch.getLoc();
  OpBuilder builder(launch);
  Type i64 = builder.getI64Type();
  auto pointer = LLVM::LLVMPointerType::get(context);
  auto record = LLVM::LLVMStructType::getLiteral(context, {pointer, i64, i64});
  SmallVector<Value> operands =
      buildLaunchOperands(builder, launch, kernel,
                          [](Value value, tirx::TensorType) { return value; });

  // The records live in the function's entry block: a launch in a loop
  // reuses them.
  auto function = launch->getParentOfType<FunctionOpInterface>();
  if (!function || function.getFunctionBody().empty())
    // check-diagnostics: internal, LaunchOp's verifier wants host code
    return launch.emitOpError("is not inside a function body");
  unsigned numArgs = operands.size();
  auto array = LLVM::LLVMArrayType::get(record, std::max(numArgs, 1u));
  Value records;
  {
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToStart(&function.getFunctionBody().front());
    Value one = LLVM::ConstantOp::create(builder, loc, i64, 1);
    records = LLVM::AllocaOp::create(builder, loc, pointer, array, one);
  }
  auto store = [&](unsigned index, int32_t field, Value value) {
    Value address = LLVM::GEPOp::create(
        builder, loc, pointer, array, records,
        ArrayRef<LLVM::GEPArg>{0, static_cast<int32_t>(index), field});
    LLVM::StoreOp::create(builder, loc, value, address);
  };
  auto toI64 = [&](Value index) -> Value {
    return arith::IndexCastUIOp::create(builder, loc, i64, index);
  };
  Value zero = LLVM::ConstantOp::create(builder, loc, i64, 0);
  Value null = LLVM::ZeroOp::create(builder, loc, pointer);
  for (auto [index, operand] : llvm::enumerate(operands)) {
    auto tensor = dyn_cast<tirx::TensorType>(kernel.getArgumentTypes()[index]);
    if (!tensor) {
      store(index, 0, null);
      store(index, 1, zero);
      store(index, 2, toScalarBits(builder, loc, operand));
      continue;
    }
    // The storage and its bytes: the memref's, or (a bare pointer) the
    // tensor type's extents, the size variables' values in place.
    Value data;
    Value elements = arith::ConstantIndexOp::create(builder, loc, 1);
    if (auto memref = dyn_cast<MemRefType>(operand.getType())) {
      Value address =
          memref::ExtractAlignedPointerAsIndexOp::create(builder, loc, operand);
      data = LLVM::IntToPtrOp::create(builder, loc, pointer, toI64(address));
      for (unsigned dim = 0; dim < memref.getRank(); ++dim)
        elements = arith::MulIOp::create(
            builder, loc, elements,
            memref::DimOp::create(builder, loc, operand, dim));
    } else {
      // A '?' extent always names a size variable (the type's verifier).
      data = LLVM::AddrSpaceCastOp::create(builder, loc, pointer, operand);
      for (auto [dim, extent] : llvm::enumerate(tensor.getShape())) {
        Value value;
        if (StringAttr name = tensor.getSizeName(dim)) {
          BlockArgument size = getSizeArgument(kernel, name);
          value = operands[size.getArgNumber()];
        } else {
          value = arith::ConstantIndexOp::create(builder, loc, extent);
        }
        elements = arith::MulIOp::create(builder, loc, elements, value);
      }
    }
    Value bytes = arith::MulIOp::create(
        builder, loc, elements,
        arith::ConstantIndexOp::create(builder, loc, tensor.getElementBytes()));
    store(index, 0, data);
    store(index, 1, toI64(bytes));
    store(index, 2, zero);
  }

  Value name = getString(builder, loc,
                         ("tirx_interpret_kernel_" + kernel.getSymName()).str(),
                         kernel.getSymName());
  Value options =
      getString(builder, loc, "tirx_interpret_options", interpreterOptions);
  auto callee = getOperation().lookupSymbol<LLVM::LLVMFuncOp>(kLaunchFunction);
  Value status =
      LLVM::CallOp::create(
          builder, loc, callee,
          ValueRange{ir, LLVM::ConstantOp::create(builder, loc, i64, irSize),
                     name, records,
                     LLVM::ConstantOp::create(builder, loc, i64, numArgs),
                     options})
          .getResult();
  Value ok = arith::CmpIOp::create(
      builder, loc, arith::CmpIPredicate::eq, status,
      arith::ConstantIntOp::create(builder, loc, builder.getI32Type(), 0));
  cf::AssertOp::create(builder, loc, ok,
                       ("tirx.launch @" + kernel.getSymName() +
                        ": the interpreter reported errors")
                           .str());
  launch.erase();
  return success();
}

LogicalResult InterpretLaunchesPass::convertMemoryOp(Operation *op) {
  OpBuilder builder(op);
  auto async = dyn_cast<gpu::AsyncOpInterface>(op);
  if (async && (!async.getAsyncDependencies().empty() || async.getAsyncToken()))
    return op->emitOpError("is asynchronous: the interpreter's host code "
                           "takes the synchronous gpu.alloc, gpu.memcpy, "
                           "gpu.dealloc and gpu.wait");
  if (auto alloc = dyn_cast<gpu::AllocOp>(op)) {
    if (alloc.getHostShared())
      return op->emitOpError("is host_shared: the interpreter's host code "
                             "takes device allocations");
    Value memory = memref::AllocOp::create(
        builder, op->getLoc(), alloc.getMemref().getType(),
        alloc.getDynamicSizes(), alloc.getSymbolOperands());
    alloc.getMemref().replaceAllUsesWith(memory);
  } else if (auto dealloc = dyn_cast<gpu::DeallocOp>(op)) {
    memref::DeallocOp::create(builder, op->getLoc(), dealloc.getMemref());
  } else if (auto copy = dyn_cast<gpu::MemcpyOp>(op)) {
    memref::CopyOp::create(builder, op->getLoc(), copy.getSrc(), copy.getDst());
  } else if (!isa<gpu::WaitOp>(op)) {
    return op->emitOpError(
        "has no host form for the interpreter: host code run on it may "
        "use tirx.launch, gpu.alloc, gpu.memcpy, gpu.dealloc and gpu.wait");
  }
  op->erase();
  return success();
}

void InterpretLaunchesPass::runOnOperation() {
  ModuleOp module = getOperation();
  MLIRContext *context = &getContext();
  SmallVector<KernelOp> kernels(module.getOps<KernelOp>());
  SmallVector<LaunchOp> launches;
  SmallVector<Operation *> memoryOps;
  module.walk([&](Operation *op) {
    if (auto launch = dyn_cast<LaunchOp>(op))
      launches.push_back(launch);
    else if (isa<gpu::GPUDialect>(op->getDialect()) &&
             !op->getParentOfType<KernelOp>())
      memoryOps.push_back(op);
  });
  for (Operation *op : memoryOps)
    if (failed(convertMemoryOp(op)))
      return signalPassFailure();

  llvm::SetVector<Operation *> callees = collectKernelCallees(module);
  std::string ir = printKernels(module, callees);
  OpBuilder builder = OpBuilder::atBlockBegin(module.getBody());
  Type i64 = builder.getI64Type();
  auto pointer = LLVM::LLVMPointerType::get(context);
  if (!launches.empty() && !module.lookupSymbol(kLaunchFunction))
    LLVM::LLVMFuncOp::create(
        builder, module.getLoc(), kLaunchFunction,
        LLVM::LLVMFunctionType::get(
            builder.getI32Type(),
            {pointer, i64, pointer, pointer, i64, pointer}));
  SymbolTable symbols(module);
  for (LaunchOp launch : launches) {
    OpBuilder at(launch);
    // The verifier resolved the kernel in the module's symbol table.
    auto kernel = symbols.lookup<KernelOp>(launch.getKernel());
    Value text = getString(at, launch.getLoc(), "tirx_interpret_ir", ir);
    if (failed(convertLaunch(launch, kernel, text, ir.size())))
      return signalPassFailure();
  }

  // The kernels run from their text now; functions only they called go too
  // (in turn: a callee's callee is used until its caller goes).
  for (KernelOp kernel : kernels)
    kernel.erase();
  SmallVector<Operation *> pending(callees.begin(), callees.end());
  for (bool erased = true; erased;) {
    erased = false;
    for (Operation *&callee : pending)
      if (callee && SymbolTable::symbolKnownUseEmpty(callee, module)) {
        callee->erase();
        callee = nullptr;
        erased = true;
      }
  }
}
