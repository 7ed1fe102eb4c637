//===- CpAsync.cpp - The cpasync family module ----------------------------===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//
//
// cp.async (non-bulk) and its groups (docs/async-copies.md). Declares the
// operand kinds `chunk` (cp-size: 4, 8 or 16 bytes), `chunk16` (.cg's 16),
// `srcsize` (the bytes read of the chunk; the rest is zero-filled) and
// `groups` (a wait_group's pending-group count, also wgmma's and the bulk
// copies').
//
//===----------------------------------------------------------------------===//

#include "Modules.h"

using namespace mlir::tirx::ptx;

/// The largest count `cp.async.wait_group` takes: the dependency counter a
/// thread's copy groups are tracked by.
static constexpr int64_t kMaxPendingAsyncGroups = 63;

static std::optional<std::string> checkChunk(const OperandValue &value,
                                             bool only16) {
  if (!value.immediate)
    return families::formatMessage("the copy size must be an immediate (",
                                   only16 ? "16" : "4, 8 or 16", " : i32)");
  int64_t bytes = *value.immediate;
  if (only16 && bytes != 16)
    return families::formatMessage(
        "a .cg copy caches in L2 only and moves 16 bytes; got ", bytes,
        " (use .ca for 4 or 8 bytes)");
  if (bytes != 4 && bytes != 8 && bytes != 16)
    return families::formatMessage("cp.async copies 4, 8 or 16 bytes, got ",
                                   bytes);
  return std::nullopt;
}

static std::optional<std::string> checkChunkBytes(const OperandValue &value) {
  return checkChunk(value, /*only16=*/false);
}

static std::optional<std::string> checkChunk16(const OperandValue &value) {
  return checkChunk(value, /*only16=*/true);
}

static std::optional<std::string> checkSourceBytes(const OperandValue &value) {
  if (!value.immediate)
    return std::nullopt;
  // The chunk is the operand of kind chunk or chunk16 (checked before this
  // one: it comes first).
  int64_t chunk = 0;
  for (auto [position, operand] : llvm::enumerate(value.instruction.operands))
    if (operand.kind == "chunk" || operand.kind == "chunk16")
      chunk = value.getImmediate(position).value_or(0);
  int64_t bytes = *value.immediate;
  if (bytes < 0 || bytes > chunk)
    return families::formatMessage(
        "the source size ", bytes, " must be 0 to the ", chunk,
        "-byte chunk (the rest of the chunk is zero-filled)");
  return std::nullopt;
}

static std::optional<std::string> checkGroupCount(const OperandValue &value) {
  if (!value.immediate)
    return std::string("the number of pending groups must be an immediate");
  int64_t groups = *value.immediate;
  if (groups < 0 || groups > kMaxPendingAsyncGroups)
    return families::formatMessage(
        groups, " pending groups is out of range: wait_group takes 0 to ",
        kMaxPendingAsyncGroups);
  return std::nullopt;
}

static AsyncGroupEvent getAsyncGroupEvent(const Instruction &instruction) {
  if (instruction.formName == "cp.async.commit_group")
    return AsyncGroupEvent::Commit;
  if (instruction.formName == "cp.async.wait_group")
    return AsyncGroupEvent::WaitGroup;
  if (instruction.formName == "cp.async.wait_all")
    return AsyncGroupEvent::WaitAll;
  return AsyncGroupEvent::Copy;
}

const FamilyModule &families::cpasyncModule() {
  static const OperandKind kinds[] = {{"chunk", checkChunkBytes},
                                      {"chunk16", checkChunk16},
                                      {"srcsize", checkSourceBytes},
                                      {"groups", checkGroupCount}};
  static const FamilyModule module = [] {
    FamilyModule cpasync{/*name=*/"cpasync", kinds};
    cpasync.getAsyncGroupEvent = ::getAsyncGroupEvent;
    return cpasync;
  }();
  return module;
}
