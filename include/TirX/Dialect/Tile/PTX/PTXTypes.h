//===- PTXTypes.h - PTX fundamental types and type tokens -------*- C++ -*-===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//
//
// The type vocabulary of the PTX instruction table: the scalar kinds an
// operand can hold, the element class a type token gives an operand (which
// dtypes it accepts), and the state spaces of memory instructions. The
// dialect maps MLIR types to `ScalarKind` before asking
// `ElementClass::accepts`, so this library depends on LLVM Support only.
//
// The lower half is the library's own token helpers: what a type token
// (`.b32`, `.f16x2`, `.s32`) means, shared by the table loader
// (PTXTable.cpp), the rules (PTXRules.cpp) and the matcher (PTXMatcher.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef TIRX_DIALECT_TILE_PTX_PTXTYPES_H
#define TIRX_DIALECT_TILE_PTX_PTXTYPES_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
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
  f64,
  /// A predicate register (.pred); a tile of i1 elements.
  pred
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
  /// Bits: any type of `bitWidth` bits; Exact: that scalar type; Carrier:
  /// an unsigned integer of `bitWidth` bits holding a packed type; Any: any
  /// non-predicate type (cp.async copies bytes, whatever they hold).
  enum class Kind : uint8_t { Bits, Exact, Carrier, Any };
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

/// The family modules PTXTable.def lists (PTX_MODULE): each table entry
/// names the one its knowledge beyond the table lives in
/// (TirX/Dialect/Tile/Families/FamilyModule.h).
enum class FamilyModuleId : uint8_t {
#define PTX_MODULE(NAME) NAME,
#include "TirX/Dialect/Tile/PTX/PTXTable.def"
};
inline constexpr unsigned kNumFamilyModules = 0
#define PTX_MODULE(NAME) +1
#include "TirX/Dialect/Tile/PTX/PTXTable.def"
    ;

/// A destination written in PTX but not a tile.apply operand (PTXTable.def:
/// the `_` and `_loop` operand words).
enum class HiddenDestination : uint8_t {
  None,
  Sink,          // `_`: the result is discarded
  RetryUntilTrue // a scratch predicate; the instruction repeats until true
};

/// The operands of a TMA copy (cp.async.bulk.tensor), which move one whole
/// box per instruction rather than an atom per repeat.
enum class BulkTensorRole : uint8_t {
  None,
  TensorMap, // `tmap`: a box of a kernel's global tensor, addressed through
             // the tensor map the launcher encodes: `[map, {coords}]`
  BoxImage   // `box`: the shared-memory image of that box
};

/// The operand is a shared-memory matrix that the lowering passes as a
/// 64-bit matrix descriptor (wgmma's A and B): which matrix it is.
enum class DescriptorMatrix : uint8_t { None, A, B };

/// Who executes one instruction (docs/instruction-model.md).
enum class ExecKind : uint8_t {
  Thread,    // each thread on its own registers
  Warp,      // the 32 lanes of a warp together (.sync collectives, bar)
  Warpgroup, // the 4 warps of a warpgroup together
  Single     // one elected thread issues it for its group
};
/// "thread", "warp", "warpgroup", "single" (the table's spelling).
llvm::StringRef getExecKindName(ExecKind kind);
std::optional<ExecKind> parseExecKind(llvm::StringRef name);

//===----------------------------------------------------------------------===//
// Type tokens (the table's own helpers)
//===----------------------------------------------------------------------===//

/// The element class a PTX type token gives its operands (see PTXTable.def),
/// or none when `token` is not a type token.
std::optional<ElementClass> getTokenClass(llvm::StringRef token);

/// Bit width of a type token, 0 when it has none.
unsigned getTokenBits(llvm::StringRef token);

/// The integer type of twice the width (`.wide` results), "" if none.
llvm::StringRef getDoubledType(llvm::StringRef token);

/// A token as spelled and quoted in messages: ".rn".
std::string dot(llvm::StringRef token);

} // namespace mlir::tirx::ptx

#endif // TIRX_DIALECT_TILE_PTX_PTXTYPES_H
