//===- Warp.cpp - The warp family module ----------------------------------===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//
//
// activemask and the `.sync` warp collectives (shfl, vote, redux, elect).
// Declares the `mask` operand kind: a tile.apply runs on every lane of the
// warp, so a membermask is the full one. shfl, vote and redux lower to the
// NVVM ops that yield them exactly (LLVM then knows they are convergent);
// the rest go through inline PTX with side effects.
//
//===----------------------------------------------------------------------===//

#include "Modules.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/Format.h"

using namespace mlir;
using namespace mlir::tirx::ptx;

static std::optional<std::string> checkFullMask(const OperandValue &value) {
  if (!value.immediate)
    return std::string("must be the immediate -1 : i32 (0xffffffff): every "
                       "lane of the warp executes a tile.apply");
  uint64_t mask = static_cast<uint64_t>(*value.immediate) & 0xffffffffu;
  if (mask != 0xffffffffu)
    return families::formatMessage(
        "membermask ", llvm::format_hex(mask, 10),
        " leaves lanes out, but every lane of the warp executes a "
        "tile.apply; use -1 : i32 (0xffffffff)");
  return std::nullopt;
}

static bool hasExactNVVMOp(const Instruction &instruction) {
  // nvvm.redux.sync add prints .s32 for both signednesses (the same bits,
  // but not the named instruction): redux.sync.add.u32 stays inline PTX.
  if (instruction.spelling == "redux.sync.add.u32")
    return false;
  StringRef family = instruction.family;
  return family == "shfl" || family == "vote" || family == "redux";
}

static SmallVector<Value> buildNVVMOp(OpBuilder &builder, Location loc,
                                      const Instruction &instruction,
                                      ArrayRef<Value> sources,
                                      ArrayRef<Type> resultTypes) {
  MLIRContext *context = builder.getContext();
  Type i32 = builder.getI32Type();
  auto asI32 = [&](Value value) {
    return families::castBits(builder, loc, value, i32);
  };
  if (instruction.family == "shfl") {
    // shfl.sync.<mode>.b32 d[|p], a, b, c, membermask
    auto kind =
        llvm::StringSwitch<NVVM::ShflKind>(instruction.getModifier(Slot::mode))
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
      return {families::castBits(builder, loc, shuffled, resultTypes[0])};
    Value result = LLVM::ExtractValueOp::create(builder, loc, shuffled, 0);
    return {families::castBits(builder, loc, result, resultTypes[0]),
            LLVM::ExtractValueOp::create(builder, loc, shuffled, 1)};
  }
  if (instruction.family == "vote") {
    // vote.sync.<mode>.{pred,b32} d, a, membermask
    auto kind = llvm::StringSwitch<NVVM::VoteSyncKind>(
                    instruction.getModifier(Slot::mode))
                    .Case("all", NVVM::VoteSyncKind::all)
                    .Case("any", NVVM::VoteSyncKind::any)
                    .Case("uni", NVVM::VoteSyncKind::uni)
                    .Default(NVVM::VoteSyncKind::ballot);
    Type resultType =
        kind == NVVM::VoteSyncKind::ballot ? i32 : builder.getI1Type();
    Value vote = NVVM::VoteSyncOp::create(
        builder, loc, resultType, asI32(sources[1]), sources[0],
        NVVM::VoteSyncKindAttr::get(context, kind));
    return {families::castBits(builder, loc, vote, resultTypes.front())};
  }
  // redux.sync.<op>.<type> d, a, membermask; min/max of u32 are umin/umax.
  bool isUnsigned = instruction.getModifier(Slot::type) == "u32";
  auto kind =
      llvm::StringSwitch<NVVM::ReduxKind>(instruction.getModifier(Slot::op))
          .Case("add", NVVM::ReduxKind::ADD)
          .Case("min",
                isUnsigned ? NVVM::ReduxKind::UMIN : NVVM::ReduxKind::MIN)
          .Case("max",
                isUnsigned ? NVVM::ReduxKind::UMAX : NVVM::ReduxKind::MAX)
          .Case("and", NVVM::ReduxKind::AND)
          .Case("or", NVVM::ReduxKind::OR)
          .Default(NVVM::ReduxKind::XOR);
  Value reduced = NVVM::ReduxOp::create(builder, loc, i32, asI32(sources[0]),
                                        kind, asI32(sources[1]));
  return {families::castBits(builder, loc, reduced, resultTypes.front())};
}

const FamilyModule &families::warpModule() {
  static const OperandKind kinds[] = {{"mask", checkFullMask}};
  static const FamilyModule module{/*name=*/"warp", kinds,
                                   /*getMatrixRepeats=*/nullptr,
                                   ::hasExactNVVMOp, ::buildNVVMOp};
  return module;
}
