//===- InitAll.h - Register every TirX dialect and pass ---------*- C++ -*-===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//
//
// The C++ surface an embedder calls to make TirX available in its own MLIR
// tool: dialects go into a DialectRegistry, passes into the global registry.
//
//===----------------------------------------------------------------------===//

#ifndef TIRX_INITALL_H
#define TIRX_INITALL_H

namespace mlir {
class DialectRegistry;

namespace tirx {
/// Inserts the tirx and tile dialects and the upstream dialects their IR
/// uses (func, arith, math, scf) into `registry`.
void registerAllTirXDialects(DialectRegistry &registry);
/// Registers every TirX pass with the global pass registry.
void registerAllTirXPasses();
} // namespace tirx
} // namespace mlir

#endif // TIRX_INITALL_H
