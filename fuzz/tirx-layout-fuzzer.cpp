//===- tirx-layout-fuzzer.cpp - libFuzzer target for the layout library ---===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//
//
// Bytes -> layout notation -> TileLayout, then every layout operation; on
// success, the invariants the library promises (printing round-trips,
// canonicalize is idempotent and keeps the size, pack/unpack invert).
//
//===----------------------------------------------------------------------===//

#include "TirX/Layout/TileLayout.h"

#include "llvm/Support/Error.h"

#include <cstdint>
#include <cstdlib>
#include <string>

using namespace mlir::tirx;

static void check(bool condition) {
  if (!condition)
    abort();
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string text(reinterpret_cast<const char *>(data), size);
  llvm::Expected<TileLayout> layout = TileLayout::parse(text);
  if (!layout) {
    llvm::consumeError(layout.takeError());
    return 0;
  }
  // Printing round-trips.
  llvm::Expected<TileLayout> reparsed = TileLayout::parse(layout->toString());
  check(static_cast<bool>(reparsed));
  check(*reparsed == *layout);

  int64_t elements = layout->size();
  // Keep each input cheap: apply is linear in the size and forEachOwner in
  // size x replicas (a valid R[205555555, 10, 11] alone means 2e10 owners).
  if (elements <= 0 || elements > (1 << 16) ||
      layout->getNumReplicas() > (1 << 16) / elements)
    return 0;
  for (int64_t i = 0; i < elements; ++i) {
    (void)layout->apply(i);
    layout->forEachOwner(i, [](const PhysicalCoord &) {});
  }
  (void)layout->isContiguous();
  (void)layout->isTrivial();
  (void)layout->getNumReplicas();
  TileLayout canonical = layout->canonicalize();
  check(canonical.size() == elements);
  check(canonical.canonicalize() == canonical);
  (void)layout->storage();
  if (auto scope = layout->getScope(); !scope)
    llvm::consumeError(scope.takeError());
  for (int64_t factor : {2, 4}) {
    llvm::Expected<TileLayout> packed = layout->pack(factor);
    if (!packed) {
      llvm::consumeError(packed.takeError());
      continue;
    }
    llvm::Expected<TileLayout> unpacked = packed->unpack(factor);
    check(static_cast<bool>(unpacked));
    check(unpacked->size() == elements);
  }
  return 0;
}
