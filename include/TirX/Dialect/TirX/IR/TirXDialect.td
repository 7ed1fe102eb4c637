//===- TirXDialect.td - The tirx dialect -------------------*- tablegen -*-===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//

#ifndef TIRX_DIALECT_TIRX_IR_TIRXDIALECT_TD
#define TIRX_DIALECT_TIRX_IR_TIRXDIALECT_TD

include "mlir/IR/OpBase.td"

def TirX_Dialect : Dialect {
  let name = "tirx";
  let cppNamespace = "::mlir::tirx";
  let summary = "Kernels and typed tensors in global, shared and local memory";
  let description = [{
    The `tirx` dialect holds the program structure of a TirX tile program:
    `tirx.kernel` (a GPU kernel with its launch configuration), tensors in
    `global`, `shared` and `local` (register) memory, their views and
    regions, thread/block indices and barriers. The `#tirx.layout` attribute
    (a `TileLayout`) says which thread owns each element of a register tile
    and in which per-thread slot; see `docs/guide.md`.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
  let useDefaultAttributePrinterParser = 1;
  let useDefaultTypePrinterParser = 1;
  let hasConstantMaterializer = 0;
  let extraClassDeclaration = [{
    void registerAttributes();
    void registerTypes();

    /// Name of the discardable attribute (on any ancestor, usually the
    /// module) that names the target chip, e.g. `tirx.chip = "sm_90"`.
    static constexpr ::llvm::StringLiteral kChipAttrName = "tirx.chip";
    /// Name of the discardable integer attribute naming the target PTX ISA
    /// version times ten (`tirx.ptx = 80` for PTX 8.0); default 80, what
    /// `--tirx-to-ptx` emits unless its `features` say otherwise.
    static constexpr ::llvm::StringLiteral kPTXAttrName = "tirx.ptx";
    static constexpr unsigned kDefaultPTX = 80;
    /// Argument attributes of a kernel's size variable: an `index` argument
    /// `%n: index {tirx.size = "n", tirx.multiple_of = 4 : i64,
    /// tirx.at_most = 4096 : i64}` whose value the launcher takes from the
    /// extents named `n` in tensor types, and checks: a multiple of 4, at
    /// most 4096.
    static constexpr ::llvm::StringLiteral kSizeAttrName = "tirx.size";
    static constexpr ::llvm::StringLiteral kMultipleOfAttrName =
        "tirx.multiple_of";
    static constexpr ::llvm::StringLiteral kAtMostAttrName = "tirx.at_most";
    /// Set by tirx-lower-tensors on a gpu.func whose shared tensors live in
    /// dynamic shared memory: the bytes each launch must pass.
    static constexpr ::llvm::StringLiteral kDynamicSharedAttrName =
        "tirx.dynamic_shared_bytes";
  }];
}

class TirX_Op<string mnemonic, list<Trait> traits = []>
    : Op<TirX_Dialect, mnemonic, traits>;

#endif // TIRX_DIALECT_TIRX_IR_TIRXDIALECT_TD
