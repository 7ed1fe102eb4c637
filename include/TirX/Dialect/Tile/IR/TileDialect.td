//===- TileDialect.td - The tile dialect -------------------*- tablegen -*-===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//

#ifndef TIRX_DIALECT_TILE_IR_TILEDIALECT_TD
#define TIRX_DIALECT_TILE_IR_TILEDIALECT_TD

include "mlir/IR/OpBase.td"

def Tile_Dialect : Dialect {
  let name = "tile";
  let cppNamespace = "::mlir::tirx::tile";
  let summary = "Tile operations: one named PTX instruction or scalar function over a tile";
  let description = [{
    `tile.apply` repeats one explicitly named PTX instruction over a tile;
    `tile.ewise` inlines a scalar function once per element. Operands are
    viewed as `group × repeat × atom` (spec §2.2): the group axes are bound
    to the executing threads by the scope, each repeat coordinate issues one
    instruction, and the atom is fixed by the instruction. Everything is
    checked statically; see `docs/guide.md`.
  }];
  let dependentDialects = ["::mlir::tirx::TirXDialect"];
  let useDefaultAttributePrinterParser = 1;
  let extraClassDeclaration = [{
    void registerAttributes();
    /// Register operands whose checks passed (CheckedOperandCache.h).
    CheckedOperandCache &getCheckedOperands() const {
      return *checkedOperands;
    }

  private:
    std::unique_ptr<CheckedOperandCache> checkedOperands;

  public:
  }];
}

class Tile_Op<string mnemonic, list<Trait> traits = []>
    : Op<Tile_Dialect, mnemonic, traits>;

#endif // TIRX_DIALECT_TILE_IR_TILEDIALECT_TD
