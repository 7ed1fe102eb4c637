//===- TileOperands.cpp - Operands of tile ops and their checks -----------===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//
//
// The operand model of `tile.apply` and `tile.ewise` (mixed SSA/immediate
// operands, the execution domain of a scope) and the static checker that
// proves ownership, distinct destinations and contiguous, aligned memory
// atoms (spec §2, §7). Which PTX form a `tile.apply` names is chosen in
// FormSelection.cpp; this file sees only the atoms and vector widths the
// chosen form gives each operand.
//
//===----------------------------------------------------------------------===//

#include "TirX/Dialect/Tile/IR/TileOperands.h"
#include "TirX/Dialect/Tile/IR/CheckedOperandCache.h"
#include "TirX/Dialect/Tile/IR/TileDialect.h"
#include "TirX/Dialect/Tile/IR/MatrixDescriptor.h"
#include "TirX/Dialect/TirX/IR/TirXOps.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FormatVariadic.h"

#include <memory>
#include <mutex>
#include <numeric>

using namespace mlir;
using namespace mlir::tirx;
using namespace mlir::tirx::tile;

/// Enumerating more elements than this per operand is refused rather than
/// risking a very slow verifier on absurd inputs.
static constexpr int64_t kMaxCheckedElements = int64_t(1) << 22;

FailureOr<SmallVector<MixedOperand>>
mlir::tirx::tile::getMixedOperands(Operation *op, ValueRange args,
                                   ArrayAttr kinds) {
  SmallVector<MixedOperand> operands;
  unsigned nextArg = 0;
  for (auto [position, kind] : llvm::enumerate(kinds)) {
    if (isa<UnitAttr>(kind)) {
      if (nextArg >= args.size())
        return op->emitOpError("operand_kinds names more SSA operands than "
                               "the op has");
      Value arg = args[nextArg++];
      auto tensor = dyn_cast<tirx::TensorType>(arg.getType());
      if (tensor && !tensor.hasStaticShape())
        return op->emitOpError("operand #")
               << position << " has runtime extents (" << tensor
               << "); select a tile of static size with tirx.region";
      operands.push_back({static_cast<unsigned>(position), arg, TypedAttr()});
      continue;
    }
    auto immediate = dyn_cast<TypedAttr>(kind);
    if (!immediate || !isa<IntegerAttr, FloatAttr>(immediate))
      return op->emitOpError("operand #")
             << position << " must be an SSA value or an integer/float "
             << "immediate, got " << kind;
    operands.push_back({static_cast<unsigned>(position), Value(), immediate});
  }
  if (nextArg != args.size())
    return op->emitOpError("has ")
           << args.size() << " SSA operands but operand_kinds uses " << nextArg;
  return operands;
}

//===----------------------------------------------------------------------===//
// Execution domain: which threads execute which group coordinate
//===----------------------------------------------------------------------===//

void ExecutionDomain::forEachThread(ArrayRef<int64_t> group,
                                    function_ref<bool(int64_t)> fn) const {
  if (warpgroupInAtom) {
    if (scope == Scope::warpgroup) {
      for (int64_t wg = 0; wg * 128 < numThreads; ++wg)
        if (!fn(wg * 128))
          return;
    } else if (scope == Scope::cta) {
      fn(group[0] * 128);
    }
    return;
  }
  if (lanesInAtom) {
    switch (scope) {
    case Scope::thread:
    case Scope::warp:
      for (int64_t warp = 0; warp * 32 < numThreads; ++warp)
        if (!fn(warp * 32))
          return;
      return;
    case Scope::warpgroup:
      for (int64_t wg = 0; wg * 128 < numThreads; ++wg)
        if (!fn(wg * 128 + group[0] * 32))
          return;
      return;
    case Scope::cta:
      fn(group[0] * 32);
      return;
    }
  }
  switch (scope) {
  case Scope::thread:
    for (int64_t tid = 0; tid < numThreads; ++tid)
      if (!fn(tid))
        return;
    return;
  case Scope::warp:
    for (int64_t warp = 0; warp * 32 < numThreads; ++warp)
      if (!fn(warp * 32 + group[0]))
        return;
    return;
  case Scope::warpgroup:
    for (int64_t wg = 0; wg * 128 < numThreads; ++wg)
      if (!fn(wg * 128 + group[0] * 32 + group[1]))
        return;
    return;
  case Scope::cta:
    fn(group[0] * 32 + group[1]);
    return;
  }
}

int64_t ExecutionDomain::getNumGroups() const {
  int64_t groups = 1;
  for (int64_t extent : groupShape)
    groups *= extent;
  return groups;
}

FailureOr<ExecutionDomain>
mlir::tirx::tile::getExecutionDomain(Operation *op, Scope scope,
                                     bool lanesInAtom, bool warpgroupInAtom) {
  std::optional<int64_t> blockThreads = getEnclosingBlockThreads(op);
  if (!blockThreads)
    return op->emitOpError("must be inside a tirx.kernel (its launch "
                           "configuration defines the executing threads)");
  int64_t threads = *blockThreads;
  ExecutionDomain domain{scope, threads, {}, lanesInAtom, warpgroupInAtom};
  if (warpgroupInAtom) {
    // check-diagnostics: internal, ApplyOp::verify rejects these scopes first
    if (scope == Scope::thread || scope == Scope::warp)
      return op->emitOpError("a warpgroup collective needs scope warpgroup "
                             "or cta");
    if (threads % 128 != 0)
      // check-diagnostics: internal, ApplyOp::verify rejects these blocks
      return op->emitOpError("a warpgroup-collective instruction needs whole "
                             "warpgroups, but the block has ")
             << threads << " threads";
    if (scope == Scope::cta)
      domain.groupShape = {threads / 128};
    return domain;
  }
  if (lanesInAtom) {
    // The verifier rejects thread scope for collectives before asking.
    // check-diagnostics: internal, ApplyOp::verify rejects thread scope first
    if (scope == Scope::thread)
      return op->emitOpError("a collective cannot run at scope thread");
    if (threads % 32 != 0)
      return op->emitOpError("a warp-collective instruction needs all 32 "
                             "lanes of every warp, but the block has ")
             << threads << " threads";
    if (scope == Scope::warpgroup) {
      if (threads % 128 != 0)
        return op->emitOpError("scope warpgroup needs whole warpgroups (128 "
                               "threads), but the block has ")
               << threads << " threads";
      domain.groupShape = {4};
    } else if (scope == Scope::cta) {
      domain.groupShape = {threads / 32};
    }
    return domain;
  }
  auto partialWarps = [&]() {
    return op->emitOpError("scope ")
           << stringifyScope(scope) << " needs whole warps, but the block has "
           << threads << " threads";
  };
  switch (scope) {
  case Scope::thread:
    break;
  case Scope::warp:
    if (threads > 32 && threads % 32 != 0)
      return partialWarps();
    domain.groupShape = {std::min<int64_t>(threads, 32)};
    break;
  case Scope::warpgroup:
    if (threads % 128 != 0)
      return op->emitOpError("scope warpgroup needs whole warpgroups (128 "
                             "threads), but the block has ")
             << threads << " threads";
    domain.groupShape = {4, 32};
    break;
  case Scope::cta:
    if (threads > 32 && threads % 32 != 0)
      return partialWarps();
    domain.groupShape = {(threads + 31) / 32, std::min<int64_t>(threads, 32)};
    break;
  }
  return domain;
}

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

static std::string formatList(ArrayRef<int64_t> values) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << '(';
  llvm::interleaveComma(values, os);
  os << ')';
  return text;
}

/// Row-major coordinate of `flat` in `shape`.
static SmallVector<int64_t> delinearize(int64_t flat, ArrayRef<int64_t> shape) {
  SmallVector<int64_t> coord(shape.size());
  for (int64_t dim = static_cast<int64_t>(shape.size()) - 1; dim >= 0; --dim) {
    coord[dim] = flat % shape[dim];
    flat /= shape[dim];
  }
  return coord;
}

static int64_t getScopeUnit(ExecScope scope, int64_t numThreads) {
  switch (scope) {
  case ExecScope::thread:
    return 1;
  case ExecScope::warp:
    return 32;
  case ExecScope::warpgroup:
    return 128;
  case ExecScope::cta:
  case ExecScope::grid:
    return std::max<int64_t>(numThreads, 1);
  }
  return 1;
}

/// "warpid=1 laneid=3" for the thread axes `layout` uses.
static std::string describeOwner(const TileLayout &layout,
                                 const PhysicalCoord &owner) {
  SmallVector<bool, kNumAxes> used(kNumAxes, false);
  for (const Iter &iter : layout.getShard())
    used[static_cast<unsigned>(iter.axis)] = true;
  for (const Iter &iter : layout.getReplica())
    used[static_cast<unsigned>(iter.axis)] = true;
  for (unsigned axis = 0; axis < kNumAxes; ++axis)
    used[axis] = used[axis] || layout.getOffset()[axis] != 0;
  std::string text;
  llvm::raw_string_ostream os(text);
  bool first = true;
  for (unsigned axis = 0; axis < kNumAxes; ++axis) {
    if (!used[axis] || !isThreadAxis(static_cast<Axis>(axis)))
      continue;
    os << (first ? "" : " ") << getAxisName(static_cast<Axis>(axis)) << '='
       << owner[axis];
    first = false;
  }
  return text;
}

//===----------------------------------------------------------------------===//
// Fragments
//===----------------------------------------------------------------------===//

const Fragment &mlir::tirx::tile::getFragment(StringRef notation) {
  // Verification runs on several threads; the table has a handful of
  // fragments, each parsed once.
  static std::mutex mutex;
  static llvm::StringMap<std::unique_ptr<Fragment>> cache;
  std::lock_guard<std::mutex> lock(mutex);
  std::unique_ptr<Fragment> &entry = cache[notation];
  if (entry)
    return *entry;
  llvm::Expected<TileLayout> layout = TileLayout::parse(notation);
  // PTXTable.FragmentsParse (unittests/PTX) parses every table fragment.
  if (!layout)
    llvm::report_fatal_error(
        "PTX table fragment '" + notation +
        "' does not parse: " + llvm::toString(layout.takeError()));
  entry = std::make_unique<Fragment>(Fragment{*layout, {}, {}, 1});
  for (int64_t index = 0; index < layout->size(); ++index) {
    PhysicalCoord owner = layout->apply(index);
    // laneid, and 32 wid_in_wg in a warpgroup's fragment.
    entry->lane.push_back(getFlatThreadId(owner));
    entry->registerIndex.push_back(at(owner, Axis::m));
    entry->registersPerLane =
        std::max(entry->registersPerLane, entry->registerIndex.back() + 1);
  }
  return *entry;
}

//===----------------------------------------------------------------------===//
// The checker
//===----------------------------------------------------------------------===//

namespace {
class TileOperandChecker {
public:
  TileOperandChecker(Operation *op, const ExecutionDomain &domain)
      : op(op), domain(domain) {}

  LogicalResult checkShapes(ArrayRef<TileTensorOperand> operands,
                            bool sameRepeats);
  LogicalResult checkRegisterOperand(const TileTensorOperand &operand);
  LogicalResult checkFragmentOperand(const TileTensorOperand &operand);
  LogicalResult checkMemoryOperand(const TileTensorOperand &operand);
  LogicalResult checkMemoryRows(const TileTensorOperand &operand);
  LogicalResult checkDescriptorOperand(const TileTensorOperand &operand);

private:
  InFlightDiagnostic emitOperandError(const TileTensorOperand &operand) {
    return op->emitOpError("operand #")
           << operand.position << " (" << operand.name << "): ";
  }
  /// Group coordinate (leading axes) and the rest of element `flat`.
  SmallVector<int64_t> getGroup(ArrayRef<int64_t> coord) const {
    return SmallVector<int64_t>(coord.take_front(domain.groupShape.size()));
  }
  /// Number of elements one group coordinate covers.
  int64_t getElementsPerGroup(const TileTensorOperand &operand) const {
    return operand.type.getNumElements() / domain.getNumGroups();
  }

  Operation *op;
  const ExecutionDomain &domain;
};
} // namespace

LogicalResult
TileOperandChecker::checkShapes(ArrayRef<TileTensorOperand> operands,
                                bool sameRepeats) {
  size_t groupRank = domain.groupShape.size();
  const TileTensorOperand *reference = nullptr;
  for (const TileTensorOperand &operand : operands) {
    ArrayRef<int64_t> shape = operand.type.getShape();
    SmallVector<int64_t, 2> atomShape = operand.getAtomShape();
    size_t minRank = groupRank + atomShape.size();
    if (shape.size() < minRank || (operand.atom == 0 && shape.size() < 1))
      return emitOperandError(operand)
             << "shape " << formatList(shape) << " has rank " << shape.size()
             << " but scope " << stringifyScope(domain.scope) << " needs "
             << groupRank << " group dimension(s)"
             << (operand.atom ? " plus the atom" : "");
    if (operand.type.getNumElements() > kMaxCheckedElements)
      return emitOperandError(operand)
             << "tile has " << operand.type.getNumElements()
             << " elements; at most " << kMaxCheckedElements
             << " can be verified statically";
    if (atomShape.size() > 1 &&
        shape.take_back(atomShape.size()) != ArrayRef<int64_t>(atomShape))
      return emitOperandError(operand)
             << "the innermost dimensions must be the instruction's atom "
             << formatList(atomShape) << ", but the shape is "
             << formatList(shape);
    if (atomShape.size() == 1 && shape.back() != operand.atom) {
      SmallVector<int64_t> suggested(shape);
      if (operand.atom == 1)
        suggested.push_back(1);
      return emitOperandError(operand)
             << "the innermost dimension must be the instruction's atom of "
             << operand.atom << " element(s), but the shape is "
             << formatList(shape)
             << (operand.atom == 1 ? "; view it as " + formatList(suggested)
                                   : std::string());
    }
    ArrayRef<int64_t> group = shape.take_front(groupRank);
    if (group != ArrayRef<int64_t>(domain.groupShape))
      return emitOperandError(operand)
             << "group extents " << formatList(group)
             << " do not match the threads of scope "
             << stringifyScope(domain.scope) << ": "
             << formatList(domain.groupShape) << " for a block of "
             << domain.numThreads << " threads";
    if (!reference || !sameRepeats) {
      reference = &operand;
      continue;
    }
    ArrayRef<int64_t> outer = shape.drop_back(atomShape.size());
    ArrayRef<int64_t> referenceShape = reference->type.getShape();
    ArrayRef<int64_t> referenceOuter =
        referenceShape.drop_back(reference->getAtomShape().size());
    if (outer != referenceOuter)
      return emitOperandError(operand)
             << "group x repeat shape " << formatList(outer) << " differs from "
             << formatList(referenceOuter) << " of operand #"
             << reference->position << " (" << reference->name << ")";
  }
  return success();
}

LogicalResult
TileOperandChecker::checkRegisterOperand(const TileTensorOperand &operand) {
  tirx::TensorType type = operand.type;
  if (!type.isLocal())
    return emitOperandError(operand)
           << "a register operand must be a local tensor, got a "
           << stringifyMemorySpace(type.getMemorySpace()) << " tensor";
  TileLayout layout = type.getLayoutOrDefault();
  ArrayRef<int64_t> shape = type.getShape();
  int64_t numElements = type.getNumElements();

  // Ownership: every thread executing an element's group coordinate must be
  // one of the element's owners. A layout without thread axes is private to
  // every thread. (A collective operand's owners are its fragment's lanes,
  // checked by checkFragmentOperand.)
  if (layout.hasThreadAxes() && operand.fragment.empty()) {
    auto scope = layout.getScope();
    if (!scope)
      return emitOperandError(operand) << llvm::toString(scope.takeError());
    int64_t inner = getScopeUnit(scope->first, domain.numThreads);
    int64_t outer = getScopeUnit(scope->second, domain.numThreads);
    for (int64_t flat = 0; flat < numElements; ++flat) {
      SmallVector<int64_t> coord = delinearize(flat, shape);
      SmallVector<int64_t> group = getGroup(coord);
      int64_t badThread = -1;
      PhysicalCoord baseOwner = layout.apply(flat);
      domain.forEachThread(group, [&](int64_t tid) {
        bool owned = false;
        layout.forEachOwner(flat, [&](const PhysicalCoord &owner) {
          int64_t ownerId = getFlatThreadId(owner);
          owned = owned ||
                  ((tid % outer) / inner == ownerId / inner && ownerId < outer);
        });
        if (!owned)
          badThread = tid;
        return owned;
      });
      if (badThread >= 0)
        return emitOperandError(operand)
               << "element " << formatList(coord) << " is owned by "
               << describeOwner(layout, baseOwner)
               << (layout.getNumReplicas() > 1 ? " (and its replicas)" : "")
               << " but scope " << stringifyScope(domain.scope)
               << " executes it on thread " << badThread << " (warp "
               << badThread / 32 << ", lane " << badThread % 32
               << "); the layout must map the group axes to the executing "
                  "threads";
    }
  }

  // Distinct destinations: one thread's slots never repeat across repeats.
  // (The elements of a collective's atom are in different lanes.)
  if (operand.isDestination) {
    int64_t perGroup = getElementsPerGroup(operand);
    const Fragment *fragment =
        operand.fragment.empty() ? nullptr : &getFragment(operand.fragment);
    llvm::DenseMap<std::pair<int64_t, int64_t>, int64_t> firstElementOfSlot;
    for (int64_t flat = 0; flat < numElements; ++flat) {
      if (flat % perGroup == 0)
        firstElementOfSlot.clear();
      int64_t slot = at(layout.apply(flat), Axis::m);
      int64_t lane = fragment ? fragment->lane[flat % operand.atom] : 0;
      auto [it, inserted] =
          firstElementOfSlot.try_emplace(std::make_pair(slot, lane), flat);
      if (!inserted)
        return emitOperandError(operand)
               << "destination elements "
               << formatList(delinearize(it->second, shape)) << " and "
               << formatList(delinearize(flat, shape))
               << " share register slot " << slot
               << " of one thread; destinations must be distinct across "
                  "repeats";
    }
  }
  return success();
}

/// A collective operand: its layout must equal the instruction's fragment on
/// the atom. For every element, each executing warp's lane that the fragment
/// names must own it, and its register slot must be the fragment's register
/// plus one base per (group, repeat): registers cannot be indexed by lane.
LogicalResult
TileOperandChecker::checkFragmentOperand(const TileTensorOperand &operand) {
  tirx::TensorType type = operand.type;
  if (!type.isLocal())
    return emitOperandError(operand)
           << "a register operand must be a local tensor, got a "
           << stringifyMemorySpace(type.getMemorySpace()) << " tensor";
  const Fragment &fragment = getFragment(operand.fragment);
  TileLayout layout = type.getLayoutOrDefault();
  ArrayRef<int64_t> shape = type.getShape();
  int64_t atom = operand.atom;
  auto scope = layout.getScope();
  if (!scope)
    return emitOperandError(operand) << llvm::toString(scope.takeError());
  int64_t inner = getScopeUnit(scope->first, domain.numThreads);
  int64_t outer = getScopeUnit(scope->second, domain.numThreads);
  for (int64_t start = 0; start < type.getNumElements(); start += atom) {
    SmallVector<int64_t> coord = delinearize(start, shape);
    SmallVector<int64_t> group = getGroup(coord);
    SmallVector<int64_t> repeat(ArrayRef<int64_t>(coord)
                                    .drop_front(group.size())
                                    .drop_back(operand.getAtomShape().size()));
    int64_t base = at(layout.apply(start), Axis::m) - fragment.registerIndex[0];
    for (int64_t index = 0; index < atom; ++index) {
      int64_t flat = start + index;
      PhysicalCoord owner = layout.apply(flat);
      int64_t lane = fragment.lane[index];
      int64_t slot = at(owner, Axis::m);
      int64_t expectedSlot = base + fragment.registerIndex[index];
      bool lanesMatch = true;
      domain.forEachThread(group, [&](int64_t warpBase) {
        int64_t tid = warpBase + lane;
        bool owned = false;
        layout.forEachOwner(flat, [&](const PhysicalCoord &candidate) {
          int64_t ownerId = getFlatThreadId(candidate);
          owned = owned ||
                  ((tid % outer) / inner == ownerId / inner && ownerId < outer);
        });
        lanesMatch = owned;
        return owned;
      });
      if (lanesMatch && slot == expectedSlot)
        continue;
      InFlightDiagnostic diag = emitOperandError(operand);
      diag << "atom element " << index;
      if (!repeat.empty())
        diag << " of repeat " << formatList(repeat);
      if (!group.empty())
        diag << " of group " << formatList(group);
      std::string owners = describeOwner(layout, owner);
      diag << " is held by "
           << (owners.empty() ? "every thread (a private register)" : owners)
           << " in register " << slot << ", but the instruction's fragment "
           << operand.fragment << " puts it in "
           << (domain.warpgroupInAtom ? "thread " : "lane ") << lane
           << (domain.warpgroupInAtom ? " of the warpgroup" : "")
           << ", register " << expectedSlot;
      if (expectedSlot != fragment.registerIndex[index])
        diag << " (the atom's first element is in register "
             << base + fragment.registerIndex[0] << ")";
      int64_t unit = domain.warpgroupInAtom ? 128 : 32;
      if (!lanesMatch && !owners.empty() &&
          getFlatThreadId(owner) % unit == lane)
        diag << (domain.warpgroupInAtom
                     ? "; the layout must map the group axes to the executing "
                       "warpgroups"
                     : " of the warp executing this group; the layout must "
                       "map the group axes to the executing warps");
      return diag;
    }
  }
  return success();
}

/// The SSA value of tensor operand `position` of a tile op (its mixed
/// operand list: `operand_kinds`, unit for the next SSA value), or null.
static Value getTensorOperandValue(Operation *op, unsigned position) {
  auto kinds = op->getAttrOfType<ArrayAttr>("operand_kinds");
  if (!kinds || position >= kinds.size() || !isa<UnitAttr>(kinds[position]))
    return {};
  unsigned index =
      llvm::count_if(kinds.getValue().take_front(position),
                     [](Attribute kind) { return isa<UnitAttr>(kind); });
  return index < op->getNumOperands() ? op->getOperand(index) : Value();
}

static int64_t lowestSetBit(int64_t value) { return value & -value; }

/// Why a region reached through views from `tensor` is aligned to fewer
/// than `needed` bytes although the tensor it selects from is declared
/// aligned to `needed` or more: the runtime stride (size variables without
/// a sufficient multiple_of) or the offset that moves its base. Returns the
/// region and sets `reason` (what is short and the fix), or returns null
/// (then the declared alignment itself is short).
static RegionOp explainRegionAlignment(Value tensor, int64_t needed,
                                       std::string &reason) {
  RegionOp region;
  while (Operation *def = tensor.getDefiningOp()) {
    if (isa<ViewOp, ReinterpretOp>(def)) {
      tensor = def->getOperand(0);
      continue;
    }
    region = dyn_cast<RegionOp>(def);
    if (!region)
      return {};
    if (region.getSource().getType().getAlignmentOrDefault() % needed == 0)
      break;
    tensor = region.getSource();
    region = {};
  }
  if (!region)
    return {};
  tirx::TensorType source = region.getSource().getType();
  // Only a row-major tensor's strides are products of its extents.
  if (source.hasStaticShape() && source.getLayout())
    return {};
  int64_t elementBytes = source.getElementBytes();
  auto function = region->getParentOfType<FunctionOpInterface>();
  llvm::raw_string_ostream os(reason);
  for (auto [dim, offset] : llvm::enumerate(region.getStaticOffsets())) {
    if (offset == 0)
      continue;
    // The stride of `dim` in bytes: its constant part, and the size
    // variables (with their declared multiples) it is a product of.
    int64_t strideBytes = elementBytes * source.getStaticStrideFactor(dim);
    SmallVector<StringAttr> names = source.getRuntimeStrideFactors(dim);
    int64_t multiples = 1, declared = 1;
    for (StringAttr name : names) {
      BlockArgument argument =
          function ? getSizeArgument(function, name) : BlockArgument();
      declared =
          argument ? getSizeMultiple(function, argument.getArgNumber()) : 1;
      multiples *= declared;
    }
    int64_t known = lowestSetBit(strideBytes * multiples);
    if (!names.empty() && known % needed != 0) {
      // The size variables' product must be a multiple of `factor`; the
      // fix names the innermost (its declared multiple is `declared`).
      int64_t factor = needed / std::gcd(needed, strideBytes);
      StringRef name = names.back().getValue();
      int64_t multiple = std::lcm(declared, factor);
      os << "its offset in dimension " << dim << " moves it by strides of ";
      llvm::interleave(
          names, os, [&](StringAttr n) { os << n.getValue(); }, " x ");
      if (strideBytes != elementBytes)
        os << " x " << strideBytes / elementBytes;
      os << " elements of " << elementBytes << " bytes, and ";
      if (names.size() > 1)
        os << "their product is not known to be a multiple of " << factor;
      else if (declared > 1)
        os << name << " is declared a multiple of " << declared << " only";
      else
        os << name << " is not declared a multiple of " << factor;
      os << "; declare " << name << " a multiple of " << multiple
         << ": T.dynamic(\"" << name << "\", multiple_of=" << multiple
         << ") in Python, tirx.multiple_of = " << multiple
         << " on its size argument in the IR";
      return region;
    }
    // A step of the offset moves the base by `step` bytes (by a multiple of
    // it when the stride has size variables).
    int64_t step = strideBytes * multiples;
    std::string stepText = (names.empty() ? "" : "a multiple of ") +
                           std::to_string(step) + " bytes";
    if (!ShapedType::isDynamic(offset)) {
      if (lowestSetBit(known * offset) % needed == 0)
        continue;
      os << "its offset " << offset << " in dimension " << dim
         << " moves it by " << offset << " x " << stepText
         << ", not a multiple of " << needed
         << "; start the region at a multiple of "
         << needed / std::gcd(needed, known) << " in that dimension";
      return region;
    }
    if (known % needed == 0)
      continue;
    int64_t factor = needed / std::gcd(needed, known);
    os << "its runtime offset in dimension " << dim
       << " is not known to be a multiple of " << factor << " (each step moves "
       << "the base by " << stepText << "); compute it as a multiple of "
       << factor << " (e.g. i * " << factor << " in Python), or claim align "
       << needed << " on the tirx.region where it is one";
    return region;
  }
  // Every offset keeps `needed`: what is short is the region's own claim.
  os << "the tirx.region claims align "
     << region.getResult().getType().getAlignmentOrDefault() << " only; claim "
     << needed << " (the kernel's verifier proves it)";
  return region;
}

LogicalResult
TileOperandChecker::checkMemoryOperand(const TileTensorOperand &operand) {
  tirx::TensorType type = operand.type;
  TileLayout layout = type.getLayoutOrDefault();
  ArrayRef<int64_t> shape = type.getShape();
  int64_t elementBytes = type.getElementBytes();
  int64_t alignment = type.getAlignmentOrDefault();
  if (operand.vectorBytes > 1 && alignment % operand.vectorBytes != 0) {
    std::string reason;
    Value value = getTensorOperandValue(op, operand.position);
    RegionOp region =
        value ? explainRegionAlignment(value, operand.vectorBytes, reason)
              : RegionOp();
    if (!region)
      return emitOperandError(operand)
             << "the tensor is aligned to " << alignment
             << " byte(s) but each access is a " << operand.vectorBytes
             << "-byte vector; declare align = " << operand.vectorBytes
             << " (or more) on the tensor";
    InFlightDiagnostic diag =
        emitOperandError(operand)
        << "each access is a " << operand.vectorBytes
        << "-byte vector, but this region of a tensor declared align = "
        << region.getSource().getType().getAlignmentOrDefault()
        << " is only known to be " << alignment << "-byte aligned: " << reason;
    diag.attachNote(region.getLoc()) << "the region is here";
    return diag;
  }

  int64_t atom = std::max<unsigned>(operand.atom, 1);
  int64_t numElements = type.getNumElements();
  int64_t perGroup = getElementsPerGroup(operand);
  llvm::DenseSet<int64_t> written;
  for (int64_t start = 0; start < numElements; start += atom) {
    if (start % perGroup == 0)
      written.clear();
    int64_t base = at(layout.apply(start), Axis::m);
    for (int64_t lane = 1; lane < atom; ++lane) {
      int64_t offset = at(layout.apply(start + lane), Axis::m);
      if (offset != base + lane)
        return emitOperandError(operand)
               << "the atom at " << formatList(delinearize(start, shape))
               << " is not contiguous in memory: its element " << lane
               << " is at offset " << offset << ", expected " << base + lane;
    }
    if (operand.vectorBytes > 1 && (base * elementBytes) % operand.vectorBytes)
      return emitOperandError(operand)
             << "the atom at " << formatList(delinearize(start, shape))
             << " starts at element offset " << base << " (byte "
             << base * elementBytes << "), which is not aligned to the "
             << operand.vectorBytes << "-byte vector";
    if (operand.isDestination && !written.insert(base).second)
      return emitOperandError(operand)
             << "two repeats of one thread store to element offset " << base
             << "; destinations must be distinct across repeats";
  }
  return success();
}

/// A collective's memory operand (ldmatrix's shared rows): per atom, the
/// elements one lane supplies the address of form a contiguous row in the
/// fragment's order, starting at a multiple of the row's bytes; a
/// destination's rows never overlap within one group coordinate.
LogicalResult
TileOperandChecker::checkMemoryRows(const TileTensorOperand &operand) {
  tirx::TensorType type = operand.type;
  const Fragment &fragment = getFragment(operand.fragment);
  TileLayout layout = type.getLayoutOrDefault();
  ArrayRef<int64_t> shape = type.getShape();
  int64_t elementBytes = type.getElementBytes();
  int64_t rowBytes = operand.vectorBytes;
  if (type.getAlignmentOrDefault() % rowBytes != 0) {
    std::string reason;
    Value value = getTensorOperandValue(op, operand.position);
    RegionOp region =
        value ? explainRegionAlignment(value, rowBytes, reason) : RegionOp();
    if (!region)
      return emitOperandError(operand)
             << "the tensor is aligned to " << type.getAlignmentOrDefault()
             << " byte(s) but each row address must be " << rowBytes
             << "-byte aligned; declare align = " << rowBytes
             << " (or more) on the tensor";
    InFlightDiagnostic diag =
        emitOperandError(operand)
        << "each row address must be " << rowBytes
        << "-byte aligned, but this region of a tensor declared align = "
        << region.getSource().getType().getAlignmentOrDefault()
        << " is only known to be " << type.getAlignmentOrDefault()
        << "-byte aligned: " << reason;
    diag.attachNote(region.getLoc()) << "the region is here";
    return diag;
  }
  int64_t atom = operand.atom;
  int64_t perGroup = getElementsPerGroup(operand);
  llvm::DenseMap<int64_t, int64_t> writtenBy;
  for (int64_t start = 0; start < type.getNumElements(); start += atom) {
    if (start % perGroup == 0)
      writtenBy.clear();
    // The offset of each lane's row: its element in position 0.
    llvm::DenseMap<int64_t, int64_t> rowStart;
    for (int64_t index = 0; index < atom; ++index)
      if (fragment.registerIndex[index] == 0)
        rowStart[fragment.lane[index]] =
            at(layout.apply(start + index), Axis::m);
    for (int64_t index = 0; index < atom; ++index) {
      int64_t flat = start + index;
      int64_t lane = fragment.lane[index];
      int64_t offset = at(layout.apply(flat), Axis::m);
      int64_t expected = rowStart[lane] + fragment.registerIndex[index];
      auto describeElement = [&]() {
        return emitOperandError(operand)
               << "element " << formatList(delinearize(flat, shape))
               << " (row of lane " << lane << ")";
      };
      if (offset != expected)
        return describeElement()
               << " is at element offset " << offset << ", but its row must "
               << "be contiguous: expected " << expected;
      if (fragment.registerIndex[index] == 0 &&
          (offset * elementBytes) % rowBytes != 0)
        return describeElement()
               << " starts at byte " << offset * elementBytes
               << ", which is not aligned to the " << rowBytes << "-byte row";
      if (!operand.isDestination)
        continue;
      auto [it, inserted] = writtenBy.try_emplace(offset, flat);
      if (!inserted)
        return emitOperandError(operand)
               << "elements " << formatList(delinearize(it->second, shape))
               << " and " << formatList(delinearize(flat, shape))
               << " are stored to the same element offset " << offset
               << "; destinations must be distinct";
    }
  }
  return success();
}

/// A shared matrix passed as a wgmma descriptor: the tensor 16-byte
/// aligned, every atom in one canonical layout, with the same strides in
/// every group (the lowering folds them once per repeat).
LogicalResult
TileOperandChecker::checkDescriptorOperand(const TileTensorOperand &operand) {
  tirx::TensorType type = operand.type;
  if (type.getAlignmentOrDefault() % 16 != 0)
    return emitOperandError(operand)
           << "the tensor is aligned to " << type.getAlignmentOrDefault()
           << " byte(s) but a matrix descriptor addresses 16-byte units; "
              "declare align = 16 (or more) on the tensor";
  TileLayout layout = type.getLayoutOrDefault();
  // The hardware swizzles absolute addresses, the layout tensor offsets.
  // (A swizzle that is no wgmma mode is refused by the matcher, below.)
  const std::optional<Swizzle> &swizzle = layout.getSwizzle();
  if (swizzle && layout.getSwizzleModeBytes(type.getElementBytes())) {
    int64_t periodBytes = swizzle->getPeriod() * type.getElementBytes();
    if (type.getAlignmentOrDefault() % periodBytes != 0)
      return emitOperandError(operand)
             << "the tensor is aligned to " << type.getAlignmentOrDefault()
             << " byte(s) but its swizzle repeats every " << periodBytes
             << " bytes, which wgmma counts from an address aligned to them; "
                "declare align = "
             << periodBytes << " on the tensor";
  }
  ArrayRef<int64_t> shape = type.getShape();
  ArrayRef<int64_t> atomShape = operand.atomShape;
  int64_t atom = operand.atom;
  int64_t perGroup = getElementsPerGroup(operand);
  SmallVector<MatrixDescriptor> firstGroup;
  for (int64_t start = 0; start < type.getNumElements(); start += atom) {
    llvm::Expected<MatrixDescriptor> descriptor =
        matchMatrixDescriptor(layout, start, atomShape[0], atomShape[1],
                              type.getElementBytes(), operand.mnMajor);
    if (!descriptor)
      return emitOperandError(operand)
             << "the matrix at " << formatList(delinearize(start, shape))
             << " is not in a canonical wgmma layout: "
             << llvm::toString(descriptor.takeError());
    int64_t repeat = (start % perGroup) / atom;
    if (start < perGroup) {
      firstGroup.push_back(*descriptor);
      continue;
    }
    // An affine layout gives every group the same strides; a guard for
    // layouts that are not (the lowering folds group 0's).
    if (!(firstGroup[repeat] == *descriptor))
      // check-diagnostics: internal, affine layouts cannot reach it
      return emitOperandError(operand)
             << "the matrix at " << formatList(delinearize(start, shape))
             << " has LBO " << descriptor->leadingBytes << " and SBO "
             << descriptor->strideBytes << ", but the same repeat of group 0 "
             << "has LBO " << firstGroup[repeat].leadingBytes << " and SBO "
             << firstGroup[repeat].strideBytes
             << "; every group must use the same strides";
  }
  return success();
}

/// What the register checks of `operand` under `domain` read (see
/// CheckedOperandCache.h): the uniqued tensor type, the fragment, the atom,
/// whether it is written, and the domain.
static std::string getRegisterCheckKey(const ExecutionDomain &domain,
                                       const TileTensorOperand &operand) {
  std::string key;
  llvm::raw_string_ostream os(key);
  os << operand.type.getAsOpaquePointer() << '|' << operand.fragment << '|'
     << operand.atom << '|' << operand.isDestination << '|';
  for (int64_t extent : operand.getAtomShape())
    os << extent << ',';
  os << '|' << static_cast<int>(domain.scope) << '|' << domain.numThreads
     << '|' << domain.lanesInAtom << domain.warpgroupInAtom << '|';
  for (int64_t extent : domain.groupShape)
    os << extent << ',';
  return key;
}

LogicalResult mlir::tirx::tile::checkTileTensorOperands(
    Operation *op, Scope scope, ArrayRef<TileTensorOperand> operands,
    bool lanesInAtom, bool sameRepeats, bool warpgroupInAtom) {
  FailureOr<ExecutionDomain> domain =
      getExecutionDomain(op, scope, lanesInAtom, warpgroupInAtom);
  if (failed(domain))
    return failure();
  TileOperandChecker checker(op, *domain);
  if (failed(checker.checkShapes(operands, sameRepeats)))
    return failure();
  for (const TileTensorOperand &operand : operands) {
    if (operand.isDescriptor) {
      if (failed(checker.checkDescriptorOperand(operand)))
        return failure();
      continue;
    }
    if (operand.isMemory) {
      if (failed(operand.fragment.empty() ? checker.checkMemoryOperand(operand)
                                          : checker.checkMemoryRows(operand)))
        return failure();
      continue;
    }
    std::string key = getRegisterCheckKey(*domain, operand);
    CheckedOperandCache &checked =
        op->getContext()->getLoadedDialect<TileDialect>()->getCheckedOperands();
    if (checked.contains(key))
      continue;
    if (!operand.fragment.empty() &&
        failed(checker.checkFragmentOperand(operand)))
      return failure();
    if (failed(checker.checkRegisterOperand(operand)))
      return failure();
    checked.insert(key);
  }
  return success();
}
