//===- TirXTypes.td - tirx types ---------------------------*- tablegen -*-===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//

#ifndef TIRX_DIALECT_TIRX_IR_TIRXTYPES_TD
#define TIRX_DIALECT_TIRX_IR_TIRXTYPES_TD

include "TirX/Dialect/TirX/IR/TirXAttrs.td"

def TirX_TensorType : TypeDef<TirX_Dialect, "Tensor"> {
  let mnemonic = "tensor";
  let summary = "A typed reference to tile storage in global, shared or local memory";
  let description = [{
    `!tirx.tensor<2x32x4xf32, local, #tirx.layout<...>, align = 16>`

    A tensor has memory semantics (like `memref`): ops that read or write it
    declare memory effects. Its parts:
    - a static shape with positive extents and a scalar element type
      (`f16`, `bf16`, `f32`, `f64`, or an integer type; signless `iN`
      means signed, `uiN` unsigned);
    - the memory space: `global`, `shared`, or `local` (per-thread
      registers);
    - an optional `TileLayout`. Without one the layout is row-major on `m`:
      a global/shared tensor is then dense row-major, and a local tensor is
      a private row-major array in every thread. Global and shared layouts
      use only the memory axis `m` (element offsets); local layouts may
      distribute elements over threads, and their `m` is the per-thread
      slot. The layout's size must equal the element count;
    - an optional base alignment in bytes (`align = 16`, a power of two).
      Without one, the element size is assumed.

    A global tensor (a kernel parameter) may have runtime extents, written
    `?` and named by size variables in order:
    `!tirx.tensor<?x1024xf32, global, sizes = [n], align = 16>`. Each name
    is a size variable of the kernel (an `index` argument with
    `tirx.size = "n"`); its value comes from the tensor's shape at launch.
    Such a tensor is dense row-major (no layout) and is accessed through
    `tirx.region`s of static size.
  }];
  let parameters = (ins
    ArrayRefParameter<"int64_t">:$shape,
    "::mlir::Type":$elementType,
    "::mlir::tirx::MemorySpace":$memorySpace,
    OptionalParameter<"::mlir::tirx::TileLayoutAttr">:$layout,
    DefaultValuedParameter<"int64_t", "0">:$alignment,
    OptionalParameter<"::mlir::ArrayAttr">:$sizeNames
  );
  let builders = [
    TypeBuilder<(ins "::llvm::ArrayRef<int64_t>":$shape,
                     "::mlir::Type":$elementType,
                     "::mlir::tirx::MemorySpace":$memorySpace,
                     CArg<"::mlir::tirx::TileLayoutAttr", "{}">:$layout,
                     CArg<"int64_t", "0">:$alignment), [{
      return $_get($_ctxt, shape, elementType, memorySpace, layout, alignment,
                   ::mlir::ArrayAttr());
    }]>
  ];
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let skipDefaultBuilders = 0;
  let extraClassDeclaration = [{
    /// Whether every extent is a constant (no size variable).
    bool hasStaticShape() const;
    /// The size variable of dimension `dim`, or null for a constant extent.
    ::mlir::StringAttr getSizeName(unsigned dim) const;
    /// Dimension `dim`'s row-major stride (in elements) is the product of
    /// the extents inside it: this is the product of the constant ones;
    /// `getRuntimeStrideFactors` are the size variables among them.
    int64_t getStaticStrideFactor(unsigned dim) const;
    ::llvm::SmallVector<::mlir::StringAttr>
    getRuntimeStrideFactors(unsigned dim) const;
    /// The layout, or the row-major default over the shape. Needs a static
    /// shape.
    ::mlir::tirx::TileLayout getLayoutOrDefault() const;
    /// The declared alignment in bytes, or the element size without one.
    int64_t getAlignmentOrDefault() const;
    /// Bytes per element (bit width rounded up to whole bytes).
    int64_t getElementBytes() const;
    /// Product of the shape. Needs a static shape.
    int64_t getNumElements() const;
    /// The LLVM address space of the storage: global 1, shared 3, local 0.
    unsigned getLLVMAddressSpace() const;
    /// getStorageType of the element type.
    ::mlir::Type getStorageElementType() const;
    bool isGlobal() const { return getMemorySpace() == MemorySpace::global; }
    bool isShared() const { return getMemorySpace() == MemorySpace::shared; }
    bool isLocal() const { return getMemorySpace() == MemorySpace::local; }
  }];
}

#endif // TIRX_DIALECT_TIRX_IR_TIRXTYPES_TD
