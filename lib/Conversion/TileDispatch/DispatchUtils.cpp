//===- DispatchUtils.cpp - Shared helpers of tile-dispatch ----------------===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//

#include "DispatchUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"

using namespace mlir;
using namespace mlir::tirx;
using namespace mlir::tirx::tile;

SmallVector<int64_t>
mlir::tirx::tile::delinearizeIndex(int64_t flat, ArrayRef<int64_t> shape) {
  SmallVector<int64_t> coord(shape.size());
  for (int64_t dim = static_cast<int64_t>(shape.size()) - 1; dim >= 0; --dim) {
    coord[dim] = flat % shape[dim];
    flat /= shape[dim];
  }
  return coord;
}

/// The flat thread id in the CTA: x + X·(y + Y·z).
static Value buildFlatThreadId(OpBuilder &builder, Location loc,
                               Operation *op) {
  SmallVector<int64_t, 3> block = {1, 1, 1};
  if (auto func = op->getParentOfType<gpu::GPUFuncOp>())
    if (DenseI32ArrayAttr known = func.getKnownBlockSizeAttr())
      for (auto [index, extent] : llvm::enumerate(known.asArrayRef()))
        block[index] = extent;
  Value tid = gpu::ThreadIdOp::create(builder, loc, gpu::Dimension::x);
  if (block[1] == 1 && block[2] == 1)
    return tid;
  auto constant = [&](int64_t value) {
    return arith::ConstantIndexOp::create(builder, loc, value);
  };
  Value y = gpu::ThreadIdOp::create(builder, loc, gpu::Dimension::y);
  Value z = gpu::ThreadIdOp::create(builder, loc, gpu::Dimension::z);
  Value yz = arith::AddIOp::create(
      builder, loc, y,
      arith::MulIOp::create(builder, loc, z, constant(block[1])));
  return arith::AddIOp::create(
      builder, loc, tid,
      arith::MulIOp::create(builder, loc, yz, constant(block[0])));
}

SmallVector<Value>
mlir::tirx::tile::buildGroupCoordinates(OpBuilder &builder, Location loc,
                                        Operation *op,
                                        const ExecutionDomain &domain) {
  if (domain.scope == Scope::thread)
    return {};
  Value tid = buildFlatThreadId(builder, loc, op);
  auto constant = [&](int64_t value) -> Value {
    return arith::ConstantIndexOp::create(builder, loc, value);
  };
  // A warpgroup collective: (warpgroup at cta scope, thread in warpgroup).
  if (domain.warpgroupInAtom) {
    Value inGroup = arith::RemUIOp::create(builder, loc, tid, constant(128));
    if (domain.scope != Scope::cta)
      return {inGroup};
    return {arith::DivUIOp::create(builder, loc, tid, constant(128)), inGroup};
  }
  Value lane =
      domain.numThreads <= 32
          ? tid
          : arith::RemUIOp::create(builder, loc, tid, constant(32)).getResult();
  if (domain.scope == Scope::warp)
    return {lane};
  Value warp =
      domain.numThreads <= 32
          ? constant(0)
          : arith::DivUIOp::create(builder, loc, tid, constant(32)).getResult();
  if (domain.scope == Scope::warpgroup)
    warp = arith::RemUIOp::create(builder, loc, warp, constant(4));
  return {warp, lane};
}

FailureOr<SmallVector<int64_t>>
mlir::tirx::tile::getThreadSlots(Operation *op, unsigned position,
                                 tirx::TensorType type,
                                 const ExecutionDomain &domain) {
  TileLayout layout = type.getLayoutOrDefault();
  int64_t groups = domain.getNumGroups();
  int64_t perGroup = type.getNumElements() / groups;
  SmallVector<int64_t> slots(perGroup);
  for (int64_t index = 0; index < perGroup; ++index)
    slots[index] = at(layout.apply(index), Axis::m);
  for (int64_t group = 1; group < groups; ++group) {
    for (int64_t index = 0; index < perGroup; ++index) {
      int64_t slot = at(layout.apply(group * perGroup + index), Axis::m);
      if (slot == slots[index])
        continue;
      SmallVector<int64_t> coord =
          delinearizeIndex(group * perGroup + index, type.getShape());
      InFlightDiagnostic diag = op->emitError("operand #")
                                << position
                                << ": the register slot of element (";
      llvm::interleaveComma(coord, diag);
      return diag << ") is " << slot << " but the same repeat of group "
                  << "coordinate 0 uses slot " << slots[index]
                  << "; registers cannot be indexed by thread, so the "
                     "layout must map the group dimensions to thread axes";
    }
  }
  return slots;
}
