//===- InstructionSemantics.h - What one PTX instruction computes -*- C++
//-*-===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//
//
// The interpreter executes `tile.apply` one instruction at a time, as the
// hardware does: it gathers each operand's atom (the registers or memory
// elements one instruction reads or writes), asks the instruction's semantics
// for the results and scatters them back. This header is the interface
// between the two halves: the executor (Interpreter.h) knows threads,
// storage and layouts; a family's semantics know only the instruction's
// spelling and bits.
//
// Element values are raw bits, low-aligned in a uint64_t, `bitWidth` wide
// (the operand's element class: an f16x2 carrier is one 32-bit element, a
// predicate a 1-bit one); bits above `bitWidth` are zero on input and
// ignored on output. Arithmetic is exact where the PTX ISA is exact (IEEE
// rounding through llvm::APFloat) and follows docs/interpreter.md's model
// where it is approximate.
//
//===----------------------------------------------------------------------===//

#ifndef TIRX_INTERPRETER_INSTRUCTIONSEMANTICS_H
#define TIRX_INTERPRETER_INSTRUCTIONSEMANTICS_H

#include "TirX/Dialect/Tile/PTX/PTXInstruction.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Error.h"

#include <cstdint>

namespace mlir::tirx::interp {

/// One operand of one instruction: its atom's elements in atom order.
/// Sources arrive filled; destinations are filled by the semantics (a
/// destination the instruction also reads, e.g. wgmma's accumulator, arrives
/// filled too).
struct OperandAtom {
  llvm::SmallVector<uint64_t, 4> elements;
  unsigned bitWidth = 0;
};

/// Executes one per-thread register instruction (the `scalar` family
/// module: mov, add, sub, mul, mad, fma, div, rcp, sqrt, rsqrt, min, max,
/// cvt, ex2, lg2, abs, neg, setp, selp, lop3, prmt, ...): reads the source
/// atoms of `operands` (PTX order, as `instruction.operands`) and writes the
/// destination atoms. Fails, naming the spelling, for a form it does not
/// model.
llvm::Error
executeScalarInstruction(const ptx::Instruction &instruction,
                         llvm::MutableArrayRef<OperandAtom> operands);

/// The float format of a PTX type token ("f16", "bf16", "f32", "f64",
/// "e4m3", "e5m2"); null for any other.
const llvm::fltSemantics *getFloatSemantics(llvm::StringRef type);

} // namespace mlir::tirx::interp

#endif // TIRX_INTERPRETER_INSTRUCTIONSEMANTICS_H
