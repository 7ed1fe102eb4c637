//===- tirx-ptx-spelling-fuzzer.cpp - libFuzzer target for PTX spellings --===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//
//
// Bytes -> PTX spelling parser; on success, the descriptor invariants: the
// canonical spelling re-parses to the same form, operand roles are set,
// version floors are sane.
//
//===----------------------------------------------------------------------===//

#include "TirX/Dialect/Tile/PTX/PTXInstruction.h"

#include "llvm/Support/Error.h"

#include <cstdint>
#include <cstdlib>
#include <string>

using namespace mlir::tirx::ptx;

static void check(bool condition) {
  if (!condition)
    abort();
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size == 0)
    return 0;
  // The first byte optionally fixes the operand count, like a verifier does.
  std::optional<unsigned> numOperands;
  if (data[0] < 8)
    numOperands = data[0];
  std::string spelling(reinterpret_cast<const char *>(data + 1), size - 1);
  auto forms = parseInstructionForms(spelling, numOperands);
  if (!forms) {
    llvm::consumeError(forms.takeError());
    return 0;
  }
  check(!forms->empty());
  for (const Instruction &form : *forms) {
    check(!form.spelling.empty());
    check(form.minSM >= 20 && form.minPTX >= 10);
    auto again = parseInstructionForms(form.spelling, numOperands);
    check(static_cast<bool>(again));
    check(again->front().spelling == forms->front().spelling);
  }
  return 0;
}
