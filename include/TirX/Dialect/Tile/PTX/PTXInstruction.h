//===- PTXInstruction.h - The PTX instruction table and its parser -*- C++ -*-===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//
//
// `tile.apply` names one PTX instruction by its full spelling, e.g.
// "ld.global.v4.b32" or "cvt.rn.f16x2.f32". This header is the interface to
// the one declarative table (PTXTable.def) that knows every accepted form:
// its modifier slots and their legal combinations, its operands in PTX order
// (destination first) with their roles, register classes, carrier dtypes and
// atom widths, its minimum SM and PTX ISA version, and how it lowers.
//
// Parsing (spec §3.0): the first token selects the family; each further token
// is assigned to the first still-open modifier slot of a candidate entry that
// lists it; the canonical spelling renders tokens in the table's slot order.
// A spelling is legal when some entry accepts every token, all its mandatory
// slots are filled, and its combination rules hold. The parser returns the
// descriptor or one error message that names the reason.
//
// This library depends on LLVM Support only: the dialect maps MLIR types to
// `ScalarKind` before asking `ElementClass::accepts`.
//
//===----------------------------------------------------------------------===//

#ifndef TIRX_DIALECT_TILE_PTX_PTXINSTRUCTION_H
#define TIRX_DIALECT_TILE_PTX_PTXINSTRUCTION_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>

namespace mlir::tirx::ptx {

/// Element types an operand can hold (PTX fundamental types).
enum class ScalarKind : uint8_t {
  u8,
  s8,
  u16,
  s16,
  u32,
  s32,
  u64,
  s64,
  f16,
  bf16,
  f32,
  f64
};
unsigned getBitWidth(ScalarKind kind);
llvm::StringRef getScalarKindName(ScalarKind kind);
bool isFloat(ScalarKind kind);

/// Which element dtypes an operand accepts.
///  - Bits:    any type of `bitWidth` bits (untyped `.bN` tokens);
///  - Exact:   exactly `exact` (typed tokens such as `.f32`, `.s32`);
///  - Carrier: an unsigned integer of `bitWidth` bits carrying packed values
///             (f16x2/bf16x2/u16x2/s16x2 → u32, f32x2 → u64).
struct ElementClass {
  enum class Kind : uint8_t { Bits, Exact, Carrier };
  Kind kind;
  unsigned bitWidth;
  ScalarKind exact; // meaningful for Kind::Exact only
  /// The packed PTX type a carrier holds ("f16x2"), empty otherwise.
  std::string packedType;

  bool accepts(ScalarKind kind) const;
  /// Human-readable, for diagnostics: "a 32-bit type", "f32",
  /// "u32 (carrier of f16x2)".
  std::string describe() const;
};

/// State space of a memory instruction.
enum class MemorySpace : uint8_t {
  None, // not a memory instruction
  Generic,
  Global,
  Shared,        // .shared and .shared::cta
  SharedCluster, // .shared::cluster
  Local
};
llvm::StringRef getMemorySpaceName(MemorySpace space);

struct OperandInfo {
  /// PTX operand name: "d", "a", "b", "c", "addr", "policy".
  std::string name;
  /// Written by the instruction.
  bool isDestination = false;
  /// The memory (address) side of ld/st; all others are registers.
  bool isMemory = false;
  /// A scalar value/constant may stand in (broadcast) for a tensor.
  bool allowsImmediate = false;
  ElementClass element;
  /// Consecutive elements this operand covers per instruction (the atom):
  /// the vector length for ld/st and mov pack forms, 1 otherwise.
  unsigned atom = 1;
};

struct Instruction {
  /// Canonical spelling (tokens in table slot order).
  std::string spelling;
  /// The first token: "ld", "st", "mov", "add", "fma", "cvt", ...
  std::string family;
  /// Modifier tokens after the family, in slot order, without dots.
  llvm::SmallVector<std::string, 4> modifiers;
  /// Operands in PTX order, destination first.
  llvm::SmallVector<OperandInfo, 4> operands;
  /// ld/st state space; None for register instructions.
  MemorySpace space = MemorySpace::None;
  /// Bytes one memory atom covers (ld/st), 0 otherwise.
  unsigned vectorBytes = 0;
  /// Minimum SM version (e.g. 90 for sm_90) and PTX ISA version (e.g. 78).
  unsigned minSM = 0;
  unsigned minPTX = 0;

  bool hasModifier(llvm::StringRef token) const;
};

/// Parses a spelling against the table. `numOperands`, when given, selects
/// between forms that differ only in their operand count (two- vs
/// three-input min/max) and is checked against the chosen form
/// ("'add.rn.f32' expects 3 operands, got 4").
llvm::Expected<Instruction>
parseInstruction(llvm::StringRef spelling,
                 std::optional<unsigned> numOperands = std::nullopt);

/// Every form the spelling names, in table order; the first is what
/// `parseInstruction` returns. Only `mov` has several: its scalar copy and
/// its vector pack/unpack lines share spelling and operand count and differ
/// in operand atoms, so a verifier picks the one the operand shapes match.
/// Errors are those of `parseInstruction`.
llvm::Expected<llvm::SmallVector<Instruction, 1>>
parseInstructionForms(llvm::StringRef spelling,
                      std::optional<unsigned> numOperands = std::nullopt);

/// The family names of the table, in table order.
llvm::ArrayRef<llvm::StringRef> getFamilyNames();

/// A modifier slot of one table entry, in rendering order (tests, docs).
struct SlotInfo {
  llvm::StringRef name; // "rnd", "type", "space", ...
  bool mandatory = false;
  llvm::SmallVector<llvm::StringRef, 8> tokens; // without dots
};

/// One table entry, i.e. one syntax line of a family (tests, docs).
/// Enumerating the product of its slots and parsing each spelling visits
/// every legal form of the entry.
struct FormInfo {
  llvm::StringRef family;
  llvm::StringRef name; // unique: "add.float", "ld.vector", ...
  llvm::SmallVector<SlotInfo, 8> slots;
  /// The entry's floor before token and rule floors.
  unsigned minSM = 0;
  unsigned minPTX = 0;
};
llvm::ArrayRef<FormInfo> getForms();

} // namespace mlir::tirx::ptx

#endif // TIRX_DIALECT_TILE_PTX_PTXINSTRUCTION_H
