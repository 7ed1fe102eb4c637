//===- PTXBuilder.h - One inline-PTX instruction, built up ------*- C++ -*-===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//
//
// The one place tile-dispatch writes inline PTX: register classes and their
// constraint letters (including `b` for .pred), conversions between storage
// and asm register types, operands numbered outputs first, `{...}` vectors,
// `d|p` joined outputs, the `@p` guard, destinations tied to their current
// value when a guard can skip the write, and the llvm.inline_asm itself with
// its side-effect flag. Every family emitter that has no NVVM op yielding
// exactly its instruction goes through it.
//
//===----------------------------------------------------------------------===//

#ifndef TIRX_LIB_CONVERSION_TILEDISPATCH_PTXBUILDER_H
#define TIRX_LIB_CONVERSION_TILEDISPATCH_PTXBUILDER_H

#include "mlir/IR/Builders.h"

#include <string>

namespace mlir::tirx::tile {

/// The LLVM type an inline-asm operand of storage type `type` is passed as,
/// and its NVPTX constraint letter (i1 → `b`, a .pred register).
std::pair<Type, char> getAsmRegister(Type type);
/// Converts `value` (storage type) to its asm register type.
Value toAsmRegister(OpBuilder &builder, Location loc, Value value);
/// Converts an asm register value back to `storageType`.
Value fromAsmRegister(OpBuilder &builder, Location loc, Value value,
                      Type storageType);

class PTXBuilder {
public:
  PTXBuilder(OpBuilder &builder, Location loc) : builder(builder), loc(loc) {}

  /// A register destination of storage type `storageType`; outputs are
  /// numbered before inputs, so all are added first. Returns "$N".
  std::string addOutput(Type storageType);
  /// A register source (storage type); returns "$N".
  std::string addInput(Value value);
  /// The i1 guard `pred` as a 32-bit input (PTX sets a .pred from it);
  /// returns "$N".
  std::string addPredicate(Value pred);
  /// Opens the block that guards one instruction by the predicate input
  /// `predInput` (from addPredicate): the instruction follows the returned
  /// text, and "\n\t}" closes the block.
  static std::string getGuardPrefix(StringRef predInput);
  /// A 64-bit address register; returns "$N".
  std::string addAddress(Value address);
  /// Ties a new input carrying `current` to output `outputIndex`, so that a
  /// guarded-off instruction leaves the destination's value.
  void tieToOutput(unsigned outputIndex, Value current);

  unsigned getNumOutputs() const { return outputTypes.size(); }

  /// Creates the llvm.inline_asm of `text`; returns each output converted
  /// back to its storage type.
  SmallVector<Value> create(StringRef text, bool hasSideEffects);

private:
  OpBuilder &builder;
  Location loc;
  SmallVector<Type> outputTypes;  // asm types
  SmallVector<Type> storageTypes; // storage types of the outputs
  std::string outputConstraints;
  SmallVector<Value> inputs;
  std::string inputConstraints;
};

} // namespace mlir::tirx::tile

#endif // TIRX_LIB_CONVERSION_TILEDISPATCH_PTXBUILDER_H
