//===- ApplyDispatch.cpp - tile.apply to one instruction per repeat -------===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//
//
// Each repeat of a `tile.apply` becomes exactly one instruction: the NVVM
// op that yields it for the collectives whose family module has one
// (Families/FamilyModule.h), otherwise inline PTX carrying the canonical
// spelling, built by the one PTXBuilder. Register operands are read/written
// through constant slots, memory operands are addressed through
// tirx.element_ptr; repeats at constant distances from the first share its
// address register and carry the distance as the address's immediate offset
// (`[%rd1+4096]`). Memory forms used to be llvm.load/llvm.store, which LLVM
// prints with the same mnemonic, but its vectorizer then splits and re-merges
// every access, superlinearly in their number (bench/RESULTS.md, scaling).
//
//===----------------------------------------------------------------------===//

#include "BulkTensorDispatch.h"
#include "DispatchUtils.h"
#include "PTXBuilder.h"
#include "TirX/Conversion/Passes.h"
#include "TirX/Dialect/Tile/Families/FamilyModule.h"
#include "TirX/Dialect/Tile/IR/BulkTensorCopy.h"
#include "TirX/Dialect/Tile/IR/FormSelection.h"
#include "TirX/Dialect/Tile/IR/MatrixDescriptor.h"
#include "TirX/Dialect/Tile/IR/TileOps.h"
#include "TirX/Dialect/TirX/IR/RegionAccess.h"
#include "TirX/Layout/LayoutGrouping.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/Support/Format.h"

using namespace mlir;
using namespace mlir::tirx;
using namespace mlir::tirx::tile;

//===----------------------------------------------------------------------===//
// Operand values
//===----------------------------------------------------------------------===//

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

/// An immediate as a value of its storage type.
static Value materializeImmediate(OpBuilder &builder, Location loc,
                                  TypedAttr immediate) {
  Type storageType = getStorageType(immediate.getType());
  Attribute value = immediate;
  if (auto intAttr = dyn_cast<IntegerAttr>(immediate))
    value = builder.getIntegerAttr(storageType, intAttr.getValue());
  return LLVM::ConstantOp::create(builder, loc, storageType,
                                  cast<TypedAttr>(value));
}

//===----------------------------------------------------------------------===//
// The pattern
//===----------------------------------------------------------------------===//

namespace {
/// One operand of the instruction, prepared once for all repeats.
struct OperandPlan {
  const MixedOperand *operand = nullptr;
  const ptx::OperandInfo *info = nullptr;
  tirx::TensorType tensor; // null for scalars and immediates
  /// Register tensors: per repeat, the executing thread's slots in the
  /// order the instruction lists them (the atom's elements; a collective's
  /// registers of its fragment).
  SmallVector<SmallVector<int64_t, 4>> repeatSlots;
  /// Memory tensors: per repeat, the repeat whose address register it
  /// shares (its address class) and its atom's byte offset from that
  /// repeat's, the same for every thread (both empty: each repeat gets its
  /// own address).
  SmallVector<int64_t> repeatBases;
  SmallVector<int64_t> repeatOffsets;
  /// Elements of one atom, and the operand's repeats per group coordinate.
  int64_t atomElements = 0;
  int64_t repeats = 1;
  /// A collective's memory operand: the atom coordinates of the row the
  /// executing lane supplies the address of.
  SmallVector<Value> rowCoordinates;
  /// A wgmma matrix descriptor: per repeat, every field but the start
  /// address (the verifier proved the layout canonical, the same in every
  /// group).
  std::vector<uint64_t> descriptorBits;
  /// The masked region the operand accesses (directly or through
  /// reshapes): each repeat is predicated on its atom being inside the
  /// tensor.
  RegionOp maskedRegion;
};

/// Fills `plan`'s repeat addressing for a memory operand of `numGroupDims`
/// leading group dimensions: repeats share an address register with the
/// first repeat of their class and reach their atom at a constant byte
/// offset from it, when that offset does not depend on the executing
/// thread. Without group dimensions, or when an affine layout groups by the
/// tensor's shape (each dimension adds an offset of its own), every repeat is
/// in repeat 0's class; a swizzled layout whose XOR pattern differs between
/// threads gets a class per pattern (getRepeatAddressClasses). Left empty
/// (an address per repeat) when the layout does not group by the shape or an
/// offset is not a PTX address immediate (32-bit).
static void setRepeatAddressing(OperandPlan &plan, size_t numGroupDims) {
  tirx::TensorType tensor = plan.tensor;
  TileLayout layout = tensor.getLayoutOrDefault();
  int64_t perGroup = plan.repeats * plan.atomElements;
  SmallVector<int64_t> bases(plan.repeats, 0);
  if (numGroupDims) {
    if (auto groups = groupByShape(layout, tensor.getShape()); !groups) {
      llvm::consumeError(groups.takeError());
      return;
    }
    if (layout.isSwizzled())
      bases = getRepeatAddressClasses(layout, tensor.getNumElements(), perGroup,
                                      plan.atomElements);
  }
  auto offsetOf = [&](int64_t repeat) {
    return at(layout.apply(repeat * plan.atomElements), Axis::m);
  };
  SmallVector<int64_t> offsets;
  for (int64_t repeat = 0; repeat < plan.repeats; ++repeat) {
    int64_t bytes =
        (offsetOf(repeat) - offsetOf(bases[repeat])) * tensor.getElementBytes();
    if (bytes < 0 || bytes > std::numeric_limits<int32_t>::max())
      return;
    offsets.push_back(bytes);
  }
  plan.repeatBases = std::move(bases);
  plan.repeatOffsets = std::move(offsets);
}

/// The atom coordinates of the row lane `lane` supplies the address of in a
/// collective's memory operand (ldmatrix: matrix lane / 8 % count, row
/// lane % 8, word 0): per atom dimension, (lane / stride) % extent or 0,
/// read off the fragment (lanes past the fragment's repeat its rows).
static FailureOr<SmallVector<Value>>
buildRowCoordinates(OpBuilder &builder, Location loc, Operation *op, Value lane,
                    const Fragment &fragment, ArrayRef<int64_t> atomShape) {
  int64_t numLanes = 0;
  for (int64_t owner : fragment.lane)
    numLanes = std::max(numLanes, owner + 1);
  SmallVector<SmallVector<int64_t>> rowOfLane(numLanes);
  for (auto [index, owner] : llvm::enumerate(fragment.lane))
    if (fragment.registerIndex[index] == 0)
      rowOfLane[owner] = delinearizeIndex(index, atomShape);
  SmallVector<Value> coordinates;
  for (size_t dim = 0; dim < atomShape.size(); ++dim) {
    int64_t extent = atomShape[dim];
    auto matches = [&](int64_t stride) {
      for (int64_t l = 0; l < 32; ++l) {
        ArrayRef<int64_t> row = rowOfLane[l % numLanes];
        if (row.empty() || row[dim] != (stride ? (l / stride) % extent : 0))
          return false;
      }
      return true;
    };
    auto constant = [&](int64_t value) -> Value {
      return arith::ConstantIndexOp::create(builder, loc, value);
    };
    if (matches(0)) {
      coordinates.push_back(constant(0));
      continue;
    }
    int64_t stride = 1;
    while (stride < 32 && !matches(stride))
      stride *= 2;
    if (stride == 32)
      // check-diagnostics: internal, every table fragment has such rows
      return op->emitOpError("internal: the fragment's rows are not ")
             << "(lane / stride) % extent in dimension " << dim;
    Value coordinate = lane;
    if (stride > 1)
      coordinate =
          arith::DivUIOp::create(builder, loc, coordinate, constant(stride));
    if (extent < 32 / stride)
      coordinate =
          arith::RemUIOp::create(builder, loc, coordinate, constant(extent));
    coordinates.push_back(coordinate);
  }
  return coordinates;
}

/// Per repeat, the slots one thread reads or writes for a register operand
/// whose per-group slots (row-major repeat × atom) are `slots`: the atom's
/// elements for a per-thread form; for a collective, its fragment's
/// registers, at the slot of the atom's first element minus that element's
/// fragment register (the verifier proved the atom follows the fragment).
static SmallVector<SmallVector<int64_t, 4>>
getRepeatSlots(ArrayRef<int64_t> slots, const ptx::OperandInfo &info,
               int64_t repeats) {
  SmallVector<SmallVector<int64_t, 4>> result(repeats);
  for (int64_t repeat = 0; repeat < repeats; ++repeat) {
    if (info.fragment.empty()) {
      for (unsigned index = 0; index < info.atom; ++index)
        result[repeat].push_back(slots[repeat * info.atom + index]);
      continue;
    }
    const Fragment &fragment = getFragment(info.fragment);
    int64_t base = slots[repeat * info.atom] - fragment.registerIndex[0];
    for (int64_t reg = 0; reg < fragment.registersPerLane; ++reg)
      result[repeat].push_back(base + reg);
  }
  return result;
}

// tile.apply "op" (dst, srcs...) ⇒ per repeat: slot loads, the instruction
// (an NVVM op that yields exactly it, or inline PTX), slot stores.
struct ApplyOpDispatch : public OpRewritePattern<ApplyOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(ApplyOp op,
                                PatternRewriter &rewriter) const override {
    FailureOr<SmallVector<MixedOperand>> operands =
        getMixedOperands(op, op.getArgs(), op.getOperandKinds());
    if (failed(operands))
      return failure();
    FailureOr<const ptx::Instruction *> selected =
        selectInstructionForm(op, op.getInstruction(), *operands);
    if (failed(selected))
      return failure();
    const ptx::Instruction &instruction = **selected;
    if (isBulkTensorCopy(instruction))
      return emitBulkTensorCopy(rewriter, op, instruction, *operands);
    bool collective = instruction.exec != ptx::ExecKind::Thread;
    FailureOr<ExecutionDomain> domain = getExecutionDomain(
        op, op.getScope(), collective,
        /*warpgroupInAtom=*/instruction.exec == ptx::ExecKind::Warpgroup);
    if (failed(domain))
      return failure();

    SmallVector<OperandPlan, 4> plans;
    // An instruction without tensor operands (bar.sync) is issued once.
    int64_t repeats = 1;
    for (const MixedOperand &operand : *operands) {
      OperandPlan plan;
      plan.operand = &operand;
      plan.info = &instruction.operands[operand.position];
      plan.tensor = dyn_cast<tirx::TensorType>(operand.getType());
      if (plan.tensor) {
        int64_t perGroup =
            plan.tensor.getNumElements() / domain->getNumGroups();
        plan.atomElements = getOperandAtom(*plan.info, *operands,
                                           plan.tensor.getElementBytes());
        plan.repeats = repeats = perGroup / plan.atomElements;
        if (!plan.info->isMemory) {
          FailureOr<SmallVector<int64_t>> slots =
              getThreadSlots(op, operand.position, plan.tensor, *domain);
          if (failed(slots))
            return failure();
          plan.repeatSlots = getRepeatSlots(*slots, *plan.info, plan.repeats);
        }
        if (plan.info->descriptor != ptx::DescriptorMatrix::None) {
          bool mnMajor =
              getMatrixTranspose(instruction, *operands, plan.info->descriptor);
          for (int64_t repeat = 0; repeat < plan.repeats; ++repeat) {
            llvm::Expected<MatrixDescriptor> descriptor = matchMatrixDescriptor(
                plan.tensor.getLayoutOrDefault(), repeat * plan.atomElements,
                plan.info->atomShape[0], plan.info->atomShape[1],
                plan.tensor.getElementBytes(), mnMajor);
            if (!descriptor)
              // check-diagnostics: internal, the verifier proved the layout
              return op.emitOpError("internal: ")
                     << llvm::toString(descriptor.takeError());
            plan.descriptorBits.push_back(descriptor->getConstantBits());
          }
        }
      }
      plans.push_back(std::move(plan));
    }

    Location loc = op.getLoc();
    rewriter.setInsertionPoint(op);
    // Memory operands are addressed per thread: its group coordinate (a
    // collective's drops the lane, which picks the row it addresses).
    SmallVector<Value> group;
    bool hasMemory = llvm::any_of(plans, [](const OperandPlan &plan) {
      return plan.tensor && plan.info->isMemory;
    });
    if (hasMemory)
      group = buildGroupCoordinates(rewriter, loc, op, *domain);
    Value lane;
    if (collective && !group.empty()) {
      lane = group.back();
      group.pop_back();
    }
    for (OperandPlan &plan : plans) {
      if (!plan.tensor || !plan.info->isMemory)
        continue;
      // A tile of a runtime-sized tensor spanning several rows: the
      // distance between its repeats is not a constant.
      if (!getRuntimeStridedRegion(plan.operand->value))
        setRepeatAddressing(plan, group.size());
      plan.maskedRegion = getMaskedRegion(plan.operand->value);
      if (plan.info->fragment.empty())
        continue;
      FailureOr<SmallVector<Value>> rows = buildRowCoordinates(
          rewriter, loc, op, lane, getFragment(plan.info->fragment),
          plan.info->atomShape);
      if (failed(rows))
        return failure();
      plan.rowCoordinates = std::move(*rows);
    }
    bool viaNVVM = ptx::hasExactNVVMOp(instruction);
    for (const Step &step :
         getSteps(op, instruction, plans, *domain, repeats)) {
      if (viaNVVM)
        emitViaNVVM(rewriter, loc, op, instruction, plans, step);
      else
        emitInlinePTX(rewriter, loc, op, instruction, plans, group, step,
                      buildStepGuard(rewriter, loc, op, plans, group, step));
    }
    rewriter.eraseOp(op);
    return success();
  }

private:
  /// One instruction: per operand plan, the repeat it reads or writes and
  /// the plan whose registers a source reads (mma's C after the first k
  /// step is D: the accumulator).
  struct Step {
    SmallVector<int64_t, 4> repeat;
    SmallVector<const OperandPlan *, 4> source;
  };

  /// The instructions in order: one per repeat, every operand at the same
  /// repeat; mma's (M, N, K)-structured repeats (FormSelection.h) as
  /// (batch, k, m, n), k outermost.
  static SmallVector<Step> getSteps(ApplyOp op,
                                    const ptx::Instruction &instruction,
                                    ArrayRef<OperandPlan> plans,
                                    const ExecutionDomain &domain,
                                    int64_t repeats) {
    SmallVector<Step> steps;
    auto repeatShape = [&](const OperandPlan &plan) {
      return SmallVector<int64_t>(plan.tensor.getShape()
                                      .drop_front(domain.groupShape.size())
                                      .drop_back(plan.info->atomShape.size()));
    };
    std::optional<MmaRepeats> mnk;
    if (plans.size() == 4 &&
        llvm::all_of(plans, [](const OperandPlan &p) { return p.tensor; }))
      mnk = getMmaRepeats(instruction, repeatShape(plans[0]),
                          repeatShape(plans[1]));
    if (!mnk) {
      for (int64_t repeat = 0; repeat < repeats; ++repeat) {
        Step step;
        for (const OperandPlan &plan : plans) {
          step.repeat.push_back(repeat);
          step.source.push_back(&plan);
        }
        steps.push_back(std::move(step));
      }
      return steps;
    }
    for (const MatrixStep &matrix : getMatrixSteps(*mnk)) {
      Step step;
      step.repeat = {matrix.d, matrix.a, matrix.b, matrix.d};
      step.source = {&plans[0], &plans[1], &plans[2],
                     matrix.accumulate ? &plans[0] : &plans[3]};
      steps.push_back(std::move(step));
    }
    return steps;
  }

  /// The indices of the first element of the atom of `repeat` in a memory
  /// operand.
  static SmallVector<Value> buildAtomIndices(OpBuilder &builder, Location loc,
                                             const OperandPlan &plan,
                                             ArrayRef<Value> group,
                                             int64_t repeat) {
    ArrayRef<int64_t> shape = plan.tensor.getShape();
    size_t atomRank =
        plan.rowCoordinates.empty() &&
                plan.info->descriptor == ptx::DescriptorMatrix::None
            ? 1
            : plan.info->atomShape.size();
    ArrayRef<int64_t> repeatShape =
        shape.drop_front(group.size()).drop_back(atomRank);
    SmallVector<Value> indices(group);
    for (int64_t coord : delinearizeIndex(repeat, repeatShape))
      indices.push_back(arith::ConstantIndexOp::create(builder, loc, coord));
    if (plan.rowCoordinates.empty())
      for (size_t dim = 0; dim < atomRank; ++dim)
        indices.push_back(arith::ConstantIndexOp::create(builder, loc, 0));
    else
      llvm::append_range(indices, plan.rowCoordinates);
    return indices;
  }

  /// tirx.element_ptr of the atom of `repeat` in a memory operand.
  static Value buildAtomPointer(OpBuilder &builder, Location loc,
                                const OperandPlan &plan, ArrayRef<Value> group,
                                int64_t repeat) {
    unsigned addressSpace = plan.tensor.isShared() ? 3 : 1;
    return ElementPtrOp::create(
        builder, loc,
        LLVM::LLVMPointerType::get(builder.getContext(), addressSpace),
        plan.operand->value, buildAtomIndices(builder, loc, plan, group, repeat));
  }

  /// The predicate of one instruction: the op's `pred`, and for each masked
  /// memory operand, that its atom is inside the tensor (null: always).
  static Value buildStepGuard(OpBuilder &builder, Location loc, ApplyOp op,
                              ArrayRef<OperandPlan> plans,
                              ArrayRef<Value> group, const Step &step) {
    Value guard = op.getPred();
    for (auto [index, plan] : llvm::enumerate(plans)) {
      if (!plan.maskedRegion)
        continue;
      SmallVector<Value> indices =
          buildAtomIndices(builder, loc, plan, group, step.repeat[index]);
      Value inside =
          buildMaskCondition(builder, loc, plan.operand->value,
                             plan.maskedRegion, indices, plan.atomElements);
      guard = guard ? builder.createOrFold<arith::AndIOp>(loc, guard, inside)
                    : inside;
    }
    return guard;
  }

  /// The address of a memory atom as an inline-asm operand.
  static Value buildAsmAddress(OpBuilder &builder, Location loc,
                               const OperandPlan &plan,
                               const ptx::Instruction &instruction,
                               ArrayRef<Value> group, int64_t repeat) {
    Value ptr = buildAtomPointer(builder, loc, plan, group, repeat);
    // Generic-space forms need a generic address.
    if (plan.info->space == ptx::MemorySpace::Generic)
      ptr = LLVM::AddrSpaceCastOp::create(
          builder, loc, LLVM::LLVMPointerType::get(builder.getContext()), ptr);
    return LLVM::PtrToIntOp::create(builder, loc, builder.getI64Type(), ptr);
  }

  /// A wgmma matrix descriptor of `repeat`'s matrix: the constant fields
  /// folded at compile time, the start address ((addr & 0x3FFFF) >> 4, bits
  /// 0-13) added at run time.
  static Value buildDescriptor(OpBuilder &builder, Location loc,
                               const OperandPlan &plan,
                               const ptx::Instruction &instruction,
                               ArrayRef<Value> group, int64_t repeat) {
    Value ptr = buildAtomPointer(builder, loc, plan, group, repeat);
    Type i64 = builder.getI64Type();
    auto constant = [&](uint64_t value) -> Value {
      return LLVM::ConstantOp::create(builder, loc, i64,
                                      builder.getI64IntegerAttr(value));
    };
    Value address = LLVM::PtrToIntOp::create(builder, loc, i64, ptr);
    Value field = LLVM::LShrOp::create(
        builder, loc,
        LLVM::AndOp::create(builder, loc, address, constant(0x3FFFF)),
        constant(4));
    return LLVM::OrOp::create(builder, loc, field,
                              constant(plan.descriptorBits[repeat]));
  }

  /// The register and scalar operands of one repeat as values of their
  /// storage types, for an NVVM op: per source operand, its registers (slot
  /// loads), or its scalar or immediate.
  static void emitViaNVVM(PatternRewriter &rewriter, Location loc, ApplyOp op,
                          const ptx::Instruction &instruction,
                          ArrayRef<OperandPlan> plans, const Step &step) {
    OpBuilder::InsertionGuard guard(rewriter);
    // The verifier proved the predicate warp-uniform: a branch around the
    // collective keeps every lane of a warp together.
    if (Value pred = op.getPred()) {
      auto ifOp = scf::IfOp::create(rewriter, loc, pred, /*withElse=*/false);
      rewriter.setInsertionPointToStart(&ifOp.getThenRegion().front());
    }
    SmallVector<Value> sources;
    SmallVector<std::tuple<const OperandPlan *, Type, int64_t>> destinations;
    for (auto [index, plan] : llvm::enumerate(plans)) {
      const MixedOperand &operand = *plan.operand;
      if (plan.info->isDestination) {
        destinations.push_back({&plan,
                                getStorageType(plan.tensor.getElementType()),
                                step.repeat[index]});
        continue;
      }
      if (operand.immediate) {
        sources.push_back(
            materializeImmediate(rewriter, loc, operand.immediate));
      } else if (!plan.tensor) {
        sources.push_back(toStorageValue(rewriter, loc, operand.value));
      } else {
        const OperandPlan &source = *step.source[index];
        Type storageType = getStorageType(source.tensor.getElementType());
        for (int64_t slot : source.repeatSlots[step.repeat[index]])
          sources.push_back(SlotLoadOp::create(rewriter, loc, storageType,
                                               source.operand->value, slot));
      }
    }
    SmallVector<Type> resultTypes;
    for (auto [plan, type, repeat] : destinations)
      resultTypes.push_back(type);
    SmallVector<Value> results =
        ptx::getFamilyModule(instruction)
            .buildNVVMOp(rewriter, loc, instruction, sources, resultTypes);
    for (auto [index, destination] : llvm::enumerate(destinations)) {
      auto [plan, type, repeat] = destination;
      SlotStoreOp::create(rewriter, loc, results[index], plan->operand->value,
                          plan->repeatSlots[repeat].front());
    }
  }

  /// One inline-PTX instruction: outputs ($0..) are the register
  /// destinations, inputs follow; immediates are inlined when PTX allows.
  static void emitInlinePTX(PatternRewriter &rewriter, Location loc, ApplyOp op,
                            const ptx::Instruction &instruction,
                            ArrayRef<OperandPlan> plans, ArrayRef<Value> group,
                            const Step &step, Value guard) {
    PTXBuilder ptx(rewriter, loc);
    struct Output {
      Value tile;
      int64_t slot;
    };
    SmallVector<Output> outputs;
    // Outputs first: they are numbered before the inputs.
    SmallVector<SmallVector<std::string, 4>> outputNames(plans.size());
    for (auto [index, plan] : llvm::enumerate(plans)) {
      if (!plan.tensor || plan.info->isMemory || !plan.info->isDestination)
        continue;
      Type storageType = getStorageType(plan.tensor.getElementType());
      for (int64_t slot : plan.repeatSlots[step.repeat[index]]) {
        outputs.push_back({plan.operand->value, slot});
        outputNames[index].push_back(ptx.addOutput(storageType));
      }
    }

    // wgmma's accumulator is read and written (`+f`): its outputs are tied
    // to the slots' current values.
    SmallVector<bool> readWriteOutputs;
    for (auto [index, plan] : llvm::enumerate(plans))
      if (plan.tensor && !plan.info->isMemory && plan.info->isDestination)
        readWriteOutputs.append(outputNames[index].size(),
                                plan.info->isReadWrite);

    std::string text;
    llvm::raw_string_ostream os(text);
    std::string predInput;
    if (guard)
      predInput = ptx.addPredicate(guard);
    // A shared operand of another CTA of the cluster: its local address is
    // mapped to the CTA whose rank another operand holds (mapa), and the
    // instruction reads the mapped address; the rank is not written.
    const OperandPlan *remote = nullptr;
    int remoteRank = -1;
    for (const OperandPlan &plan : plans)
      if (plan.info->remoteOperand >= 0) {
        remote = &plan;
        remoteRank = plan.info->remoteOperand;
      }
    if (remote) {
      const OperandPlan &rank = *llvm::find_if(plans, [&](const auto &plan) {
        return plan.operand->position == static_cast<unsigned>(remoteRank);
      });
      std::string rankText;
      if (rank.operand->immediate)
        rankText = std::to_string(cast<IntegerAttr>(rank.operand->immediate)
                                      .getValue()
                                      .getZExtValue());
      else
        rankText =
            ptx.addInput(toStorageValue(rewriter, loc, rank.operand->value));
      Value address =
          buildAsmAddress(rewriter, loc, *remote, instruction, group,
                          step.repeat[remote - plans.data()]);
      os << "{\n\t.reg .b64 %tirx_m;\n\tmapa.shared::cluster.u64 %tirx_m, "
         << ptx.addAddress(address) << ", " << rankText << ";\n\t";
    }
    bool retry = instruction.hidden == ptx::HiddenDestination::RetryUntilTrue;
    if (retry) {
      // try_wait until the phase completes. Labels are local to their `{}`
      // block, so the loop may be inlined any number of times.
      os << "{\n\t.reg .pred %tirx_w;\n";
      if (!predInput.empty())
        os << "\t.reg .pred %tirx_p;\n\tsetp.ne.b32 %tirx_p, " << predInput
           << ", 0;\n\t@!%tirx_p bra tirx_done;\n";
      os << "tirx_retry:\n\t";
    } else if (!predInput.empty()) {
      os << PTXBuilder::getGuardPrefix(predInput);
    }
    os << instruction.spelling;
    if (retry)
      os << " %tirx_w";
    else if (instruction.hidden == ptx::HiddenDestination::Sink)
      os << " _";
    bool hasHidden = instruction.hidden != ptx::HiddenDestination::None;
    for (auto [index, plan] : llvm::enumerate(plans)) {
      if (remote && plan.operand->position == static_cast<unsigned>(remoteRank))
        continue; // written in mapa, above
      os << (index == 0 && !hasHidden   ? " "
             : plan.info->joinsPrevious ? "|"
                                        : ", ");
      const MixedOperand &operand = *plan.operand;
      // Immediates PTX encodes in the instruction (wgmma's imm-scale and
      // imm-trans) are written as PTX spells them.
      const ptx::OperandKind *kind =
          ptx::getOperandKind(instruction, plan.operand->position);
      if (operand.immediate && kind && kind->isEncodedInInstruction) {
        os << cast<IntegerAttr>(operand.immediate).getValue().getSExtValue();
        continue;
      }
      if (operand.immediate) {
        if (std::optional<std::string> literal =
                getInlineLiteral(operand.immediate, *plan.info)) {
          os << *literal;
          continue;
        }
        os << ptx.addInput(
            materializeImmediate(rewriter, loc, operand.immediate));
        continue;
      }
      if (!plan.tensor) {
        os << ptx.addInput(toStorageValue(rewriter, loc, operand.value));
        continue;
      }
      int64_t repeat = step.repeat[index];
      if (!plan.descriptorBits.empty()) {
        os << ptx.addInput(
            buildDescriptor(rewriter, loc, plan, instruction, group, repeat));
        continue;
      }
      if (&plan == remote) {
        os << "[%tirx_m]";
        continue;
      }
      if (plan.info->isMemory) {
        // Repeats of one address class share an address register; the
        // distance is the address's immediate offset.
        bool shared = !plan.repeatOffsets.empty();
        Value address =
            buildAsmAddress(rewriter, loc, plan, instruction, group,
                            shared ? plan.repeatBases[repeat] : repeat);
        os << "[" << ptx.addAddress(address);
        if (shared && plan.repeatOffsets[repeat])
          os << "+" << plan.repeatOffsets[repeat];
        os << "]";
        continue;
      }
      // A source reads its own registers, or (mma's C after the first k
      // step) the accumulator's.
      const OperandPlan &source = *step.source[index];
      ArrayRef<int64_t> slots = plan.info->isDestination
                                    ? plan.repeatSlots[repeat]
                                    : source.repeatSlots[repeat];
      bool vector = slots.size() > 1 || plan.info->alwaysVector;
      if (vector)
        os << "{";
      for (auto [lane, slot] : llvm::enumerate(slots)) {
        if (lane)
          os << ", ";
        if (plan.info->isDestination) {
          os << outputNames[index][lane];
          continue;
        }
        Type storageType = getStorageType(source.tensor.getElementType());
        os << ptx.addInput(SlotLoadOp::create(rewriter, loc, storageType,
                                              source.operand->value, slot));
      }
      if (vector)
        os << "}";
    }
    os << ";";
    if (retry) {
      os << "\n\t@!%tirx_w bra tirx_retry;\n";
      if (!predInput.empty())
        os << "tirx_done:\n";
      os << "}";
    } else if (guard) {
      os << "\n\t}";
    }
    if (remote)
      os << "\n\t}";
    // A predicated-off instruction writes nothing: each register destination
    // is tied to an input carrying the slot's current value, so the slot
    // keeps it (an output-only operand would be undefined). wgmma reads its
    // accumulator the same way.
    for (auto [index, output] : llvm::enumerate(outputs)) {
      if (guard || readWriteOutputs[index]) {
        Type storageType = getStorageType(
            cast<tirx::TensorType>(output.tile.getType()).getElementType());
        ptx.tieToOutput(index, SlotLoadOp::create(rewriter, loc, storageType,
                                                  output.tile, output.slot));
      }
    }
    bool hasSideEffects =
        instruction.space != ptx::MemorySpace::None || instruction.isVolatile;
    SmallVector<Value> results = ptx.create(text, hasSideEffects);
    for (auto [output, value] : llvm::zip_equal(outputs, results))
      SlotStoreOp::create(rewriter, loc, value, output.tile, output.slot);
  }
};
} // namespace

void mlir::tirx::populateTileApplyDispatchPatterns(
    RewritePatternSet &patterns) {
  patterns.add<ApplyOpDispatch>(patterns.getContext());
}
