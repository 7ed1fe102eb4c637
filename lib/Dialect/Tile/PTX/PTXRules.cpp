//===- PTXRules.cpp - ISA combination rules of the PTX table --------------===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//
//
// The combination rules PTXTable.def's entries name (PTXRules.h), one
// function per rule, each citing the spec section and PTX ISA section it
// follows, plus the slot vocabulary the rules are written in. A rule returns
// the reason a combination is illegal, or "" when it is legal.
//
//===----------------------------------------------------------------------===//

#include "TirX/Dialect/Tile/PTX/PTXRules.h"
#include "TirX/Dialect/Tile/PTX/PTXTypes.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSwitch.h"

using namespace llvm;

namespace mlir::tirx::ptx {

//===----------------------------------------------------------------------===//
// Modifier slots
//===----------------------------------------------------------------------===//

StringRef getSlotName(Slot slot) {
  switch (slot) {
#define PTX_SLOT(NAME, PHRASE)                                                 \
  case Slot::NAME:                                                             \
    return #NAME;
#include "TirX/Dialect/Tile/PTX/PTXTable.def"
  }
  return "";
}

StringRef getSlotPhrase(Slot slot) {
  switch (slot) {
#define PTX_SLOT(NAME, PHRASE)                                                 \
  case Slot::NAME:                                                             \
    return PHRASE;
#include "TirX/Dialect/Tile/PTX/PTXTable.def"
  }
  return "";
}

std::optional<Slot> getSlotByName(StringRef name) {
  return StringSwitch<std::optional<Slot>>(name)
#define PTX_SLOT(NAME, PHRASE) .Case(#NAME, Slot::NAME)
#include "TirX/Dialect/Tile/PTX/PTXTable.def"
      .Default(std::nullopt);
}

//===----------------------------------------------------------------------===//
// Combination rules (named by the table's CHECK column)
//===----------------------------------------------------------------------===//

static bool isOneOf(StringRef token, std::initializer_list<StringRef> set) {
  return llvm::is_contained(set, token);
}

std::string rules::noCheck(const Mods &, Floor &) { return ""; }

/// ld/st rules (PTX ISA 9.7.9.8, 9.7.9.9, 9.7.9.11). `strongSem` is the
/// ordering qualifier that pairs with .relaxed: .acquire for ld, .release
/// for st.
static std::string checkMemoryAccess(const Mods &m, StringRef strongSem,
                                     Floor &floor) {
  StringRef sem = m[Slot::sem], scope = m[Slot::scope], space = m[Slot::space];
  StringRef cop = m[Slot::cop], nc = m[Slot::nc], cache = m[Slot::cache];
  StringRef prefetch = m[Slot::prefetch];
  // The ISA spells the L1 and L2 eviction priorities on the same lines, so
  // every rule about one applies to the other.
  StringRef evict = m[Slot::l1ev].empty() ? m[Slot::l2ev] : m[Slot::l1ev];
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
  if (m[Slot::type] == "b128" && scope == "sys")
    floor.raise(70, 84);
  return "";
}

/// The ≤128-bit vector lines: a 64-bit .v4 belongs to the 256-bit line.
static std::string checkVector128(const Mods &m) {
  if (m[Slot::vec] == "v4" && getTokenBits(m[Slot::type]) == 64)
    return ".v4 of a 64-bit type is a 256-bit access (sm_100, .global or "
           "generic addressing)";
  return "";
}

/// The 256-bit lines: .v8 of 32-bit or .v4 of 64-bit elements, global only.
static std::string checkVector256(const Mods &m) {
  unsigned bits = getTokenBits(m[Slot::type]);
  StringRef vec = m[Slot::vec];
  if (!((vec == "v8" && bits == 32) || (vec == "v4" && bits == 64)))
    return "a 256-bit access is .v8 of a 32-bit type or .v4 of a 64-bit type";
  StringRef space = m[Slot::space];
  if (!space.empty() && space != "global")
    return "a 256-bit access requires .global or generic addressing";
  return "";
}

std::string rules::checkLoad(const Mods &m, Floor &floor) {
  return checkMemoryAccess(m, "acquire", floor);
}
std::string rules::checkLoadVector(const Mods &m, Floor &floor) {
  std::string error = checkVector128(m);
  return error.empty() ? checkMemoryAccess(m, "acquire", floor) : error;
}
std::string rules::checkLoadVector256(const Mods &m, Floor &floor) {
  std::string error = checkVector256(m);
  return error.empty() ? checkMemoryAccess(m, "acquire", floor) : error;
}
std::string rules::checkStore(const Mods &m, Floor &floor) {
  return checkMemoryAccess(m, "release", floor);
}
std::string rules::checkStoreVector(const Mods &m, Floor &floor) {
  std::string error = checkVector128(m);
  return error.empty() ? checkMemoryAccess(m, "release", floor) : error;
}
std::string rules::checkStoreVector256(const Mods &m, Floor &floor) {
  std::string error = checkVector256(m);
  return error.empty() ? checkMemoryAccess(m, "release", floor) : error;
}

/// add/sub/mul/mad/fma single/double and mixed-precision lines (spec §3.3,
/// §3.6): .ftz not on f64, .sat only on f32; the mixed line is f32 only and
/// takes no .ftz.
std::string rules::checkFloatArith(const Mods &m, Floor &) {
  StringRef type = m[Slot::type], atype = m[Slot::atype];
  if (!atype.empty()) {
    if (type != "f32")
      return "the mixed-precision " + dot(atype) +
             " source requires .f32, not " + dot(type);
    if (!m[Slot::ftz].empty())
      return "the mixed-precision line (.f32" + dot(atype) + ") takes no .ftz";
    return "";
  }
  if (!m[Slot::ftz].empty() && type == "f64")
    return ".ftz is not allowed on .f64";
  if (!m[Slot::sat].empty() && type != "f32")
    return ".sat is only allowed on .f32, not " + dot(type);
  return "";
}

/// Half-precision add/sub/mul (spec §3.3): bf16 takes neither .ftz nor .sat.
std::string rules::checkHalfArith(const Mods &m, Floor &) {
  StringRef type = m[Slot::type];
  if (type.starts_with("bf16"))
    for (StringRef token : {m[Slot::ftz], m[Slot::sat]})
      if (!token.empty())
        return dot(token) + " is not allowed on " + dot(type);
  return "";
}

/// Integer add/sub: `.sat` exists only on s32.
std::string rules::checkIntAddSub(const Mods &m, Floor &) {
  if (!m[Slot::sat].empty() && m[Slot::type] != "s32")
    return ".sat is only allowed on .s32";
  return "";
}

/// mul.wide/mad.wide: 16- and 32-bit sources only (the result doubles).
std::string rules::checkWide(const Mods &m, Floor &) {
  if (getDoubledType(m[Slot::type]).empty())
    return ".wide requires a 16- or 32-bit type, not " + dot(m[Slot::type]);
  return "";
}

/// mad.lo/hi: `.sat` only on mad.hi.s32.
std::string rules::checkMadInt(const Mods &m, Floor &) {
  if (!m[Slot::sat].empty() &&
      !(m[Slot::mode] == "hi" && m[Slot::type] == "s32"))
    return ".sat is only allowed on mad.hi.s32";
  return "";
}

/// Half-precision fma (spec §3.6): bf16 no .ftz/.sat, .oob no .ftz/.sat,
/// .sat and .relu exclusive.
std::string rules::checkHalfFma(const Mods &m, Floor &) {
  StringRef type = m[Slot::type];
  for (StringRef token : {m[Slot::ftz], m[Slot::sat]}) {
    if (token.empty())
      continue;
    if (type.starts_with("bf16"))
      return dot(token) + " is not allowed on " + dot(type);
    if (!m[Slot::oob].empty())
      return ".oob cannot be combined with " + dot(token);
  }
  if (!m[Slot::sat].empty() && !m[Slot::relu].empty())
    return ".sat and .relu are mutually exclusive";
  return "";
}

/// div (spec §3.4): .approx/.full only on f32; f64 takes no .ftz.
std::string rules::checkDiv(const Mods &m, Floor &) {
  if (m[Slot::type] != "f64")
    return "";
  if (isOneOf(m[Slot::rnd], {"approx", "full"}))
    return dot(m[Slot::rnd]) + " is only allowed on .f32";
  if (!m[Slot::ftz].empty())
    return ".ftz is not allowed on rounded .f64";
  return "";
}

/// rcp (spec §3.4): the f64 approximation is spelled rcp.approx.ftz.f64;
/// rounded f64 takes no .ftz.
std::string rules::checkRcp(const Mods &m, Floor &) {
  if (m[Slot::type] != "f64")
    return "";
  bool ftz = !m[Slot::ftz].empty();
  if (m[Slot::rnd] == "approx" && !ftz)
    return "the f64 approximation must be spelled rcp.approx.ftz.f64";
  if (m[Slot::rnd] != "approx" && ftz)
    return ".ftz is not allowed on rounded .f64";
  return "";
}

/// sqrt (spec §3.4): .approx only on f32; f64 takes no .ftz.
std::string rules::checkSqrt(const Mods &m, Floor &) {
  if (m[Slot::type] != "f64")
    return "";
  if (m[Slot::rnd] == "approx")
    return ".approx is only allowed on .f32";
  if (!m[Slot::ftz].empty())
    return ".ftz is not allowed on .f64";
  return "";
}

/// Two-input min/max (spec §3.5).
std::string rules::checkMinMax(const Mods &m, Floor &) {
  StringRef type = m[Slot::type];
  StringRef ftz = m[Slot::ftz], nan = m[Slot::NaN], xorsign = m[Slot::xorsign],
            abs = m[Slot::abs], relu = m[Slot::relu];
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
std::string rules::checkCvt(const Mods &m, Floor &floor) {
  StringRef d = m[Slot::dtype], a = m[Slot::atype], rnd = m[Slot::rnd];
  bool ftz = !m[Slot::ftz].empty(), sat = !m[Slot::sat].empty();
  bool dInt = !isOneOf(d, {"f16", "bf16", "f32", "f64"});
  bool aInt = !isOneOf(a, {"f16", "bf16", "f32", "f64"});
  StringRef saturating =
      m[Slot::relu].empty() ? m[Slot::satfinite] : m[Slot::relu];
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
std::string rules::checkCvtTf32(const Mods &m, Floor &floor) {
  bool satfinite = !m[Slot::satfinite].empty();
  if (m[Slot::rnd] == "rna") {
    if (!m[Slot::relu].empty())
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
std::string rules::checkEx2(const Mods &m, Floor &) {
  StringRef type = m[Slot::type];
  bool ftz = !m[Slot::ftz].empty();
  if (type.starts_with("f16") && ftz)
    return ".ftz is not allowed on " + dot(type);
  if (type.starts_with("bf16") && !ftz)
    return dot(type) + " requires .ftz";
  return "";
}

/// abs/neg (spec §3.9): .ftz only on f32, f16 and f16x2.
std::string rules::checkAbsNeg(const Mods &m, Floor &) {
  StringRef type = m[Slot::type];
  if (!m[Slot::ftz].empty() && !isOneOf(type, {"f32", "f16", "f16x2"}))
    return ".ftz is not allowed on " + dot(type);
  return "";
}

//===----------------------------------------------------------------------===//
// setp (PTX ISA 9.7.7.1)
//===----------------------------------------------------------------------===//

std::string rules::checkSetp(const Mods &m, Floor &) {
  StringRef cmp = m[Slot::cmp], type = m[Slot::type];
  bool isFloatType = isOneOf(type, {"f32", "f64"});
  bool isBitType = type.starts_with("b");
  bool isUnsignedType = type.starts_with("u");
  if (isBitType && !isOneOf(cmp, {"eq", "ne"}))
    return dot(cmp) + " is not allowed on " + dot(type) +
           " (bit types compare only with .eq and .ne)";
  if (!isFloatType &&
      isOneOf(cmp, {"equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan"}))
    return dot(cmp) + " compares floats, but the type is " + dot(type);
  if (!isUnsignedType && isOneOf(cmp, {"lo", "ls", "hi", "hs"}))
    return dot(cmp) + " compares unsigned integers, but the type is " +
           dot(type);
  if (!m[Slot::ftz].empty() && type != "f32")
    return ".ftz is not allowed on " + dot(type);
  return "";
}

//===----------------------------------------------------------------------===//
// mma.sync (PTX ISA 9.7.14.5.14)
//===----------------------------------------------------------------------===//

std::string rules::checkMma(const Mods &m, Floor &) {
  // The fragments of the table are those of .row.col, the only layout pair
  // the m16n8 shapes have.
  if (m[Slot::alayout] != "row" || m[Slot::blayout] != "col")
    return m[Slot::shape].str() +
           " takes A row-major and B column-major (.row.col), got " +
           dot(m[Slot::alayout]) + dot(m[Slot::blayout]);
  // f16/bf16 A and B have one type; the fp8 types mix (e4m3 x e5m2).
  bool fp8 = isOneOf(m[Slot::atype], {"e4m3", "e5m2"});
  if (!fp8 && m[Slot::atype] != m[Slot::btype])
    return "A and B must have one type, got " + dot(m[Slot::atype]) + " and " +
           dot(m[Slot::btype]);
  return "";
}

//===----------------------------------------------------------------------===//
// ldmatrix / stmatrix (PTX ISA 9.7.9.25, 9.7.9.26)
//===----------------------------------------------------------------------===//

std::string rules::checkMatrixMove(const Mods &m, Floor &) {
  // The table lists the sm_100a shapes and .b8 so that a rejection says
  // why, instead of a bare "not valid".
  StringRef shape = m[Slot::shape], type = m[Slot::type];
  if (shape != "m8n8")
    return "." + shape.str() +
           " (8-bit matrices) is an sm_100a form, which TirX does not "
           "target; use .m8n8 with .b16";
  if (type != "b16")
    return ".m8n8 moves 16-bit elements" +
           std::string(m[Slot::trans].empty() ? "" : " (.trans swaps them)") +
           ": the type must be .b16, got " + dot(type);
  return "";
}

//===----------------------------------------------------------------------===//
// Hopper synchronization (PTX ISA 9.7.13.15 mbarrier, 9.7.18.1 setmaxnreg,
// 9.7.15.6-8 wgmma fences)
//===----------------------------------------------------------------------===//

/// ptxas: "Modifier '.release' requires scope", "Modifier '.cta' requires
/// order": a memory-ordering qualifier and a scope come together.
std::string rules::checkMbarrier(const Mods &m, Floor &) {
  StringRef sem = m[Slot::sem], scope = m[Slot::scope];
  if (!sem.empty() && scope.empty())
    return dot(sem) + " requires a scope (one of .cta, .cluster)";
  if (sem.empty() && !scope.empty())
    return "a scope (" + dot(scope) +
           ") requires the memory-ordering qualifier (" +
           (m[Slot::mode] == "arrive"      ? ".release"
            : m[Slot::mode] == "expect_tx" ? ".relaxed"
                                           : ".acquire") +
           ")";
  return "";
}

/// Arch-specific features of sm_90a are not in sm_90 (ptxas: "not supported
/// on .target 'sm_90'"), nor promised on later targets.
std::string rules::archSpecific(const Mods &, Floor &floor) {
  floor.archSpecific = true;
  return "";
}

//===----------------------------------------------------------------------===//
// wgmma (PTX ISA 9.7.15; docs/wgmma.md)
//===----------------------------------------------------------------------===//

std::string rules::checkWgmma(const Mods &m, Floor &floor) {
  // sm_90a's: ptxas refuses wgmma on sm_90, and sm_100 has none.
  floor.archSpecific = true;
  // The f32-accumulating 16-bit forms: A and B have one type.
  if (m[Slot::atype] != m[Slot::btype])
    return "A and B must have one type, got " + dot(m[Slot::atype]) + " and " +
           dot(m[Slot::btype]);
  return "";
}

//===----------------------------------------------------------------------===//
// Atomics (PTX ISA 9.7.13.5 atom, 9.7.13.6 red; docs/atomics.md)
//===----------------------------------------------------------------------===//

/// Which types each operation of atom/red takes (ptxas's table, messages in
/// its words: "Operation .inc requires .u32 type").
std::string rules::checkAtom(const Mods &m, Floor &) {
  static constexpr StringRef bits[] = {"b32", "b64"};
  static constexpr StringRef add[] = {"u32", "s32", "u64", "f32", "f64"};
  static constexpr StringRef inc[] = {"u32"};
  static constexpr StringRef minMax[] = {"u32", "s32", "u64", "s64"};
  StringRef op = m[Slot::op], type = m[Slot::type];
  llvm::ArrayRef<StringRef> allowed =
      isOneOf(op, {"and", "or", "xor", "exch"}) ? llvm::ArrayRef(bits)
      : op == "add"                             ? llvm::ArrayRef(add)
      : isOneOf(op, {"inc", "dec"})             ? llvm::ArrayRef(inc)
                                                : llvm::ArrayRef(minMax);
  if (llvm::is_contained(allowed, type))
    return "";
  std::string list;
  for (auto [index, token] : llvm::enumerate(allowed))
    list += (index == 0                    ? ""
             : index + 1 == allowed.size() ? " or "
                                           : ", ") +
            dot(token);
  return dot(op) + " takes " + list + ", got " + dot(type);
}

// PTX ISA 9.7.9.25.5.2. The bitwise operations on 64-bit elements, which
// the ISA lists (.b64), faulted with an illegal instruction on an H100
// through an INT64 tensor map (test/gpu/run_tma_reduce.py, 2026-12-06):
// refused until a map type that works is found.
llvm::ArrayRef<StringRef> rules::getTensorReductionTypes(StringRef op) {
  static constexpr StringRef add[] = {"f16", "bf16", "f32",
                                      "u32", "s32",  "u64"};
  static constexpr StringRef minMax[] = {"f16", "bf16", "u32",
                                         "s32", "u64",  "s64"};
  static constexpr StringRef incDec[] = {"u32"};
  static constexpr StringRef bitwise[] = {"u32", "s32"};
  if (op == "add")
    return add;
  if (isOneOf(op, {"min", "max"}))
    return minMax;
  if (isOneOf(op, {"inc", "dec"}))
    return incDec;
  if (isOneOf(op, {"and", "or", "xor"}))
    return bitwise;
  return {};
}

} // namespace mlir::tirx::ptx
