//===- Barrier.cpp - The barrier family module ----------------------------===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//
//
// bar (the CTA's 16 named barriers, and bar.warp.sync) and barrier.cluster.
// Declares the `barrier` and `threads` operand kinds. bar.sync,
// bar.warp.sync and barrier.cluster lower to NVVM's convergent intrinsics
// (an `.aligned` barrier must not be duplicated into divergent paths, which
// LLVM may do to inline PTX); bar.arrive goes through inline PTX with side
// effects.
//
//===----------------------------------------------------------------------===//

#include "Modules.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

using namespace mlir;
using namespace mlir::tirx::ptx;

/// The CTA's named barriers (PTX ISA 9.7.13.1).
static constexpr int64_t kNumNamedBarriers = 16;

static std::optional<std::string> checkBarrierId(const OperandValue &value) {
  if (value.immediate &&
      (*value.immediate < 0 || *value.immediate >= kNumNamedBarriers))
    return families::formatMessage("barrier ", *value.immediate,
                                   " does not exist (a CTA has barriers 0 to ",
                                   kNumNamedBarriers - 1, ")");
  return std::nullopt;
}

static std::optional<std::string> checkThreadCount(const OperandValue &value) {
  if (!value.immediate)
    return std::nullopt;
  int64_t threads = *value.immediate;
  if (threads <= 0 || threads % 32 != 0)
    return families::formatMessage(
        "a named barrier counts whole warps: ", threads,
        " threads is not a positive multiple of 32");
  if (value.blockThreads && threads > *value.blockThreads)
    return families::formatMessage(threads,
                                   " threads can never arrive: the block has ",
                                   *value.blockThreads);
  return std::nullopt;
}

static bool hasExactNVVMOp(const Instruction &instruction) {
  return instruction.family == "barrier" ||
         instruction.formName == "bar.warp.sync" ||
         instruction.formName == "bar.sync" ||
         instruction.formName == "bar.sync.count";
}

static SmallVector<Value> buildNVVMOp(OpBuilder &builder, Location loc,
                                      const Instruction &instruction,
                                      ArrayRef<Value> sources,
                                      ArrayRef<Type> resultTypes) {
  Type i32 = builder.getI32Type();
  auto asI32 = [&](Value value) {
    return families::castBits(builder, loc, value, i32);
  };
  if (instruction.family == "barrier") {
    // barrier.cluster.{arrive[.relaxed],wait}[.aligned]
    UnitAttr aligned =
        instruction.hasModifier("aligned") ? builder.getUnitAttr() : UnitAttr();
    if (instruction.hasModifier("wait"))
      NVVM::ClusterWaitOp::create(builder, loc, aligned);
    else if (instruction.hasModifier("relaxed"))
      NVVM::ClusterArriveRelaxedOp::create(builder, loc, aligned);
    else
      NVVM::ClusterArriveOp::create(builder, loc, aligned);
    return {};
  }
  if (instruction.formName == "bar.warp.sync") {
    NVVM::SyncWarpOp::create(builder, loc, asI32(sources[0]));
    return {};
  }
  // bar.sync a[, b]
  NVVM::BarrierOp::create(builder, loc, TypeRange(), asI32(sources[0]),
                          sources.size() > 1 ? asI32(sources[1]) : Value(),
                          NVVM::BarrierReductionAttr(), Value());
  return {};
}

/// bar.sync, of the whole block or of part of it (threads naming one
/// barrier), is the proof's own.
static llvm::StringRef getRaceProofGap(const Instruction &instruction) {
  if (instruction.formName == "bar.sync" ||
      instruction.formName == "bar.sync.count")
    return {};
  return "bar.arrive, bar.warp.sync and cluster barriers order threads in "
         "ways the race proof does not model yet";
}

const FamilyModule &families::barrierModule() {
  static const OperandKind kinds[] = {{"barrier", checkBarrierId},
                                      {"threads", checkThreadCount}};
  static const FamilyModule module = [] {
    FamilyModule barrier{/*name=*/"barrier", kinds,
                         /*getMatrixRepeats=*/nullptr, ::hasExactNVVMOp,
                         ::buildNVVMOp};
    barrier.getRaceProofGap = ::getRaceProofGap;
    return barrier;
  }();
  return module;
}
