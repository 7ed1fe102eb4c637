//===- PTXRules.h - ISA combination rules of the PTX table ------*- C++ -*-===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//
//
// What the slots of a PTXTable.def entry cannot say alone: which modifier
// combinations are legal (`.sat` only on f32, `.nc` only with `.global`),
// which types restrict which modifiers, and which floors depend on several
// tokens at once. Each entry names one rule; the matcher runs it on the
// spelled modifiers once every token has a slot.
//
// Rules read the spelled modifiers through `Mods`, indexed by the `Slot`
// enum that the table's PTX_SLOT list generates: `m[Slot::sat]`, never a
// string, so a rule naming a slot the table does not list does not compile.
//
//===----------------------------------------------------------------------===//

#ifndef TIRX_DIALECT_TILE_PTX_PTXRULES_H
#define TIRX_DIALECT_TILE_PTX_PTXRULES_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <string>

namespace mlir::tirx::ptx {

//===----------------------------------------------------------------------===//
// Modifier slots
//===----------------------------------------------------------------------===//

/// Every modifier slot name the table uses (PTX_SLOT in PTXTable.def).
enum class Slot : uint8_t {
#define PTX_SLOT(NAME, PHRASE) NAME,
#include "TirX/Dialect/Tile/PTX/PTXTable.def"
};

/// Number of `Slot` values.
inline constexpr unsigned kNumSlots = 0
#define PTX_SLOT(NAME, PHRASE) +1
#include "TirX/Dialect/Tile/PTX/PTXTable.def"
    ;

/// The slot's name as the table spells it ("rnd").
llvm::StringRef getSlotName(Slot slot);
/// How messages name the slot ("rounding modifier"); "" for single-token
/// slots, which messages name by their token.
llvm::StringRef getSlotPhrase(Slot slot);
/// The slot the table spells `name`, if it is listed.
std::optional<Slot> getSlotByName(llvm::StringRef name);

//===----------------------------------------------------------------------===//
// What a rule sees and returns
//===----------------------------------------------------------------------===//

/// A floor: minimum SM and PTX ISA version (×10).
struct Floor {
  unsigned sm = 0;
  unsigned ptx = 0;
  /// The form exists on the arch-specific target sm_<sm>a only.
  bool archSpecific = false;
  void raise(unsigned newSM, unsigned newPTX) {
    sm = std::max(sm, newSM);
    ptx = std::max(ptx, newPTX);
  }
};

/// The spelled modifiers of one entry, by slot; "" when a slot is not
/// spelled or the entry has no such slot.
class Mods {
public:
  void set(Slot slot, llvm::StringRef token) {
    tokens[static_cast<unsigned>(slot)] = token;
  }
  llvm::StringRef operator[](Slot slot) const {
    return tokens[static_cast<unsigned>(slot)];
  }

private:
  std::array<llvm::StringRef, kNumSlots> tokens;
};

/// Returns why a combination is illegal ("" when legal); may raise `floor`
/// where the requirement depends on several tokens at once.
using CheckFn = std::string (*)(const Mods &, Floor &);

//===----------------------------------------------------------------------===//
// The rules, by the name PTXTable.def's CHECK column gives them
//===----------------------------------------------------------------------===//

namespace rules {
// The slots say everything.
std::string noCheck(const Mods &m, Floor &floor);
// ld / st (spec §3.1): ordering, scope, state space, cache operators,
// eviction priorities, vector widths.
std::string checkLoad(const Mods &m, Floor &floor);
std::string checkLoadVector(const Mods &m, Floor &floor);
std::string checkLoadVector256(const Mods &m, Floor &floor);
std::string checkStore(const Mods &m, Floor &floor);
std::string checkStoreVector(const Mods &m, Floor &floor);
std::string checkStoreVector256(const Mods &m, Floor &floor);
// add / sub / mul / mad / fma (spec §3.3, §3.6).
std::string checkFloatArith(const Mods &m, Floor &floor);
std::string checkHalfArith(const Mods &m, Floor &floor);
std::string checkIntAddSub(const Mods &m, Floor &floor);
std::string checkWide(const Mods &m, Floor &floor);
std::string checkMadInt(const Mods &m, Floor &floor);
std::string checkHalfFma(const Mods &m, Floor &floor);
// div / rcp / sqrt (spec §3.4).
std::string checkDiv(const Mods &m, Floor &floor);
std::string checkRcp(const Mods &m, Floor &floor);
std::string checkSqrt(const Mods &m, Floor &floor);
// min / max (spec §3.5).
std::string checkMinMax(const Mods &m, Floor &floor);
// cvt (spec §3.7).
std::string checkCvt(const Mods &m, Floor &floor);
std::string checkCvtTf32(const Mods &m, Floor &floor);
// ex2 / abs / neg (spec §3.8, §3.9).
std::string checkEx2(const Mods &m, Floor &floor);
std::string checkAbsNeg(const Mods &m, Floor &floor);
// setp: comparisons allowed per type class.
std::string checkSetp(const Mods &m, Floor &floor);
// mma.sync: A and B of one type.
std::string checkMma(const Mods &m, Floor &floor);
// ldmatrix / stmatrix: the .m8n8 .b16 forms only.
std::string checkMatrixMove(const Mods &m, Floor &floor);
// Hopper synchronization: mbarrier's ordering and scope go together; the
// sm_90a-only forms (setmaxnreg, wgmma's fences) are arch-specific.
std::string checkMbarrier(const Mods &m, Floor &floor);
std::string archSpecific(const Mods &m, Floor &floor);
// wgmma (docs/wgmma.md)
std::string checkWgmma(const Mods &m, Floor &floor);
std::string checkAtom(const Mods &m, Floor &floor);
// cp.reduce.async.bulk.tensor: the element types (of its tensor map) that
// reduction `op` takes, as type tokens; empty for a token that is no
// reduction.
llvm::ArrayRef<llvm::StringRef> getTensorReductionTypes(llvm::StringRef op);
} // namespace rules

} // namespace mlir::tirx::ptx

#endif // TIRX_DIALECT_TILE_PTX_PTXRULES_H
