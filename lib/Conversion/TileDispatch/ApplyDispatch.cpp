//===- ApplyDispatch.cpp - tile.apply to one instruction per repeat -------===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//
//
// Each repeat of a `tile.apply` becomes exactly one instruction, inline PTX
// carrying the canonical spelling. Register operands are read/written
// through constant slots, memory operands are addressed through
// tirx.element_ptr; repeats at constant distances from the first share its
// address register and carry the distance as the address's immediate offset
// (`[%rd1+4096]`). Memory forms used to be llvm.load/llvm.store, which LLVM
// prints with the same mnemonic, but its vectorizer then splits and re-merges
// every access, superlinearly in their number (bench/RESULTS.md, scaling).
//
//===----------------------------------------------------------------------===//

#include "DispatchUtils.h"
#include "TirX/Conversion/Passes.h"
#include "TirX/Dialect/Tile/IR/FormSelection.h"
#include "TirX/Dialect/Tile/IR/TileOps.h"
#include "TirX/Layout/LayoutGrouping.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/Support/Format.h"

using namespace mlir;
using namespace mlir::tirx;
using namespace mlir::tirx::tile;

//===----------------------------------------------------------------------===//
// Register classes
//===----------------------------------------------------------------------===//

/// The LLVM type an inline-asm operand of element type `type` is passed as,
/// and its NVPTX constraint letter.
static std::pair<Type, char> getAsmRegister(Type type) {
  MLIRContext *context = type.getContext();
  if (type.isF32())
    return {type, 'f'};
  if (type.isF64())
    return {type, 'd'};
  switch (type.getIntOrFloatBitWidth()) {
  case 8:
  case 16:
    return {IntegerType::get(context, 16), 'h'};
  case 32:
    return {IntegerType::get(context, 32), 'r'};
  default:
    return {IntegerType::get(context, 64), 'l'};
  }
}

/// Converts `value` (storage type) to its asm register type.
static Value toAsmRegister(OpBuilder &builder, Location loc, Value value) {
  Type asmType = getAsmRegister(value.getType()).first;
  if (value.getType() == asmType)
    return value;
  unsigned width = value.getType().getIntOrFloatBitWidth();
  if (isa<FloatType>(value.getType()))
    value = LLVM::BitcastOp::create(
        builder, loc, IntegerType::get(builder.getContext(), width), value);
  if (width < asmType.getIntOrFloatBitWidth())
    value = LLVM::ZExtOp::create(builder, loc, asmType, value);
  return value;
}

/// Converts an asm register value back to `storageType`.
static Value fromAsmRegister(OpBuilder &builder, Location loc, Value value,
                             Type storageType) {
  if (value.getType() == storageType)
    return value;
  unsigned width = storageType.getIntOrFloatBitWidth();
  if (width < value.getType().getIntOrFloatBitWidth())
    value = LLVM::TruncOp::create(
        builder, loc, IntegerType::get(builder.getContext(), width), value);
  if (isa<FloatType>(storageType))
    value = LLVM::BitcastOp::create(builder, loc, storageType, value);
  return value;
}

/// A scalar SSA operand as its storage type (unsigned integers are cast to
/// signless; the cast disappears when the function is converted to LLVM).
static Value toStorageValue(OpBuilder &builder, Location loc, Value value) {
  Type storageType = getStorageType(value.getType());
  if (storageType == value.getType())
    return value;
  return UnrealizedConversionCastOp::create(builder, loc, storageType, value)
      .getResult(0);
}

/// The PTX literal of an immediate when the instruction can take it inline
/// (32/64-bit floats and integers), std::nullopt otherwise.
static std::optional<std::string>
getInlineLiteral(TypedAttr immediate, const ptx::OperandInfo &info) {
  std::string text;
  llvm::raw_string_ostream os(text);
  if (auto floatAttr = dyn_cast<FloatAttr>(immediate)) {
    APInt bits = floatAttr.getValue().bitcastToAPInt();
    // Float literals only for typed float operands: 0fXXXXXXXX / 0dXXXX...
    bool typedFloat = info.element.kind == ptx::ElementClass::Kind::Exact &&
                      ptx::isFloat(info.element.exact);
    if (bits.getBitWidth() == 32 && typedFloat)
      os << "0f" << llvm::format_hex_no_prefix(bits.getZExtValue(), 8, true);
    else if (bits.getBitWidth() == 64 && typedFloat)
      os << "0d" << llvm::format_hex_no_prefix(bits.getZExtValue(), 16, true);
    else if (bits.getBitWidth() >= 32 && !typedFloat &&
             info.element.kind == ptx::ElementClass::Kind::Bits)
      os << "0x"
         << llvm::format_hex_no_prefix(bits.getZExtValue(),
                                       bits.getBitWidth() / 4, true);
    else
      return std::nullopt;
    return text;
  }
  auto intAttr = cast<IntegerAttr>(immediate);
  if (intAttr.getType().getIntOrFloatBitWidth() < 32 ||
      info.element.kind == ptx::ElementClass::Kind::Carrier)
    return std::nullopt;
  APInt bits = intAttr.getValue();
  os << "0x"
     << llvm::format_hex_no_prefix(bits.getZExtValue(), bits.getBitWidth() / 4,
                                   true);
  return text;
}

/// An immediate materialized as an asm register value.
static Value materializeImmediate(OpBuilder &builder, Location loc,
                                  TypedAttr immediate) {
  Type storageType = getStorageType(immediate.getType());
  Attribute value = immediate;
  if (auto intAttr = dyn_cast<IntegerAttr>(immediate))
    value = builder.getIntegerAttr(storageType, intAttr.getValue());
  Value constant = LLVM::ConstantOp::create(builder, loc, storageType,
                                            cast<TypedAttr>(value));
  return toAsmRegister(builder, loc, constant);
}

//===----------------------------------------------------------------------===//
// The pattern
//===----------------------------------------------------------------------===//

namespace {
/// One operand of the instruction, prepared once for all repeats.
struct OperandPlan {
  const MixedOperand *operand;
  const ptx::OperandInfo *info;
  tirx::TensorType tensor;    // null for scalars and immediates
  SmallVector<int64_t> slots; // register tensors: per (repeat, atom)
  /// Memory tensors: the byte offset of each repeat's atom from repeat 0's,
  /// when it is the same for every thread (empty otherwise).
  SmallVector<int64_t> repeatOffsets;
};

/// The byte offset of every repeat's atom from the first one in a memory
/// operand of `numGroupDims` leading group dimensions, when it does not
/// depend on the executing thread: without group dimensions, or when the
/// layout groups by the tensor's shape (each dimension adds an offset of its
/// own, so the repeat dimensions' are constants). Empty when that does not
/// hold or an offset is not a PTX address immediate (32-bit).
static SmallVector<int64_t> getRepeatByteOffsets(tirx::TensorType tensor,
                                                 size_t numGroupDims,
                                                 int64_t repeats) {
  TileLayout layout = tensor.getLayoutOrDefault();
  ArrayRef<int64_t> shape = tensor.getShape();
  if (numGroupDims) {
    if (auto groups = groupByShape(layout, shape); !groups) {
      llvm::consumeError(groups.takeError());
      return {};
    }
  }
  // Repeat r's atom starts at row-major element r * atom (group
  // coordinates 0).
  int64_t atomExtent = shape.back();
  int64_t first = at(layout.apply(0), Axis::m);
  SmallVector<int64_t> offsets;
  for (int64_t repeat = 0; repeat < repeats; ++repeat) {
    int64_t bytes = (at(layout.apply(repeat * atomExtent), Axis::m) - first) *
                    tensor.getElementBytes();
    if (bytes < 0 || bytes > std::numeric_limits<int32_t>::max())
      return {};
    offsets.push_back(bytes);
  }
  return offsets;
}

// tile.apply "op" (dst, srcs...) ⇒ per repeat: slot loads, the instruction
// as inline PTX, slot stores.
struct ApplyOpDispatch : public OpRewritePattern<ApplyOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(ApplyOp op,
                                PatternRewriter &rewriter) const override {
    FailureOr<SmallVector<MixedOperand>> operands =
        getMixedOperands(op, op.getArgs(), op.getOperandKinds());
    if (failed(operands))
      return failure();
    FailureOr<ptx::Instruction> parsed =
        selectInstructionForm(op, op.getInstruction(), *operands);
    if (failed(parsed))
      return failure();
    const ptx::Instruction &instruction = *parsed;
    FailureOr<ExecutionDomain> domain = getExecutionDomain(op, op.getScope());
    if (failed(domain))
      return failure();

    SmallVector<OperandPlan> plans;
    int64_t repeats = 0;
    for (const MixedOperand &operand : *operands) {
      OperandPlan plan{
          &operand, &instruction.operands[operand.position], {}, {}, {}};
      plan.tensor = dyn_cast<tirx::TensorType>(operand.getType());
      if (plan.tensor) {
        int64_t perGroup =
            plan.tensor.getNumElements() / domain->getNumGroups();
        repeats = perGroup / plan.info->atom;
        if (!plan.info->isMemory) {
          FailureOr<SmallVector<int64_t>> slots =
              getThreadSlots(op, operand.position, plan.tensor, *domain);
          if (failed(slots))
            return failure();
          plan.slots = std::move(*slots);
        }
      }
      plans.push_back(std::move(plan));
    }

    Location loc = op.getLoc();
    rewriter.setInsertionPoint(op);
    SmallVector<Value> group =
        buildGroupCoordinates(rewriter, loc, op, *domain);
    for (OperandPlan &plan : plans)
      if (plan.tensor && plan.info->isMemory)
        plan.repeatOffsets =
            getRepeatByteOffsets(plan.tensor, group.size(), repeats);
    for (int64_t repeat = 0; repeat < repeats; ++repeat)
      emitInlinePTX(rewriter, loc, op, instruction, plans, group, repeat);
    rewriter.eraseOp(op);
    return success();
  }

private:
  /// tirx.element_ptr of the atom of `repeat` in a memory operand.
  static Value buildAtomPointer(OpBuilder &builder, Location loc,
                                const OperandPlan &plan, ArrayRef<Value> group,
                                int64_t repeat) {
    ArrayRef<int64_t> shape = plan.tensor.getShape();
    ArrayRef<int64_t> repeatShape = shape.drop_front(group.size()).drop_back();
    SmallVector<Value> indices(group);
    for (int64_t coord : delinearizeIndex(repeat, repeatShape))
      indices.push_back(arith::ConstantIndexOp::create(builder, loc, coord));
    indices.push_back(arith::ConstantIndexOp::create(builder, loc, 0));
    unsigned addressSpace = plan.tensor.isShared() ? 3 : 1;
    return ElementPtrOp::create(
        builder, loc,
        LLVM::LLVMPointerType::get(builder.getContext(), addressSpace),
        plan.operand->value, indices);
  }

  /// The address of a memory atom as an inline-asm operand.
  static Value buildAsmAddress(OpBuilder &builder, Location loc,
                               const OperandPlan &plan,
                               const ptx::Instruction &instruction,
                               ArrayRef<Value> group, int64_t repeat) {
    Value ptr = buildAtomPointer(builder, loc, plan, group, repeat);
    // Generic-space forms need a generic address.
    if (instruction.space == ptx::MemorySpace::Generic)
      ptr = LLVM::AddrSpaceCastOp::create(
          builder, loc, LLVM::LLVMPointerType::get(builder.getContext()), ptr);
    return LLVM::PtrToIntOp::create(builder, loc, builder.getI64Type(), ptr);
  }

  /// One inline-PTX instruction: outputs ($0..) are the register
  /// destinations, inputs follow; immediates are inlined when PTX allows.
  static void emitInlinePTX(PatternRewriter &rewriter, Location loc, ApplyOp op,
                            const ptx::Instruction &instruction,
                            ArrayRef<OperandPlan> plans, ArrayRef<Value> group,
                            int64_t repeat) {
    struct Output {
      Value tile;
      int64_t slot;
      Type storageType;
      Type asmType;
    };
    SmallVector<Output> outputs;
    std::string outputConstraints;
    // Outputs first: they are numbered before the inputs.
    for (const OperandPlan &plan : plans) {
      if (!plan.tensor || plan.info->isMemory || !plan.info->isDestination)
        continue;
      unsigned atom = plan.info->atom;
      Type storageType = getStorageType(plan.tensor.getElementType());
      auto [asmType, letter] = getAsmRegister(storageType);
      for (unsigned lane = 0; lane < atom; ++lane) {
        outputs.push_back({plan.operand->value,
                           plan.slots[repeat * atom + lane], storageType,
                           asmType});
        outputConstraints += (outputConstraints.empty() ? "=" : ",=");
        outputConstraints += letter;
      }
    }

    SmallVector<Value> inputs;
    std::string inputConstraints;
    auto addInput = [&](Value value, char letter) {
      inputConstraints += (inputConstraints.empty() ? "" : ",");
      inputConstraints += letter;
      inputs.push_back(value);
      return "$" + std::to_string(outputs.size() + inputs.size() - 1);
    };

    std::string text;
    llvm::raw_string_ostream os(text);
    if (Value pred = op.getPred()) {
      Value predWord =
          LLVM::ZExtOp::create(rewriter, loc, rewriter.getI32Type(), pred);
      std::string predOperand = addInput(predWord, 'r');
      os << "{\n\t.reg .pred %tirx_p;\n\tsetp.ne.b32 %tirx_p, " << predOperand
         << ", 0;\n\t@%tirx_p ";
    }
    os << instruction.spelling << " ";
    unsigned nextOutput = 0;
    for (auto [index, plan] : llvm::enumerate(plans)) {
      if (index)
        os << ", ";
      const MixedOperand &operand = *plan.operand;
      if (operand.immediate) {
        if (std::optional<std::string> literal =
                getInlineLiteral(operand.immediate, *plan.info)) {
          os << *literal;
          continue;
        }
        Value value = materializeImmediate(rewriter, loc, operand.immediate);
        os << addInput(value, getAsmRegister(value.getType()).second);
        continue;
      }
      if (!plan.tensor) {
        Value value = toAsmRegister(
            rewriter, loc, toStorageValue(rewriter, loc, operand.value));
        os << addInput(value, getAsmRegister(value.getType()).second);
        continue;
      }
      if (plan.info->isMemory) {
        // Repeats at constant distances share one address register; the
        // distance is the address's immediate offset.
        bool shared = !plan.repeatOffsets.empty();
        Value address = buildAsmAddress(rewriter, loc, plan, instruction, group,
                                        shared ? 0 : repeat);
        os << "[" << addInput(address, 'l');
        if (shared && plan.repeatOffsets[repeat])
          os << "+" << plan.repeatOffsets[repeat];
        os << "]";
        continue;
      }
      unsigned atom = plan.info->atom;
      if (atom > 1)
        os << "{";
      for (unsigned lane = 0; lane < atom; ++lane) {
        if (lane)
          os << ", ";
        if (plan.info->isDestination) {
          os << "$" << nextOutput++;
          continue;
        }
        Type storageType = getStorageType(plan.tensor.getElementType());
        Value value =
            SlotLoadOp::create(rewriter, loc, storageType, operand.value,
                               plan.slots[repeat * atom + lane]);
        value = toAsmRegister(rewriter, loc, value);
        os << addInput(value, getAsmRegister(value.getType()).second);
      }
      if (atom > 1)
        os << "}";
    }
    os << ";";
    if (op.getPred()) {
      os << "\n\t}";
      // A predicated-off instruction writes nothing: each register
      // destination is tied to an input carrying the slot's current value,
      // so the slot keeps it (an output-only operand would be undefined).
      for (auto [index, output] : llvm::enumerate(outputs)) {
        Value current = SlotLoadOp::create(rewriter, loc, output.storageType,
                                           output.tile, output.slot);
        inputConstraints += (inputConstraints.empty() ? "" : ",");
        inputConstraints += std::to_string(index);
        inputs.push_back(toAsmRegister(rewriter, loc, current));
      }
    }

    std::string constraints = outputConstraints;
    if (!constraints.empty() && !inputConstraints.empty())
      constraints += ",";
    constraints += inputConstraints;
    bool touchesMemory = instruction.space != ptx::MemorySpace::None;

    SmallVector<Type> resultTypes;
    for (const Output &output : outputs)
      resultTypes.push_back(output.asmType);
    Type resultType;
    if (resultTypes.size() == 1)
      resultType = resultTypes.front();
    else if (resultTypes.size() > 1)
      resultType =
          LLVM::LLVMStructType::getLiteral(rewriter.getContext(), resultTypes);
    auto asmOp = LLVM::InlineAsmOp::create(
        rewriter, loc, resultType ? TypeRange(resultType) : TypeRange(), inputs,
        text, constraints, /*has_side_effects=*/touchesMemory,
        /*is_align_stack=*/false, LLVM::tailcallkind::TailCallKind::None,
        LLVM::AsmDialectAttr(), ArrayAttr());
    for (auto [index, output] : llvm::enumerate(outputs)) {
      Value value = asmOp.getResult(0);
      if (outputs.size() > 1)
        value = LLVM::ExtractValueOp::create(rewriter, loc, value,
                                             static_cast<int64_t>(index));
      value = fromAsmRegister(rewriter, loc, value, output.storageType);
      SlotStoreOp::create(rewriter, loc, value, output.tile, output.slot);
    }
  }
};
} // namespace

void mlir::tirx::populateTileApplyDispatchPatterns(
    RewritePatternSet &patterns) {
  patterns.add<ApplyOpDispatch>(patterns.getContext());
}
