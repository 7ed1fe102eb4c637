//===- TirXOps.td - tirx operations ------------------------*- tablegen -*-===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//

#ifndef TIRX_DIALECT_TIRX_IR_TIRXOPS_TD
#define TIRX_DIALECT_TIRX_IR_TIRXOPS_TD

include "TirX/Dialect/TirX/IR/TirXTypes.td"
include "TirX/Dialect/TirX/IR/TirXInterfaces.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/FunctionInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/ViewLikeInterface.td"
include "mlir/IR/OpAsmInterface.td"
include "mlir/Dialect/LLVMIR/LLVMTypes.td"

def TirX_AnyTensor : Type<CPred<"::llvm::isa<::mlir::tirx::TensorType>($_self)">,
                          "TirX tensor", "::mlir::tirx::TensorType">;

//===----------------------------------------------------------------------===//
// Kernel structure
//===----------------------------------------------------------------------===//

def TirX_KernelOp : TirX_Op<"kernel", [
    IsolatedFromAbove, FunctionOpInterface, Symbol,
    AutomaticAllocationScope]> {
  let summary = "A GPU kernel with its launch configuration";
  let description = [{
    ```mlir
    tirx.kernel @affine_relu(%A: !tirx.tensor<2x32x4xf32, global, align = 16>,
                             %B: !tirx.tensor<2x32x4xf32, global, align = 16>)
        launch(grid = [1], block = [64]) {
      ...
      tirx.return
    }
    ```
    Arguments are global tensors or scalars (integers, floats); a kernel
    returns nothing. The body is a single block ended by `tirx.return`.
    Every tile operation inside executes in all `block` threads of each of
    the `grid` blocks.
  }];
  let arguments = (ins SymbolNameAttr:$sym_name,
                       TypeAttrOf<FunctionType>:$function_type,
                       TirX_LaunchConfigAttr:$launch,
                       OptionalAttr<DictArrayAttr>:$arg_attrs,
                       OptionalAttr<DictArrayAttr>:$res_attrs);
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    // FunctionOpInterface.
    ::mlir::Region *getCallableRegion() { return &getBody(); }
    ::llvm::ArrayRef<::mlir::Type> getArgumentTypes() {
      return getFunctionType().getInputs();
    }
    ::llvm::ArrayRef<::mlir::Type> getResultTypes() {
      return getFunctionType().getResults();
    }
    /// The size-variable part of the verifier (docs/sizes.md).
    ::mlir::LogicalResult verifySizeVariables();
  }];
}

def TirX_ReturnOp : TirX_Op<"return", [Pure, Terminator, ReturnLike,
                                       HasParent<"KernelOp">]> {
  let summary = "Ends a kernel";
  let assemblyFormat = "attr-dict";
}

def TirX_LaunchOp : TirX_Op<"launch", [
    DeclareOpInterfaceMethods<SymbolUserOpInterface>,
    MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "Launches a tirx.kernel from host code";
  let description = [{
    ```mlir
    func.func @main() {
      %a = gpu.alloc () : memref<256xf32>
      ...
      tirx.launch @affine_relu(%a, %b) : memref<256xf32>, memref<256xf32>
      return
    }
    ```
    Host code launches a kernel with its launch configuration. A global
    tensor parameter takes a memref (its aligned pointer is passed) or an
    `!llvm.ptr<1>`; a scalar parameter takes a value of the same type.
    `tirx-to-gpu` turns it into `gpu.launch_func`. The launch is
    asynchronous on the default stream, as `gpu.launch_func` without
    tokens is.
  }];
  let arguments = (ins FlatSymbolRefAttr:$kernel, Variadic<AnyType>:$args);
  let assemblyFormat = [{
    $kernel `(` $args `)` attr-dict (`:` type($args)^)?
  }];
}

//===----------------------------------------------------------------------===//
// Storage
//===----------------------------------------------------------------------===//

class TirX_AllocOp<string mnemonic>
    : TirX_Op<mnemonic, [
        DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmResultNames"]>]> {
  let results = (outs Res<TirX_AnyTensor, "",
                          [MemAlloc<AutomaticAllocationScopeResource>]>:$result);
  let assemblyFormat = "attr-dict `:` qualified(type($result))";
  let hasVerifier = 1;
}

def TirX_AllocLocalOp : TirX_AllocOp<"alloc_local"> {
  let summary = "Allocates a register tile";
  let description = [{
    `%r = tirx.alloc_local : !tirx.tensor<2x32x4xf32, local, #layout>`
    allocates the per-thread storage of a register tile: each thread holds
    `span(m)` slots of its layout's storage view. Contents are undefined.
  }];
}

def TirX_AllocSharedOp : TirX_AllocOp<"alloc_shared"> {
  let summary = "Allocates a tile in the CTA's shared memory";
  let description = [{
    `%s = tirx.alloc_shared : !tirx.tensor<64x4xf32, shared, align = 16>`
    allocates `span(m)` elements of shared memory, one copy per CTA.
  }];
}

//===----------------------------------------------------------------------===//
// Views and regions
//===----------------------------------------------------------------------===//

def TirX_ViewOp : TirX_Op<"view", [Pure,
    DeclareOpInterfaceMethods<ViewLikeOpInterface>]> {
  let summary = "Reinterprets a tensor with another shape or element type";
  let description = [{
    A view shares its source's storage:

    - *Shape view* (same element type): any shape with the same element
      count; the layout is unchanged (a layout is rank-agnostic), e.g.
      `tensor<2x32x4xf32>` viewed as `2x32x4x1` to expose one-element atoms.
    - *Dtype view*: bit reinterpretation (spec §1.9). Same width: layout and
      shape unchanged. Narrower by a ratio n: the innermost dimension is
      multiplied by n and the layout is `unpack(n)`. Wider by n: the
      innermost dimension must be divisible by n, it is divided by n and the
      layout is `pack(n)`. Only the storage type changes, never the numeric
      type of an instruction.

    Space and alignment are kept. The result type is written out and
    checked against the rule above.
  }];
  let arguments = (ins TirX_AnyTensor:$source);
  let results = (outs TirX_AnyTensor:$result);
  let assemblyFormat =
      "$source attr-dict `:` qualified(type($source)) `->` qualified(type($result))";
  let hasVerifier = 1;
}

def TirX_ReinterpretOp : TirX_Op<"reinterpret", [Pure,
    DeclareOpInterfaceMethods<ViewLikeOpInterface>]> {
  let summary = "A tensor of another shape and layout over the same storage";
  let description = [{
    ```mlir
    %b = tirx.reinterpret %s : !tirx.tensor<8xf32, shared>
        -> !tirx.tensor<8x32x1xf32, shared, #tirx.layout<S[(8, 32, 1) : (1, 0, 1)]>>
    ```
    declares a new tensor over its source's storage (TIRx's `decl_tensor`
    over a buffer): any shape and layout whose storage lies within the
    source's, i.e. the result's span on `m` (element offsets of a memory
    tensor; per-thread register slots of a local one) is at most the
    source's. This is how one storage is seen with different owners: a
    shared row written one value per warp (lanes broadcast, stride 0) and
    read back by every thread, or a thread's private registers used as a
    per-lane operand of a collective. Element type, memory space and
    alignment are kept (dtypes change with `tirx.view`); both tensors have
    static shapes.
  }];
  let arguments = (ins TirX_AnyTensor:$source);
  let results = (outs TirX_AnyTensor:$result);
  let assemblyFormat =
      "$source attr-dict `:` qualified(type($source)) `->` qualified(type($result))";
  let hasVerifier = 1;
}

def TirX_RegionOp : TirX_Op<"region", [Pure,
    DeclareOpInterfaceMethods<ViewLikeOpInterface>,
    DeclareOpInterfaceMethods<InferTypeOpInterface>]> {
  let summary = "Selects a rank-preserving sub-tile with static or SSA offsets";
  let description = [{
    ```mlir
    %tile = tirx.region %A[%bx, 0, 0, 0] [1, 2, 32, 4]
        : !tirx.tensor<1024x2x32x4xf32, global, align = 16>
    ```
    selects, per dimension, `size` elements starting at `offset`. Offsets
    are constants or `index` values (e.g. a block index); sizes are
    constants. The result type is inferred: same element type and space,
    shape = sizes, the source layout restricted to the region (static
    offsets are folded into the layout's offset), and the alignment that
    can be proven for the base after dynamic offsets. Dynamic offsets need
    the dimension to map to a single layout iter and are not allowed on
    local tensors (register slots are constants). Out-of-range static
    regions are rejected; dynamic offsets are proven in bounds by the
    enclosing kernel for every access through the region (docs/bounds.md).

    Without a claim, the result's alignment is what the strides alone
    prove (a dynamic offset may be any integer). `align 16` claims the
    base is 16-byte aligned for every value of the offsets; the kernel's
    verifier proves the claim (e.g. `%i * 4` floats from a 16-byte aligned
    base) or rejects it with a witness.

    A region of a tensor with runtime extents (docs/sizes.md) selects one
    index in every dimension outside its innermost runtime extent; all its
    offsets move the base at run time. The exception is a TMA box (every use
    a tensor-map operand, which the hardware clips): it may span several
    indices of runtime-strided dimensions, and its type is the box in its
    own row-major order.

    `masked` makes a region of a global tensor that may overhang the
    tensor's end usable by tile ops: an access through it happens only
    where all its elements are inside the tensor (`tile.apply` predicates
    each repeat of the instruction; a skipped load leaves its registers as
    they were). The bounds proof then proves only that the offsets are not
    negative. Its uses are memory operands of thread-level `tile.apply`
    instructions, directly or through `tirx.view` reshapes
    (docs/sizes.md, "Masked regions").
  }];
  let arguments = (ins TirX_AnyTensor:$source,
                       Variadic<Index>:$offsets,
                       DenseI64ArrayAttr:$static_offsets,
                       DenseI64ArrayAttr:$static_sizes,
                       UnitAttr:$masked,
                       OptionalAttr<I64Attr>:$align);
  let results = (outs TirX_AnyTensor:$result);
  let assemblyFormat = [{
    $source custom<DynamicIndexList>($offsets, $static_offsets)
    $static_sizes (`masked` $masked^)? (`align` $align^)? attr-dict `:`
    qualified(type($source))
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// Per dynamic offset (in operand order): the element stride it is
    /// multiplied by on the memory axis of the source layout.
    ::llvm::SmallVector<int64_t> getDynamicOffsetStrides();
  }];
}

//===----------------------------------------------------------------------===//
// Thread and block indices, synchronization
//===----------------------------------------------------------------------===//

def TirX_ThreadIdxOp : TirX_Op<"thread_idx", [Pure,
    DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmResultNames"]>]> {
  let summary = "The executing thread's index in its block along a dimension";
  let arguments = (ins TirX_Dim:$dim);
  let results = (outs Index:$result);
  let assemblyFormat = "$dim attr-dict";
}

def TirX_BlockIdxOp : TirX_Op<"block_idx", [Pure,
    DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmResultNames"]>]> {
  let summary = "The executing block's index in the grid along a dimension";
  let arguments = (ins TirX_Dim:$dim);
  let results = (outs Index:$result);
  let assemblyFormat = "$dim attr-dict";
}

def TirX_CtaSyncOp : TirX_Op<"cta_sync", [
    MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "Barrier across the threads of a CTA (bar.sync 0)";
  let assemblyFormat = "attr-dict";
}

def TirX_PrintOp : TirX_Op<"print", [MemoryEffects<[MemWrite]>]> {
  let summary = "Prints values from every thread that executes it (printf)";
  let description = [{
    ```mlir
    tirx.print "row %d: max %f\n" (%row, %max) : index, f32
    ```
    prints the C `printf` format once per executing thread, as CUDA's
    `printf` does: on the GPU through `vprintf` (the output appears when the
    kernel completes, threads in no defined order), on the interpreter at
    once, lane by lane. Conversions take integers (`d i u x X o c`, with an
    `l`/`ll` length for 64 bits) or floats (`f e g a`, printed as double);
    `%%` prints `%`. Put it under `scf.if` (or a predicate) to print from
    one thread.
  }];
  let arguments = (ins StrAttr:$format,
                       Variadic<AnyTypeOf<[AnyInteger, Index, AnyFloat]>>:$args);
  let assemblyFormat = [{
    $format attr-dict (`(` $args^ `)` `:` type($args))?
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Per-thread element access (produced by tile-dispatch)
//===----------------------------------------------------------------------===//

def TirX_SlotLoadOp : TirX_Op<"slot_load", [MemoryEffects<[MemRead]>]> {
  let summary = "Reads one register slot of the executing thread";
  let description = [{
    `%x = tirx.slot_load %regs[5] : !tirx.tensor<...> -> f32` reads slot 5
    of the executing thread's storage of a local tile (the `m` coordinate of
    its layout). Produced by `tile-dispatch`; slots are always constants, so
    the storage can live in registers.
  }];
  let arguments = (ins TirX_AnyTensor:$tile, I64Attr:$slot);
  let results = (outs AnyType:$value);
  let assemblyFormat = [{
    $tile `[` $slot `]` attr-dict `:` qualified(type($tile)) `->` type($value)
  }];
  let hasVerifier = 1;
}

def TirX_SlotStoreOp : TirX_Op<"slot_store", [MemoryEffects<[MemWrite]>]> {
  let summary = "Writes one register slot of the executing thread";
  let arguments = (ins AnyType:$value, TirX_AnyTensor:$tile, I64Attr:$slot);
  let assemblyFormat = [{
    $value `,` $tile `[` $slot `]` attr-dict `:` type($value) `,`
    qualified(type($tile))
  }];
  let hasVerifier = 1;
}

def TirX_ElementPtrOp : TirX_Op<"element_ptr", [Pure]> {
  let summary = "The address of one element of a global or shared tensor";
  let description = [{
    `%p = tirx.element_ptr %A[%w, %l, 0] : !tirx.tensor<...> -> !llvm.ptr<1>`
    is the address of the element at the given logical coordinate:
    `base + layout.apply(coordinate)[m] * sizeof(element)`. Global tensors
    give `!llvm.ptr<1>`, shared tensors `!llvm.ptr<3>`.
  }];
  let arguments = (ins TirX_AnyTensor:$tensor, Variadic<Index>:$indices);
  let results = (outs LLVM_AnyPointer:$ptr);
  let assemblyFormat = [{
    $tensor `[` $indices `]` attr-dict `:` qualified(type($tensor)) `->`
    qualified(type($ptr))
  }];
  let hasVerifier = 1;
}

#endif // TIRX_DIALECT_TIRX_IR_TIRXOPS_TD
