//===- TensorOps.cpp - tirx ops: indices, storage, views, barriers --------===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//
//
// A tensor value is its storage and, per lane, the byte offset of its base:
// views and reinterpretations keep both, a region moves the base by its
// dynamic offsets exactly as `tirx-lower-tensors` does (static offsets of a
// statically shaped source live in the result's layout).
//
//===----------------------------------------------------------------------===//

#include "ArithSemantics.h"
#include "KernelRun.h"

#include "TirX/Dialect/TirX/IR/TirXDialect.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/bit.h"

#include <cstdio>

using namespace mlir;
using namespace mlir::tirx;
using namespace mlir::tirx::interp;

/// How messages name the storage of an allocation.
static std::string describeAllocation(Operation *op, StringRef kind) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "the " << kind << " tensor allocated at " << op->getLoc();
  return text;
}

Storage &CtaRun::getSharedStorage(Operation *alloc) {
  std::unique_ptr<Storage> &storage = shared[alloc];
  if (!storage) {
    auto type = cast<tirx::TensorType>(alloc->getResult(0).getType());
    storage = std::make_unique<Storage>();
    storage->kind = Storage::Kind::Shared;
    storage->name = describeAllocation(alloc, "shared");
    storage->origin = alloc;
    storage->allocate(type.getLayoutOrDefault().span(Axis::m) *
                          type.getElementBytes(),
                      /*shadowed=*/true);
  }
  return *storage;
}

LogicalResult WarpExecutor::executeTensorOp(Operation *op, LaneMask mask) {
  KernelRun &launch = cta.launch;
  if (auto index = dyn_cast<ThreadIdxOp>(op)) {
    LaneValue result;
    unsigned dim = static_cast<unsigned>(index.getDim());
    forEachLane(mask, [&](unsigned lane) {
      int64_t tid = getThreadId(lane);
      int64_t coordinates[3] = {tid % launch.block[0],
                                tid / launch.block[0] % launch.block[1],
                                tid / (launch.block[0] * launch.block[1])};
      result.lanes[lane] = coordinates[dim];
    });
    set(index.getResult(), result);
    return success();
  }
  if (auto index = dyn_cast<BlockIdxOp>(op)) {
    LaneValue result;
    result.lanes.fill(cta.blockIndex[static_cast<unsigned>(index.getDim())]);
    set(index.getResult(), result);
    return success();
  }
  if (auto alloc = dyn_cast<AllocLocalOp>(op)) {
    tirx::TensorType type = alloc.getResult().getType();
    std::unique_ptr<Storage> &storage = warp.locals[op];
    if (!storage) {
      storage = std::make_unique<Storage>();
      storage->kind = Storage::Kind::Local;
      storage->name = describeAllocation(op, "register");
      storage->origin = op;
      storage->laneBytes =
          type.getLayoutOrDefault().span(Axis::m) * type.getElementBytes();
      storage->allocate(storage->laneBytes * kWarpSize, /*shadowed=*/false);
    }
    // Contents are undefined after every execution of the allocation.
    std::fill(storage->initialized.begin(), storage->initialized.end(), 0);
    LaneValue result;
    result.storage = storage.get();
    set(alloc.getResult(), result);
    return success();
  }
  if (auto alloc = dyn_cast<AllocSharedOp>(op)) {
    LaneValue result;
    result.storage = &cta.getSharedStorage(op);
    set(alloc.getResult(), result);
    return success();
  }
  if (isa<ViewOp, ReinterpretOp>(op)) {
    set(op->getResult(0), get(op->getOperand(0)));
    return success();
  }
  if (auto region = dyn_cast<RegionOp>(op)) {
    tirx::TensorType sourceType = region.getSource().getType();
    LaneValue result = get(region.getSource());
    int64_t elementBytes = sourceType.getElementBytes();
    if (sourceType.hasStaticShape()) {
      for (auto [offset, dynamicStride] :
           llvm::zip(region.getOffsets(), region.getDynamicOffsetStrides())) {
        const LaneValue &value = get(offset);
        int64_t stride = dynamicStride;
        forEachLane(mask, [&](unsigned lane) {
          result.lanes[lane] +=
              static_cast<int64_t>(value.lanes[lane]) * stride * elementBytes;
        });
      }
    } else {
      // Row-major strides from the size variables; every offset moves the
      // base.
      ArrayRef<int64_t> shape = sourceType.getShape();
      ArrayRef<int64_t> staticOffsets = region.getStaticOffsets();
      unsigned nextDynamic = 0;
      SmallVector<int64_t> strides(shape.size());
      int64_t stride = 1;
      for (int64_t dim = shape.size() - 1; dim >= 0; --dim) {
        strides[dim] = stride;
        StringAttr name = sourceType.getSizeName(dim);
        stride *= name ? launch.getSizeValue(name) : shape[dim];
      }
      for (auto [dimIndex, offset] : llvm::enumerate(staticOffsets)) {
        size_t dim = dimIndex;
        if (!ShapedType::isDynamic(offset)) {
          int64_t bytes = offset * strides[dim] * elementBytes;
          forEachLane(mask,
                      [&](unsigned lane) { result.lanes[lane] += bytes; });
          continue;
        }
        const LaneValue &value = get(region.getOffsets()[nextDynamic++]);
        forEachLane(mask, [&](unsigned lane) {
          result.lanes[lane] += static_cast<int64_t>(value.lanes[lane]) *
                                strides[dim] * elementBytes;
        });
      }
    }
    set(region.getResult(), result);
    return success();
  }
  // A thread's own register slot (T.index(regs[0]), load_element).
  if (auto load = dyn_cast<SlotLoadOp>(op)) {
    const LaneValue &tile = get(load.getTile());
    int64_t bytes = load.getTile().getType().getElementBytes();
    LaneValue result;
    bool ok = true;
    forEachLane(mask, [&](unsigned lane) {
      uint64_t bits = 0;
      if (ok)
        ok = succeeded(read(op, *tile.storage, lane,
                            tile.offset(lane) + load.getSlot() * bytes, bytes,
                            &bits));
      result.lanes[lane] = bits;
    });
    if (!ok)
      return failure();
    set(load.getValue(), result);
    return success();
  }
  if (auto store = dyn_cast<SlotStoreOp>(op)) {
    const LaneValue &tile = get(store.getTile());
    const LaneValue &value = get(store.getValue());
    int64_t bytes = store.getTile().getType().getElementBytes();
    bool ok = true;
    forEachLane(mask, [&](unsigned lane) {
      if (ok)
        ok = succeeded(write(op, *tile.storage, lane,
                             tile.offset(lane) + store.getSlot() * bytes, bytes,
                             &value.lanes[lane]));
    });
    return failure(!ok);
  }
  // Each lane prints, in lane order, to stdout (the GPU's vprintf buffer is
  // the process's stdout too, when the kernel completes).
  if (auto print = dyn_cast<PrintOp>(op)) {
    llvm::Expected<SmallVector<PrintConversion>> conversions =
        parsePrintFormat(print.getFormat());
    if (!conversions) {
      // check-diagnostics: internal, PrintOp's verifier parsed the format
      emitRunError(op, cta) << llvm::toString(conversions.takeError());
      return failure();
    }
    StringRef format = print.getFormat();
    forEachLane(mask, [&](unsigned lane) {
      std::string line;
      size_t next = 0, at = 0;
      for (auto [conversion, value] :
           llvm::zip(*conversions, print.getArgs())) {
        at = conversion.offset;
        // The text before the conversion, with %% as %.
        for (size_t i = next; i < at; ++i) {
          line += format[i];
          if (format[i] == '%' && i + 1 < at && format[i + 1] == '%')
            ++i;
        }
        uint64_t bits = get(value).lanes[lane];
        Type type = value.getType();
        char buffer[128];
        if (conversion.isFloat) {
          llvm::APFloat number(cast<FloatType>(type).getFloatSemantics(),
                               llvm::APInt(type.getIntOrFloatBitWidth(), bits));
          bool losesInfo = false;
          number.convert(llvm::APFloat::IEEEdouble(),
                         llvm::APFloat::rmNearestTiesToEven, &losesInfo);
          snprintf(buffer, sizeof(buffer), conversion.text.c_str(),
                   number.convertToDouble());
        } else {
          unsigned width = getScalarBitWidth(type);
          llvm::APInt number(width, truncateBits(bits, width));
          int64_t extended = type.isUnsignedInteger() || width == 1
                                 ? static_cast<int64_t>(number.getZExtValue())
                                 : number.getSExtValue();
          if (conversion.isWide)
            snprintf(buffer, sizeof(buffer), conversion.text.c_str(),
                     static_cast<long long>(extended));
          else
            snprintf(buffer, sizeof(buffer), conversion.text.c_str(),
                     static_cast<int>(extended));
        }
        line += buffer;
        next = at + conversion.text.size();
      }
      for (size_t i = next; i < format.size(); ++i) {
        line += format[i];
        if (format[i] == '%' && i + 1 < format.size() && format[i + 1] == '%')
          ++i;
      }
      llvm::outs() << line;
    });
    llvm::outs().flush();
    return success();
  }
  if (isa<CtaSyncOp>(op)) {
    if (mask != warp.live) {
      unsigned skipping = llvm::countr_zero(warp.live & ~mask);
      emitRunError(op, cta)
          << "cta_sync is reached by only part of warp " << warp.index << ": "
          << cta.describeThread(warp.index, skipping)
          << " skips it (a barrier under a thread-dependent "
             "condition)";
      return failure();
    }
    beginInstruction();
    return cta.arriveAtBarrier(warp, op, 0, launch.numThreads,
                               /*arriveOnly=*/false);
  }
  emitRunError(op, cta) << "the interpreter does not model '" << op->getName()
                        << "'";
  return failure();
}
