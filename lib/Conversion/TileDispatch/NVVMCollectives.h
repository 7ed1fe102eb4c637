//===- NVVMCollectives.h - Collectives through NVVM ops ---------*- C++ -*-===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//
//
// The design card's path through `nvvm`: where an NVVM dialect op yields
// exactly the named instruction (checked by the lit tests' PTX lines), a
// collective is lowered to it rather than to inline PTX: LLVM then knows the
// call is convergent and never duplicates, sinks or predicates it per lane.
// Covered: shfl.sync (with and without `|p`), vote.sync, redux.sync,
// bar.warp.sync, bar.sync. Others (bar.arrive, activemask, and
// redux.sync.add.u32, which nvvm.redux.sync prints as .s32) go through the
// PTX builder with side effects.
//
//===----------------------------------------------------------------------===//

#ifndef TIRX_LIB_CONVERSION_TILEDISPATCH_NVVMCOLLECTIVES_H
#define TIRX_LIB_CONVERSION_TILEDISPATCH_NVVMCOLLECTIVES_H

#include "TirX/Dialect/Tile/PTX/PTXInstruction.h"

#include "mlir/IR/Builders.h"

namespace mlir::tirx::tile {

/// Whether an NVVM op yields exactly `instruction`.
bool hasExactNVVMOp(const ptx::Instruction &instruction);

/// One `instruction` as its NVVM op. `sources`: the values of its source
/// operands in PTX order (registers, scalars and immediates, storage
/// types); `resultTypes`: the storage types of its register destinations in
/// PTX order. Returns the destinations' values.
SmallVector<Value> buildExactNVVMOp(OpBuilder &builder, Location loc,
                                    const ptx::Instruction &instruction,
                                    ArrayRef<Value> sources,
                                    ArrayRef<Type> resultTypes);

} // namespace mlir::tirx::tile

#endif // TIRX_LIB_CONVERSION_TILEDISPATCH_NVVMCOLLECTIVES_H
