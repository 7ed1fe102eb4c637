//===- NVVMCollectives.cpp - Collectives through NVVM ops -----------------===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//

#include "NVVMCollectives.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "llvm/ADT/StringSwitch.h"

using namespace mlir;
using namespace mlir::tirx;
using namespace mlir::tirx::tile;

bool mlir::tirx::tile::hasExactNVVMOp(const ptx::Instruction &instruction) {
  StringRef family = instruction.family;
  // nvvm.redux.sync add prints .s32 for both signednesses (the same bits,
  // but not the named instruction): redux.sync.add.u32 stays inline PTX.
  if (instruction.spelling == "redux.sync.add.u32")
    return false;
  return family == "shfl" || family == "vote" || family == "redux" ||
         family == "barrier" || instruction.formName == "bar.warp.sync" ||
         instruction.formName == "bar.sync" ||
         instruction.formName == "bar.sync.count";
}

/// The modifier in slot position `index` of the canonical spelling
/// (after the family): shfl.sync.<mode>, vote.sync.<mode>, redux.sync.<op>.
static StringRef getModifier(const ptx::Instruction &instruction,
                             unsigned index) {
  return index < instruction.modifiers.size()
             ? StringRef(instruction.modifiers[index])
             : StringRef();
}

/// `value` as `type` (same width: a bit cast). The table's .b32 operands
/// accept f32 tiles and immediates, but NVVM's masks, offsets and integer
/// reductions take i32, and its results have the op's type, not the
/// destination tile's.
static Value castBits(OpBuilder &builder, Location loc, Value value,
                      Type type) {
  if (value.getType() == type)
    return value;
  return LLVM::BitcastOp::create(builder, loc, type, value);
}

SmallVector<Value> mlir::tirx::tile::buildExactNVVMOp(
    OpBuilder &builder, Location loc, const ptx::Instruction &instruction,
    ArrayRef<Value> sources, ArrayRef<Type> resultTypes) {
  MLIRContext *context = builder.getContext();
  StringRef family = instruction.family;
  Type i32 = builder.getI32Type();
  auto asI32 = [&](Value value) { return castBits(builder, loc, value, i32); };
  if (family == "shfl") {
    // shfl.sync.<mode>.b32 d[|p], a, b, c, membermask
    auto kind = llvm::StringSwitch<NVVM::ShflKind>(getModifier(instruction, 1))
                    .Case("up", NVVM::ShflKind::up)
                    .Case("down", NVVM::ShflKind::down)
                    .Case("bfly", NVVM::ShflKind::bfly)
                    .Default(NVVM::ShflKind::idx);
    bool withValid = resultTypes.size() == 2;
    // The value keeps its own type (i32 or f32); so does the result.
    Value value = sources[0];
    Type resultType = value.getType();
    if (withValid)
      resultType = LLVM::LLVMStructType::getLiteral(
          context, {value.getType(), builder.getI1Type()});
    Value shuffled =
        NVVM::ShflOp::create(builder, loc, resultType, asI32(sources[3]), value,
                             asI32(sources[1]), asI32(sources[2]), kind,
                             withValid ? builder.getUnitAttr() : UnitAttr());
    if (!withValid)
      return {castBits(builder, loc, shuffled, resultTypes[0])};
    Value result = LLVM::ExtractValueOp::create(builder, loc, shuffled, 0);
    return {castBits(builder, loc, result, resultTypes[0]),
            LLVM::ExtractValueOp::create(builder, loc, shuffled, 1)};
  }
  if (family == "vote") {
    // vote.sync.<mode>.{pred,b32} d, a, membermask
    auto kind =
        llvm::StringSwitch<NVVM::VoteSyncKind>(getModifier(instruction, 1))
            .Case("all", NVVM::VoteSyncKind::all)
            .Case("any", NVVM::VoteSyncKind::any)
            .Case("uni", NVVM::VoteSyncKind::uni)
            .Default(NVVM::VoteSyncKind::ballot);
    Type resultType =
        kind == NVVM::VoteSyncKind::ballot ? i32 : builder.getI1Type();
    Value vote = NVVM::VoteSyncOp::create(
        builder, loc, resultType, asI32(sources[1]), sources[0],
        NVVM::VoteSyncKindAttr::get(context, kind));
    return {castBits(builder, loc, vote, resultTypes.front())};
  }
  if (family == "redux") {
    // redux.sync.<op>.<type> d, a, membermask; min/max of u32 are umin/umax.
    bool isUnsigned = getModifier(instruction, 2) == "u32";
    auto kind = llvm::StringSwitch<NVVM::ReduxKind>(getModifier(instruction, 1))
                    .Case("add", NVVM::ReduxKind::ADD)
                    .Case("min", isUnsigned ? NVVM::ReduxKind::UMIN
                                            : NVVM::ReduxKind::MIN)
                    .Case("max", isUnsigned ? NVVM::ReduxKind::UMAX
                                            : NVVM::ReduxKind::MAX)
                    .Case("and", NVVM::ReduxKind::AND)
                    .Case("or", NVVM::ReduxKind::OR)
                    .Default(NVVM::ReduxKind::XOR);
    Value reduced = NVVM::ReduxOp::create(builder, loc, i32, asI32(sources[0]),
                                          kind, asI32(sources[1]));
    return {castBits(builder, loc, reduced, resultTypes.front())};
  }
  if (family == "barrier") {
    // barrier.cluster.{arrive[.relaxed],wait}[.aligned]: convergent
    // intrinsics (an `.aligned` barrier must not be duplicated into
    // divergent paths, which LLVM may do to inline PTX).
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
