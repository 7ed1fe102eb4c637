//===- TirXToGPU.cpp - tirx.kernel to gpu.func ----------------------------===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//

#include "LaunchOperands.h"
#include "TirX/Conversion/Passes.h"
#include "TirX/Dialect/Tile/IR/BulkTensorCopy.h"
#include "TirX/Dialect/Tile/IR/TileOps.h"
#include "TirX/Dialect/TirX/IR/TirXOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/Verifier.h"

namespace mlir::tirx {
#define GEN_PASS_DEF_TIRXTOGPU
#include "TirX/Conversion/Passes.h.inc"
} // namespace mlir::tirx

using namespace mlir;
using namespace mlir::tirx;

/// Name of the GPU module that receives every kernel.
static constexpr llvm::StringLiteral kGPUModuleName = "tirx_kernels";

static gpu::Dimension toGPUDimension(Dim dim) {
  switch (dim) {
  case Dim::x:
    return gpu::Dimension::x;
  case Dim::y:
    return gpu::Dimension::y;
  case Dim::z:
    return gpu::Dimension::z;
  }
  return gpu::Dimension::x;
}

/// Three extents, missing ones 1, as gpu.func's known sizes want them.
static SmallVector<int32_t, 3> getExtents3(ArrayRef<int64_t> extents) {
  SmallVector<int32_t, 3> result(3, 1);
  for (auto [index, extent] : llvm::enumerate(extents))
    result[index] = static_cast<int32_t>(extent);
  return result;
}

/// Rewrites the structure ops of a kernel body to their gpu counterparts.
static void convertBodyOps(Region &body) {
  body.walk([](Operation *op) {
    OpBuilder builder(op);
    // thread_idx ⇒ gpu.thread_id
    if (auto idx = dyn_cast<ThreadIdxOp>(op)) {
      Value id = gpu::ThreadIdOp::create(builder, op->getLoc(),
                                         toGPUDimension(idx.getDim()));
      op->getResult(0).replaceAllUsesWith(id);
      op->erase();
      return;
    }
    // block_idx ⇒ gpu.block_id
    if (auto idx = dyn_cast<BlockIdxOp>(op)) {
      Value id = gpu::BlockIdOp::create(builder, op->getLoc(),
                                        toGPUDimension(idx.getDim()));
      op->getResult(0).replaceAllUsesWith(id);
      op->erase();
      return;
    }
    // cta_sync ⇒ gpu.barrier
    if (isa<CtaSyncOp>(op)) {
      gpu::BarrierOp::create(builder, op->getLoc());
      op->erase();
      return;
    }
    // tirx.print ⇒ gpu.printf, each value as its conversion reads it from
    // the varargs: a float as f64, an integer as i32 or (l, ll) i64.
    if (auto print = dyn_cast<PrintOp>(op)) {
      llvm::Expected<SmallVector<PrintConversion>> conversions =
          parsePrintFormat(print.getFormat());
      if (!conversions) {
        // check-diagnostics: internal, PrintOp's verifier parsed the format
        llvm::consumeError(conversions.takeError());
        return;
      }
      SmallVector<Value> args;
      Location loc = op->getLoc();
      for (auto [conversion, value] :
           llvm::zip(*conversions, print.getArgs())) {
        Type type = value.getType();
        if (conversion.isFloat) {
          if (!type.isF64())
            value = arith::ExtFOp::create(builder, loc, builder.getF64Type(),
                                          value);
        } else {
          Type wanted =
              conversion.isWide ? builder.getI64Type() : builder.getI32Type();
          if (type.isIndex())
            value = arith::IndexCastOp::create(builder, loc, wanted, value);
          else if (type.getIntOrFloatBitWidth() <
                   wanted.getIntOrFloatBitWidth())
            value = type.isUnsignedInteger() || type.isInteger(1)
                        ? arith::ExtUIOp::create(builder, loc, wanted, value)
                              .getResult()
                        : arith::ExtSIOp::create(builder, loc, wanted, value)
                              .getResult();
          else if (type.getIntOrFloatBitWidth() >
                   wanted.getIntOrFloatBitWidth())
            value = arith::TruncIOp::create(builder, loc, wanted, value);
        }
        args.push_back(value);
      }
      gpu::PrintfOp::create(builder, loc, print.getFormatAttr(), args);
      op->erase();
      return;
    }
    // tirx.return ⇒ gpu.return
    if (isa<ReturnOp>(op)) {
      gpu::ReturnOp::create(builder, op->getLoc());
      op->erase();
    }
  });
}

/// The value of an affine expression whose symbols are `args` (a grid
/// extent over the kernel's size variables), as index arithmetic.
static Value buildAffine(OpBuilder &builder, Location loc, AffineExpr expr,
                         ValueRange args,
                         function_ref<Value(int64_t)> constant) {
  if (auto value = dyn_cast<AffineConstantExpr>(expr))
    return constant(value.getValue());
  if (auto symbol = dyn_cast<AffineSymbolExpr>(expr))
    return args[symbol.getPosition()];
  auto binary = cast<AffineBinaryOpExpr>(expr);
  Value lhs = buildAffine(builder, loc, binary.getLHS(), args, constant);
  Value rhs = buildAffine(builder, loc, binary.getRHS(), args, constant);
  switch (expr.getKind()) {
  case AffineExprKind::Add:
    return builder.createOrFold<arith::AddIOp>(loc, lhs, rhs);
  case AffineExprKind::Mul:
    return builder.createOrFold<arith::MulIOp>(loc, lhs, rhs);
  case AffineExprKind::FloorDiv:
    return builder.createOrFold<arith::FloorDivSIOp>(loc, lhs, rhs);
  case AffineExprKind::CeilDiv:
    return builder.createOrFold<arith::CeilDivSIOp>(loc, lhs, rhs);
  default: {
    // Affine mod is non-negative: x - floor(x / c) * c (remsi is not, for
    // x < 0).
    Value quotient = builder.createOrFold<arith::FloorDivSIOp>(loc, lhs, rhs);
    return builder.createOrFold<arith::SubIOp>(
        loc, lhs, builder.createOrFold<arith::MulIOp>(loc, quotient, rhs));
  }
  }
}

/// The grid of `launch` as three index values, from the kernel's arguments
/// (`args`, one per kernel parameter) where it depends on size variables.
static gpu::KernelDim3 buildGrid(OpBuilder &builder, Location loc,
                                 LaunchConfigAttr launch, ValueRange args,
                                 function_ref<Value(int64_t)> constant) {
  SmallVector<Value, 3> extents;
  for (unsigned dim = 0; dim < 3; ++dim)
    extents.push_back(
        dim < launch.getGrid().size()
            ? buildAffine(builder, loc, launch.getGridExpr(dim), args, constant)
            : constant(1));
  return {extents[0], extents[1], extents[2]};
}

/// For embedders: `func.func @<kernel>_launch(args)` that launches the
/// kernel with its launch configuration through gpu.launch_func.
static void buildHostLauncher(SymbolTable &moduleSymbols, KernelOp kernel,
                              gpu::GPUFuncOp func) {
  OpBuilder builder(kernel);
  Location loc = kernel.getLoc();
  auto launcher = func::FuncOp::create(
      builder, loc, (kernel.getSymName() + "_launch").str(),
      builder.getFunctionType(kernel.getArgumentTypes(), {}));
  moduleSymbols.insert(launcher);
  Block *entry = launcher.addEntryBlock();
  builder.setInsertionPointToStart(entry);
  llvm::SmallDenseMap<int64_t, Value> constants;
  auto constant = [&](int64_t value) {
    Value &cached = constants[value];
    if (!cached)
      cached = arith::ConstantIndexOp::create(builder, loc, value);
    return cached;
  };
  auto extents = [&](ArrayRef<int64_t> values) {
    SmallVector<int32_t, 3> padded = getExtents3(values);
    return gpu::KernelDim3{constant(padded[0]), constant(padded[1]),
                           constant(padded[2])};
  };
  LaunchConfigAttr launch = kernel.getLaunch();
  // Past CUDA's static limit the kernel's shared memory is dynamic
  // (tirx-lower-tensors): every launch passes its size.
  Value dynamicShared;
  if (int64_t bytes = getDynamicSharedMemoryBytes(func))
    dynamicShared =
        arith::ConstantIntOp::create(builder, loc, builder.getI32Type(), bytes);
  gpu::LaunchFuncOp::create(
      builder, loc, func,
      buildGrid(builder, loc, launch, entry->getArguments(), constant),
      extents(launch.getBlock()), dynamicShared, entry->getArguments());
  func::ReturnOp::create(builder, loc);
}

/// tirx.launch @k(args) ⇒ gpu.launch_func with k's grid and block. Tensor
/// arguments (memrefs or !llvm.ptr<1>) become pointers, cast to the kernel's
/// tensor types until tirx-lower-tensors gives the kernel pointer arguments.
/// Size variables are the extents of the memrefs (buildLaunchOperands).
static void convertLaunch(LaunchOp launch, gpu::GPUFuncOp func,
                          LaunchConfigAttr config) {
  OpBuilder builder(launch);
  Location loc = launch.getLoc();
  MLIRContext *context = launch.getContext();
  SmallVector<Value> operands = buildLaunchOperands(
      builder, launch, func, [&](Value value, tirx::TensorType param) {
        if (isa<MemRefType>(value.getType())) {
          Value address = memref::ExtractAlignedPointerAsIndexOp::create(
              builder, loc, value);
          Value address64 = arith::IndexCastOp::create(
              builder, loc, builder.getI64Type(), address);
          value = LLVM::IntToPtrOp::create(
              builder, loc, LLVM::LLVMPointerType::get(context, 1), address64);
        }
        return UnrealizedConversionCastOp::create(builder, loc, param, value)
            .getResult(0);
      });
  auto constant = [&](int64_t value) -> Value {
    return arith::ConstantIndexOp::create(builder, loc, value);
  };
  auto extents = [&](ArrayRef<int64_t> values) {
    SmallVector<int32_t, 3> padded = getExtents3(values);
    return gpu::KernelDim3{constant(padded[0]), constant(padded[1]),
                           constant(padded[2])};
  };
  Value dynamicShared;
  if (int64_t bytes = getDynamicSharedMemoryBytes(func))
    dynamicShared =
        arith::ConstantIntOp::create(builder, loc, builder.getI32Type(), bytes);
  gpu::LaunchFuncOp::create(
      builder, loc, func, buildGrid(builder, loc, config, operands, constant),
      extents(config.getBlock()), dynamicShared, operands);
  launch.erase();
}

namespace {
struct TirXToGPUPass : public tirx::impl::TirXToGPUBase<TirXToGPUPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (!chip.empty()) {
      auto marked =
          module->getAttrOfType<StringAttr>(TirXDialect::kChipAttrName);
      if (marked && marked.getValue() != chip) {
        module.emitError("the module is marked ")
            << TirXDialect::kChipAttrName << " = " << marked
            << " but the pipeline compiles for " << chip;
        return signalPassFailure();
      }
      module->setAttr(TirXDialect::kChipAttrName,
                      StringAttr::get(&getContext(), chip));
      if (ptx)
        module->setAttr(
            TirXDialect::kPTXAttrName,
            IntegerAttr::get(IntegerType::get(&getContext(), 32), ptx));
      // Re-check every tile op against the chip now named.
      WalkResult result = module.walk([](Operation *op) {
        if (isa<tile::ApplyOp>(op) && failed(mlir::verify(op)))
          return WalkResult::interrupt();
        return WalkResult::advance();
      });
      if (result.wasInterrupted())
        return signalPassFailure();
    }
    // Kernels of nested modules would silently stay unconverted (and vanish
    // from the PTX): the pass converts the module it runs on.
    WalkResult nested = module.walk([&](KernelOp kernel) {
      if (kernel->getParentOp() == module.getOperation())
        return WalkResult::advance();
      kernel.emitOpError("is inside a nested module; tirx-to-gpu converts "
                         "the kernels of the module it runs on: move the "
                         "kernel there or run the pipeline on the nested "
                         "module");
      return WalkResult::interrupt();
    });
    if (nested.wasInterrupted())
      return signalPassFailure();
    SmallVector<KernelOp> kernels(module.getOps<KernelOp>());
    if (kernels.empty())
      return;

    module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                    UnitAttr::get(&getContext()));
    SymbolTable moduleSymbols(module);
    auto gpuModule = moduleSymbols.lookup<gpu::GPUModuleOp>(kGPUModuleName);
    if (!gpuModule) {
      OpBuilder builder = OpBuilder::atBlockEnd(module.getBody());
      gpuModule =
          gpu::GPUModuleOp::create(builder, module.getLoc(), kGPUModuleName);
      moduleSymbols.insert(gpuModule);
    }
    SymbolTable gpuSymbols(gpuModule);

    // Scalar functions of tile.ewise, and those they call, travel with the
    // kernels.
    llvm::SetVector<func::FuncOp> callees;
    auto addCallee = [&](StringRef name) {
      if (auto callee = moduleSymbols.lookup<func::FuncOp>(name))
        callees.insert(callee);
    };
    for (KernelOp kernel : kernels)
      kernel.walk([&](tile::EwiseOp ewise) {
        addCallee(ewise.getCalleeAttr().getValue());
      });
    for (size_t index = 0; index < callees.size(); ++index)
      func::FuncOp(callees[index]).walk([&](func::CallOp call) {
        addCallee(call.getCallee());
      });
    for (func::FuncOp callee : callees)
      if (!gpuSymbols.lookup(callee.getSymName()))
        gpuSymbols.insert(callee.clone());

    llvm::StringMap<std::pair<gpu::GPUFuncOp, LaunchConfigAttr>> converted;
    for (KernelOp kernel : kernels) {
      OpBuilder builder = OpBuilder::atBlockEnd(gpuModule.getBody());
      LaunchConfigAttr launch = kernel.getLaunch();
      auto func = gpu::GPUFuncOp::create(
          builder, kernel.getLoc(), kernel.getSymName(),
          builder.getFunctionType(kernel.getArgumentTypes(), {}));
      func->setAttr(gpu::GPUDialect::getKernelFuncAttrName(),
                    builder.getUnitAttr());
      func.setKnownBlockSizeAttr(
          builder.getDenseI32ArrayAttr(getExtents3(launch.getBlock())));
      if (launch.hasStaticGrid())
        func.setKnownGridSizeAttr(
            builder.getDenseI32ArrayAttr(getExtents3(launch.getGrid())));
      // Thread-block clusters: .reqnctapercluster in the PTX, so a plain
      // launch runs the grid in clusters (no launch attribute needed).
      if (launch.hasCluster())
        func->setAttr(
            NVVM::NVVMDialect::getClusterDimAttrName(),
            builder.getDenseI32ArrayAttr(getExtents3(launch.getCluster())));
      if (ArrayAttr argAttrs = kernel.getArgAttrsAttr())
        func.setArgAttrsAttr(argAttrs);
      // The TMA copies' tensor maps: hidden parameters after the kernel's
      // own, each a pointer to a 128-byte grid constant (made one by
      // tirx-tensor-map-params once the function is an llvm.func).
      SmallVector<tile::TensorMapKey> tensorMaps =
          tile::collectTensorMaps(kernel.getBody());
      if (!tensorMaps.empty()) {
        unsigned first = func.getNumArguments();
        auto pointer = LLVM::LLVMPointerType::get(builder.getContext());
        for (unsigned index = 0; index < tensorMaps.size(); ++index) {
          if (failed(func.insertArgument(first + index, pointer, {},
                                         kernel.getLoc()))) {
            // check-diagnostics: internal, a gpu.func takes pointer arguments
            kernel.emitOpError("cannot add its tensor-map parameters");
            return signalPassFailure();
          }
          func.setArgAttr(first + index, LLVM::LLVMDialect::getAlignAttrName(),
                          builder.getI64IntegerAttr(tile::kTensorMapAlignment));
        }
        func->setAttr(
            tile::kTensorMapsAttrName,
            tile::getTensorMapsAttr(builder.getContext(), tensorMaps));
      }

      // Move the body: the entry block of gpu.func replaces the kernel's.
      Block &entry = func.getBody().front();
      Block &oldEntry = kernel.getBody().front();
      for (auto [oldArg, newArg] :
           llvm::zip(oldEntry.getArguments(), entry.getArguments()))
        oldArg.replaceAllUsesWith(newArg);
      entry.getOperations().splice(entry.end(), oldEntry.getOperations());
      convertBodyOps(func.getBody());
      gpuSymbols.insert(func);
      // gpu.launch_func passes each argument by its own value; a tensor
      // map is encoded from a tensor, so the embedders' launcher exists for
      // kernels without TMA copies only.
      if (tensorMaps.empty())
        buildHostLauncher(moduleSymbols, kernel, func);
      converted[kernel.getSymName()] = {func, launch};
      kernel.erase();
    }
    SmallVector<LaunchOp> launches;
    module.walk([&](LaunchOp launch) { launches.push_back(launch); });
    for (LaunchOp launch : launches) {
      // The verifier resolved the kernel in the launch's nearest symbol
      // table, and every kernel is a direct child of this module.
      auto it = converted.find(launch.getKernel());
      assert(it != converted.end() && "tirx.launch of an unconverted kernel");
      if (it->second.first->hasAttr(tile::kTensorMapsAttrName)) {
        launch.emitOpError("launches @")
            << launch.getKernel()
            << ", whose TMA copies read tensor maps that tirx.launch does not "
               "encode; launch it through the runtime (Python, the C API or "
               "libTirXRuntime), which encodes them";
        return signalPassFailure();
      }
      convertLaunch(launch, it->second.first, it->second.second);
    }
  }
};
} // namespace
