//===- FormSelection.h - Choosing the PTX form of a tile.apply --*- C++ -*-===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//
//
// The bridge between a `tile.apply` and the PTX instruction table: MLIR
// element types become PTX scalar kinds, and a spelling that names several
// forms (mov.b32 copies one b32, or packs two b16) is resolved to the one
// whose operand atoms and element classes fit the op's operands. The table
// itself (TirX/Dialect/Tile/PTX) knows nothing of MLIR; the operand checker
// (TileOperands.h) knows nothing of PTX.
//
//===----------------------------------------------------------------------===//

#ifndef TIRX_DIALECT_TILE_IR_FORMSELECTION_H
#define TIRX_DIALECT_TILE_IR_FORMSELECTION_H

#include "TirX/Dialect/Tile/Families/FamilyModule.h"
#include "TirX/Dialect/Tile/IR/TileOperands.h"
#include "TirX/Dialect/Tile/PTX/PTXInstruction.h"

namespace mlir::tirx::tile {

/// The form of `instruction` that `operands` use: among the forms with as
/// many operands (min/max with two or three inputs, shfl with or without
/// `|p`), and where several share the count (mov.b32 copies one b32, or
/// packs two b16), the first whose atoms fit the tensor operands' innermost
/// extents and element widths; otherwise the first of that count, whose
/// checks then explain the mismatch. Fails with a diagnostic on `op` when no
/// form has that many operands.
FailureOr<const ptx::Instruction *>
selectInstructionForm(Operation *op, PTXInstructionAttr instruction,
                      ArrayRef<MixedOperand> operands);

/// The PTX scalar kind of an element type (signless integers are signed,
/// i1 is a predicate).
std::optional<ptx::ScalarKind> getScalarKind(Type type);

/// Whether an operand of type `type` (a tensor's element type when
/// `isTensor`) fits `element`. A scalar or immediate of a signless integer
/// type stands for either signedness of its width (arith values are
/// signless: `%limit : i32` is the `b` of `atom.inc.u32`); a tensor's
/// element type says its signedness (ui32 is u32, i32 is s32).
bool acceptsOperandType(const ptx::ElementClass &element, Type type,
                        bool isTensor);

using ptx::MmaRepeats;
/// The structured repeats `inst`'s family module gives D's repeat shape `d`
/// and A's `a` (mma's, Families/Mma.cpp); std::nullopt for instructions
/// whose repeats are independent, as every family's but mma's.
std::optional<MmaRepeats> getMmaRepeats(const ptx::Instruction &inst,
                                        ArrayRef<int64_t> d,
                                        ArrayRef<int64_t> a);

/// One instruction of mma's structured repeats: the repeat of D (and C), A
/// and B it reads and writes, and whether its C is D (the accumulator of
/// every k step after the first).
struct MatrixStep {
  int64_t d, a, b;
  bool accumulate;
};
/// The instructions of `repeats` in issue order: (batch, k, m, n), k
/// outermost within a batch (tile-dispatch's order, which the interpreter
/// follows).
SmallVector<MatrixStep> getMatrixSteps(const MmaRepeats &repeats);

/// The integer immediate of the operand at `position`, if it is one.
std::optional<int64_t> getIntegerImmediate(ArrayRef<MixedOperand> operands,
                                           unsigned position);

/// The byte count a chunk operand (cp.async's cp-size) holds: the immediate
/// at `position` (its operand kind requires one), or 0.
int64_t getChunkBytes(ArrayRef<MixedOperand> operands, int position);

/// The atom of a tensor operand of element type `elementBytes`: the table's,
/// or, for a chunk operand, the chunk's bytes in elements (0 when they do
/// not divide; the verifier rejects it).
unsigned getOperandAtom(const ptx::OperandInfo &info,
                        ArrayRef<MixedOperand> operands, int64_t elementBytes);

/// Whether wgmma's shared `matrix` is MN-major: its imm-trans-a/b immediate
/// is 1 (K-major without one: A in registers).
bool getMatrixTranspose(const ptx::Instruction &instruction,
                        ArrayRef<MixedOperand> operands,
                        ptx::DescriptorMatrix matrix);

} // namespace mlir::tirx::tile

#endif // TIRX_DIALECT_TILE_IR_FORMSELECTION_H
