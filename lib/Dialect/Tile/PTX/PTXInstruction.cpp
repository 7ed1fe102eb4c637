//===- PTXInstruction.cpp - Parsing a PTX instruction spelling ------------===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//
//
// The entry point of the PTX library (PTXInstruction.h): checks the syntax
// of a spelling (characters, stray dots), quotes it for messages, finds its
// family in the table and hands its modifier tokens to the matcher
// (PTXMatcher.cpp), which does the work of spec §3.0.
//
//===----------------------------------------------------------------------===//

#include "TirX/Dialect/Tile/PTX/PTXInstruction.h"
#include "TirX/Dialect/Tile/PTX/PTXMatcher.h"
#include "TirX/Dialect/Tile/PTX/PTXTable.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

using namespace llvm;

namespace mlir::tirx::ptx {

bool Instruction::hasModifier(StringRef token) const {
  token.consume_front(".");
  return llvm::is_contained(modifiers, token);
}

StringRef Instruction::getModifier(Slot slot) const {
  for (auto [token, filled] : llvm::zip_equal(modifiers, modifierSlots))
    if (filled == slot)
      return token;
  return "";
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

  StringRef family = parts.front();
  if (!getTable().formsByFamily.count(family))
    return fail("unknown instruction family '" + family + "'");
  return matchInstruction(family, ArrayRef(parts).drop_front(), numOperands,
                          spelling);
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
