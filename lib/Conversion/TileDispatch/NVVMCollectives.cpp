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
         instruction.formName == "bar.warp.sync" ||
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

SmallVector<Value> mlir::tirx::tile::buildExactNVVMOp(
    OpBuilder &builder, Location loc, const ptx::Instruction &instruction,
    ArrayRef<Value> sources, ArrayRef<Type> resultTypes) {
  MLIRContext *context = builder.getContext();
  StringRef family = instruction.family;
  if (family == "shfl") {
    // shfl.sync.<mode>.b32 d[|p], a, b, c, membermask
    auto kind = llvm::StringSwitch<NVVM::ShflKind>(getModifier(instruction, 1))
                    .Case("up", NVVM::ShflKind::up)
                    .Case("down", NVVM::ShflKind::down)
                    .Case("bfly", NVVM::ShflKind::bfly)
                    .Default(NVVM::ShflKind::idx);
    bool withValid = resultTypes.size() == 2;
    Type resultType = resultTypes.front();
    if (withValid)
      resultType = LLVM::LLVMStructType::getLiteral(
          context, {resultTypes[0], builder.getI1Type()});
    Value shuffled = NVVM::ShflOp::create(
        builder, loc, resultType, sources[3], sources[0], sources[1],
        sources[2], kind, withValid ? builder.getUnitAttr() : UnitAttr());
    if (!withValid)
      return {shuffled};
    return {LLVM::ExtractValueOp::create(builder, loc, shuffled, 0),
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
    return {NVVM::VoteSyncOp::create(
        builder, loc, resultTypes.front(), sources[1], sources[0],
        NVVM::VoteSyncKindAttr::get(context, kind))};
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
    return {NVVM::ReduxOp::create(builder, loc, resultTypes.front(), sources[0],
                                  kind, sources[1])};
  }
  if (instruction.formName == "bar.warp.sync") {
    NVVM::SyncWarpOp::create(builder, loc, sources[0]);
    return {};
  }
  // bar.sync a[, b]
  NVVM::BarrierOp::create(builder, loc, TypeRange(), sources[0],
                          sources.size() > 1 ? sources[1] : Value(),
                          NVVM::BarrierReductionAttr(), Value());
  return {};
}
