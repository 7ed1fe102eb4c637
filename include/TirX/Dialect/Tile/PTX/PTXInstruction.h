//===- PTXInstruction.h - Parsing a PTX instruction spelling ----*- C++ -*-===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//
//
// `tile.apply` names one PTX instruction by its full spelling, e.g.
// "ld.global.v4.b32" or "cvt.rn.f16x2.f32". This header is the interface
// clients use: `parseInstruction` / `parseInstructionForms` read a spelling
// against the one declarative table (PTXTable.def) that knows every accepted
// form, and return the parsed `Instruction`: its canonical spelling, its
// operands in PTX order (destination first) with their roles, element
// classes and atom widths, its state space, and its minimum SM and PTX ISA
// version.
//
// Parsing (spec §3.0): the first token selects the family; each further token
// is assigned to the first still-open modifier slot of a candidate entry that
// lists it; the canonical spelling renders tokens in the table's slot order.
// A spelling is legal when some entry accepts every token, all its mandatory
// slots are filled, and its combination rules hold. The parser returns the
// descriptor or one error message that names the reason.
//
// The library is layered one concern per file, each header with its .cpp:
//   PTXTypes.h        scalar kinds, element classes, memory spaces, and what
//                     a type token means;
//   PTXRules.h        the ISA combination rules and the typed `Slot`s they
//                     read modifiers through;
//   PTXTable.h        PTXTable.def loaded into entries (`getForms` for docs
//                     and tests);
//   PTXMatcher.h      matching a spelling's tokens against the entries;
//   PTXInstruction.h  this entry point: the spelling's syntax and the result.
//
// This library depends on LLVM Support only: the dialect maps MLIR types to
// `ScalarKind` before asking `ElementClass::accepts`.
//
//===----------------------------------------------------------------------===//

#ifndef TIRX_DIALECT_TILE_PTX_PTXINSTRUCTION_H
#define TIRX_DIALECT_TILE_PTX_PTXINSTRUCTION_H

#include "TirX/Dialect/Tile/PTX/PTXRules.h"
#include "TirX/Dialect/Tile/PTX/PTXTypes.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>

namespace mlir::tirx::ptx {

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
  /// the vector length for ld/st and mov pack forms, the fragment's size for
  /// collective operands, 1 otherwise.
  unsigned atom = 1;
  /// Collective operands: the fragment in TileLayout notation (which lane
  /// holds each atom element, in which register; for a memory operand,
  /// which lane supplies the address of the row the element is in, and its
  /// position in that contiguous row); empty otherwise.
  std::string fragment;
  /// Memory operands: the state space they access.
  MemorySpace space = MemorySpace::None;
  /// A memory operand whose atom is given in bytes by the immediate of
  /// another operand (cp.async's cp-size): that operand's index; `atom` is
  /// then 0 and the verifier resolves it from the operand's element type.
  int chunkOperand = -1;
  /// A shared memory operand of another CTA of the cluster: the index of
  /// the operand holding that CTA's rank. The operand names this CTA's
  /// copy (a local shared tensor); the lowering maps its address to the
  /// rank's copy (`mapa.shared::cluster`) and the instruction reads that.
  int remoteOperand = -1;
  /// Written `prev|this` after the previous operand (shfl's `d|p`).
  bool joinsPrevious = false;
  /// Written as a `{...}` vector even when it is one register (mma).
  bool alwaysVector = false;
  /// A TMA operand: the global box (through its tensor map) or its shared
  /// image; the atom is then the whole operand.
  BulkTensorRole bulkRole = BulkTensorRole::None;
  /// The operand kind the entry's table word names (`parity`, `mask`), which
  /// a family module declares with what the operand's value must be
  /// (Families/FamilyModule.h); empty when the operand has none.
  llvm::StringRef kind;
  /// A register destination the instruction also reads (wgmma's
  /// accumulator: `+f` registers).
  bool isReadWrite = false;
  /// A shared matrix passed as a 64-bit descriptor (wgmma's A and B); its
  /// atom is the (M, K) or (N, K) tile the shape names.
  DescriptorMatrix descriptor = DescriptorMatrix::None;
  /// The atom's shape: the operand's trailing dimensions (`{atom}` unless a
  /// fragment says otherwise, e.g. {16, 8} for an mma accumulator).
  llvm::SmallVector<int64_t, 2> atomShape;
};

struct Instruction {
  /// Canonical spelling (tokens in table slot order).
  std::string spelling;
  /// The first token: "ld", "st", "mov", "add", "fma", "cvt", ...
  std::string family;
  /// The family module the table entry names (PTXTable.def's MODULE).
  FamilyModuleId module = FamilyModuleId::scalar;
  /// Modifier tokens after the family, in slot order, without dots, and
  /// the slot each fills.
  llvm::SmallVector<std::string, 4> modifiers;
  llvm::SmallVector<Slot, 4> modifierSlots;
  /// Operands in PTX order, destination first.
  llvm::SmallVector<OperandInfo, 4> operands;
  /// The state space of the first memory operand (ld/st, ldmatrix; each
  /// operand's own is OperandInfo::space, cp.async has two); None for
  /// register instructions.
  MemorySpace space = MemorySpace::None;
  /// Bytes one memory atom covers (ld/st; 0 when a chunk operand gives it),
  /// 0 otherwise.
  unsigned vectorBytes = 0;
  /// Minimum SM version (e.g. 90 for sm_90) and PTX ISA version (e.g. 78).
  unsigned minSM = 0;
  unsigned minPTX = 0;
  /// The form exists on sm_<minSM>a only (setmaxnreg, wgmma's fences).
  bool archSpecific = false;
  /// A first destination that is not among `operands`: the sink `_`
  /// (mbarrier.arrive's state), or a predicate the instruction is retried
  /// on until true (mbarrier.try_wait's loop).
  HiddenDestination hidden = HiddenDestination::None;
  /// Who executes one instruction.
  ExecKind exec = ExecKind::Thread;
  /// Its result depends on which threads run it together (activemask):
  /// never moved, merged or removed. Collectives are always so.
  bool isVolatile = false;
  /// The table entry's name ("shfl.sync.pred").
  std::string formName;

  bool hasModifier(llvm::StringRef token) const;
  /// The token spelled in slot `slot` (without its dot), or "" when the
  /// slot is empty or the form has none.
  llvm::StringRef getModifier(Slot slot) const;
};

/// Parses a spelling against the table. `numOperands`, when given, selects
/// between forms that differ only in their operand count (two- vs
/// three-input min/max) and is checked against the chosen form
/// ("'add.rn.f32' expects 3 operands, got 4").
llvm::Expected<Instruction>
parseInstruction(llvm::StringRef spelling,
                 std::optional<unsigned> numOperands = std::nullopt);

/// Every form the spelling names, in table order; the first is what
/// `parseInstruction` returns. Without `numOperands` this includes forms of
/// every operand count (min/max, shfl with and without `|p`, bar.sync with
/// and without a thread count). With it, only `mov` has several: its scalar
/// copy and its vector pack/unpack lines share spelling and operand count
/// and differ in operand atoms, so a verifier picks the one the operand
/// shapes match. Errors are those of `parseInstruction`.
llvm::Expected<llvm::SmallVector<Instruction, 1>>
parseInstructionForms(llvm::StringRef spelling,
                      std::optional<unsigned> numOperands = std::nullopt);

} // namespace mlir::tirx::ptx

#endif // TIRX_DIALECT_TILE_PTX_PTXINSTRUCTION_H
