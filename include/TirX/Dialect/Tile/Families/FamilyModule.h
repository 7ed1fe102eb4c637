//===- FamilyModule.h - What a family knows beyond the table ----*- C++ -*-===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//
//
// PTXTable.def says how every form is spelled, typed and tiled. What a
// family knows beyond that lives in its family module, one file per module
// in lib/Dialect/Tile/Families, named by the table entries' MODULE column
// (PTX_MODULE): the operand kinds it declares (a table word such as
// `parity`, and the value an operand of that kind must have), whether its
// repeats are structured (mma's M x N x K), and the NVVM ops that yield its
// instructions exactly. The verifier and the lowering ask the instruction's
// module; neither compares family names.
//
// Adding a family: its PTX_FORM lines, and where it knows more than the
// table, a PTX_MODULE line and its module's file (docs/instruction-model.md,
// "Family modules").
//
//===----------------------------------------------------------------------===//

#ifndef TIRX_DIALECT_TILE_FAMILIES_FAMILYMODULE_H
#define TIRX_DIALECT_TILE_FAMILIES_FAMILYMODULE_H

#include "TirX/Dialect/Tile/PTX/PTXInstruction.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>

namespace mlir::tirx::ptx {

/// What an operand kind's check sees of one operand of a verified
/// tile.apply: its immediate, the other operands' immediates and the
/// kernel around it.
struct OperandValue {
  const Instruction &instruction;
  /// The operand's position in PTX order.
  unsigned position;
  /// Its integer immediate, if it is one.
  std::optional<int64_t> immediate = std::nullopt;
  /// The integer immediate of the operand at a position, if it is one.
  llvm::function_ref<std::optional<int64_t>(unsigned)> getImmediate = {};
  /// The enclosing kernel's threads per CTA, when known.
  std::optional<int64_t> blockThreads = std::nullopt;
  /// Whether the tile.apply is inside a kernel (the cluster is known), and
  /// the CTAs of the kernel's cluster (none when not launched in clusters).
  bool inKernel = false;
  std::optional<int64_t> clusterCTAs = std::nullopt;
};

/// An operand kind: a word the table writes after an operand's type
/// (`count:r:b32:imm:arrivals`), declared by one family module and usable by
/// any entry.
struct OperandKind {
  llvm::StringRef word;
  /// Why the operand's value is illegal (the text after "operand #N (name)
  /// of 'spelling': "), or std::nullopt.
  std::optional<std::string> (*checkValue)(const OperandValue &) = nullptr;
  /// PTX encodes the value in the instruction (wgmma's imm-scale-a): the
  /// lowering writes the immediate itself, never a register.
  bool isEncodedInInstruction = false;
  /// The warpgroup's registers per thread from this instruction on
  /// (setmaxnreg's count): the register budget reads it.
  bool isRegisterLimit = false;
};

/// mma's matrix-structured repeats (TIRx's contract, docs/matrix.md): when
/// D has two or more repeat dimensions (after the group's), its last two are
/// (M_repeat, N_repeat), A's (M_repeat, K_repeat) and B's (N_repeat,
/// K_repeat); leading ones are a batch all four share. One instruction per
/// (batch, m, n, k) computes D[m, n] = Σ_k A[m, k] · B[n, k] + C[m, n], k in
/// order (k outermost, so consecutive instructions are independent).
struct MmaRepeats {
  llvm::SmallVector<int64_t> batch;
  int64_t m = 1, n = 1, k = 1;
  /// Each operand's repeat shape in this structure.
  llvm::SmallVector<int64_t> getD() const;
  llvm::SmallVector<int64_t> getA() const;
  llvm::SmallVector<int64_t> getB() const;
};

/// What an instruction of a family whose asynchronous accesses a thread
/// waits for in groups (cp.async, wgmma) is to the race proof: a copy (its
/// shared operands are accessed until a wait of its family retires its
/// group: cp.async's destination, wgmma's A and B), a commit closing the
/// current group, a wait for all but the most recent N committed groups, or
/// a wait for everything.
enum class AsyncGroupEvent { None, Copy, Commit, WaitGroup, WaitAll };

/// What an instruction is to the race proof's mbarrier phases
/// (docs/races.md, "mbarrier pipelines"): an initialization (a plain write
/// of the barrier), an arrival on the barrier's current phase, a copy whose
/// bytes complete on its `mbar` operand's current phase (a TMA load), or a
/// wait until the phase of a parity has completed (the retry loop only).
/// Every other use of a barrier is an atomic access of it, ordering nothing.
enum class MbarrierEvent { None, Init, Arrive, Completion, Wait };

/// One family module. Hooks a module does not need stay null.
struct FamilyModule {
  llvm::StringRef name;
  /// The operand kinds this module declares.
  llvm::ArrayRef<OperandKind> operandKinds = {};
  /// Structured repeats: the structure D's repeat shape `d` and A's `a`
  /// give, or std::nullopt for independent repeats.
  std::optional<MmaRepeats> (*getMatrixRepeats)(
      llvm::ArrayRef<int64_t> d, llvm::ArrayRef<int64_t> a) = nullptr;
  /// Whether an NVVM dialect op yields exactly `instruction`, so that LLVM
  /// knows a collective is convergent (never duplicated, sunk or
  /// predicated per lane) instead of seeing inline PTX.
  bool (*hasExactNVVMOp)(const Instruction &instruction) = nullptr;
  /// One `instruction` as its NVVM op. `sources`: its source operands'
  /// values in PTX order (storage types); `resultTypes`: the storage types
  /// of its register destinations. Returns the destinations' values.
  llvm::SmallVector<Value> (*buildNVVMOp)(
      OpBuilder &builder, Location loc, const Instruction &instruction,
      llvm::ArrayRef<Value> sources,
      llvm::ArrayRef<Type> resultTypes) = nullptr;
  /// Its TMA operand reads a tensor map rather than a box through it
  /// (prefetch.tensormap).
  bool readsTensorMapItself = false;
  /// Why the race proof (docs/races.md) cannot judge a kernel that uses
  /// `instruction`, for its warning; empty (or a null hook) when its shared
  /// memory accesses complete with the instruction and it orders no threads
  /// beyond the CTA barriers the proof knows.
  llvm::StringRef (*getRaceProofGap)(const Instruction &instruction) =
      nullptr;
  /// Whether `instruction` is an atomic read-modify-write, which races with
  /// plain accesses of its bytes but not with other atomics (null: none
  /// is).
  bool (*isAtomicAccess)(const Instruction &instruction) = nullptr;
  /// The instruction's part in grouped asynchronous copies (null: none).
  AsyncGroupEvent (*getAsyncGroupEvent)(const Instruction &instruction) =
      nullptr;
  /// The instruction's part in mbarrier phases (null: none).
  MbarrierEvent (*getMbarrierEvent)(const Instruction &instruction) = nullptr;
};

/// The module `id` names. The first call checks the table against the
/// modules: every operand word an entry writes is a kind some module
/// declares, and no two modules declare one (a fatal error naming the
/// entry otherwise).
const FamilyModule &getFamilyModule(FamilyModuleId id);
inline const FamilyModule &getFamilyModule(const Instruction &instruction) {
  return getFamilyModule(instruction.module);
}

/// The operand kind of the operand at `position` of `instruction`, or
/// nullptr when the table gives it none.
const OperandKind *getOperandKind(const Instruction &instruction,
                                  unsigned position);

/// Whether an NVVM op yields exactly `instruction` (its module's hook).
bool hasExactNVVMOp(const Instruction &instruction);

} // namespace mlir::tirx::ptx

#endif // TIRX_DIALECT_TILE_FAMILIES_FAMILYMODULE_H
