//===- PTXMatcher.h - Matching a PTX spelling against the table -*- C++ -*-===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//
//
// The matcher of spec §3.0: the modifier tokens of a spelling are tried
// against every entry of its family. Each token takes the first still-open
// slot that lists it (type slots keep their order); an entry accepts when
// every token is placed, its mandatory slots are filled, its rule
// (PTXRules.h) holds and the operand count fits. Accepting entries become
// `Instruction`s in table order; when none accepts, the entry that got
// furthest explains why: a rule violation beats a wrong operand count,
// which beats a missing modifier, which beats a token no open slot takes.
//
//===----------------------------------------------------------------------===//

#ifndef TIRX_DIALECT_TILE_PTX_PTXMATCHER_H
#define TIRX_DIALECT_TILE_PTX_PTXMATCHER_H

#include "TirX/Dialect/Tile/PTX/PTXInstruction.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <optional>

namespace mlir::tirx::ptx {

/// Matches `tokens`, the modifiers of `spelling` after its family (split at
/// the dots), against every entry of `family`, which must be a family of the
/// table. Returns every accepting entry's instruction in table order, or one
/// error message that quotes `spelling`.
llvm::Expected<llvm::SmallVector<Instruction, 1>>
matchInstruction(llvm::StringRef family, llvm::ArrayRef<llvm::StringRef> tokens,
                 std::optional<unsigned> numOperands, llvm::StringRef spelling);

} // namespace mlir::tirx::ptx

#endif // TIRX_DIALECT_TILE_PTX_PTXMATCHER_H
