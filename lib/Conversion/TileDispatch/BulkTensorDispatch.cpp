//===- BulkTensorDispatch.cpp - TMA copies to inline PTX ------------------===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//

#include "BulkTensorDispatch.h"
#include "PTXBuilder.h"
#include "TirX/Dialect/Tile/IR/BulkTensorCopy.h"
#include "TirX/Dialect/Tile/IR/TileOps.h"
#include "TirX/Dialect/TirX/IR/TirXOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

using namespace mlir;
using namespace mlir::tirx;
using namespace mlir::tirx::tile;

/// The address of the first element of a shared tensor, as a 64-bit integer.
static Value buildSharedAddress(OpBuilder &builder, Location loc,
                                Value tensor) {
  auto type = cast<tirx::TensorType>(tensor.getType());
  SmallVector<Value> zeros(type.getShape().size(),
                           arith::ConstantIndexOp::create(builder, loc, 0));
  Value pointer = ElementPtrOp::create(
      builder, loc,
      LLVM::LLVMPointerType::get(builder.getContext(),
                                 type.getLLVMAddressSpace()),
      tensor, zeros);
  return LLVM::PtrToIntOp::create(builder, loc, builder.getI64Type(), pointer);
}

/// One coordinate: the static part plus every dynamic offset, as i32.
static Value buildCoordinate(OpBuilder &builder, Location loc,
                             int64_t staticPart, ArrayRef<Value> dynamicParts) {
  Value sum = arith::ConstantIndexOp::create(builder, loc, staticPart);
  for (Value part : dynamicParts)
    sum = builder.createOrFold<arith::AddIOp>(loc, sum, part);
  return builder.createOrFold<arith::IndexCastOp>(loc, builder.getI32Type(),
                                                  sum);
}

/// `prefetch.tensormap [map]` for each map of the box, by its generic
/// address (the register the copies address it through).
static LogicalResult emitTensorMapPrefetch(PatternRewriter &rewriter,
                                           ApplyOp op,
                                           const ptx::Instruction &instruction,
                                           ArrayRef<BlockArgument> maps) {
  Location loc = op.getLoc();
  PTXBuilder ptx(rewriter, loc);
  std::string text;
  llvm::raw_string_ostream os(text);
  if (Value pred = op.getPred())
    os << PTXBuilder::getGuardPrefix(ptx.addPredicate(pred));
  for (auto [index, map] : llvm::enumerate(maps)) {
    // The guard prefix predicates one instruction: repeat it for the rest.
    if (index)
      os << (op.getPred() ? "\n\t@%tirx_p " : "\n\t");
    os << instruction.spelling << " ["
       << ptx.addAddress(LLVM::PtrToIntOp::create(rewriter, loc,
                                                  rewriter.getI64Type(), map))
       << "];";
  }
  if (op.getPred())
    os << "\n\t}";
  ptx.create(text, /*hasSideEffects=*/true);
  rewriter.eraseOp(op);
  return success();
}

LogicalResult
mlir::tirx::tile::emitBulkTensorCopy(PatternRewriter &rewriter, ApplyOp op,
                                     const ptx::Instruction &instruction,
                                     ArrayRef<MixedOperand> operands) {
  auto func = op->getParentOfType<gpu::GPUFuncOp>();
  SmallVector<TensorMapKey> maps =
      func ? parseTensorMapsAttr(func->getAttr(kTensorMapsAttrName))
           : SmallVector<TensorMapKey>();
  const TensorMapKey key = getTensorMapKey(op, instruction);
  const auto *found = llvm::find(maps, key);
  bool prefetch = isTensorMapPrefetch(instruction);
  SmallVector<unsigned> prefetched;
  if (prefetch)
    prefetched = getPrefetchedTensorMaps(maps, key);
  if (prefetch ? prefetched.empty() : found == maps.end())
    // check-diagnostics: internal, tirx-to-gpu adds every map
    return op.emitOpError("has no tensor-map parameter: tile-dispatch runs "
                          "after tirx-to-gpu, which adds one per TMA box");
  auto getMap = [&](unsigned index) {
    return func.getArgument(func.getNumArguments() - maps.size() + index);
  };

  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  if (prefetch)
    return emitTensorMapPrefetch(rewriter, op, instruction,
                                 llvm::map_to_vector(prefetched, getMap));
  BlockArgument map = getMap(found - maps.begin());
  PTXBuilder ptx(rewriter, loc);
  std::string text;
  llvm::raw_string_ostream os(text);
  if (Value pred = op.getPred())
    os << PTXBuilder::getGuardPrefix(ptx.addPredicate(pred));
  os << instruction.spelling;
  for (const MixedOperand &operand : operands) {
    const ptx::OperandInfo &info = instruction.operands[operand.position];
    os << (operand.position == 0 ? " " : ", ");
    switch (info.bulkRole) {
    case ptx::BulkTensorRole::TensorMap: {
      TensorMapOperand box = resolveTensorMapOperand(operand.value);
      os << "["
         << ptx.addAddress(LLVM::PtrToIntOp::create(rewriter, loc,
                                                    rewriter.getI64Type(), map))
         << ", {";
      for (int64_t dim = box.staticOffsets.size() - 1; dim >= 0; --dim) {
        os << ptx.addInput(buildCoordinate(
            rewriter, loc, box.staticOffsets[dim], box.dynamicOffsets[dim]));
        if (dim)
          os << ", ";
      }
      os << "}]";
      break;
    }
    case ptx::BulkTensorRole::BoxImage:
      os << "["
         << ptx.addAddress(buildSharedAddress(rewriter, loc, operand.value))
         << "]";
      break;
    case ptx::BulkTensorRole::None:
      if (info.isMemory) {
        os << "["
           << ptx.addAddress(buildSharedAddress(rewriter, loc, operand.value))
           << "]";
      } else if (operand.immediate) {
        os << ptx.addInput(
            arith::ConstantOp::create(rewriter, loc, operand.immediate));
      } else {
        os << ptx.addInput(toAsmRegister(rewriter, loc, operand.value));
      }
      break;
    }
  }
  os << ";";
  if (op.getPred())
    os << "\n\t}";
  ptx.create(text, /*hasSideEffects=*/true);
  rewriter.eraseOp(op);
  return success();
}
