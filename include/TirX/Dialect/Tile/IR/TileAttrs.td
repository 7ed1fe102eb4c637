//===- TileAttrs.td - tile attributes ----------------------*- tablegen -*-===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//

#ifndef TIRX_DIALECT_TILE_IR_TILEATTRS_TD
#define TIRX_DIALECT_TILE_IR_TILEATTRS_TD

include "TirX/Dialect/Tile/IR/TileDialect.td"
include "mlir/IR/AttrTypeBase.td"

def Tile_PTXInstructionAttr : AttrDef<Tile_Dialect, "PTXInstruction"> {
  let mnemonic = "ptx";
  let summary = "One PTX instruction, parsed against the PTX table";
  let description = [{
    `#tile.ptx<"fma.rn.f32">` names one PTX instruction by its spelling.
    The spelling is parsed once, when the attribute is created, against the
    PTX instruction table (docs/instruction-model.md); an illegal spelling
    is an error there, located at the attribute. The attribute keeps every
    form the spelling names (forms of different operand counts share
    spellings: two- and three-input min/max, shfl with and without `|p`),
    so the verifier, the side-effect interface and tile-dispatch read the
    parsed instruction instead of parsing the string again.
  }];
  let parameters = (ins StringRefParameter<"the spelling">:$spelling);
  // The storage also holds the parsed forms (TileAttrs.h).
  let genStorageClass = 0;
  let assemblyFormat = "`<` $spelling `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Every form the spelling names, of every operand count, in table
    /// order (empty only for an attribute made unchecked from an illegal
    /// spelling).
    ::llvm::ArrayRef<::mlir::tirx::ptx::Instruction> getForms() const;
    /// The canonical spelling (tokens in table slot order).
    ::llvm::StringRef getCanonicalSpelling() const;
  }];
}

#endif // TIRX_DIALECT_TILE_IR_TILEATTRS_TD
