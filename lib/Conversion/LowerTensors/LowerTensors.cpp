//===- LowerTensors.cpp - tirx tensors to LLVM pointers -------------------===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//
//
// After tile-dispatch, tensors are only allocated, viewed, restricted and
// accessed by slot or element address. Each tensor value becomes a pointer
// to its storage (global: the kernel argument, shared: a workgroup global,
// local: an alloca of span(m) elements); the tensor type that the value had
// keeps telling how to address it.
//
//===----------------------------------------------------------------------===//

#include "TirX/Conversion/Passes.h"
#include "TirX/Dialect/TirX/IR/TirXOps.h"
#include "TirX/Layout/LayoutGrouping.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"

namespace mlir::tirx {
#define GEN_PASS_DEF_TIRXLOWERTENSORS
#include "TirX/Conversion/Passes.h.inc"
} // namespace mlir::tirx

using namespace mlir;
using namespace mlir::tirx;

/// The element type storage uses: integers are signless in LLVM.
static Type getStorageType(tirx::TensorType type) {
  Type element = type.getElementType();
  if (auto intType = dyn_cast<IntegerType>(element))
    return IntegerType::get(element.getContext(), intType.getWidth());
  return element;
}

static unsigned getAddressSpace(tirx::TensorType type) {
  switch (type.getMemorySpace()) {
  case MemorySpace::global:
    return 1;
  case MemorySpace::shared:
    return 3;
  case MemorySpace::local:
    return 0;
  }
  return 0;
}

/// Adds `digit(index) * stride` for every iter on m of `group` (outer to
/// inner) to `offset`, where digit j of a coordinate is (x / P_j) mod e_j
/// (no modulo for the outermost iter).
static Value addGroupOffset(OpBuilder &builder, Location loc, Value offset,
                            Value index, ArrayRef<Iter> group) {
  auto constant = [&](int64_t value) -> Value {
    return arith::ConstantIndexOp::create(builder, loc, value);
  };
  int64_t inner = 1;
  for (int64_t j = static_cast<int64_t>(group.size()) - 1; j >= 0; --j) {
    const Iter &iter = group[j];
    if (iter.axis == Axis::m && iter.stride != 0) {
      Value digit = index;
      if (inner != 1)
        digit =
            builder.createOrFold<arith::DivUIOp>(loc, digit, constant(inner));
      if (j != 0)
        digit = builder.createOrFold<arith::RemUIOp>(loc, digit,
                                                     constant(iter.extent));
      Value term = builder.createOrFold<arith::MulIOp>(loc, digit,
                                                       constant(iter.stride));
      offset = builder.createOrFold<arith::AddIOp>(loc, offset, term);
    }
    inner *= iter.extent;
  }
  return offset;
}

/// Element offset of `indices` in a tensor of `type`: the layout's m offset
/// plus, per dimension, the digits of its index times the m strides of its
/// iters (LayoutGrouping.h). A layout that does not group by the shape is
/// evaluated as `apply` defines it: flatten row-major, split across all
/// iters. Constant indices fold to a constant.
static Value buildElementOffset(OpBuilder &builder, Location loc,
                                tirx::TensorType type, ValueRange indices) {
  TileLayout layout = type.getLayoutOrDefault();
  Value offset =
      arith::ConstantIndexOp::create(builder, loc, at(layout.getOffset(), Axis::m));
  auto groups = groupByShape(layout, type.getShape());
  if (groups) {
    for (auto [dim, group] : llvm::enumerate(*groups))
      offset = addGroupOffset(builder, loc, offset, indices[dim], group);
    return offset;
  }
  llvm::consumeError(groups.takeError());
  Value flat = arith::ConstantIndexOp::create(builder, loc, 0);
  for (auto [dim, index] : llvm::enumerate(indices)) {
    Value scaled = builder.createOrFold<arith::MulIOp>(
        loc, flat,
        arith::ConstantIndexOp::create(builder, loc, type.getShape()[dim]));
    flat = builder.createOrFold<arith::AddIOp>(loc, scaled, index);
  }
  SmallVector<Iter> shard(layout.getShard());
  return addGroupOffset(builder, loc, offset, flat, shard);
}

static Value buildGEP(OpBuilder &builder, Location loc, Value base,
                      Type elementType, Value indexOffset) {
  Value offset = builder.createOrFold<arith::IndexCastOp>(
      loc, builder.getI64Type(), indexOffset);
  return LLVM::GEPOp::create(builder, loc, base.getType(), elementType, base,
                             ValueRange{offset});
}

namespace {
class TensorLowering {
public:
  explicit TensorLowering(gpu::GPUFuncOp func) : func(func) {}

  LogicalResult run();

private:
  LogicalResult lowerOp(Operation *op);
  Value lookup(Value tensor) { return pointers.lookup(tensor); }

  gpu::GPUFuncOp func;
  /// Tensor value ⇒ pointer to its storage.
  llvm::DenseMap<Value, Value> pointers;
  SmallVector<Operation *> toErase;
  unsigned sharedCount = 0;
};
} // namespace

LogicalResult TensorLowering::run() {
  MLIRContext *context = func.getContext();
  // Global tensor arguments ⇒ !llvm.ptr<1>.
  Block &entry = func.getBody().front();
  SmallVector<Type> argTypes;
  for (BlockArgument arg : entry.getArguments()) {
    if (auto tensor = dyn_cast<tirx::TensorType>(arg.getType())) {
      // Keep the tensor-typed value alive for its users until they are
      // lowered: a cast from the new pointer argument stands in for it.
      Type ptrType =
          LLVM::LLVMPointerType::get(context, getAddressSpace(tensor));
      arg.setType(ptrType);
      OpBuilder builder = OpBuilder::atBlockBegin(&entry);
      auto cast = UnrealizedConversionCastOp::create(builder, func.getLoc(),
                                                     tensor, arg);
      arg.replaceAllUsesExcept(cast.getResult(0), cast);
      pointers[cast.getResult(0)] = arg;
      toErase.push_back(cast);
    }
    argTypes.push_back(arg.getType());
  }
  func.setFunctionType(FunctionType::get(context, argTypes, {}));

  WalkResult result = func.walk([&](Operation *op) {
    return failed(lowerOp(op)) ? WalkResult::interrupt()
                               : WalkResult::advance();
  });
  if (result.wasInterrupted())
    return failure();
  for (Operation *op : llvm::reverse(toErase)) {
    op->dropAllUses();
    op->erase();
  }
  return success();
}

LogicalResult TensorLowering::lowerOp(Operation *op) {
  OpBuilder builder(op);
  Location loc = op->getLoc();
  MLIRContext *context = op->getContext();

  // alloc_local ⇒ alloca of the thread's span(m) slots.
  if (auto alloc = dyn_cast<AllocLocalOp>(op)) {
    tirx::TensorType type = alloc.getResult().getType();
    int64_t span = type.getLayoutOrDefault().storage().span(Axis::m);
    Value count = LLVM::ConstantOp::create(builder, loc, builder.getI64Type(),
                                           span);
    Value ptr = LLVM::AllocaOp::create(
        builder, loc, LLVM::LLVMPointerType::get(context),
        getStorageType(type), count, type.getAlignmentOrDefault());
    pointers[alloc.getResult()] = ptr;
    toErase.push_back(op);
    return success();
  }
  // alloc_shared ⇒ an addr_space 3 global of the GPU module.
  if (auto alloc = dyn_cast<AllocSharedOp>(op)) {
    tirx::TensorType type = alloc.getResult().getType();
    int64_t span = type.getLayoutOrDefault().span(Axis::m);
    auto module = func->getParentOfType<gpu::GPUModuleOp>();
    OpBuilder moduleBuilder = OpBuilder::atBlockBegin(module.getBody());
    std::string name = (func.getName() + "_smem" + Twine(sharedCount++)).str();
    auto arrayType = LLVM::LLVMArrayType::get(getStorageType(type), span);
    LLVM::GlobalOp::create(moduleBuilder, loc, arrayType, /*isConstant=*/false,
                           LLVM::Linkage::Internal, name, Attribute(),
                           type.getAlignmentOrDefault(), /*addrSpace=*/3);
    Value ptr = LLVM::AddressOfOp::create(
        builder, loc, LLVM::LLVMPointerType::get(context, 3), name);
    pointers[alloc.getResult()] = ptr;
    toErase.push_back(op);
    return success();
  }
  // view ⇒ the same pointer.
  if (auto view = dyn_cast<ViewOp>(op)) {
    pointers[view.getResult()] = lookup(view.getSource());
    toErase.push_back(op);
    return success();
  }
  // region ⇒ base + Σ dynamic offset · stride (static offsets live in the
  // result's layout).
  if (auto region = dyn_cast<RegionOp>(op)) {
    Value base = lookup(region.getSource());
    SmallVector<int64_t> strides = region.getDynamicOffsetStrides();
    Value offset = arith::ConstantIndexOp::create(builder, loc, 0);
    for (auto [value, stride] : llvm::zip(region.getOffsets(), strides))
      offset = builder.createOrFold<arith::AddIOp>(
          loc, offset,
          builder.createOrFold<arith::MulIOp>(
              loc, value, arith::ConstantIndexOp::create(builder, loc, stride)));
    pointers[region.getResult()] =
        region.getOffsets().empty()
            ? base
            : buildGEP(builder, loc, base,
                       getStorageType(region.getSource().getType()), offset);
    toErase.push_back(op);
    return success();
  }
  // element_ptr ⇒ getelementptr by the layout offset.
  if (auto elementPtr = dyn_cast<ElementPtrOp>(op)) {
    tirx::TensorType type = elementPtr.getTensor().getType();
    Value offset =
        buildElementOffset(builder, loc, type, elementPtr.getIndices());
    Value ptr = buildGEP(builder, loc, lookup(elementPtr.getTensor()),
                         getStorageType(type), offset);
    elementPtr.getPtr().replaceAllUsesWith(ptr);
    toErase.push_back(op);
    return success();
  }
  // slot_load / slot_store ⇒ load / store of a constant slot.
  if (auto load = dyn_cast<SlotLoadOp>(op)) {
    Value ptr = buildGEP(builder, loc, lookup(load.getTile()),
                         getStorageType(load.getTile().getType()),
                         arith::ConstantIndexOp::create(builder, loc,
                                                        load.getSlot()));
    Value value =
        LLVM::LoadOp::create(builder, loc, load.getValue().getType(), ptr);
    load.getValue().replaceAllUsesWith(value);
    toErase.push_back(op);
    return success();
  }
  if (auto store = dyn_cast<SlotStoreOp>(op)) {
    Value ptr = buildGEP(builder, loc, lookup(store.getTile()),
                         getStorageType(store.getTile().getType()),
                         arith::ConstantIndexOp::create(builder, loc,
                                                        store.getSlot()));
    LLVM::StoreOp::create(builder, loc, store.getValue(), ptr);
    toErase.push_back(op);
    return success();
  }
  return success();
}

namespace {
struct TirXLowerTensorsPass
    : public tirx::impl::TirXLowerTensorsBase<TirXLowerTensorsPass> {
  void runOnOperation() override {
    SmallVector<gpu::GPUFuncOp> funcs;
    getOperation()->walk([&](gpu::GPUFuncOp func) { funcs.push_back(func); });
    for (gpu::GPUFuncOp func : funcs)
      if (failed(TensorLowering(func).run()))
        return signalPassFailure();
    // Host launchers pass global tensors on as pointers.
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      if (func.isExternal())
        continue;
      bool changed = false;
      for (BlockArgument arg : func.getArguments()) {
        if (auto tensor = dyn_cast<tirx::TensorType>(arg.getType())) {
          arg.setType(LLVM::LLVMPointerType::get(&getContext(),
                                                 getAddressSpace(tensor)));
          changed = true;
        }
      }
      if (changed)
        func.setFunctionType(FunctionType::get(
            &getContext(),
            llvm::map_to_vector(func.getArguments(),
                                [](BlockArgument arg) { return arg.getType(); }),
            func.getResultTypes()));
    }
  }
};
} // namespace
