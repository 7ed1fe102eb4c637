//===- PTXTypes.cpp - PTX fundamental types and type tokens ---------------===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//
//
// Scalar kinds, element classes and memory spaces (PTXTypes.h), and what
// each PTX type token means: its element class, its width, its doubled
// `.wide` type. Everything about a type token is answered here, so the
// loader, the rules and the matcher agree on it.
//
//===----------------------------------------------------------------------===//

#include "TirX/Dialect/Tile/PTX/PTXTypes.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/ErrorHandling.h"

using namespace llvm;

namespace mlir::tirx::ptx {

//===----------------------------------------------------------------------===//
// Scalar kinds, element classes, memory spaces
//===----------------------------------------------------------------------===//

unsigned getBitWidth(ScalarKind kind) {
  switch (kind) {
  case ScalarKind::pred:
    return 1;
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
  case ScalarKind::pred:
    return "pred";
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
        ScalarKind::f16, ScalarKind::bf16, ScalarKind::f32, ScalarKind::f64,
        ScalarKind::pred})
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
  case Kind::Any:
    return kind != ScalarKind::pred;
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
  case Kind::Any:
    return "a non-predicate type";
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

StringRef getExecKindName(ExecKind kind) {
  switch (kind) {
  case ExecKind::Thread:
    return "thread";
  case ExecKind::Warp:
    return "warp";
  case ExecKind::Warpgroup:
    return "warpgroup";
  case ExecKind::Single:
    return "single";
  }
  return "";
}

std::optional<ExecKind> parseExecKind(StringRef name) {
  return StringSwitch<std::optional<ExecKind>>(name)
      .Case("thread", ExecKind::Thread)
      .Case("warp", ExecKind::Warp)
      .Case("warpgroup", ExecKind::Warpgroup)
      .Case("single", ExecKind::Single)
      .Default(std::nullopt);
}

//===----------------------------------------------------------------------===//
// Type tokens
//===----------------------------------------------------------------------===//

std::optional<ElementClass> getTokenClass(StringRef token) {
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
  // A byte copy (cp.async): any storage type; the atom is counted in bytes.
  if (token == "any")
    return ElementClass{ElementClass::Kind::Any, 0, ScalarKind::u8, ""};
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

unsigned getTokenBits(StringRef token) {
  std::optional<ElementClass> cls = getTokenClass(token);
  return cls ? cls->bitWidth : 0;
}

StringRef getDoubledType(StringRef token) {
  return StringSwitch<StringRef>(token)
      .Case("u16", "u32")
      .Case("u32", "u64")
      .Case("s16", "s32")
      .Case("s32", "s64")
      .Default("");
}

std::string dot(StringRef token) { return ("." + Twine(token)).str(); }

} // namespace mlir::tirx::ptx
