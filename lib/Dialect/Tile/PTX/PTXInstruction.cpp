//===- PTXInstruction.cpp - The PTX instruction table and its parser ------===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//
//
// The table lives in PTXTable.def as text records; this file turns them into
// slot/operand descriptors once, implements the combination rules the records
// name, and parses spellings against them (spec §3.0).
//
// A spelling is tried against every entry of its family. When several accept
// it, all are returned in table order (two- vs three-input min/max by operand
// count; mov's scalar/pack/unpack lines). When none does, the entry that got
// furthest explains the failure: a rule violation beats a wrong operand
// count, which beats a missing modifier, which beats a token no open slot
// takes.
//
//===----------------------------------------------------------------------===//

#include "TirX/Dialect/Tile/PTX/PTXInstruction.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/ErrorHandling.h"

#include <algorithm>
#include <tuple>
#include <vector>

using namespace llvm;

namespace mlir::tirx::ptx {

//===----------------------------------------------------------------------===//
// Scalar kinds, element classes, memory spaces
//===----------------------------------------------------------------------===//

unsigned getBitWidth(ScalarKind kind) {
  switch (kind) {
  case ScalarKind::u8:
  case ScalarKind::s8:
    return 8;
  case ScalarKind::u16:
  case ScalarKind::s16:
  case ScalarKind::f16:
  case ScalarKind::bf16:
    return 16;
  case ScalarKind::u32:
  case ScalarKind::s32:
  case ScalarKind::f32:
    return 32;
  case ScalarKind::u64:
  case ScalarKind::s64:
  case ScalarKind::f64:
    return 64;
  }
  llvm_unreachable("unknown ScalarKind");
}

StringRef getScalarKindName(ScalarKind kind) {
  switch (kind) {
  case ScalarKind::u8:
    return "u8";
  case ScalarKind::s8:
    return "s8";
  case ScalarKind::u16:
    return "u16";
  case ScalarKind::s16:
    return "s16";
  case ScalarKind::u32:
    return "u32";
  case ScalarKind::s32:
    return "s32";
  case ScalarKind::u64:
    return "u64";
  case ScalarKind::s64:
    return "s64";
  case ScalarKind::f16:
    return "f16";
  case ScalarKind::bf16:
    return "bf16";
  case ScalarKind::f32:
    return "f32";
  case ScalarKind::f64:
    return "f64";
  }
  llvm_unreachable("unknown ScalarKind");
}

bool isFloat(ScalarKind kind) {
  return kind == ScalarKind::f16 || kind == ScalarKind::bf16 ||
         kind == ScalarKind::f32 || kind == ScalarKind::f64;
}

static bool isUnsigned(ScalarKind kind) {
  return kind == ScalarKind::u8 || kind == ScalarKind::u16 ||
         kind == ScalarKind::u32 || kind == ScalarKind::u64;
}

static std::optional<ScalarKind> parseScalarKind(StringRef name) {
  for (ScalarKind kind :
       {ScalarKind::u8, ScalarKind::s8, ScalarKind::u16, ScalarKind::s16,
        ScalarKind::u32, ScalarKind::s32, ScalarKind::u64, ScalarKind::s64,
        ScalarKind::f16, ScalarKind::bf16, ScalarKind::f32, ScalarKind::f64})
    if (getScalarKindName(kind) == name)
      return kind;
  return std::nullopt;
}

bool ElementClass::accepts(ScalarKind kind) const {
  switch (this->kind) {
  case Kind::Bits:
    return getBitWidth(kind) == bitWidth;
  case Kind::Exact:
    return kind == exact;
  case Kind::Carrier:
    return isUnsigned(kind) && getBitWidth(kind) == bitWidth;
  }
  return false;
}

std::string ElementClass::describe() const {
  switch (kind) {
  case Kind::Bits:
    return "a " + std::to_string(bitWidth) + "-bit type";
  case Kind::Exact:
    return getScalarKindName(exact).str();
  case Kind::Carrier:
    return "u" + std::to_string(bitWidth) + " (carrier of " + packedType + ")";
  }
  return "";
}

StringRef getMemorySpaceName(MemorySpace space) {
  switch (space) {
  case MemorySpace::None:
    return "";
  case MemorySpace::Generic:
    return "generic";
  case MemorySpace::Global:
    return "global";
  case MemorySpace::Shared:
    return "shared";
  case MemorySpace::SharedCluster:
    return "shared::cluster";
  case MemorySpace::Local:
    return "local";
  }
  return "";
}

bool Instruction::hasModifier(StringRef token) const {
  token.consume_front(".");
  return llvm::is_contained(modifiers, token);
}

//===----------------------------------------------------------------------===//
// Type tokens
//===----------------------------------------------------------------------===//

/// The element class a PTX type token gives its operands (see PTXTable.def).
static std::optional<ElementClass> getTokenClass(StringRef token) {
  auto bits = [](unsigned width) {
    return ElementClass{ElementClass::Kind::Bits, width, ScalarKind::u8, ""};
  };
  auto carrier = [&](unsigned width) {
    return ElementClass{ElementClass::Kind::Carrier, width, ScalarKind::u8,
                        token.str()};
  };
  unsigned width;
  if (token.starts_with("b") && !token.drop_front().getAsInteger(10, width) &&
      (width == 8 || width == 16 || width == 32 || width == 64 || width == 128))
    return bits(width);
  // 16-bit floats sit in untyped 16-bit registers (a uint16 view or an
  // f16/bf16 tensor); tf32 is an f32 bit pattern in a 32-bit register.
  if (token == "f16" || token == "bf16")
    return bits(16);
  if (token == "tf32")
    return bits(32);
  if (token == "f16x2" || token == "bf16x2" || token == "u16x2" ||
      token == "s16x2" || token == "u8x4" || token == "s8x4")
    return carrier(32);
  if (token == "f32x2")
    return carrier(64);
  if (token == "e4m3x2" || token == "e5m2x2")
    return carrier(16);
  if (std::optional<ScalarKind> kind = parseScalarKind(token))
    return ElementClass{ElementClass::Kind::Exact, getBitWidth(*kind), *kind,
                        ""};
  return std::nullopt;
}

/// Bit width of a type token, 0 when it has none.
static unsigned getTokenBits(StringRef token) {
  std::optional<ElementClass> cls = getTokenClass(token);
  return cls ? cls->bitWidth : 0;
}

/// The integer type of twice the width (`.wide` results), "" if none.
static StringRef getDoubledType(StringRef token) {
  return StringSwitch<StringRef>(token)
      .Case("u16", "u32")
      .Case("u32", "u64")
      .Case("s16", "s32")
      .Case("s32", "s64")
      .Default("");
}

//===----------------------------------------------------------------------===//
// Combination rules (named by the table's CHECK column)
//===----------------------------------------------------------------------===//

namespace {

/// A floor: minimum SM and PTX ISA version (×10).
struct Floor {
  unsigned sm = 0;
  unsigned ptx = 0;
  void raise(unsigned newSM, unsigned newPTX) {
    sm = std::max(sm, newSM);
    ptx = std::max(ptx, newPTX);
  }
};

/// The spelled modifiers of one entry, by slot name; "" when a slot is not
/// spelled or the entry has no such slot.
class Mods {
public:
  void set(StringRef slot, StringRef token) {
    values.emplace_back(slot, token);
  }
  StringRef operator[](StringRef slot) const {
    for (const auto &[name, token] : values)
      if (name == slot)
        return token;
    return "";
  }

private:
  SmallVector<std::pair<StringRef, StringRef>, 12> values;
};

/// Returns why a combination is illegal ("" when legal); may raise `floor`
/// where the requirement depends on several tokens at once.
using CheckFn = std::string (*)(const Mods &, Floor &);

} // namespace

static std::string dot(StringRef token) { return ("." + token).str(); }

static bool isOneOf(StringRef token, std::initializer_list<StringRef> set) {
  return llvm::is_contained(set, token);
}

static std::string noCheck(const Mods &, Floor &) { return ""; }

/// ld/st rules (PTX ISA 9.7.9.8, 9.7.9.9, 9.7.9.11). `strongSem` is the
/// ordering qualifier that pairs with .relaxed: .acquire for ld, .release
/// for st.
static std::string checkMemoryAccess(const Mods &m, StringRef strongSem,
                                     Floor &floor) {
  StringRef sem = m["sem"], scope = m["scope"], space = m["space"];
  StringRef cop = m["cop"], nc = m["nc"], cache = m["cache"];
  StringRef prefetch = m["prefetch"];
  // The ISA spells the L1 and L2 eviction priorities on the same lines, so
  // every rule about one applies to the other.
  StringRef evict = m["l1ev"].empty() ? m["l2ev"] : m["l1ev"];
  bool ordered = sem == "relaxed" || sem == strongSem;
  if (ordered && scope.empty())
    return dot(sem) + " requires a scope (one of .cta, .cluster, .gpu, .sys)";
  if (!ordered && !scope.empty())
    return "a scope (" + dot(scope) + ") is only allowed with .relaxed or " +
           dot(strongSem);
  if (!nc.empty()) {
    if (space != "global")
      return ".nc requires .global";
    if (!sem.empty())
      return ".nc cannot be combined with " + dot(sem);
    if (cop == "lu" || cop == "cv")
      return ".nc allows only the .ca, .cg and .cs cache operators";
  }
  if (ordered) {
    if (space == "local")
      return dot(sem) + " is not allowed on .local";
    if (!cop.empty())
      return "cache operator " + dot(cop) + " is not allowed with " + dot(sem);
  }
  if (sem == "volatile") {
    if (space == "local")
      return ".volatile is not allowed on .local";
    // ld.volatile keeps only the prefetch size; st.volatile takes nothing.
    for (StringRef extra : {cop, evict, cache})
      if (!extra.empty())
        return ".volatile cannot be combined with " + dot(extra);
  }
  if (!cop.empty() && !evict.empty())
    return "cache operator " + dot(cop) + " and eviction priority " +
           dot(evict) + " are mutually exclusive";
  bool globalOrGeneric = space.empty() || space == "global";
  if (!evict.empty() && !globalOrGeneric)
    return "eviction priority " + dot(evict) +
           " requires .global or generic addressing";
  if (!prefetch.empty() && !globalOrGeneric)
    return "prefetch size " + dot(prefetch) +
           " requires .global or generic addressing";
  if (!cache.empty() && !globalOrGeneric)
    return ".L2::cache_hint requires .global or generic addressing";
  // ptxas: "Feature '.b128 with .sys' requires PTX ISA .version 8.4".
  if (m["type"] == "b128" && scope == "sys")
    floor.raise(70, 84);
  return "";
}

/// The ≤128-bit vector lines: a 64-bit .v4 belongs to the 256-bit line.
static std::string checkVector128(const Mods &m) {
  if (m["vec"] == "v4" && getTokenBits(m["type"]) == 64)
    return ".v4 of a 64-bit type is a 256-bit access (sm_100, .global or "
           "generic addressing)";
  return "";
}

/// The 256-bit lines: .v8 of 32-bit or .v4 of 64-bit elements, global only.
static std::string checkVector256(const Mods &m) {
  unsigned bits = getTokenBits(m["type"]);
  StringRef vec = m["vec"];
  if (!((vec == "v8" && bits == 32) || (vec == "v4" && bits == 64)))
    return "a 256-bit access is .v8 of a 32-bit type or .v4 of a 64-bit type";
  StringRef space = m["space"];
  if (!space.empty() && space != "global")
    return "a 256-bit access requires .global or generic addressing";
  return "";
}

static std::string checkLoad(const Mods &m, Floor &floor) {
  return checkMemoryAccess(m, "acquire", floor);
}
static std::string checkLoadVector(const Mods &m, Floor &floor) {
  std::string error = checkVector128(m);
  return error.empty() ? checkMemoryAccess(m, "acquire", floor) : error;
}
static std::string checkLoadVector256(const Mods &m, Floor &floor) {
  std::string error = checkVector256(m);
  return error.empty() ? checkMemoryAccess(m, "acquire", floor) : error;
}
static std::string checkStore(const Mods &m, Floor &floor) {
  return checkMemoryAccess(m, "release", floor);
}
static std::string checkStoreVector(const Mods &m, Floor &floor) {
  std::string error = checkVector128(m);
  return error.empty() ? checkMemoryAccess(m, "release", floor) : error;
}
static std::string checkStoreVector256(const Mods &m, Floor &floor) {
  std::string error = checkVector256(m);
  return error.empty() ? checkMemoryAccess(m, "release", floor) : error;
}

/// add/sub/mul/mad/fma single/double and mixed-precision lines (spec §3.3,
/// §3.6): .ftz not on f64, .sat only on f32; the mixed line is f32 only and
/// takes no .ftz.
static std::string checkFloatArith(const Mods &m, Floor &) {
  StringRef type = m["type"], atype = m["atype"];
  if (!atype.empty()) {
    if (type != "f32")
      return "the mixed-precision " + dot(atype) +
             " source requires .f32, not " + dot(type);
    if (!m["ftz"].empty())
      return "the mixed-precision line (.f32" + dot(atype) + ") takes no .ftz";
    return "";
  }
  if (!m["ftz"].empty() && type == "f64")
    return ".ftz is not allowed on .f64";
  if (!m["sat"].empty() && type != "f32")
    return ".sat is only allowed on .f32, not " + dot(type);
  return "";
}

/// Half-precision add/sub/mul (spec §3.3): bf16 takes neither .ftz nor .sat.
static std::string checkHalfArith(const Mods &m, Floor &) {
  StringRef type = m["type"];
  if (type.starts_with("bf16"))
    for (StringRef token : {m["ftz"], m["sat"]})
      if (!token.empty())
        return dot(token) + " is not allowed on " + dot(type);
  return "";
}

/// Integer add/sub: `.sat` exists only on s32.
static std::string checkIntAddSub(const Mods &m, Floor &) {
  if (!m["sat"].empty() && m["type"] != "s32")
    return ".sat is only allowed on .s32";
  return "";
}

/// mul.wide/mad.wide: 16- and 32-bit sources only (the result doubles).
static std::string checkWide(const Mods &m, Floor &) {
  if (getDoubledType(m["type"]).empty())
    return ".wide requires a 16- or 32-bit type, not " + dot(m["type"]);
  return "";
}

/// mad.lo/hi: `.sat` only on mad.hi.s32.
static std::string checkMadInt(const Mods &m, Floor &) {
  if (!m["sat"].empty() && !(m["mode"] == "hi" && m["type"] == "s32"))
    return ".sat is only allowed on mad.hi.s32";
  return "";
}

/// Half-precision fma (spec §3.6): bf16 no .ftz/.sat, .oob no .ftz/.sat,
/// .sat and .relu exclusive.
static std::string checkHalfFma(const Mods &m, Floor &) {
  StringRef type = m["type"];
  for (StringRef token : {m["ftz"], m["sat"]}) {
    if (token.empty())
      continue;
    if (type.starts_with("bf16"))
      return dot(token) + " is not allowed on " + dot(type);
    if (!m["oob"].empty())
      return ".oob cannot be combined with " + dot(token);
  }
  if (!m["sat"].empty() && !m["relu"].empty())
    return ".sat and .relu are mutually exclusive";
  return "";
}

/// div (spec §3.4): .approx/.full only on f32; f64 takes no .ftz.
static std::string checkDiv(const Mods &m, Floor &) {
  if (m["type"] != "f64")
    return "";
  if (isOneOf(m["rnd"], {"approx", "full"}))
    return dot(m["rnd"]) + " is only allowed on .f32";
  if (!m["ftz"].empty())
    return ".ftz is not allowed on rounded .f64";
  return "";
}

/// rcp (spec §3.4): the f64 approximation is spelled rcp.approx.ftz.f64;
/// rounded f64 takes no .ftz.
static std::string checkRcp(const Mods &m, Floor &) {
  if (m["type"] != "f64")
    return "";
  bool ftz = !m["ftz"].empty();
  if (m["rnd"] == "approx" && !ftz)
    return "the f64 approximation must be spelled rcp.approx.ftz.f64";
  if (m["rnd"] != "approx" && ftz)
    return ".ftz is not allowed on rounded .f64";
  return "";
}

/// sqrt (spec §3.4): .approx only on f32; f64 takes no .ftz.
static std::string checkSqrt(const Mods &m, Floor &) {
  if (m["type"] != "f64")
    return "";
  if (m["rnd"] == "approx")
    return ".approx is only allowed on .f32";
  if (!m["ftz"].empty())
    return ".ftz is not allowed on .f64";
  return "";
}

/// Two-input min/max (spec §3.5).
static std::string checkMinMax(const Mods &m, Floor &) {
  StringRef type = m["type"];
  StringRef ftz = m["ftz"], nan = m["NaN"], xorsign = m["xorsign"],
            abs = m["abs"], relu = m["relu"];
  bool isInt = type.starts_with("u") || type.starts_with("s");
  if (isInt) {
    for (StringRef token : {ftz, nan, xorsign, abs})
      if (!token.empty())
        return dot(token) + " is not allowed on integer type " + dot(type);
  }
  if (!relu.empty() && type != "s16x2" && type != "s32")
    return ".relu is only allowed on s16x2 and s32";
  if (type == "f64")
    for (StringRef token : {ftz, nan, xorsign, abs})
      if (!token.empty())
        return dot(token) + " is not allowed on .f64";
  if (type.starts_with("bf16") && !ftz.empty())
    return ".ftz is not allowed on " + dot(type);
  if (xorsign.empty() != abs.empty())
    return ".xorsign and .abs must appear together";
  return "";
}

static bool isIntegerRounding(StringRef rnd) {
  return isOneOf(rnd, {"rni", "rzi", "rmi", "rpi"});
}
static bool isFloatRounding(StringRef rnd) {
  return isOneOf(rnd, {"rn", "rz", "rm", "rp"});
}

/// (significand bits, exponent bits) of the float cvt types.
static std::pair<unsigned, unsigned> getFloatFormat(StringRef type) {
  return StringSwitch<std::pair<unsigned, unsigned>>(type)
      .Case("f16", {11, 5})
      .Case("bf16", {8, 8})
      .Case("f32", {24, 8})
      .Default({53, 11});
}

/// Whether integer type `d`'s range contains every value of `a`.
static bool covers(StringRef d, StringRef a) {
  unsigned dBits = getTokenBits(d), aBits = getTokenBits(a);
  bool dSigned = d.starts_with("s"), aSigned = a.starts_with("s");
  if (dSigned == aSigned)
    return dBits >= aBits;
  return dSigned && dBits > aBits;
}

/// The generic scalar cvt line (spec §3.7, PTX ISA 9.7.9.22).
static std::string checkCvt(const Mods &m, Floor &floor) {
  StringRef d = m["dtype"], a = m["atype"], rnd = m["rnd"];
  bool ftz = !m["ftz"].empty(), sat = !m["sat"].empty();
  bool dInt = !isOneOf(d, {"f16", "bf16", "f32", "f64"});
  bool aInt = !isOneOf(a, {"f16", "bf16", "f32", "f64"});
  StringRef saturating = m["relu"].empty() ? m["satfinite"] : m["relu"];
  if (!saturating.empty()) {
    if (!((d == "f16" || d == "bf16") && a == "f32"))
      return dot(saturating) +
             " is only allowed on f32 to f16/bf16 conversions";
    if (rnd != "rn" && rnd != "rz")
      return dot(saturating) + " requires .rn or .rz";
    if (ftz || sat)
      return dot(saturating) + " cannot be combined with " +
             (ftz ? ".ftz" : ".sat");
  } else if (d == a) {
    if (isFloatRounding(rnd))
      return dot(a) + " to " + dot(d) + " is exact: rounding modifier " +
             dot(rnd) + " is not allowed";
    if (!rnd.empty() && dInt)
      return "integer-to-integer conversion takes no rounding modifier";
  } else if (dInt && !aInt) {
    if (!isIntegerRounding(rnd))
      return "float-to-integer conversion requires an integer rounding "
             "modifier (one of .rni, .rzi, .rmi, .rpi)";
  } else if (isIntegerRounding(rnd)) {
    return "integer rounding " + dot(rnd) +
           " is only allowed on float-to-integer and same-type float "
           "conversions";
  } else if (!dInt && aInt) {
    if (!isFloatRounding(rnd))
      return "integer-to-float conversion requires a rounding modifier (one "
             "of .rn, .rz, .rm, .rp)";
  } else if (!dInt && !aInt) {
    auto [dMant, dExp] = getFloatFormat(d);
    auto [aMant, aExp] = getFloatFormat(a);
    bool losesPrecision = dMant < aMant || dExp < aExp;
    if (losesPrecision && !isFloatRounding(rnd))
      return dot(a) + " to " + dot(d) +
             " loses precision: requires a rounding modifier (one of .rn, "
             ".rz, .rm, .rp)";
    if (!losesPrecision && !rnd.empty())
      return dot(a) + " to " + dot(d) + " is exact: rounding modifier " +
             dot(rnd) + " is not allowed";
  } else if (!rnd.empty()) {
    return "integer-to-integer conversion takes no rounding modifier";
  }
  if (ftz && d != "f32" && a != "f32")
    return ".ftz requires .f32 as the source or destination type";
  if (sat && dInt && aInt && covers(d, a))
    return dot(d) + " covers the range of " + dot(a) + ": .sat is not allowed";
  bool bf16 = d == "bf16" || a == "bf16";
  // Two ptxas limits beyond the ISA text.
  if (sat && bf16)
    return ".sat is not supported with .bf16";
  if (bf16 && (isOneOf(d, {"u8", "s8"}) || isOneOf(a, {"u8", "s8"})))
    return "conversions between .bf16 and 8-bit integers are not supported";
  // bf16 ↔ f32 arrived with sm_80 (f32 → bf16 in PTX 7.0, bf16 → f32 in
  // 7.1); every other bf16 conversion needs sm_90 and PTX 7.8.
  if (d == "bf16" && a == "f32")
    floor.raise(80, 70);
  else if (d == "f32" && a == "bf16")
    ftz ? floor.raise(90, 78) : floor.raise(80, 71);
  else if (bf16)
    floor.raise(90, 78);
  return "";
}

/// cvt to tf32 (spec §3.7): the .rna line has no .relu; .rn/.rz need sm_90.
static std::string checkCvtTf32(const Mods &m, Floor &floor) {
  bool satfinite = !m["satfinite"].empty();
  if (m["rnd"] == "rna") {
    if (!m["relu"].empty())
      return ".relu is not allowed with .rna";
    if (satfinite)
      floor.raise(80, 81);
    return "";
  }
  floor.raise(90, 78);
  if (satfinite)
    floor.raise(100, 86);
  return "";
}

/// ex2 (spec §3.8): f16 takes no .ftz, bf16 requires it.
static std::string checkEx2(const Mods &m, Floor &) {
  StringRef type = m["type"];
  bool ftz = !m["ftz"].empty();
  if (type.starts_with("f16") && ftz)
    return ".ftz is not allowed on " + dot(type);
  if (type.starts_with("bf16") && !ftz)
    return dot(type) + " requires .ftz";
  return "";
}

/// abs/neg (spec §3.9): .ftz only on f32, f16 and f16x2.
static std::string checkAbsNeg(const Mods &m, Floor &) {
  StringRef type = m["type"];
  if (!m["ftz"].empty() && !isOneOf(type, {"f32", "f16", "f16x2"}))
    return ".ftz is not allowed on " + dot(type);
  return "";
}

//===----------------------------------------------------------------------===//
// The table
//===----------------------------------------------------------------------===//

namespace {

struct RawForm {
  const char *family;
  const char *name;
  const char *slots;
  const char *operands;
  unsigned minSM;
  unsigned minPTX;
  CheckFn check;
};

const RawForm rawForms[] = {
#define PTX_FORM(FAMILY, NAME, SLOTS, OPERANDS, MIN_SM, MIN_PTX, CHECK)        \
  {FAMILY, NAME, SLOTS, OPERANDS, MIN_SM, MIN_PTX, &CHECK},
#include "TirX/Dialect/Tile/PTX/PTXTable.def"
};

struct Token {
  StringRef text;
  Floor floor;
};

struct Slot {
  StringRef name;
  bool mandatory = true;
  /// Type slots must be spelled in slot order (dtype before atype).
  bool isType = false;
  Floor floor;
  SmallVector<Token, 8> tokens;

  const Token *find(StringRef text) const {
    for (const Token &token : tokens)
      if (token.text == text)
        return &token;
    return nullptr;
  }
};

enum class Role { RegisterDst, RegisterSrc, MemoryDst, MemorySrc };

struct OperandSpec {
  StringRef name;
  Role role;
  /// Type references tried in order: a slot index, or -1 with a literal.
  SmallVector<std::pair<int, StringRef>, 2> typeRefs;
  bool doubled = false;
  bool allowsImmediate = false;
  unsigned atom = 1;
  int atomSlot = -1;    // atom from a `.vN` slot
  int presentSlot = -1; // present only when this slot is spelled
};

struct Form {
  const RawForm *raw;
  SmallVector<Slot, 12> slots;
  SmallVector<OperandSpec, 4> operands;
  int spaceSlot = -1;
  bool isMemory = false;

  int findSlot(StringRef name) const {
    for (auto [i, slot] : llvm::enumerate(slots))
      if (slot.name == name)
        return i;
    return -1;
  }
};

struct Table {
  std::vector<Form> forms;
  SmallVector<StringRef, 24> families;
  StringMap<SmallVector<unsigned, 4>> formsByFamily;
  /// Every token any entry of the family lists (tells "unknown" apart from
  /// "not valid here").
  StringMap<StringSet<>> familyTokens;
  std::vector<FormInfo> infos;
};

} // namespace

[[noreturn]] static void tableError(const RawForm &raw, const Twine &message) {
  report_fatal_error("PTXTable.def entry '" + Twine(raw.name) +
                     "': " + message);
}

/// Parses "@SM/PTX" at the front of `text`.
static Floor parseFloor(const RawForm &raw, StringRef &text) {
  Floor floor;
  if (!text.consume_front("@"))
    return floor;
  if (text.consumeInteger(10, floor.sm) || !text.consume_front("/") ||
      text.consumeInteger(10, floor.ptx))
    tableError(raw, "malformed floor");
  return floor;
}

static Slot parseSlot(const RawForm &raw, StringRef text) {
  Slot slot;
  auto [head, tokens] = text.split('=');
  size_t nameEnd = head.find_first_of("?@");
  slot.name = head.take_front(nameEnd);
  head = head.drop_front(slot.name.size());
  if (head.consume_front("?"))
    slot.mandatory = false;
  slot.floor = parseFloor(raw, head);
  if (!head.empty() || slot.name.empty())
    tableError(raw, "malformed slot '" + text + "'");
  slot.isType = isOneOf(slot.name, {"type", "dtype", "atype"});
  if (!text.contains('=')) {
    slot.tokens.push_back({slot.name, Floor()});
    return slot;
  }
  SmallVector<StringRef, 16> parts;
  tokens.split(parts, '|');
  for (StringRef part : parts) {
    Token token;
    token.text = part.take_until([](char c) { return c == '@'; });
    part = part.drop_front(token.text.size());
    token.floor = parseFloor(raw, part);
    if (token.text.empty() || !part.empty())
      tableError(raw, "malformed token in slot '" + slot.name + "'");
    slot.tokens.push_back(token);
  }
  return slot;
}

static OperandSpec parseOperand(const RawForm &raw, const Form &form,
                                StringRef text) {
  SmallVector<StringRef, 6> fields;
  text.split(fields, ':');
  if (fields.size() < 3)
    tableError(raw, "malformed operand '" + text + "'");
  OperandSpec op;
  op.name = fields[0];
  std::optional<Role> role = StringSwitch<std::optional<Role>>(fields[1])
                                 .Case("w", Role::RegisterDst)
                                 .Case("r", Role::RegisterSrc)
                                 .Case("mw", Role::MemoryDst)
                                 .Case("mr", Role::MemorySrc)
                                 .Default(std::nullopt);
  if (!role)
    tableError(raw, "unknown operand role in '" + text + "'");
  op.role = *role;
  StringRef typeRef = fields[2];
  op.doubled = typeRef.consume_back("*2");
  SmallVector<StringRef, 2> refs;
  typeRef.split(refs, '|');
  for (StringRef ref : refs) {
    int slot = form.findSlot(ref);
    if (slot < 0 && !getTokenClass(ref))
      tableError(raw,
                 "operand type '" + ref + "' is neither a slot nor a type");
    op.typeRefs.push_back({slot, ref});
  }
  // The last reference must always resolve: a literal or a mandatory slot.
  auto [lastSlot, lastText] = op.typeRefs.back();
  if (lastSlot >= 0 && !form.slots[lastSlot].mandatory)
    tableError(raw, "operand '" + op.name + "' may have no type");
  for (StringRef attr : ArrayRef(fields).drop_front(3)) {
    if (attr == "imm") {
      op.allowsImmediate = true;
    } else if (attr.consume_front("if=")) {
      op.presentSlot = form.findSlot(attr);
      if (op.presentSlot < 0)
        tableError(raw, "unknown slot in 'if=" + attr + "'");
    } else if (attr.consume_front("x")) {
      if (!attr.getAsInteger(10, op.atom))
        continue;
      op.atomSlot = form.findSlot(attr);
      if (op.atomSlot < 0)
        tableError(raw, "unknown atom slot '" + attr + "'");
      for (const Token &token : form.slots[op.atomSlot].tokens) {
        unsigned lanes;
        if (!token.text.starts_with("v") ||
            token.text.drop_front().getAsInteger(10, lanes))
          tableError(raw, "atom slot token '" + token.text + "' is not .vN");
      }
    } else {
      tableError(raw, "unknown operand attribute '" + attr + "'");
    }
  }
  bool isMemory = op.role == Role::MemoryDst || op.role == Role::MemorySrc;
  if (isMemory && op.allowsImmediate)
    tableError(raw, "a memory operand cannot take an immediate");
  if (op.role == Role::RegisterDst && op.allowsImmediate)
    tableError(raw, "a destination cannot take an immediate");
  return op;
}

static Table buildTable() {
  Table table;
  for (const RawForm &raw : rawForms) {
    Form form;
    form.raw = &raw;
    SmallVector<StringRef, 16> parts;
    StringRef(raw.slots).split(parts, ' ', -1, /*KeepEmpty=*/false);
    for (StringRef part : parts) {
      form.slots.push_back(parseSlot(raw, part));
      if (llvm::count_if(form.slots, [&](const Slot &slot) {
            return slot.name == form.slots.back().name;
          }) > 1)
        tableError(raw, "duplicate slot '" + form.slots.back().name + "'");
    }
    parts.clear();
    StringRef(raw.operands).split(parts, ' ', -1, /*KeepEmpty=*/false);
    for (StringRef part : parts) {
      form.operands.push_back(parseOperand(raw, form, part));
      Role role = form.operands.back().role;
      form.isMemory |= role == Role::MemoryDst || role == Role::MemorySrc;
    }
    form.spaceSlot = form.findSlot("space");
    // Every token a type reference can produce must name an element class.
    for (const OperandSpec &op : form.operands)
      for (auto [slot, text] : op.typeRefs)
        if (slot >= 0)
          for (const Token &token : form.slots[slot].tokens)
            if (!getTokenClass(token.text))
              tableError(raw, "type token '" + token.text + "' has no class");

    StringRef family = raw.family;
    if (!table.formsByFamily.count(family))
      table.families.push_back(family);
    table.formsByFamily[family].push_back(table.forms.size());
    StringSet<> &known = table.familyTokens[family];
    FormInfo info;
    info.family = family;
    info.name = raw.name;
    info.minSM = raw.minSM;
    info.minPTX = raw.minPTX;
    for (const Slot &slot : form.slots) {
      SlotInfo slotInfo;
      slotInfo.name = slot.name;
      slotInfo.mandatory = slot.mandatory;
      for (const Token &token : slot.tokens) {
        known.insert(token.text);
        slotInfo.tokens.push_back(token.text);
      }
      info.slots.push_back(std::move(slotInfo));
    }
    if (llvm::any_of(table.infos, [&](const FormInfo &other) {
          return other.name == info.name;
        }))
      tableError(raw, "duplicate entry name");
    table.infos.push_back(std::move(info));
    table.forms.push_back(std::move(form));
  }
  return table;
}

static const Table &getTable() {
  static const Table table = buildTable();
  return table;
}

ArrayRef<StringRef> getFamilyNames() { return getTable().families; }

ArrayRef<FormInfo> getForms() { return getTable().infos; }

//===----------------------------------------------------------------------===//
// Parsing
//===----------------------------------------------------------------------===//

/// How a slot is named in messages.
static std::string describeSlot(const Slot &slot) {
  if (slot.tokens.size() == 1 && !slot.isType)
    return dot(slot.tokens.front().text);
  StringRef phrase = StringSwitch<StringRef>(slot.name)
                         .Case("rnd", "rounding modifier")
                         .Case("type", "type")
                         .Case("dtype", "destination type")
                         .Case("atype", "source type")
                         .Case("vec", "vector width")
                         .Case("sem", "memory-ordering qualifier")
                         .Case("scope", "scope")
                         .Case("space", "state space")
                         .Case("cop", "cache operator")
                         .Case("l1ev", "L1 eviction priority")
                         .Case("l2ev", "L2 eviction priority")
                         .Case("prefetch", "prefetch size")
                         .Case("mode", "mode")
                         .Default("");
  if (!phrase.empty())
    return phrase.str();
  return "'" + slot.name.str() + "' modifier";
}

/// What follows "missing required <description>": the slot's tokens, unless
/// the description is the token itself (".satfinite").
static std::string listAlternatives(StringRef description,
                                    ArrayRef<StringRef> tokens) {
  if (description.starts_with("."))
    return "";
  if (tokens.size() == 1)
    return " (" + dot(tokens.front()) + ")";
  std::string text = " (one of ";
  for (auto [i, token] : llvm::enumerate(tokens))
    text += (i ? ", ." : ".") + token.str();
  return text + ")";
}

namespace {

/// The outcome of matching a spelling against one entry.
struct Attempt {
  /// How far matching got; a later stage explains a failure better.
  enum Stage : unsigned { BadToken, MissingSlot, OperandCount, Rule, Accepted };
  Stage stage = BadToken;
  /// Tokens placed before a BadToken failure.
  unsigned placed = 0;
  /// BadToken detail: 0 unknown to the family, 1 not valid for this entry,
  /// 2 conflicting/out of order (the entry clearly is the intended one).
  unsigned tokenDetail = 0;
  unsigned missingCount = 0;
  std::string reason;
  /// MissingSlot: the slot, for merging the alternatives of several entries.
  std::string missingDescription;
  SmallVector<StringRef, 16> missingTokens;
  /// OperandCount: what this entry expects.
  unsigned expectedOperands = 0;
  /// Per slot, the index of the spelled token filling it, or -1.
  SmallVector<int, 12> assignment;
  Floor floor;

  auto rank() const {
    return std::make_tuple(unsigned(stage), placed, tokenDetail,
                           -int(missingCount));
  }
};

} // namespace

static unsigned countOperands(const Form &form, ArrayRef<int> assignment) {
  return llvm::count_if(form.operands, [&](const OperandSpec &op) {
    return op.presentSlot < 0 || assignment[op.presentSlot] >= 0;
  });
}

static Attempt matchForm(const Form &form, ArrayRef<StringRef> tokens,
                         const StringSet<> &familyTokens,
                         std::optional<unsigned> numOperands) {
  Attempt attempt;
  attempt.assignment.assign(form.slots.size(), -1);
  auto filledLaterTypeSlot = [&](size_t slotIndex) -> int {
    for (size_t later = slotIndex + 1; later < form.slots.size(); ++later)
      if (form.slots[later].isType && attempt.assignment[later] >= 0)
        return later;
    return -1;
  };

  // Each token takes the first still-open slot that lists it (spec §3.0).
  for (auto [tokenIndex, token] : llvm::enumerate(tokens)) {
    int conflicting = -1, outOfOrder = -1;
    bool placed = false;
    for (auto [slotIndex, slot] : llvm::enumerate(form.slots)) {
      if (!slot.find(token))
        continue;
      if (attempt.assignment[slotIndex] >= 0) {
        conflicting = slotIndex;
        continue;
      }
      if (slot.isType) {
        if (int later = filledLaterTypeSlot(slotIndex); later >= 0) {
          outOfOrder = later;
          continue;
        }
      }
      attempt.assignment[slotIndex] = tokenIndex;
      placed = true;
      break;
    }
    if (placed)
      continue;
    attempt.placed = tokenIndex;
    if (outOfOrder >= 0) {
      attempt.tokenDetail = 2;
      const Slot &later = form.slots[outOfOrder];
      // The slot the token would have taken: the first open type slot
      // listing it.
      const Slot *wanted =
          llvm::find_if(form.slots, [text = token](const Slot &slot) {
            return slot.isType && slot.find(text);
          });
      attempt.reason = dot(token) + " (" + describeSlot(*wanted) +
                       ") must come before " +
                       dot(tokens[attempt.assignment[outOfOrder]]) + " (" +
                       describeSlot(later) + ")";
    } else if (conflicting >= 0) {
      attempt.tokenDetail = 2;
      StringRef previous = tokens[attempt.assignment[conflicting]];
      attempt.reason = previous == token
                           ? "repeated modifier " + dot(token)
                           : "conflicting " +
                                 describeSlot(form.slots[conflicting]) + ": " +
                                 dot(previous) + " and " + dot(token);
    } else if (familyTokens.contains(token)) {
      attempt.tokenDetail = 1;
      SmallVector<std::string, 8> open;
      for (auto [slotIndex, slot] : llvm::enumerate(form.slots))
        if (attempt.assignment[slotIndex] < 0)
          open.push_back(describeSlot(slot));
      attempt.reason =
          dot(token) + " is not valid here (" +
          (open.empty() ? std::string("all modifier slots are filled")
                        : "open slots: " + join(open, ", ")) +
          ")";
    } else {
      attempt.reason = "unknown modifier " + dot(token);
    }
    return attempt;
  }
  attempt.placed = tokens.size();

  for (auto [slotIndex, slot] : llvm::enumerate(form.slots)) {
    if (!slot.mandatory || attempt.assignment[slotIndex] >= 0)
      continue;
    if (attempt.missingCount++ == 0) {
      attempt.missingDescription = describeSlot(slot);
      for (const Token &token : slot.tokens)
        attempt.missingTokens.push_back(token.text);
    }
  }
  if (attempt.missingCount) {
    attempt.stage = Attempt::MissingSlot;
    attempt.reason =
        "missing required " + attempt.missingDescription +
        listAlternatives(attempt.missingDescription, attempt.missingTokens);
    return attempt;
  }

  attempt.floor.raise(form.raw->minSM, form.raw->minPTX);
  Mods mods;
  for (auto [slotIndex, slot] : llvm::enumerate(form.slots)) {
    int tokenIndex = attempt.assignment[slotIndex];
    if (tokenIndex < 0)
      continue;
    const Token *token = slot.find(tokens[tokenIndex]);
    attempt.floor.raise(slot.floor.sm, slot.floor.ptx);
    attempt.floor.raise(token->floor.sm, token->floor.ptx);
    mods.set(slot.name, token->text);
  }
  attempt.reason = form.raw->check(mods, attempt.floor);
  if (!attempt.reason.empty()) {
    attempt.stage = Attempt::Rule;
    return attempt;
  }

  attempt.expectedOperands = countOperands(form, attempt.assignment);
  if (numOperands && *numOperands != attempt.expectedOperands) {
    attempt.stage = Attempt::OperandCount;
    return attempt;
  }
  attempt.stage = Attempt::Accepted;
  return attempt;
}

/// Builds the descriptor of an accepted attempt.
static Expected<Instruction> buildInstruction(const Form &form,
                                              ArrayRef<StringRef> tokens,
                                              const Attempt &attempt) {
  const Table &table = getTable();
  Instruction inst;
  inst.family = form.raw->family;
  inst.spelling = inst.family;
  auto slotToken = [&](int slotIndex) -> StringRef {
    int tokenIndex = attempt.assignment[slotIndex];
    return tokenIndex < 0
               ? StringRef()
               : form.slots[slotIndex].find(tokens[tokenIndex])->text;
  };
  for (size_t slotIndex = 0; slotIndex < form.slots.size(); ++slotIndex) {
    StringRef token = slotToken(slotIndex);
    if (token.empty())
      continue;
    inst.modifiers.push_back(token.str());
    inst.spelling += "." + token.str();
  }
  // The table is checked when it loads (every operand type resolves), and
  // only accepted attempts get here: a guard against future table edits.
  // check-diagnostics: internal, no spelling reaches it (see above)
  auto internalError = [&](const Twine &message) {
    return createStringError(inconvertibleErrorCode(),
                             "'" + inst.spelling +
                                 "': internal table error: " + message);
  };

  for (const OperandSpec &spec : form.operands) {
    if (spec.presentSlot >= 0 && attempt.assignment[spec.presentSlot] < 0)
      continue;
    OperandInfo op;
    op.name = spec.name.str();
    op.isDestination =
        spec.role == Role::RegisterDst || spec.role == Role::MemoryDst;
    op.isMemory = spec.role == Role::MemoryDst || spec.role == Role::MemorySrc;
    op.allowsImmediate = spec.allowsImmediate;
    StringRef type;
    for (auto [slot, literal] : spec.typeRefs) {
      type = slot >= 0 ? slotToken(slot) : literal;
      if (!type.empty())
        break;
    }
    if (spec.doubled)
      type = getDoubledType(type);
    std::optional<ElementClass> element = getTokenClass(type);
    if (!element)
      // check-diagnostics: internal, see internalError
      return internalError("operand '" + spec.name + "' has no type");
    op.element = *element;
    op.atom = spec.atom;
    if (spec.atomSlot >= 0)
      (void)slotToken(spec.atomSlot).drop_front().getAsInteger(10, op.atom);
    inst.operands.push_back(std::move(op));
  }

  if (form.isMemory) {
    StringRef space = form.spaceSlot >= 0 ? slotToken(form.spaceSlot) : "";
    inst.space = StringSwitch<MemorySpace>(space)
                     .Case("global", MemorySpace::Global)
                     .Cases({"shared", "shared::cta"}, MemorySpace::Shared)
                     .Case("shared::cluster", MemorySpace::SharedCluster)
                     .Case("local", MemorySpace::Local)
                     .Default(MemorySpace::Generic);
    for (const OperandInfo &op : inst.operands)
      if (op.isMemory)
        inst.vectorBytes = op.atom * op.element.bitWidth / 8;
  }
  inst.minSM = attempt.floor.sm;
  inst.minPTX = attempt.floor.ptx;
  return inst;
}

/// Merges the best failures into one message (without the quoted spelling).
static std::string explainFailure(StringRef family,
                                  ArrayRef<const Attempt *> best,
                                  std::optional<unsigned> numOperands,
                                  StringRef spelling) {
  const Attempt &first = *best.front();
  if (first.stage == Attempt::OperandCount) {
    SmallVector<unsigned, 2> counts;
    for (const Attempt *attempt : best)
      if (!llvm::is_contained(counts, attempt->expectedOperands))
        counts.push_back(attempt->expectedOperands);
    llvm::sort(counts);
    std::string expected;
    for (auto [i, count] : llvm::enumerate(counts))
      expected += (i == 0                   ? ""
                   : i + 1 == counts.size() ? " or "
                                            : ", ") +
                  std::to_string(count);
    bool plural = counts.size() > 1 || counts.front() != 1;
    return "'" + spelling.str() + "' expects " + expected +
           (plural ? " operands" : " operand") + ", got " +
           std::to_string(*numOperands);
  }
  std::string prefix = "'" + spelling.str() + "': ";
  bool sameMissingSlot = llvm::all_of(best, [&](const Attempt *attempt) {
    return attempt->stage == Attempt::MissingSlot &&
           attempt->missingDescription == first.missingDescription;
  });
  if (sameMissingSlot && best.size() > 1) {
    SmallVector<StringRef, 16> tokens;
    for (const Attempt *attempt : best)
      for (StringRef token : attempt->missingTokens)
        if (!llvm::is_contained(tokens, token))
          tokens.push_back(token);
    return prefix + "missing required " + first.missingDescription +
           listAlternatives(first.missingDescription, tokens);
  }
  SmallVector<std::string, 4> reasons;
  for (const Attempt *attempt : best)
    if (!llvm::is_contained(reasons, attempt->reason))
      reasons.push_back(attempt->reason);
  if (reasons.size() == 1)
    return prefix + reasons.front();
  return prefix + "no form of '" + family.str() +
         "' accepts it: " + join(reasons, "; ");
}

Expected<SmallVector<Instruction, 1>>
parseInstructionForms(StringRef spelling, std::optional<unsigned> numOperands) {
  // The spelling is quoted with non-printable characters escaped, so that
  // every error stays one line.
  std::string quoted;
  for (char c : spelling)
    quoted += isPrint(c) ? std::string(1, c)
                         : "\\x" + llvm::utohexstr(static_cast<uint8_t>(c),
                                                   /*LowerCase=*/true, 2);
  auto fail = [&](const Twine &message) {
    return createStringError(inconvertibleErrorCode(),
                             "'" + quoted + "': " + message);
  };
  if (spelling.empty())
    return fail("empty instruction spelling");
  for (char c : spelling)
    if (!isAlnum(c) && c != '_' && c != ':' && c != '.')
      return fail("invalid character '" + Twine(isPrint(c) ? c : '?') +
                  "' in instruction spelling");
  SmallVector<StringRef, 12> parts;
  spelling.split(parts, '.');
  if (llvm::is_contained(parts, ""))
    return fail("empty modifier (stray '.')");

  const Table &table = getTable();
  StringRef family = parts.front();
  auto it = table.formsByFamily.find(family);
  if (it == table.formsByFamily.end())
    return fail("unknown instruction family '" + family + "'");
  ArrayRef<StringRef> tokens = ArrayRef(parts).drop_front();
  const StringSet<> &familyTokens = table.familyTokens.find(family)->second;

  SmallVector<Attempt, 4> attempts;
  SmallVector<unsigned, 4> accepted;
  for (unsigned formIndex : it->second) {
    attempts.push_back(
        matchForm(table.forms[formIndex], tokens, familyTokens, numOperands));
    if (attempts.back().stage == Attempt::Accepted)
      accepted.push_back(attempts.size() - 1);
  }
  if (!accepted.empty()) {
    SmallVector<Instruction, 1> result;
    for (unsigned index : accepted) {
      Expected<Instruction> inst = buildInstruction(
          table.forms[it->second[index]], tokens, attempts[index]);
      if (!inst)
        return inst.takeError();
      result.push_back(std::move(*inst));
    }
    return result;
  }

  auto bestRank =
      llvm::max_element(attempts, [](const Attempt &lhs, const Attempt &rhs) {
        return lhs.rank() < rhs.rank();
      })->rank();
  SmallVector<const Attempt *, 4> best;
  for (const Attempt &attempt : attempts)
    if (attempt.rank() == bestRank)
      best.push_back(&attempt);
  return createStringError(inconvertibleErrorCode(),
                           explainFailure(family, best, numOperands, spelling));
}

Expected<Instruction> parseInstruction(StringRef spelling,
                                       std::optional<unsigned> numOperands) {
  Expected<SmallVector<Instruction, 1>> forms =
      parseInstructionForms(spelling, numOperands);
  if (!forms)
    return forms.takeError();
  return std::move(forms->front());
}

} // namespace mlir::tirx::ptx
