//===- TileOps.td - tile operations ------------------------*- tablegen -*-===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//

#ifndef TIRX_DIALECT_TILE_IR_TILEOPS_TD
#define TIRX_DIALECT_TILE_IR_TILEOPS_TD

include "TirX/Dialect/Tile/IR/TileAttrs.td"
include "mlir/IR/EnumAttr.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "TirX/Dialect/TirX/IR/TirXInterfaces.td"

def Tile_Scope : I32EnumAttr<"Scope", "the threads that execute a tile operation together", [
      I32EnumAttrCase<"thread", 0>,
      I32EnumAttrCase<"warp", 1>,
      I32EnumAttrCase<"warpgroup", 2>,
      I32EnumAttrCase<"cta", 3>
    ]> {
  let cppNamespace = "::mlir::tirx::tile";
}

// Operands of tile.apply / tile.ewise, in PTX (or parameter) order, are a
// mix of SSA values and typed immediates. `$args` holds the SSA values;
// `$operand_kinds` has one entry per operand: `unit` for the next SSA value,
// or the typed immediate itself.
defvar Tile_MixedOperands = (ins
    Variadic<AnyType>:$args,
    ArrayAttr:$operand_kinds);

def Tile_ApplyOp : Tile_Op<"apply", [AttrSizedOperandSegments,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
    DeclareOpInterfaceMethods<TirX_TensorAccessOpInterface,
                              ["isAccessClipped", "canMaskAccess"]>,
    DeclareOpInterfaceMethods<TirX_RegisterLimitOpInterface>]> {
  let summary = "Repeats one named PTX instruction over a tile";
  let description = [{
    ```mlir
    tile.apply "fma.rn.f32" scope(cta) (%s, %s, 2.0 : f32, 1.0 : f32)
        : !tirx.tensor<2x32x4x1xf32, local, #reg>,
          !tirx.tensor<2x32x4x1xf32, local, #reg>
    ```
    The instruction is spelled exactly as in PTX; the `#tile.ptx`
    attribute parses it once against the PTX instruction table
    (docs/instruction-model.md). Operands follow PTX order, destination
    first; each is a tensor, a scalar SSA value, or a typed immediate
    (scalars broadcast over every repeat). `pred(%p)` gates every emitted
    instruction.

    Every tensor operand is viewed as `group × repeat × atom`: `scope`
    fixes the group prefix (thread: none; warp: lanes (32); warpgroup:
    (4 warps, 32 lanes); cta: (block/32 warps, 32 lanes)), the innermost
    dimension is the instruction's atom for that operand (e.g. 4 for
    `.v4.b32`, 1 for a register instruction), and the dimensions between are
    repeats: one instruction per repeat coordinate, in row-major order.
    A warp-collective instruction (shfl.sync, vote.sync, redux.sync,
    bar.*; docs/collectives.md) absorbs the lanes into its atom: the group
    prefix is the warps (warp: none; warpgroup: (4); cta: (block/32)), the
    atom is the instruction's fragment (`S[(32) : (1@laneid)]`), every lane
    takes part (membermask -1), and `pred` and the branches around it must
    be the same in every lane of a warp; it lowers to the NVVM op that
    yields it (a `pred` becomes an `scf.if`).

    The verifier proves: legal spelling and operand count, the target chip
    meets the instruction's SM and PTX ISA floors, operand roles and
    element types, group extents equal the active threads, equal group ×
    repeat shapes, every register element owned by the issuing thread (a
    collective operand: laid out as the fragment), destinations distinct
    across repeats, and every memory atom contiguous and aligned to the
    vector size. The enclosing kernel proves every memory operand inside its
    tensor wherever `pred` holds (docs/bounds.md).
  }];
  let arguments = !con((ins Tile_PTXInstructionAttr:$instruction,
                            Tile_Scope:$scope),
                       Tile_MixedOperands, (ins Optional<I1>:$pred));
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

def Tile_EwiseOp : Tile_Op<"ewise", [
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "Inlines a scalar function once per tile element";
  let description = [{
    ```mlir
    func.func private @silu(%x: f32) -> f32 { ... }
    ...
    tile.ewise @silu scope(cta) (%r, %r)
        : !tirx.tensor<2x32x4xf32, local, #reg>,
          !tirx.tensor<2x32x4xf32, local, #reg>
    ```
    The first operand is the destination, the rest are the function's
    arguments in order: tensors of the destination's shape (no atom axis:
    every coordinate is one invocation, spec §4), scalar values or typed
    immediates (broadcast). Parameter types equal the input element types
    and the result type equals the destination element type; there is no
    implicit cast. The callee must be a `func.func` with scalar parameters
    and one scalar result.
  }];
  let arguments = !con((ins FlatSymbolRefAttr:$callee, Tile_Scope:$scope),
                       Tile_MixedOperands);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

#endif // TIRX_DIALECT_TILE_IR_TILEOPS_TD
