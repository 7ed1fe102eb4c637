//===- TirXAttrs.td - tirx attributes and enums ------------*- tablegen -*-===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//

#ifndef TIRX_DIALECT_TIRX_IR_TIRXATTRS_TD
#define TIRX_DIALECT_TIRX_IR_TIRXATTRS_TD

include "TirX/Dialect/TirX/IR/TirXDialect.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"

//===----------------------------------------------------------------------===//
// Enums
//===----------------------------------------------------------------------===//

def TirX_MemorySpace : I32EnumAttr<"MemorySpace",
    "where a tensor's storage lives", [
      I32EnumAttrCase<"global", 0>,
      I32EnumAttrCase<"shared", 1>,
      I32EnumAttrCase<"local", 2>
    ]> {
  let cppNamespace = "::mlir::tirx";
  let genSpecializedAttr = 0;
}

def TirX_Dim : I32EnumAttr<"Dim", "a dimension of the thread/block grid", [
      I32EnumAttrCase<"x", 0>,
      I32EnumAttrCase<"y", 1>,
      I32EnumAttrCase<"z", 2>
    ]> {
  let cppNamespace = "::mlir::tirx";
}

//===----------------------------------------------------------------------===//
// Attributes
//===----------------------------------------------------------------------===//

class TirX_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<TirX_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

def TirX_TileLayoutAttr : TirX_Attr<"TileLayout", "layout"> {
  let summary = "Distribution of a tile over threads and per-thread slots";
  let description = [{
    A `TileLayout` in the notation of the TIRx tile layer:

    ```mlir
    #tirx.layout<S[(2, 32, 4) : (1@warpid, 1@laneid, 1)]>
    #tirx.layout<S[(8, 2, 4, 2) : (4@laneid, 1@warpid, 1@laneid, 1)]
                 + R[2 : 4@warpid] + 5@warpid>
    #tirx.layout<S[4, 8]>          // row-major on the memory axis m
    #tirx.layout<S[64, 64] + Swizzle[3, 3, 3]>  // 128B swizzle of f16
    ```

    `S[extents : strides]` is the shard, `R[...]` the replica, `+ k@axis`
    offsets (a bare `+ k` is on `m`). A stride without `@axis` is on the
    memory axis `m`; a term without strides is row-major. `Swizzle[p, s, a]`
    (TIRx's ComposeLayout: per_element, swizzle_len, atom_len, and `, outer`
    for swizzle_inner = false) XORs the memory coordinate after the other
    terms; only `shared` tensors take it. Axes: `laneid`,
    `warpid`, `wgid`, `wid_in_wg`, `tid_in_wg`, `tx`, `bx`, `by`, `bz`, `m`.
    The attribute prints the canonical notation with explicit strides. The
    math lives in the `TileLayout` C++ class (`TirX/Layout/TileLayout.h`).
  }];
  let parameters = (ins AttrParameter<"::mlir::tirx::TileLayout", "">:$value);
  let hasCustomAssemblyFormat = 1;
  let returnType = "::mlir::tirx::TileLayout";
  let convertFromStorage = "$_self.getValue()";
}

def TirX_LaunchConfigAttr : TirX_Attr<"LaunchConfig", "launch"> {
  let summary = "Grid and block extents of a kernel launch";
  let description = [{
    `#tirx.launch<grid = [4, 2], block = [64]>`: one to three extents each,
    x first. Printed inline by `tirx.kernel` as
    `launch(grid = [4, 2], block = [64])`.

    A grid extent may depend on the kernel's size variables:
    `launch(grid = [%n ceildiv 1024], block = [256])`. Such an extent is
    `?` in `grid`, and `grid_sizes` is an affine map whose symbols are the
    kernel's arguments (symbol i = argument i, a size variable) with one
    result per `?`, in order. The launcher evaluates it.

    `cluster` (sm_90+): the thread-block cluster's extents, x first, as
    many as the grid's; each divides the grid's extent (a static one at
    compile time, a runtime one at launch), at most 8 CTAs in all (the
    portable cluster size). Printed `launch(grid = [8], block = [384],
    cluster = [2])`; the PTX gets `.reqnctapercluster`.
  }];
  let parameters = (ins ArrayRefParameter<"int64_t">:$grid,
                        ArrayRefParameter<"int64_t">:$block,
                        OptionalParameter<"::mlir::AffineMap">:$gridSizes,
                        OptionalArrayRefParameter<"int64_t">:$cluster);
  let assemblyFormat = [{
    `<` `grid` `=` `[` $grid `]` `,` `block` `=` `[` $block `]`
    (`,` `grid_sizes` `=` $gridSizes^)? (`,` `cluster` `=` `[` $cluster^ `]`)? `>`
  }];
  let builders = [
    AttrBuilder<(ins "::llvm::ArrayRef<int64_t>":$grid,
                     "::llvm::ArrayRef<int64_t>":$block), [{
      return $_get($_ctxt, grid, block, ::mlir::AffineMap(),
                   ::llvm::ArrayRef<int64_t>());
    }]>,
    AttrBuilder<(ins "::llvm::ArrayRef<int64_t>":$grid,
                     "::llvm::ArrayRef<int64_t>":$block,
                     "::mlir::AffineMap":$gridSizes), [{
      return $_get($_ctxt, grid, block, gridSizes, ::llvm::ArrayRef<int64_t>());
    }]>
  ];
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Threads per block (product of the block extents).
    int64_t getNumThreads() const;
    /// Whether the kernel is launched in thread-block clusters.
    bool hasCluster() const { return !getCluster().empty(); }
    /// CTAs per cluster (1 without clusters).
    int64_t getNumClusterCTAs() const;
    /// Whether every grid extent is a constant.
    bool hasStaticGrid() const { return !getGridSizes(); }
    /// The affine expression of grid extent `dim` over the kernel's
    /// arguments (a constant for a static extent).
    ::mlir::AffineExpr getGridExpr(unsigned dim) const;
    /// Grid extent `dim` for the arguments `argument(i)` gives (nothing for
    /// an argument it does not know, an overflow, or a division by a
    /// non-positive value).
    std::optional<int64_t> evaluateGridExtent(
        unsigned dim,
        ::llvm::function_ref<std::optional<int64_t>(unsigned)> argument) const;
  }];
}

#endif // TIRX_DIALECT_TIRX_IR_TIRXATTRS_TD
