//===- TileExecution.cpp - tile.apply and tile.ewise, one lane at a time --===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//
//
// Each tensor operand is group × repeat × atom (TileOperands.h). A lane's
// group coordinate comes from its thread index as `tile-dispatch` computes
// it; element `i` of that group lives at the layout's memory coordinate of
// flat index `group · perGroup + i`: a register slot of the lane for a local
// tensor (the verifier proved it is the same slot in every group), an
// element offset from the lane's base for a memory tensor. One instruction
// runs per repeat, in row-major order; a per-thread form runs lane by lane
// (gather its atoms, compute, scatter), a collective gathers every lane's
// atoms first.
//
//===----------------------------------------------------------------------===//

#include "ArithSemantics.h"
#include "CollectiveSemantics.h"
#include "KernelRun.h"

#include "TirX/Dialect/Tile/IR/BulkTensorCopy.h"
#include "TirX/Dialect/Tile/IR/FormSelection.h"
#include "TirX/Dialect/Tile/IR/TileOperands.h"
#include "TirX/Dialect/TirX/IR/RegionAccess.h"
#include "TirX/Interpreter/InstructionSemantics.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/SymbolTable.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/bit.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tirx;
using namespace mlir::tirx::interp;
using tile::ExecutionDomain;
using tile::MixedOperand;

/// The bits of a typed immediate.
static uint64_t getImmediateBits(TypedAttr immediate) {
  if (auto value = dyn_cast<IntegerAttr>(immediate))
    return truncateBits(value.getValue().getZExtValue(),
                        getScalarBitWidth(value.getType()));
  if (auto value = dyn_cast<FloatAttr>(immediate))
    return value.getValue().bitcastToAPInt().getZExtValue();
  return 0;
}

/// The flat group coordinate of `thread` (its index in the CTA) under
/// `domain`, as tile-dispatch's buildGroupCoordinates computes it.
static int64_t getGroupIndex(const ExecutionDomain &domain, int64_t thread) {
  if (domain.scope == tile::Scope::thread)
    return 0;
  if (domain.warpgroupInAtom)
    return domain.scope == tile::Scope::cta ? thread / 128 : 0;
  int64_t lane = thread % 32, warp = thread / 32;
  if (domain.lanesInAtom) {
    switch (domain.scope) {
    case tile::Scope::warpgroup:
      return warp % 4;
    case tile::Scope::cta:
      return warp;
    default:
      return 0;
    }
  }
  switch (domain.scope) {
  case tile::Scope::warp:
    return lane;
  case tile::Scope::warpgroup:
    return (warp % 4) * 32 + lane;
  default:
    return thread;
  }
}

namespace {
/// A tensor operand of a tile op, prepared once.
struct TensorOperand {
  tirx::TensorType type;
  TileLayout layout;
  int64_t perGroup = 0;
  int64_t elementBytes = 0;
  /// The masked region the operand is, directly or through reshapes.
  RegionOp masked;
  /// A tile of a runtime-sized tensor spanning several of its rows: the
  /// region's sizes, the byte stride of each of its dimensions in the
  /// tensor, and how many region elements one operand element covers.
  SmallVector<int64_t> stridedSizes, stridedBytes;
  int64_t stridedWidening = 1;

  TensorOperand(tirx::TensorType type, const ExecutionDomain &domain)
      : type(type), layout(type.getLayoutOrDefault()),
        perGroup(type.getNumElements() / domain.getNumGroups()),
        elementBytes(type.getElementBytes()) {}

  /// The byte offset, from the lane's base, of element `index` of group
  /// `group`.
  int64_t getByteOffset(int64_t group, int64_t index) const {
    if (!stridedSizes.empty()) {
      int64_t flat = (group * perGroup + index) * stridedWidening;
      int64_t offset = 0;
      for (int64_t dim = stridedSizes.size() - 1; dim >= 0; --dim) {
        offset += flat % stridedSizes[dim] * stridedBytes[dim];
        flat /= stridedSizes[dim];
      }
      return offset;
    }
    return at(layout.apply(group * perGroup + index), Axis::m) * elementBytes;
  }
};
} // namespace

/// Row-major coordinate of `flat` in `shape`.
static SmallVector<int64_t> delinearize(int64_t flat, ArrayRef<int64_t> shape) {
  SmallVector<int64_t> coordinate(shape.size());
  for (int64_t dim = static_cast<int64_t>(shape.size()) - 1; dim >= 0; --dim) {
    coordinate[dim] = flat % shape[dim];
    flat /= shape[dim];
  }
  return coordinate;
}

/// The value of size variable `name` in this launch.
static int64_t getElementTypeBitWidth(tirx::TensorType type) {
  return type.getElementType().getIntOrFloatBitWidth();
}

/// Fills `tensor`'s runtime-strided addressing when `value` is a tile of a
/// runtime-sized tensor spanning several rows (tirx-lower-tensors'
/// element_ptr of such a tile); fails for a view that splits its elements.
static LogicalResult setRuntimeStrides(TensorOperand &tensor, Value value,
                                       KernelRun &launch) {
  RegionOp region = getRuntimeStridedRegion(value);
  if (!region)
    return success();
  for (Value tile = value; auto view = tile.getDefiningOp<ViewOp>();
       tile = view.getSource()) {
    int64_t from = view.getSource().getType().getElementBytes();
    int64_t to = view.getResult().getType().getElementBytes();
    if (to < from)
      return failure();
    tensor.stridedWidening *= to / from;
  }
  tirx::TensorType source = region.getSource().getType();
  ArrayRef<int64_t> shape = source.getShape();
  tensor.stridedSizes.assign(region.getStaticSizes().begin(),
                             region.getStaticSizes().end());
  tensor.stridedBytes.assign(shape.size(), 0);
  int64_t stride = source.getElementBytes();
  for (int64_t dim = shape.size() - 1; dim >= 0; --dim) {
    tensor.stridedBytes[dim] = stride;
    StringAttr name = source.getSizeName(dim);
    stride *= name ? launch.getSizeValue(name) : shape[dim];
  }
  return success();
}

/// Whether the `count` elements from `index` of group `group` of a masked
/// operand (`value`) lie inside the region's source tensor in `lane`:
/// tile-dispatch's condition (buildMaskCondition), which tests the last
/// one, followed through the views down to the region.
static bool isInsideMaskedRegion(WarpExecutor &executor,
                                 const TensorOperand &operand, Value value,
                                 unsigned lane, int64_t group, int64_t index,
                                 int64_t count) {
  RegionOp region = operand.masked;
  int64_t flat = group * operand.perGroup + index + count - 1;
  for (Value tile = value; auto view = tile.getDefiningOp<ViewOp>();
       tile = view.getSource()) {
    int64_t from = getElementTypeBitWidth(view.getSource().getType());
    int64_t to = getElementTypeBitWidth(view.getResult().getType());
    if (to > from)
      flat = (flat + 1) * (to / from) - 1;
    else if (to < from)
      flat /= from / to;
  }
  SmallVector<int64_t> coordinate = delinearize(flat, region.getStaticSizes());
  tirx::TensorType source = region.getSource().getType();
  KernelRun &launch = executor.cta.launch;
  unsigned nextDynamic = 0;
  for (auto [dim, offset] : llvm::enumerate(region.getStaticOffsets())) {
    int64_t start = offset;
    if (ShapedType::isDynamic(offset))
      start = static_cast<int64_t>(
          executor.get(region.getOffsets()[nextDynamic++]).lanes[lane]);
    int64_t extent = source.getShape()[dim];
    if (StringAttr name = source.getSizeName(dim))
      extent = launch.getSizeValue(name);
    // A TMA box may overhang the tensor on either side (negative
    // coordinates: the load fills zeros, the store skips them).
    int64_t position = start + coordinate[dim];
    if (position < 0 || position >= extent)
      return false;
  }
  return true;
}

namespace {
/// One instruction of a tile.apply: the repeat of each operand it reads or
/// writes; `accumulator`: C is read from D (mma after the first k step).
struct Step {
  SmallVector<int64_t, 4> repeat;
  bool accumulator = false;
};
} // namespace

/// The instructions in order, as tile-dispatch issues them: one per repeat,
/// every operand at the same repeat; mma's (M, N, K)-structured repeats as
/// (batch, k, m, n), k outermost, with D accumulating.
static SmallVector<Step>
getSteps(const ptx::Instruction &instruction, ArrayRef<MixedOperand> operands,
         ArrayRef<std::optional<TensorOperand>> tensors,
         ArrayRef<int64_t> atoms, ArrayRef<SmallVector<int64_t>> repeatShapes) {
  SmallVector<Step> steps;
  std::optional<tile::MmaRepeats> mnk;
  if (operands.size() == 4 &&
      llvm::all_of(tensors, [](const auto &t) { return t.has_value(); }))
    mnk = tile::getMmaRepeats(instruction, repeatShapes[0], repeatShapes[1]);
  if (!mnk) {
    // An instruction without tensor operands (bar.sync) is issued once.
    int64_t repeats = 1;
    for (auto [tensor, atom] : llvm::zip(tensors, atoms))
      if (tensor)
        repeats = tensor->perGroup / atom;
    for (int64_t repeat = 0; repeat < repeats; ++repeat)
      steps.push_back({SmallVector<int64_t, 4>(operands.size(), repeat)});
    return steps;
  }
  for (const tile::MatrixStep &matrix : tile::getMatrixSteps(*mnk))
    steps.push_back(
        {{matrix.d, matrix.a, matrix.b, matrix.d}, matrix.accumulate});
  return steps;
}

LogicalResult WarpExecutor::executeApply(Operation *opPtr, LaneMask mask) {
  auto op = cast<tile::ApplyOp>(opPtr);
  FailureOr<SmallVector<MixedOperand>> operands =
      tile::getMixedOperands(op, op.getArgs(), op.getOperandKinds());
  if (failed(operands))
    return failure();
  FailureOr<const ptx::Instruction *> selected =
      tile::selectInstructionForm(op, op.getInstruction(), *operands);
  if (failed(selected))
    return failure();
  const ptx::Instruction &instruction = **selected;
  auto unsupported = [&]() {
    // check-diagnostics: internal, every form of the PTX table is modelled
    // (a form added later fails here, naming itself)
    emitRunError(op, cta) << "the interpreter does not model '"
                          << instruction.spelling << "' (form "
                          << instruction.formName << ") yet";
    return failure();
  };
  using Module = ptx::FamilyModuleId;
  bool collective = instruction.exec != ptx::ExecKind::Thread;
  bool warpgroup = instruction.exec == ptx::ExecKind::Warpgroup;
  FailureOr<ExecutionDomain> domain = tile::getExecutionDomain(
      op, op.getScope(), collective, /*warpgroupInAtom=*/warpgroup);
  if (failed(domain))
    return failure();

  LaneMask active = mask;
  if (Value pred = op.getPred()) {
    const LaneValue &value = get(pred);
    LaneMask predicated = 0;
    forEachLane(mask, [&](unsigned lane) {
      if (value.lanes[lane] & 1)
        predicated |= LaneMask(1) << lane;
    });
    if (collective && predicated && predicated != mask) {
      // check-diagnostics: internal, a collective's pred is warp-uniform
      // (verifier)
      emitRunError(op, cta) << "'" << instruction.spelling
                            << "' is a warp collective, but its predicate "
                               "differs between the lanes of warp "
                            << warp.index;
      return failure();
    }
    active = predicated;
  }
  if (collective && active && active != warp.live) {
    unsigned skipping = llvm::countr_zero(warp.live & ~active);
    // check-diagnostics: internal, the uniformity check rejects collectives
    // under thread-dependent branches
    emitRunError(op, cta) << "'" << instruction.spelling
                          << "' is a warp collective, but "
                          << cta.describeThread(warp.index, skipping)
                          << " does not execute it (it is under a "
                             "thread-dependent condition)";
    return failure();
  }
  if (!active)
    return success();
  switch (instruction.module) {
  case Module::prefetch:
  case Module::setmaxnreg:
    // Hints and register budgets change no value the program sees.
    return success();
  case Module::barrier:
    // barrier.cluster: every thread of every CTA of the cluster arrives,
    // then waits (a launch without clusters is clusters of one CTA).
    if (instruction.family == "barrier") {
      if (instruction.getModifier(ptx::Slot::mode) == "arrive")
        return cta.cluster.arrive(
            warp, op, active,
            /*release=*/instruction.getModifier(ptx::Slot::sem) != "relaxed");
      return cta.cluster.wait(warp, op);
    }
    break;
  case Module::tma:
    return executeBulkTensorCopy(op, instruction, *operands, *domain, active);
  case Module::wgmma:
    if (instruction.getModifier(ptx::Slot::mode) != "mma_async") {
      std::optional<int64_t> groups = tile::getIntegerImmediate(*operands, 0);
      return executeWgmmaSync(*this, instruction, groups.value_or(0));
    }
    break;
  default:
    break;
  }
  // Every lane's atoms are gathered before the instruction runs for the
  // warp: collectives, and mbarrier operations (a wait blocks the warp).
  bool batch = collective || instruction.module == Module::mbarrier;
  bool isWgmma = instruction.module == Module::wgmma;
  unsigned firstLane = llvm::countr_zero(active);
  wgmmaAccess = isWgmma;
  llvm::scope_exit clearWgmma([&] { wgmmaAccess = false; });
  // wgmma reads its shared operands through the async proxy.
  asyncProxyAccess = isWgmma;
  llvm::scope_exit clearProxy([&] { asyncProxyAccess = false; });

  // atom and red read the memory they write.
  bool isReadModifyWrite =
      instruction.family == "atom" || instruction.family == "red";
  atomicAccess = isReadModifyWrite;
  llvm::scope_exit clearAtomic([&] { atomicAccess = false; });

  // Per operand: its tensor view (null for scalars and immediates), atom
  // and repeat shape.
  std::vector<std::optional<TensorOperand>> tensors;
  SmallVector<int64_t> atoms;
  SmallVector<SmallVector<int64_t>> repeatShapes;
  for (const MixedOperand &operand : *operands) {
    const ptx::OperandInfo &info = instruction.operands[operand.position];
    auto type = dyn_cast<tirx::TensorType>(operand.getType());
    if (!type) {
      tensors.emplace_back();
      atoms.push_back(info.atom ? info.atom : 1);
      repeatShapes.emplace_back();
      continue;
    }
    TensorOperand tensor(type, *domain);
    if (failed(setRuntimeStrides(tensor, operand.value, cta.launch)))
      return unsupported();
    if (tensor.elementBytes > 8)
      return unsupported();
    tensor.masked = getMaskedRegion(operand.value);
    int64_t atom = tile::getOperandAtom(info, *operands, tensor.elementBytes);
    atoms.push_back(std::max<int64_t>(atom, 1));
    size_t atomRank = std::max<size_t>(info.atomShape.size(), 1);
    repeatShapes.emplace_back(type.getShape()
                                  .drop_front(domain->groupShape.size())
                                  .drop_back(atomRank));
    tensors.push_back(std::move(tensor));
  }
  SmallVector<Step> steps =
      getSteps(instruction, *operands, tensors, atoms, repeatShapes);

  // Where element `element` of an operand's atom for `repeat` lives in
  // `lane`: the register slot's or memory element's byte offset from the
  // lane's base. A collective's register operand holds the fragment's
  // registers of the lane: consecutive slots after the atom's first.
  auto locate = [&](unsigned position, unsigned lane, int64_t repeat,
                    int64_t element) {
    const TensorOperand &tensor = *tensors[position];
    int64_t group = getGroupIndex(*domain, getThreadId(lane));
    const ptx::OperandInfo &info = instruction.operands[position];
    if (!info.fragment.empty() && !info.isMemory) {
      const tile::Fragment &fragment = tile::getFragment(info.fragment);
      int64_t first = tensor.getByteOffset(group, repeat * atoms[position]);
      return first +
             (element - fragment.registerIndex[0]) * tensor.elementBytes;
    }
    return tensor.getByteOffset(group, repeat * atoms[position] + element) +
           static_cast<int64_t>(get((*operands)[position].value).offset(lane));
  };
  // The elements of an operand's atom a lane holds: a collective register
  // operand's registers; every element of a memory operand, of which a
  // collective's lane accesses those of the rows it addresses.
  auto laneElements = [&](unsigned position) -> int64_t {
    const ptx::OperandInfo &info = instruction.operands[position];
    if (!info.fragment.empty() && !info.isMemory)
      return tile::getFragment(info.fragment).registersPerLane;
    return atoms[position];
  };
  auto accessedBy = [&](unsigned position, unsigned lane, int64_t element) {
    const ptx::OperandInfo &info = instruction.operands[position];
    if (!info.isMemory || !collective)
      return true;
    // A wgmma's shared matrix is read once per warp.
    if (info.fragment.empty())
      return lane == firstLane;
    return tile::getFragment(info.fragment).lane[element] % kWarpSize == lane;
  };
  // An mbarrier's memory operand is the object, which the mbarrier
  // semantics keep themselves.
  auto isObject = [&](unsigned position) {
    const ptx::OperandInfo &info = instruction.operands[position];
    return info.isMemory && instruction.module == Module::mbarrier;
  };
  // An asynchronous copy's destination is written when the copy completes.
  bool deferredWrite = instruction.module == Module::cpasync;
  int zeroFillOperand = findOperand(instruction, "srcsize");
  int scaleOperand = findOperand(instruction, "scale-d");

  for (const Step &step : steps) {
    beginInstruction();
    std::vector<std::tuple<Storage *, int64_t, int64_t>> wgmmaReads;
    // Gathers a lane's source atoms; false when a masked repeat is skipped.
    SmallVector<SmallVector<OperandAtom, 4>, 1> laneAtoms(kWarpSize);
    LaneMask executing = 0;
    auto gather = [&](unsigned lane) -> FailureOr<bool> {
      SmallVector<OperandAtom, 4> &atomsOfLane = laneAtoms[lane];
      atomsOfLane.assign(operands->size(), OperandAtom());
      for (auto [position, operand] : llvm::enumerate(*operands)) {
        const ptx::OperandInfo &info = instruction.operands[position];
        OperandAtom &atom = atomsOfLane[position];
        atom.bitWidth = info.element.bitWidth;
        if (!tensors[position]) {
          uint64_t bits = operand.value ? get(operand.value).lanes[lane]
                                        : getImmediateBits(operand.immediate);
          atom.elements.assign(atoms[position], bits);
          continue;
        }
        const TensorOperand &tensor = *tensors[position];
        int64_t repeat = step.repeat[position];
        if (isObject(position))
          continue;
        if (tensor.masked &&
            !isInsideMaskedRegion(*this, tensor, operand.value, lane,
                                  getGroupIndex(*domain, getThreadId(lane)),
                                  repeat * atoms[position], atoms[position]))
          return false;
        int64_t count = laneElements(position);
        atom.elements.assign(count, 0);
        if (!atom.bitWidth)
          atom.bitWidth = tensor.elementBytes * 8;
        // Destinations are written, not read: but wgmma's accumulator, and
        // the memory an atom or red updates.
        if (info.isDestination && !info.isReadWrite &&
            !(isReadModifyWrite && info.isMemory))
          continue;
        // wgmma with scale-d false overwrites its accumulator.
        if (info.isReadWrite && scaleOperand >= 0) {
          const MixedOperand &scale = (*operands)[scaleOperand];
          uint64_t bits = scale.value ? get(scale.value).lanes[lane]
                                      : getImmediateBits(scale.immediate);
          if (!(bits & 1))
            continue;
        }
        // mma's C after the first k step is the accumulator D.
        unsigned from = position;
        if (step.accumulator && position == 3) {
          from = 0;
          repeat = step.repeat[0];
        }
        Storage &storage = *get((*operands)[from].value).storage;
        // cp.async's zfill reads only the source's first `srcsize` bytes.
        if (deferredWrite && info.isMemory && zeroFillOperand >= 0) {
          const MixedOperand &srcsize = (*operands)[zeroFillOperand];
          uint64_t bytes = srcsize.value ? get(srcsize.value).lanes[lane]
                                         : getImmediateBits(srcsize.immediate);
          count = std::min<int64_t>(
              count, llvm::divideCeil(bytes, tensor.elementBytes));
        }
        for (int64_t element = 0; element < count; ++element) {
          if (!accessedBy(position, lane, element))
            continue;
          if (isWgmma && info.isMemory)
            wgmmaReads.emplace_back(&storage,
                                    locate(from, lane, repeat, element),
                                    tensor.elementBytes);
          uint64_t bits = 0;
          if (failed(read(op, storage, lane,
                          locate(from, lane, repeat, element),
                          tensor.elementBytes, &bits)))
            return failure();
          atom.elements[element] = bits;
        }
      }
      return true;
    };
    auto scatter = [&](unsigned lane) -> LogicalResult {
      for (auto [position, operand] : llvm::enumerate(*operands)) {
        const ptx::OperandInfo &info = instruction.operands[position];
        if (!info.isDestination || !tensors[position] ||
            (deferredWrite && info.isMemory) || isObject(position))
          continue;
        const TensorOperand &tensor = *tensors[position];
        Storage &storage = *get(operand.value).storage;
        OperandAtom &atom = laneAtoms[lane][position];
        for (auto [element, bits] : llvm::enumerate(atom.elements))
          if (accessedBy(position, lane, element) &&
              failed(
                  write(op, storage, lane,
                        locate(position, lane, step.repeat[position], element),
                        tensor.elementBytes, &bits)))
            return failure();
      }
      return success();
    };
    auto compute = [&](unsigned lane) -> LogicalResult {
      MutableArrayRef<OperandAtom> atomsOfLane = laneAtoms[lane];
      switch (instruction.module) {
      case Module::scalar:
        if (llvm::Error error =
                executeScalarInstruction(instruction, atomsOfLane)) {
          emitRunError(op, cta) << llvm::toString(std::move(error));
          return failure();
        }
        return success();
      case Module::memory:
        // fence.proxy.async of shared memory (all spaces, or shared::cta or
        // ::cluster); `.global` orders global memory only.
        if (instruction.family == "fence" && instruction.hasModifier("async") &&
            !instruction.hasModifier("global"))
          ++cta.proxyFences[getThreadId(lane)];
        return executeMemoryInstruction(*this, op, instruction, atomsOfLane);
      case Module::cpasync: {
        // The destination's place, for the copy's completion.
        int64_t destination = -1;
        Storage *storage = nullptr;
        for (auto [position, operand] : llvm::enumerate(*operands))
          if (instruction.operands[position].isMemory &&
              instruction.operands[position].isDestination) {
            storage = get(operand.value).storage;
            destination = locate(position, lane, step.repeat[position], 0);
          }
        return executeAsyncCopyInstruction(*this, op, instruction, atomsOfLane,
                                           lane, storage, destination);
      }
      default:
        return executeWarpThreadInstruction(*this, op, instruction, atomsOfLane,
                                            active);
      }
    };

    if (!batch) {
      bool ok = true;
      forEachLane(active, [&](unsigned lane) {
        if (!ok)
          return;
        FailureOr<bool> gathered = gather(lane);
        ok = succeeded(gathered) && (!*gathered || (succeeded(compute(lane)) &&
                                                    succeeded(scatter(lane))));
      });
      if (!ok)
        return failure();
      continue;
    }
    bool ok = true;
    forEachLane(active, [&](unsigned lane) {
      if (!ok)
        return;
      FailureOr<bool> gathered = gather(lane);
      ok = succeeded(gathered);
      if (ok && *gathered)
        executing |= LaneMask(1) << lane;
    });
    if (!ok)
      return failure();
    if (executing != active) {
      // check-diagnostics: internal, masked regions are operands of
      // thread-level instructions only (verifier)
      emitRunError(op, cta) << "'" << instruction.spelling
                            << "' is a warp collective over a masked region "
                               "that is partly outside its tensor";
      return failure();
    }
    LogicalResult executed = success();
    switch (instruction.module) {
    case Module::mma:
    case Module::matrix:
      executed =
          executeMatrixInstruction(*this, op, instruction, laneAtoms, active);
      break;
    case Module::wgmma:
      executed = executeWgmma(*this, op, instruction, laneAtoms, firstLane);
      break;
    case Module::mbarrier: {
      int object = -1;
      for (auto [position, info] : llvm::enumerate(instruction.operands))
        if (info.isMemory)
          object = position;
      executed = executeMbarrierInstruction(
          *this, op, instruction, laneAtoms, active, [&](unsigned lane) {
            return std::make_pair(get((*operands)[object].value).storage,
                                  locate(object, lane, step.repeat[object], 0));
          });
      break;
    }
    default:
      executed = executeCollectiveInstruction(*this, op, instruction, laneAtoms,
                                              active);
      break;
    }
    if (failed(executed))
      return failure();
    forEachLane(active, [&](unsigned lane) {
      if (ok)
        ok = succeeded(scatter(lane));
    });
    if (!ok)
      return failure();
    // A wgmma's accumulators stay in flight until its group is waited for.
    if (isWgmma) {
      const tile::Fragment &fragment =
          tile::getFragment(instruction.operands[0].fragment);
      int64_t begin = locate(0, firstLane, step.repeat[0], 0);
      warp.openWgmmaGroup.push_back(
          {get((*operands)[0].value).storage, begin,
           begin + fragment.registersPerLane * tensors[0]->elementBytes, op,
           std::move(wgmmaReads), firstLane, warp.instructions, warp.clock});
    }
  }
  return success();
}

//===----------------------------------------------------------------------===//
// TMA: the bulk tensor copies
//===----------------------------------------------------------------------===//

/// The region `value` is, directly or through views; null for a whole
/// tensor.
static RegionOp findRegion(Value value) {
  while (Operation *def = value.getDefiningOp()) {
    if (auto region = dyn_cast<RegionOp>(def))
      return region;
    auto view = dyn_cast<ViewOp>(def);
    if (!view)
      return {};
    value = view.getSource();
  }
  return {};
}

LogicalResult WarpExecutor::retireBulkReads(unsigned lane, size_t pending) {
  BulkReadGroups &groups = warp.bulkReads[lane];
  while (groups.committed.size() > pending) {
    for (const PendingBulkRead &read : groups.committed.front()) {
      uint64_t bits = 0;
      asyncProxyAccess = true;
      clockOverride = read.clock.get();
      LogicalResult checked = this->read(read.op, *read.storage, lane,
                                         read.offset, read.bytes, &bits);
      clockOverride = nullptr;
      asyncProxyAccess = false;
      if (failed(checked))
        return failure();
    }
    groups.committed.erase(groups.committed.begin());
  }
  return success();
}

// A load reads the box from global memory at issue, zero for elements
// outside the tensor, and queues the shared-memory writes on its mbarrier,
// where they complete (CtaRun::completePendingLoads); a store reads the
// shared image and writes the elements inside the tensor at issue, and its
// read stays in flight until the bulk wait_group that retires its group:
// read again there, at the issuer's clock, so that another warp's write of
// the image before that wait (and a barrier after it) is a race, as the
// hardware may read the image any time until then.
LogicalResult WarpExecutor::executeBulkTensorCopy(
    Operation *op, const ptx::Instruction &instruction,
    ArrayRef<MixedOperand> operands, const ExecutionDomain &domain,
    LaneMask active) {
  StringRef form = instruction.formName;
  if (form == "cp.async.bulk.prefetch.tensor")
    return success();
  if (form == "cp.async.bulk.commit_group" ||
      form == "cp.async.bulk.wait_group") {
    bool ok = true;
    forEachLane(active, [&](unsigned lane) {
      BulkReadGroups &groups = warp.bulkReads[lane];
      if (form == "cp.async.bulk.commit_group") {
        groups.committed.push_back(std::move(groups.open));
        groups.open.clear();
        return;
      }
      size_t pending = static_cast<size_t>(
          tile::getIntegerImmediate(operands, 0).value_or(0));
      ok = ok && succeeded(retireBulkReads(lane, pending));
    });
    return success(ok);
  }
  bool reduce = form == "cp.reduce.async.bulk.tensor";
  bool multicast = form == "cp.async.bulk.tensor.load.multicast";
  if (form != "cp.async.bulk.tensor.load" &&
      form != "cp.async.bulk.tensor.store" && !reduce && !multicast) {
    // check-diagnostics: internal, every tma form of the PTX table is
    // modelled (a form added later fails here, naming itself)
    emitRunError(op, cta) << "the interpreter does not model '"
                          << instruction.spelling << "' (form " << form
                          << ") yet";
    return failure();
  }
  bool load = form == "cp.async.bulk.tensor.load" || multicast;
  int mapPosition = -1, boxPosition = -1, barrierPosition = -1,
      maskPosition = -1;
  for (auto [position, info] : llvm::enumerate(instruction.operands)) {
    if (info.bulkRole == ptx::BulkTensorRole::TensorMap)
      mapPosition = position;
    else if (info.bulkRole == ptx::BulkTensorRole::BoxImage)
      boxPosition = position;
    else if (info.name == "mbar")
      barrierPosition = position;
    else if (info.name == "ctaMask")
      maskPosition = position;
  }
  Value mapValue = operands[mapPosition].value;
  Value boxValue = operands[boxPosition].value;
  TensorOperand global(cast<tirx::TensorType>(mapValue.getType()), domain);
  if (failed(setRuntimeStrides(global, mapValue, cta.launch))) {
    // check-diagnostics: internal, the region verifier refuses views splitting
    // a runtime-strided tile's elements
    emitRunError(op, cta) << "the interpreter does not model this view of a "
                             "TMA box";
    return failure();
  }
  global.masked = findRegion(mapValue);
  TensorOperand box(cast<tirx::TensorType>(boxValue.getType()), domain);
  int64_t elements = box.type.getNumElements();
  int64_t elementBytes = box.elementBytes;
  // A reduction's operation takes the tensor's element type (the type its
  // tensor map declares): "f32", "bf16", "s32", "u64", ...
  StringRef reduceOp = instruction.getModifier(ptx::Slot::op);
  std::string reduceType;
  if (reduce) {
    Type element = global.type.getElementType();
    if (element.isBF16())
      reduceType = "bf16";
    else if (isa<FloatType>(element))
      reduceType = "f" + std::to_string(element.getIntOrFloatBitWidth());
    else
      reduceType = (element.isUnsignedInteger() ? "u" : "s") +
                   std::to_string(element.getIntOrFloatBitWidth());
  }
  bool ok = true;
  forEachLane(active, [&](unsigned lane) {
    if (!ok)
      return;
    int64_t group = getGroupIndex(domain, getThreadId(lane));
    const LaneValue &globalValue = get(mapValue);
    const LaneValue &boxTile = get(boxValue);
    PendingWrite pending;
    auto issued = std::make_shared<const VectorClock>(warp.clock);
    for (int64_t index = 0; index < elements && ok; ++index) {
      bool inside =
          !global.masked ||
          isInsideMaskedRegion(*this, global, mapValue, lane, group, index, 1);
      int64_t globalOffset =
          global.getByteOffset(group, index) + globalValue.offset(lane);
      int64_t boxOffset =
          box.getByteOffset(group, index) + boxTile.offset(lane);
      uint64_t bits = 0;
      if (load) {
        if (inside)
          ok = succeeded(read(op, *globalValue.storage, lane, globalOffset,
                              elementBytes, &bits));
        pending.elements.push_back({boxOffset, bits});
      } else if (inside) {
        // The store reads the image through the async proxy, until its
        // bulk group retires.
        asyncProxyAccess = true;
        ok = succeeded(
            read(op, *boxTile.storage, lane, boxOffset, elementBytes, &bits));
        asyncProxyAccess = false;
        warp.bulkReads[lane].open.push_back(
            {boxTile.storage, boxOffset, elementBytes, op, issued});
        if (ok && reduce) {
          // Each element an atomic read-modify-write of global memory.
          atomicAccess = true;
          uint64_t old = 0;
          ok = succeeded(read(op, *globalValue.storage, lane, globalOffset,
                              elementBytes, &old));
          std::optional<uint64_t> combined =
              ok ? combineAtomic(reduceOp, reduceType, elementBytes * 8, old,
                                 bits, 0, /*flushSubnormals=*/false)
                 : std::nullopt;
          if (ok && !combined) {
            // check-diagnostics: internal, the verifier checks that the
            // operation takes the tensor's element type
            // (rules::getTensorReductionTypes)
            emitRunError(op, cta)
                << "'" << instruction.spelling << "' does not take "
                << reduceType << " elements";
            ok = false;
          }
          bits = combined.value_or(0);
        }
        ok = ok && succeeded(write(op, *globalValue.storage, lane, globalOffset,
                                   elementBytes, &bits));
        atomicAccess = false;
      }
    }
    if (!ok || !load)
      return;
    // The CTAs the box lands in: this one, or a multicast's ctaMask (bit r:
    // the CTA of rank r), each at the image's and the mbarrier's offsets.
    uint64_t ctaMask = uint64_t(1) << cta.rank;
    if (multicast) {
      const MixedOperand &mask = operands[maskPosition];
      ctaMask = (mask.value ? get(mask.value).lanes[lane]
                            : static_cast<uint64_t>(tile::getIntegerImmediate(
                                                        operands, maskPosition)
                                                        .value_or(0))) &
                0xffff;
      if (ctaMask >> cta.cluster.ctas.size()) {
        emitRunError(op, cta)
            << "the ctaMask 0x" << llvm::utohexstr(ctaMask)
            << " names CTAs beyond the cluster of " << cta.cluster.ctas.size()
            << " (" << cta.describeThread(warp.index, lane) << ")";
        ok = false;
        return;
      }
    }
    const LaneValue &barrierValue = get(operands[barrierPosition].value);
    pending.elementBytes = elementBytes;
    pending.issuer = &cta;
    pending.warp = warp.index;
    pending.lane = lane;
    pending.clock = warp.clock;
    ++warp.clock[warp.slot];
    pending.op = op;
    pending.transactionBytes = elements * elementBytes;
    for (unsigned rank = 0; rank < cta.cluster.ctas.size() && ok; ++rank) {
      if (!(ctaMask >> rank & 1))
        continue;
      CtaRun &target = *cta.cluster.ctas[rank];
      Storage *image = cta.getPeerStorage(*boxTile.storage, rank);
      Storage *barrierStorage = cta.getPeerStorage(*barrierValue.storage, rank);
      auto found =
          target.mbarriers.find({barrierStorage, barrierValue.offset(lane)});
      if (!image || found == target.mbarriers.end() || !found->second.initOp) {
        emitRunError(op, cta)
            << "a TMA load completes on an mbarrier "
            << (rank == cta.rank
                    ? std::string("no thread has initialized")
                    : "CTA " + std::to_string(rank) + " has not initialized")
            << " (" << cta.describeThread(warp.index, lane) << ")";
        ok = false;
        return;
      }
      PendingWrite copy = pending;
      copy.storage = image;
      found->second.pendingLoads.push_back(std::move(copy));
    }
  });
  return success(ok);
}

//===----------------------------------------------------------------------===//
// tile.ewise
//===----------------------------------------------------------------------===//

LogicalResult WarpExecutor::executeEwise(Operation *opPtr, LaneMask mask) {
  auto op = cast<tile::EwiseOp>(opPtr);
  FailureOr<SmallVector<MixedOperand>> operands =
      tile::getMixedOperands(op, op.getArgs(), op.getOperandKinds());
  if (failed(operands))
    return failure();
  FailureOr<ExecutionDomain> domain =
      tile::getExecutionDomain(op, op.getScope());
  if (failed(domain))
    return failure();
  auto callee = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
      op, op.getCalleeAttr());
  if (!callee || callee.isExternal()) {
    // check-diagnostics: internal, the verifier requires ewise callees to have
    // bodies
    emitRunError(op, cta) << "the interpreter needs the body of '"
                          << op.getCallee() << "'";
    return failure();
  }
  std::vector<std::optional<TensorOperand>> tensors;
  for (const MixedOperand &operand : *operands) {
    auto type = dyn_cast<tirx::TensorType>(operand.getType());
    if (type)
      tensors.emplace_back(TensorOperand(type, *domain));
    else
      tensors.emplace_back();
  }
  const TensorOperand &destination = *tensors[0];
  Block &body = callee.getBody().front();
  for (int64_t index = 0; index < destination.perGroup; ++index) {
    beginInstruction();
    auto locate = [&](unsigned position, unsigned lane) {
      int64_t group = getGroupIndex(*domain, getThreadId(lane));
      return tensors[position]->getByteOffset(group, index) +
             static_cast<int64_t>(
                 get((*operands)[position].value).offset(lane));
    };
    for (auto [index, mixed] :
         llvm::enumerate(ArrayRef(*operands).drop_front())) {
      unsigned position = index;
      const MixedOperand &operand = mixed;
      unsigned from = position + 1;
      LaneValue value;
      bool ok = true;
      forEachLane(mask, [&](unsigned lane) {
        if (!ok)
          return;
        if (!tensors[from]) {
          value.lanes[lane] = operand.value
                                  ? get(operand.value).lanes[lane]
                                  : getImmediateBits(operand.immediate);
          return;
        }
        uint64_t bits = 0;
        ok = succeeded(read(op, *get(operand.value).storage, lane,
                            locate(from, lane), tensors[from]->elementBytes,
                            &bits));
        value.lanes[lane] = bits;
      });
      if (!ok)
        return failure();
      set(body.getArgument(position), value);
    }
    FailureOr<LaneValues> results = executeBlock(body, mask);
    if (failed(results))
      return failure();
    bool ok = true;
    Storage &storage = *get((*operands)[0].value).storage;
    forEachLane(mask, [&](unsigned lane) {
      if (ok)
        ok = succeeded(write(op, storage, lane, locate(0, lane),
                             destination.elementBytes,
                             &(*results)[0].lanes[lane]));
    });
    if (!ok)
      return failure();
  }
  return success();
}
