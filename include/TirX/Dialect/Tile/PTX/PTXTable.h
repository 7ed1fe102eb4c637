//===- PTXTable.h - The PTX instruction table, loaded -----------*- C++ -*-===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//
//
// PTXTable.def holds every accepted PTX form as text records; this header
// is what they become once loaded (on first use, checked as they load): per
// entry, its modifier slots with their tokens and floors, its operands with
// roles, type references and atoms, and the rule that checks combinations.
//
// The top half is the public view of the table (docs and tests enumerate
// its entries through `getForms`); the rest is the loaded representation
// that the matcher (PTXMatcher.h) reads.
//
//===----------------------------------------------------------------------===//

#ifndef TIRX_DIALECT_TILE_PTX_PTXTABLE_H
#define TIRX_DIALECT_TILE_PTX_PTXTABLE_H

#include "TirX/Dialect/Tile/PTX/PTXRules.h"
#include "TirX/Dialect/Tile/PTX/PTXTypes.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSet.h"

#include <utility>
#include <vector>

namespace mlir::tirx::ptx {

//===----------------------------------------------------------------------===//
// Public view
//===----------------------------------------------------------------------===//

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
  ExecKind exec = ExecKind::Thread;
  llvm::SmallVector<SlotInfo, 8> slots;
  /// The entry's floor before token and rule floors.
  unsigned minSM = 0;
  unsigned minPTX = 0;
};
llvm::ArrayRef<FormInfo> getForms();

/// A PTX_FRAGMENT record: a collective operand's layout over its atom.
struct FragmentInfo {
  llvm::StringRef name;
  llvm::StringRef shape;  // "32", "16x8"
  llvm::StringRef layout; // TileLayout notation
  /// The shape as extents, and their product (the atom).
  llvm::SmallVector<int64_t, 2> getShape() const;
  unsigned getAtom() const;
};
llvm::ArrayRef<FragmentInfo> getFragments();

/// M, N and K of a matrix shape token `mMnNkK` ("m64n128k16").
std::optional<std::array<unsigned, 3>> parseMatrixShape(llvm::StringRef token);

//===----------------------------------------------------------------------===//
// Loaded representation (read by the matcher)
//===----------------------------------------------------------------------===//

/// One PTX_FORM record as written in PTXTable.def.
struct RawForm {
  const char *family;
  const char *name;
  const char *exec;
  const char *slots;
  const char *operands;
  unsigned minSM;
  unsigned minPTX;
  CheckFn check;
  FamilyModuleId module;
};

/// A token a slot lists, with the floor spelling it adds.
struct TokenSpec {
  llvm::StringRef text;
  Floor floor;
};

/// A modifier slot of one entry.
struct SlotSpec {
  Slot id;
  llvm::StringRef name;
  bool mandatory = true;
  /// Slots that share tokens with their siblings must be spelled in slot
  /// order: the type slots (dtype before atype; mma's d, a, b, c types) and
  /// mma's A and B layouts (`.row.col` is not `.col.row`).
  bool isOrdered = false;
  Floor floor;
  llvm::SmallVector<TokenSpec, 8> tokens;

  const TokenSpec *find(llvm::StringRef text) const {
    for (const TokenSpec &token : tokens)
      if (token.text == text)
        return &token;
    return nullptr;
  }
};

enum class Role { RegisterDst, RegisterSrc, MemoryDst, MemorySrc };

/// An operand of one entry, before a spelling fixes its type.
struct OperandSpec {
  llvm::StringRef name;
  Role role;
  /// Type references tried in order: a slot index, or -1 with a literal.
  llvm::SmallVector<std::pair<int, llvm::StringRef>, 2> typeRefs;
  bool doubled = false;
  bool allowsImmediate = false;
  unsigned atom = 1;
  int atomSlot = -1;    // atom from a `.vN` slot
  int presentSlot = -1; // present only when this slot is spelled
  int fragment = -1;    // index into getFragments()
  /// `frag=NAME:tile=SLOT`: the fragment NAME repeated (blocked product,
  /// LayoutAlgebra.h) over the M x N matrix of the `mMnNkK` token spelled in
  /// that slot: wgmma's accumulator from its m64n8 atom; -1 otherwise.
  int fragmentTileSlot = -1;
  bool isReadWrite = false;                             // `rw`
  DescriptorMatrix descriptor = DescriptorMatrix::None; // `desc=a|b`
  int spaceSlot = -1;   // memory operands: the slot naming their state space
  int chunkOperand = -1; // atom of this many bytes: that operand's immediate
  llvm::StringRef chunkName; // `bytes=<operand>`, resolved to chunkOperand
  int remoteOperand = -1;     // mapped to that operand's CTA (mapa)
  llvm::StringRef remoteName; // `remote=<operand>`, resolved to remoteOperand
  bool joinsPrevious = false;
  bool alwaysVector = false;
  BulkTensorRole bulkRole = BulkTensorRole::None; // `tmap` / `box`
  llvm::StringRef kind; // a family module's operand kind (`parity`)
  llvm::SmallVector<int64_t, 2> atomShape; // a fragment's; empty otherwise
};

/// One loaded entry.
struct Form {
  const RawForm *raw;
  llvm::SmallVector<SlotSpec, 12> slots;
  llvm::SmallVector<OperandSpec, 4> operands;
  int spaceSlot = -1;
  bool isMemory = false;
  ExecKind exec = ExecKind::Thread;
  bool isVolatile = false;
  /// A leading `_` or `_loop` operand word (not an operand).
  HiddenDestination hidden = HiddenDestination::None;

  /// The index of the entry's slot `id`, or -1 when it has none.
  int findSlot(Slot id) const {
    for (auto [i, slot] : llvm::enumerate(slots))
      if (slot.id == id)
        return i;
    return -1;
  }
};

/// The whole table, loaded.
struct Table {
  std::vector<Form> forms;
  llvm::SmallVector<llvm::StringRef, 24> families;
  llvm::StringMap<llvm::SmallVector<unsigned, 4>> formsByFamily;
  /// Every token any entry of the family lists (tells "unknown" apart from
  /// "not valid here").
  llvm::StringMap<llvm::StringSet<>> familyTokens;
  std::vector<FormInfo> infos;
};

/// The table, loaded on first use. A malformed record is a fatal error that
/// names the entry.
const Table &getTable();

} // namespace mlir::tirx::ptx

#endif // TIRX_DIALECT_TILE_PTX_PTXTABLE_H
