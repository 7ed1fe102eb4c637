//===- Mma.cpp - The mma family module ------------------------------------===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//
//
// mma.sync. Its repeats are structured (MmaRepeats, docs/matrix.md): D's
// last two repeat dimensions are (M_repeat, N_repeat), A's last is
// K_repeat, and the verifier and the lowering take B's and C's from them.
//
//===----------------------------------------------------------------------===//

#include "Modules.h"

using namespace mlir::tirx::ptx;

static std::optional<MmaRepeats> getMatrixRepeats(llvm::ArrayRef<int64_t> d,
                                                  llvm::ArrayRef<int64_t> a) {
  // D with fewer than two repeat dimensions repeats independently.
  if (d.size() < 2 || a.size() != d.size())
    return std::nullopt;
  MmaRepeats repeats;
  repeats.batch.assign(d.begin(), d.end() - 2);
  repeats.m = d[d.size() - 2];
  repeats.n = d.back();
  repeats.k = a.back();
  return repeats;
}

const FamilyModule &families::mmaModule() {
  static const FamilyModule module{/*name=*/"mma", /*operandKinds=*/{},
                                   ::getMatrixRepeats};
  return module;
}
