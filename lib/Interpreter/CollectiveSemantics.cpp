//===- CollectiveSemantics.cpp - memory, warp and barrier families --------===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//

#include "CollectiveSemantics.h"

#include "ArithSemantics.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/APInt.h"
#include "llvm/ADT/bit.h"

using namespace mlir;
using namespace mlir::tirx;
using namespace mlir::tirx::interp;
using llvm::APFloat;
using llvm::APInt;

int interp::findOperand(const ptx::Instruction &instruction, StringRef name) {
  for (auto [index, info] : llvm::enumerate(instruction.operands))
    if (info.name == name)
      return index;
  return -1;
}

static LogicalResult fail(WarpExecutor &executor, Operation *op,
                          const ptx::Instruction &instruction) {
  // check-diagnostics: internal, every form of the PTX table is modelled
  emitRunError(op, executor.cta)
      << "the interpreter does not model '" << instruction.spelling << "' yet";
  return failure();
}

/// Sign- or zero-extends (or truncates) `bits` from `from` to `to` bits.
static uint64_t resize(uint64_t bits, unsigned from, unsigned to,
                       bool isSigned) {
  if (isSigned && from < 64 && to > from && (bits >> (from - 1) & 1))
    bits |= ~uint64_t(0) << from;
  return truncateBits(bits, to);
}

std::optional<uint64_t> interp::combineAtomic(StringRef op, StringRef type,
                                              unsigned width, uint64_t old,
                                              uint64_t b, uint64_t c,
                                              bool flushSubnormals) {
  APInt x(width, old), y(width, b);
  bool isSigned = type.starts_with("s");
  if (type.starts_with("f") || type == "bf16") {
    const llvm::fltSemantics &semantics = type == "bf16" ? APFloat::BFloat()
                                          : width == 16  ? APFloat::IEEEhalf()
                                          : width == 32  ? APFloat::IEEEsingle()
                                                        : APFloat::IEEEdouble();
    APFloat a(semantics, x), v(semantics, y);
    // atom.add.f32 flushes subnormal inputs and results (PTX ISA, atom).
    auto flush = [&](APFloat &f) {
      if (flushSubnormals && width == 32 && f.isDenormal())
        f = APFloat::getZero(semantics, f.isNegative());
    };
    if (op == "add") {
      flush(a);
      flush(v);
      a.add(v, APFloat::rmNearestTiesToEven);
      flush(a);
    } else if (op == "min") {
      a = llvm::minnum(a, v);
    } else if (op == "max") {
      a = llvm::maxnum(a, v);
    } else if (op == "exch") {
      a = v;
    } else {
      return std::nullopt;
    }
    return a.bitcastToAPInt().getZExtValue();
  }
  APInt result =
      llvm::StringSwitch<std::function<APInt()>>(op)
          .Case("and", [&] { return x & y; })
          .Case("or", [&] { return x | y; })
          .Case("xor", [&] { return x ^ y; })
          .Case("exch", [&] { return y; })
          .Case("add", [&] { return x + y; })
          .Case("inc", [&] { return x.uge(y) ? APInt(width, 0) : x + 1; })
          .Case("dec", [&] { return (x.isZero() || x.ugt(y)) ? y : x - 1; })
          .Case("min", [&] { return (isSigned ? x.sle(y) : x.ule(y)) ? x : y; })
          .Case("max", [&] { return (isSigned ? x.sge(y) : x.uge(y)) ? x : y; })
          .Case("cas", [&] { return x == y ? APInt(width, c) : x; })
          .Default([&] { return APInt(); })();
  if (!result.getBitWidth())
    return std::nullopt;
  return result.getZExtValue();
}

LogicalResult
interp::executeMemoryInstruction(WarpExecutor &executor, Operation *op,
                                 const ptx::Instruction &instruction,
                                 MutableArrayRef<OperandAtom> operands) {
  StringRef family = instruction.family;
  StringRef type = instruction.getModifier(ptx::Slot::type);
  if (family == "fence")
    return success();
  if (family == "ld" || family == "st") {
    // ld: d <- [addr]; st: [addr] <- a. The register side may be wider
    // than memory (ld.u8 into a 32-bit register): extended by the type's
    // signedness.
    OperandAtom &to = operands[family == "ld" ? 0 : 0];
    OperandAtom &from = operands[1];
    for (auto [index, element] : llvm::enumerate(to.elements))
      element = resize(from.elements[index], from.bitWidth, to.bitWidth,
                       type.starts_with("s"));
    return success();
  }
  if (family == "atom" || family == "red") {
    int addr = findOperand(instruction, "addr");
    int b = findOperand(instruction, "b");
    int c = findOperand(instruction, "c");
    int d = findOperand(instruction, "d");
    StringRef operation = instruction.getModifier(ptx::Slot::op);
    if (operation.empty())
      operation = "cas";
    OperandAtom &memory = operands[addr];
    unsigned width = memory.bitWidth;
    uint64_t old = memory.elements[0];
    std::optional<uint64_t> updated =
        combineAtomic(operation, type, width, old, operands[b].elements[0],
                      c >= 0 ? operands[c].elements[0] : 0,
                      /*flushSubnormals=*/true);
    if (!updated)
      return fail(executor, op, instruction);
    memory.elements[0] = *updated;
    if (d >= 0)
      operands[d].elements[0] = old;
    return success();
  }
  return fail(executor, op, instruction);
}

LogicalResult interp::executeWarpThreadInstruction(
    WarpExecutor &executor, Operation *op, const ptx::Instruction &instruction,
    MutableArrayRef<OperandAtom> operands, LaneMask active) {
  if (instruction.family != "activemask")
    return fail(executor, op, instruction);
  operands[0].elements[0] = active;
  return success();
}

/// shfl.sync's source lane and validity for `lane` (PTX ISA, shfl.sync).
static std::pair<unsigned, bool> getShuffleSource(StringRef mode, unsigned lane,
                                                  uint32_t b, uint32_t c) {
  // The ISA's pseudo-code reads b[4:0] (bval = b[4:0]): b = 33 is lane 1.
  b &= 0x1f;
  uint32_t clamp = c & 0x1f, segmask = (c >> 8) & 0x1f;
  uint32_t maxLane = (lane & segmask) | (clamp & ~segmask);
  uint32_t minLane = lane & segmask;
  int64_t source;
  bool valid;
  if (mode == "up") {
    source = int64_t(lane) - b;
    valid = source >= int64_t(maxLane);
  } else if (mode == "down") {
    source = int64_t(lane) + b;
    valid = source <= int64_t(maxLane);
  } else if (mode == "bfly") {
    source = lane ^ b;
    valid = source <= int64_t(maxLane);
  } else {
    source = minLane | (b & ~segmask);
    valid = source <= int64_t(maxLane);
  }
  if (!valid)
    source = lane;
  return {static_cast<unsigned>(source & 31), valid};
}

LogicalResult interp::executeCollectiveInstruction(
    WarpExecutor &executor, Operation *op, const ptx::Instruction &instruction,
    MutableArrayRef<SmallVector<OperandAtom, 4>> laneAtoms, LaneMask active) {
  StringRef family = instruction.family;
  unsigned first = llvm::countr_zero(active);
  auto value = [&](unsigned lane, StringRef name) -> uint64_t {
    int index = findOperand(instruction, name);
    return index < 0 ? 0 : laneAtoms[lane][index].elements[0];
  };
  auto setValue = [&](unsigned lane, StringRef name, uint64_t bits) {
    int index = findOperand(instruction, name);
    if (index >= 0)
      laneAtoms[lane][index].elements[0] = bits;
  };
  if (family == "shfl") {
    StringRef mode = instruction.getModifier(ptx::Slot::mode);
    // Every lane reads its source before any writes its destination.
    std::array<uint64_t, kWarpSize> sources{};
    forEachLane(active,
                [&](unsigned lane) { sources[lane] = value(lane, "a"); });
    forEachLane(active, [&](unsigned lane) {
      auto [source, valid] =
          getShuffleSource(mode, lane, value(lane, "b"), value(lane, "c"));
      setValue(lane, "d", sources[source]);
      setValue(lane, "p", valid);
    });
    return success();
  }
  if (family == "vote") {
    StringRef mode = instruction.getModifier(ptx::Slot::mode);
    uint32_t ballot = 0;
    forEachLane(active, [&](unsigned lane) {
      if (value(lane, "a") & 1)
        ballot |= uint32_t(1) << lane;
    });
    uint64_t result = mode == "ballot" ? ballot
                      : mode == "all"  ? ballot == active
                      : mode == "any"  ? ballot != 0
                                       : (ballot == 0 || ballot == active);
    forEachLane(active, [&](unsigned lane) { setValue(lane, "d", result); });
    return success();
  }
  if (family == "redux") {
    StringRef operation = instruction.getModifier(ptx::Slot::op);
    bool isSigned = instruction.getModifier(ptx::Slot::type) == "s32";
    APInt result(32, value(first, "a"));
    forEachLane(active & (active - 1), [&](unsigned lane) {
      APInt x(32, value(lane, "a"));
      if (operation == "add")
        result += x;
      else if (operation == "and")
        result &= x;
      else if (operation == "or")
        result |= x;
      else if (operation == "xor")
        result ^= x;
      else if (operation == "min")
        result = (isSigned ? x.slt(result) : x.ult(result)) ? x : result;
      else
        result = (isSigned ? x.sgt(result) : x.ugt(result)) ? x : result;
    });
    forEachLane(active, [&](unsigned lane) {
      setValue(lane, "d", result.getZExtValue());
    });
    return success();
  }
  if (family == "elect") {
    forEachLane(active, [&](unsigned lane) {
      setValue(lane, "d", first);
      setValue(lane, "p", lane == first);
    });
    return success();
  }
  if (family == "bar") {
    if (instruction.hasModifier("warp"))
      return success(); // bar.warp.sync: the lanes are in lockstep already
    uint64_t id = value(first, "a");
    int count = findOperand(instruction, "b");
    int64_t threads = count < 0 ? executor.cta.launch.numThreads
                                : static_cast<int64_t>(value(first, "b"));
    if (id >= 16) {
      // check-diagnostics: internal, bar.sync's barrier operand is an immediate
      // 0-15 (verifier)
      emitRunError(op, executor.cta)
          << "barrier " << id << " does not exist (0 to 15)";
      return failure();
    }
    return executor.cta.arriveAtBarrier(
        executor.warp, op, id, threads,
        /*arriveOnly=*/instruction.getModifier(ptx::Slot::mode) == "arrive");
  }
  return fail(executor, op, instruction);
}
