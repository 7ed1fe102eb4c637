//===- BulkTensorCopy.cpp - TMA copies and their tensor maps --------------===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//
//
// The verifier's half of the TMA contract (docs/hopper.md): what
// cuTensorMapEncodeTiled accepts (CUDA driver API: rank 1-5, box extents
// 1-256 whose innermost row is a multiple of 16 bytes, a 16-byte aligned
// base and 16-byte multiple strides, 1/2/4/8-byte elements) and what the
// shared image must be for the bytes to land where the program reads them.
//
//===----------------------------------------------------------------------===//

#include "TirX/Dialect/Tile/IR/BulkTensorCopy.h"
#include "TirX/Dialect/Tile/Families/FamilyModule.h"
#include "TirX/Dialect/Tile/IR/FormSelection.h"
#include "TirX/Dialect/Tile/IR/TileOps.h"
#include "TirX/Dialect/Tile/PTX/PTXRules.h"
#include "TirX/Dialect/TirX/IR/TirXOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace mlir::tirx;
using namespace mlir::tirx::tile;

/// TMA's limits (CUDA driver API, cuTensorMapEncodeTiled).
static constexpr int64_t kMaxBoxExtent = 256;
static constexpr unsigned kMaxRank = 5;
static constexpr int64_t kGlobalAlignment = 16;
/// The shared image's base: 128 bytes without a swizzle (PTX ISA
/// 9.7.9.25.5.1), the swizzle's repeat with one.
static constexpr int64_t kImageAlignment = 128;

bool mlir::tirx::tile::isBulkTensorCopy(const ptx::Instruction &instruction) {
  return llvm::any_of(instruction.operands, [](const ptx::OperandInfo &info) {
    return info.bulkRole == ptx::BulkTensorRole::TensorMap;
  });
}

bool mlir::tirx::tile::isTensorMapPrefetch(
    const ptx::Instruction &instruction) {
  return ptx::getFamilyModule(instruction).readsTensorMapItself &&
         isBulkTensorCopy(instruction);
}

/// The operation of a tensor reduction (`cp.reduce.async.bulk.tensor`), or
/// "" for a copy or prefetch: the modifier the PTX rules give types for.
static StringRef getReduction(const ptx::Instruction &instruction) {
  if (!instruction.hasModifier("reduce"))
    return "";
  for (StringRef modifier : instruction.modifiers)
    if (!ptx::rules::getTensorReductionTypes(modifier).empty())
      return modifier;
  return "";
}

/// The tensor-map element type of `type`'s elements for a reduction: "f32",
/// "bf16", "f16", "u32" / "s32" / "u64" / "s64" (signless integers are
/// signed), or "" for a type a tensor map cannot declare.
static std::string getReductionElementType(Type type) {
  if (type.isF32())
    return "f32";
  if (type.isBF16())
    return "bf16";
  if (type.isF16())
    return "f16";
  if (auto integer = dyn_cast<IntegerType>(type);
      integer && (integer.getWidth() == 32 || integer.getWidth() == 64))
    return (integer.isUnsigned() ? "u" : "s") +
           std::to_string(integer.getWidth());
  return "";
}

/// The `.Nd` of the spelling.
static unsigned getRank(const ptx::Instruction &instruction) {
  for (StringRef modifier : instruction.modifiers)
    if (modifier.size() == 2 && modifier[1] == 'd' && modifier[0] >= '1' &&
        modifier[0] <= '5')
      return modifier[0] - '0';
  return 0;
}

/// The swizzle of a box image's layout in bytes (0: none; a swizzle that is
/// no hardware mode counts as none here, and the verifier refuses it).
static unsigned getImageSwizzleBytes(tirx::TensorType image) {
  if (!image.getLayout())
    return 0;
  return image.getLayoutOrDefault()
      .getSwizzleModeBytes(image.getElementBytes())
      .value_or(0);
}

TensorMapOperand mlir::tirx::tile::resolveTensorMapOperand(Value value) {
  TensorMapOperand resolved;
  auto type = cast<tirx::TensorType>(value.getType());
  resolved.dynamicOffsets.resize(type.getShape().size());
  resolved.staticOffsets.assign(type.getShape().size(), 0);
  while (auto region = value.getDefiningOp<RegionOp>()) {
    unsigned nextDynamic = 0;
    for (auto [dim, offset] : llvm::enumerate(region.getStaticOffsets())) {
      if (ShapedType::isDynamic(offset))
        resolved.dynamicOffsets[dim].push_back(
            region.getOffsets()[nextDynamic++]);
      else
        resolved.staticOffsets[dim] += offset;
    }
    value = region.getSource();
  }
  resolved.root = value;
  resolved.tensor = dyn_cast<BlockArgument>(value);
  return resolved;
}

/// The kernel parameter a TMA copy's global operand (`resolved`) is a box
/// of, or a diagnostic.
static FailureOr<BlockArgument>
findTensorParameter(const TensorMapOperand &resolved,
                    function_ref<InFlightDiagnostic()> describe) {
  Value current = resolved.root;
  BlockArgument arg = resolved.tensor;
  if (!arg || !arg.getOwner()->isEntryBlock() ||
      !isa<FunctionOpInterface, KernelOp>(arg.getOwner()->getParentOp()))
    return describe()
           << "must be a tensor parameter of the kernel or a tirx.region of "
              "one (the launcher encodes its tensor map from the tensor it is "
              "given), got "
           << (current.getDefiningOp()
                   ? "the '" +
                         current.getDefiningOp()->getName().getStringRef() +
                         "' result"
                   : Twine("a block argument"));
  return arg;
}

LogicalResult
mlir::tirx::tile::verifyBulkTensorCopy(Operation *operation,
                                       const ptx::Instruction &instruction,
                                       ArrayRef<MixedOperand> operands) {
  auto op = cast<ApplyOp>(operation);
  bool prefetch = isTensorMapPrefetch(instruction);
  if (op.getScope() != Scope::thread)
    return op.emitOpError("'")
           << instruction.spelling
           << (prefetch ? "' prefetches one tensor map per instruction"
                        : "' copies a whole box per instruction")
           << " and is issued by one thread: use scope(thread) and guard it "
              "to the issuing thread, got scope("
           << stringifyScope(op.getScope()) << ")";
  // A multicast lands in the CTAs of the issuer's cluster: its ctaMask
  // (bit r: the CTA of rank r) names at least one of them, and no other.
  if (instruction.hasModifier("multicast::cluster"))
    if (auto kernel = op->getParentOfType<KernelOp>()) {
      if (!kernel.getLaunch().hasCluster())
        return op.emitOpError("'")
               << instruction.spelling
               << "' writes the box into the CTAs of a cluster, but the kernel "
                  "is not launched in clusters: add cluster = [...] to its "
                  "launch (LaunchConfig(cluster=) in Python)";
      for (const MixedOperand &operand : operands) {
        if (instruction.operands[operand.position].name != "ctaMask")
          continue;
        std::optional<int64_t> mask =
            getIntegerImmediate(operands, operand.position);
        int64_t ctas = kernel.getLaunch().getNumClusterCTAs();
        if (mask && ((*mask & 0xffff) == 0 || (*mask & 0xffff) >> ctas))
          return op.emitOpError("the ctaMask 0x")
                 << llvm::utohexstr(*mask & 0xffff) << " of '"
                 << instruction.spelling
                 << "' must name one or more CTAs of the kernel's cluster of "
                 << ctas << " (bit r: the CTA of rank r)";
      }
    }

  tirx::TensorType mapType, imageType;
  unsigned mapPosition = 0, imagePosition = 0;
  for (const MixedOperand &operand : operands) {
    const ptx::OperandInfo &info = instruction.operands[operand.position];
    auto describe = [&]() {
      return op.emitOpError("operand #")
             << operand.position << " (" << info.name << ") of '"
             << instruction.spelling << "': ";
    };
    auto tensor = dyn_cast<tirx::TensorType>(operand.getType());
    if (info.isMemory && !tensor)
      return describe() << "is a memory operand and must be a tensor";
    if (!info.isMemory) {
      // A register operand (ctaMask, the cache policy): a scalar of its
      // width; PTX takes no other.
      std::optional<ptx::ScalarKind> kind = getScalarKind(operand.getType());
      if (tensor || !kind || !info.element.accepts(*kind))
        return describe() << "needs a scalar of " << info.element.describe()
                          << ", got " << operand.getType();
      continue;
    }
    // A box is of a global tensor, whatever space the map is read from.
    bool global = info.space == ptx::MemorySpace::Global ||
                  info.bulkRole == ptx::BulkTensorRole::TensorMap;
    if (global ? !tensor.isGlobal() : !tensor.isShared())
      return describe() << "accesses " << (global ? "global" : "shared")
                        << " memory, but the tensor is "
                        << stringifyMemorySpace(tensor.getMemorySpace());
    if (!tensor.hasStaticShape())
      return describe() << "needs a static shape (the box), got " << tensor;
    switch (info.bulkRole) {
    case ptx::BulkTensorRole::TensorMap:
      mapType = tensor;
      mapPosition = operand.position;
      break;
    case ptx::BulkTensorRole::BoxImage:
      imageType = tensor;
      imagePosition = operand.position;
      break;
    case ptx::BulkTensorRole::None:
      // The mbarrier: one 64-bit word (its element class said 64 bits).
      if (tensor.getNumElements() != 1)
        return describe() << "is an mbarrier, one 64-bit word, got "
                          << tensor.getNumElements() << " elements";
      break;
    }
  }

  auto describeMap = [&]() {
    return op.emitOpError("operand #")
           << mapPosition << " (" << instruction.operands[mapPosition].name
           << ") of '" << instruction.spelling << "': the global box ";
  };
  TensorMapOperand coordinates =
      resolveTensorMapOperand(operands[mapPosition].value);
  FailureOr<BlockArgument> parameter =
      findTensorParameter(coordinates, describeMap);
  if (failed(parameter))
    return failure();
  auto tensorType = cast<tirx::TensorType>(parameter->getType());
  // A prefetch names no rank: the tensor's is the map's.
  unsigned rank =
      prefetch ? tensorType.getShape().size() : getRank(instruction);
  if (prefetch && rank > kMaxRank)
    return describeMap() << "is a box of a rank-" << rank
                         << " tensor; a tensor map has rank 1 to " << kMaxRank;
  if (tensorType.getShape().size() != rank)
    return describeMap() << "is a box of a rank-"
                         << tensorType.getShape().size() << " tensor, but '."
                         << rank << "d' names a rank-" << rank << " tensor map";
  if (tensorType.getLayout())
    return describeMap() << "is a box of a tensor with an explicit layout; a "
                            "tensor map describes a dense row-major tensor";
  int64_t elementBytes = tensorType.getElementBytes();
  if (tensorType.getElementType().getIntOrFloatBitWidth() % 8 ||
      !llvm::is_contained({1, 2, 4, 8}, elementBytes))
    return describeMap() << "has " << tensorType.getElementType()
                         << " elements; a tensor map holds 1, 2, 4 or "
                            "8-byte elements";
  if (tensorType.getAlignmentOrDefault() % kGlobalAlignment)
    return describeMap() << "is of a tensor aligned to "
                         << tensorType.getAlignmentOrDefault()
                         << " byte(s); a tensor map needs a "
                         << kGlobalAlignment
                         << "-byte aligned base: declare align = "
                         << kGlobalAlignment << " on the tensor";
  for (unsigned dim = 1; dim < rank; ++dim) {
    if (tensorType.getSizeName(dim) ||
        llvm::any_of(tensorType.getShape().drop_front(dim),
                     ShapedType::isDynamic))
      continue; // a runtime stride: the launcher checks it
    int64_t strideBytes =
        tensorType.getStaticStrideFactor(dim - 1) * elementBytes;
    if (strideBytes % kGlobalAlignment)
      return describeMap() << "has rows of " << strideBytes
                           << " bytes along dimension " << dim - 1
                           << "; a tensor map's strides are multiples of "
                           << kGlobalAlignment << " bytes";
  }
  ArrayRef<int64_t> box = mapType.getShape();
  for (auto [dim, extent] : llvm::enumerate(box))
    if (extent > kMaxBoxExtent)
      return describeMap() << "has extent " << extent << " in dimension " << dim
                           << "; a box's extents are at most " << kMaxBoxExtent;
  int64_t rowBytes = box.back() * elementBytes;
  if (rowBytes % 16)
    return describeMap() << "has an innermost row of " << rowBytes
                         << " bytes; TMA moves rows of whole 16-byte units";

  // A prefetch reads the map only: the box's coordinates play no part.
  if (prefetch)
    return success();

  if (StringRef op = getReduction(instruction); !op.empty()) {
    std::string type = getReductionElementType(tensorType.getElementType());
    if (!llvm::is_contained(ptx::rules::getTensorReductionTypes(op), type)) {
      InFlightDiagnostic diag = describeMap() << "is of a tensor of "
                                              << tensorType.getElementType()
                                              << "; ." << op << " reduces ";
      llvm::interleave(
          ptx::rules::getTensorReductionTypes(op), diag,
          [&](StringRef token) { diag << "." << token; }, ", ");
      return diag << " elements (signless integers count as signed)";
    }
  }

  // Measured on the H200 (test/gpu/run_tma.py): a box whose innermost
  // coordinate is not a whole number of 16-byte units, or a store's box at
  // a negative coordinate, faults with an illegal instruction. Static
  // coordinates are checked here (a static region never starts below 0);
  // runtime ones are the program's (docs/hopper.md).
  for (unsigned dim = 0; dim < rank; ++dim) {
    if (!coordinates.dynamicOffsets[dim].empty())
      continue;
    int64_t coordinate = coordinates.staticOffsets[dim];
    if (dim + 1 == rank && (coordinate * elementBytes) % 16)
      return describeMap() << "starts at element " << coordinate
                           << " of the innermost dimension (byte "
                           << coordinate * elementBytes
                           << "); a TMA box starts at a multiple of 16 bytes "
                              "there";
  }

  // A box prefetched into L2 has no shared image.
  if (!imageType)
    return success();

  auto describeImage = [&]() {
    return op.emitOpError("operand #")
           << imagePosition << " (" << instruction.operands[imagePosition].name
           << ") of '" << instruction.spelling << "': the box's shared image ";
  };
  if (imageType.getElementBytes() != elementBytes)
    return describeImage() << "has " << imageType.getElementType()
                           << " elements, but the tensor has "
                           << tensorType.getElementType()
                           << " (TMA copies bits: the widths must agree)";
  if (imageType.getNumElements() != mapType.getNumElements())
    return describeImage() << "has " << imageType.getNumElements()
                           << " elements, but the box has "
                           << mapType.getNumElements();
  TileLayout imageLayout = imageType.getLayoutOrDefault();
  if (imageLayout.isSwizzled() &&
      !imageLayout.getSwizzleModeBytes(elementBytes))
    return describeImage() << "has a swizzle that is not TMA's for "
                           << elementBytes << "-byte elements (Swizzle["
                           << 4 - llvm::Log2_64(elementBytes)
                           << ", 1|2|3, 3]: the 32, 64 or 128-byte modes)";
  unsigned swizzle = getImageSwizzleBytes(imageType);
  if (swizzle && rowBytes > swizzle)
    return describeImage() << "is " << swizzle << "-byte swizzled, but the "
                           << "box's rows are " << rowBytes
                           << " bytes; TMA swizzles rows of at most the "
                              "swizzle's width";
  // A swizzle's pattern is fixed to shared addresses: the image starts at
  // a multiple of its period (1024 bytes for 128B).
  int64_t alignment = std::max<int64_t>(kImageAlignment, swizzle * 8);
  if (imageType.getAlignmentOrDefault() % alignment)
    return describeImage() << "is aligned to "
                           << imageType.getAlignmentOrDefault()
                           << " byte(s); TMA needs " << alignment
                           << ": declare align = " << alignment
                           << " on its allocation";
  // The image is the box in row-major order before the swizzle.
  TileLayout layout = imageLayout.getAffinePart();
  int64_t base = at(layout.apply(0), Axis::m);
  if ((base * elementBytes) % alignment)
    return describeImage() << "starts at byte " << base * elementBytes
                           << " of its allocation, which is not a multiple of "
                           << alignment;
  // The image is the box in row-major order: element i at base + i.
  for (int64_t index = 1, e = imageType.getNumElements(); index < e; ++index) {
    int64_t offset = at(layout.apply(index), Axis::m);
    if (offset != base + index) {
      SmallVector<int64_t> coordinate;
      int64_t rest = index;
      for (int64_t extent : llvm::reverse(imageType.getShape())) {
        coordinate.push_back(rest % extent);
        rest /= extent;
      }
      InFlightDiagnostic diag = describeImage()
                                << "must be the box in row-major order, but "
                                   "its element (";
      llvm::interleaveComma(llvm::reverse(coordinate), diag);
      return diag << ") is at offset " << offset << ", expected "
                  << base + index;
    }
  }
  return success();
}

TensorMapKey
mlir::tirx::tile::getTensorMapKey(Operation *operation,
                                  const ptx::Instruction &instruction) {
  auto op = cast<ApplyOp>(operation);
  TensorMapKey key;
  FailureOr<SmallVector<MixedOperand>> operands =
      getMixedOperands(op, op.getArgs(), op.getOperandKinds());
  if (failed(operands))
    return key; // unreachable for a verified copy
  for (const MixedOperand &operand : *operands) {
    const ptx::OperandInfo &info = instruction.operands[operand.position];
    auto tensor = dyn_cast<tirx::TensorType>(operand.getType());
    if (info.bulkRole == ptx::BulkTensorRole::TensorMap) {
      BlockArgument parameter = resolveTensorMapOperand(operand.value).tensor;
      key.argIndex = parameter.getArgNumber();
      llvm::append_range(key.box, tensor.getShape());
      // A reduction's map declares the element type: the operation's.
      if (!getReduction(instruction).empty())
        key.elementType = getReductionElementType(
            cast<tirx::TensorType>(parameter.getType()).getElementType());
    } else if (info.bulkRole == ptx::BulkTensorRole::BoxImage) {
      key.swizzleBytes = getImageSwizzleBytes(tensor);
    }
  }
  return key;
}

SmallVector<TensorMapKey> mlir::tirx::tile::collectTensorMaps(Region &body) {
  SmallVector<TensorMapKey> keys, prefetched;
  body.walk([&](ApplyOp op) {
    llvm::Expected<ptx::Instruction> instruction = ptx::parseInstruction(
        op.getInstruction().getSpelling(), op.getOperandKinds().size());
    if (!instruction) {
      llvm::consumeError(instruction.takeError());
      return;
    }
    if (!isBulkTensorCopy(*instruction))
      return;
    TensorMapKey key = getTensorMapKey(op, *instruction);
    SmallVector<TensorMapKey> &list =
        isTensorMapPrefetch(*instruction) ? prefetched : keys;
    if (!llvm::is_contained(list, key))
      list.push_back(std::move(key));
  });
  // A prefetch reads the maps the copies of its box use; a box no copy
  // uses gets its own map, without a swizzle, after the copies' ones.
  for (TensorMapKey &key : prefetched)
    if (getPrefetchedTensorMaps(keys, key).empty())
      keys.push_back(std::move(key));
  return keys;
}

SmallVector<unsigned>
mlir::tirx::tile::getPrefetchedTensorMaps(ArrayRef<TensorMapKey> maps,
                                          const TensorMapKey &prefetch) {
  SmallVector<unsigned> indices;
  for (auto [index, key] : llvm::enumerate(maps))
    if (key.argIndex == prefetch.argIndex && key.box == prefetch.box)
      indices.push_back(index);
  return indices;
}

ArrayAttr mlir::tirx::tile::getTensorMapsAttr(MLIRContext *context,
                                              ArrayRef<TensorMapKey> keys) {
  Builder builder(context);
  SmallVector<Attribute> entries;
  for (const TensorMapKey &key : keys) {
    SmallVector<NamedAttribute, 4> fields = {
        builder.getNamedAttr("arg", builder.getI64IntegerAttr(key.argIndex)),
        builder.getNamedAttr("box", builder.getDenseI64ArrayAttr(key.box)),
        builder.getNamedAttr("swizzle",
                             builder.getI64IntegerAttr(key.swizzleBytes))};
    // A copy's map has no element type (bits of its width).
    if (!key.elementType.empty())
      fields.push_back(
          builder.getNamedAttr("type", builder.getStringAttr(key.elementType)));
    entries.push_back(builder.getDictionaryAttr(fields));
  }
  return builder.getArrayAttr(entries);
}

SmallVector<TensorMapKey>
mlir::tirx::tile::parseTensorMapsAttr(Attribute attr) {
  SmallVector<TensorMapKey> keys;
  auto array = dyn_cast_if_present<ArrayAttr>(attr);
  if (!array)
    return keys;
  for (Attribute entry : array) {
    auto dict = dyn_cast<DictionaryAttr>(entry);
    auto arg = dict ? dict.getAs<IntegerAttr>("arg") : nullptr;
    auto box = dict ? dict.getAs<DenseI64ArrayAttr>("box") : nullptr;
    auto swizzle = dict ? dict.getAs<IntegerAttr>("swizzle") : nullptr;
    auto type = dict ? dict.getAs<StringAttr>("type") : nullptr;
    if (!arg || !box || !swizzle)
      return {};
    TensorMapKey key;
    key.argIndex = arg.getInt();
    llvm::append_range(key.box, box.asArrayRef());
    key.swizzleBytes = swizzle.getInt();
    if (type)
      key.elementType = type.str();
    keys.push_back(std::move(key));
  }
  return keys;
}
