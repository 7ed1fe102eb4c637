//===- Passes.td - TirX conversion passes ------------------*- tablegen -*-===//
//
// Part of the TirX project.
//
//===----------------------------------------------------------------------===//

#ifndef TIRX_CONVERSION_PASSES_TD
#define TIRX_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def TirXToGPU : Pass<"tirx-to-gpu", "::mlir::ModuleOp"> {
  let summary = "Turn tirx.kernel into gpu.func kernels inside a gpu.module";
  let description = [{
    Moves every `tirx.kernel` into a `gpu.func ... kernel` of the
    `gpu.module @tirx_kernels` (created on demand, the module becomes a
    `gpu.container_module`), with `known_block_size` and `known_grid_size`
    from its launch configuration. `tirx.thread_idx`/`tirx.block_idx` become
    `gpu.thread_id`/`gpu.block_id`, `tirx.cta_sync` becomes `gpu.barrier`,
    `tirx.return` becomes `gpu.return`. Scalar functions used by
    `tile.ewise` are copied into the GPU module. Tensors are untouched.
    For embedders, each kernel gets a host function `@<kernel>_launch` with
    the same arguments that launches it through `gpu.launch_func` with its
    grid and block, and host-side `tirx.launch` ops become
    `gpu.launch_func`. A kernel with size variables (docs/sizes.md) is
    launched with the grid its expressions give; `tirx.launch` takes each
    size from the first memref whose type names it and asserts
    (`cf.assert`) that it is at least 1, that it is a multiple of its
    declared divisor, and that every other memref extent it names agrees.

    With `chip` (and `ptx`), the module is marked `tirx.chip = <chip>`
    (`tirx.ptx = <version>`) so that every instruction is checked against
    the chip and PTX version the pipeline compiles for; a module already
    marked for another chip is an error.
  }];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"\"",
           "Target chip (e.g. sm_90) recorded as tirx.chip on the module">,
    Option<"ptx", "ptx", "unsigned", /*default=*/"0",
           "Target PTX ISA version x10 (e.g. 80) recorded as tirx.ptx">,
  ];
  let dependentDialects = ["::mlir::gpu::GPUDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::cf::ControlFlowDialect",
                           "::mlir::func::FuncDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::memref::MemRefDialect"];
}

def TileDispatch : Pass<"tile-dispatch", "::mlir::ModuleOp"> {
  let summary = "Unroll tile.apply / tile.ewise into one instruction per repeat";
  let description = [{
    Decomposes every `tile.apply` into group × repeat × atom, binds the
    group coordinates to the executing thread (from `gpu.thread_id` and the
    kernel's block size), and emits, in row-major repeat order, one
    instruction per repeat: register operands are read and written through
    `tirx.slot_load`/`tirx.slot_store` with constant slots, memory operands
    through `tirx.element_ptr`. A warp collective whose NVVM op yields
    exactly the named instruction (`shfl.sync`, `vote.sync`, `redux.sync`,
    `bar.warp.sync`, `bar.sync`) becomes that op, a convergent intrinsic
    (a uniform predicate becomes an `scf.if` around it); every other form
    becomes inline PTX with exactly the spelled mnemonic, with side effects
    when it touches memory or is volatile. `tile.ewise` inlines its scalar
    function once per element. Must run inside GPU kernels (after
    `tirx-to-gpu`).
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect",
                           "::mlir::NVVM::NVVMDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::scf::SCFDialect"];
}

def TileJoinAccumulatorChains
    : Pass<"tile-join-accumulator-chains", "::mlir::ModuleOp"> {
  let summary = "Join inline-PTX instructions that update the same register "
                "slots in turn into one inline-PTX statement";
  let description = [{
    After `tile-dispatch`, a chain of instructions on one accumulator (the
    k steps of a `wgmma.mma_async` tile, one after another) is a sequence of
    inline-PTX statements, each reading the accumulator's slots through its
    tied inputs and writing them back through `tirx.slot_store`. With 128
    accumulator registers per wgmma, the slot traffic between two
    statements is most of a GEMM's IR, and every later pass and LLVM's code
    generation pay for it. This pass joins two statements when the second
    one's tied inputs read exactly the slots the first one's outputs were
    stored to, in the same order, and nothing between them touches memory or
    issues other inline PTX: the joined statement holds both instructions,
    in order, on the same registers. The PTX is the same instructions in the
    same order.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def TirXLowerTensors : Pass<"tirx-lower-tensors", "::mlir::ModuleOp"> {
  let summary = "Lower tirx tensors to LLVM pointers and per-thread arrays";
  let description = [{
    Global tensors become `!llvm.ptr<1>` kernel arguments, shared tiles
    `addr_space = 3` globals of the GPU module, register tiles `llvm.alloca`
    arrays of `span(m)` elements indexed only by constants (LLVM keeps them
    in registers). Views fold away; regions add their dynamic offsets;
    `tirx.element_ptr` becomes a `getelementptr` by the layout's offset.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect",
                           "::mlir::arith::ArithDialect"];
}

def TirXFastMath : Pass<"tirx-fast-math"> {
  let summary = "Map f32 math functions to approximate PTX instructions";
  let description = [{
    `math.exp` ⇒ `ex2.approx.ftz.f32(x · log2 e)`, `math.exp2` ⇒
    `ex2.approx.ftz.f32`, `math.log` ⇒ `lg2.approx.ftz.f32(x) · ln 2`,
    `math.log2` ⇒ `lg2.approx.ftz.f32`, `math.log10` ⇒
    `lg2.approx.ftz.f32(x) · log10 2`, `math.sqrt`/`rsqrt` ⇒
    `sqrt/rsqrt.approx.ftz.f32`, `math.tanh` ⇒ `tanh.approx.f32`,
    `math.sin`/`cos` ⇒ `sin/cos.approx.ftz.f32`, `math.tan` ⇒ their
    quotient by `div.approx.ftz.f32`, `math.powf` ⇒
    `ex2.approx.ftz.f32(y · lg2.approx.ftz.f32(x))` (base 10:
    `ex2.approx.ftz.f32(y · log2 10)`), `arith.divf` ⇒
    `div.approx.ftz.f32` — what CUDA's `--use_fast_math` does. Other types
    are left to libdevice. Accuracy per function: `docs/math.md`.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect",
                           "::mlir::arith::ArithDialect"];
}

def TirXPreciseMath : Pass<"tirx-precise-math"> {
  let summary = "Lower the math ops convert-gpu-to-nvvm leaves or gets wrong";
  let description = [{
    Runs in every compile, after `tirx-fast-math`: `math.trunc` ⇒
    `llvm.intr.trunc`, `math.ctlz`/`ctpop` ⇒ `llvm.intr.ctlz`/`ctpop`
    (upstream lowers none of them), `math.sqrt` (f32, f16, bf16) ⇒
    `llvm.intr.sqrt` (`sqrt.rn.f32`, as CUDA's `sqrtf`; libdevice's
    `__nv_sqrtf` would be `sqrt.approx.f32`), `math.powf` with the constant
    base 10 ⇒ libdevice's `exp10`, and the `math.sqrt` of `x·x + y·y` marked
    `tirx.math = "hypot"` (T.hypot) ⇒ libdevice's `hypot`. f16 and bf16
    calls are computed in f32. `docs/math.md`.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect",
                           "::mlir::arith::ArithDialect"];
}

def TirXTensorMapParams : Pass<"tirx-tensor-map-params",
                                "::mlir::LLVM::LLVMFuncOp"> {
  let summary = "Make a kernel's TMA tensor-map parameters byval grid constants";
  let description = [{
    tirx-to-gpu gives a kernel with TMA copies one hidden `!llvm.ptr`
    parameter per tensor map (listed by its `tirx.tensor_maps` attribute).
    Once `convert-gpu-to-nvvm` has made the kernel an `llvm.func`, this pass
    marks each `llvm.byval = !llvm.array<128 x i8>` and `nvvm.grid_constant`:
    the launcher passes the 128-byte CUtensorMap by value, and the kernel
    addresses it in parameter space (`cvta.param`), where TMA reads it.
    (gpu.func arguments cannot carry these attributes: the NVVM dialect
    accepts `nvvm.grid_constant` on kernel `llvm.func`s only, and the
    conversion drops `llvm.byval`.)
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect",
                           "::mlir::NVVM::NVVMDialect"];
}

def TirXModuleToBinary : Pass<"tirx-module-to-binary", "::mlir::ModuleOp"> {
  let summary = "Serialize gpu.modules to PTX, assemble them with ptxas -v and "
                "report each kernel's registers and spills";
  let description = [{
    Does what `gpu-module-to-binary` does for `format=isa` and `format=bin`,
    and surfaces ptxas's report (docs/registers.md): every `gpu.module` is
    serialized to PTX by its NVVM target, then assembled by ptxas (found in
    `toolkit`/bin, then on PATH) with `-v`. With `format=bin` the object
    becomes the cubin; with `format=isa` it keeps the PTX, and ptxas only
    runs when found (and `ptxas-report` is on). The object's properties get
    `tirx.ptxas = {kernel = {registers, spill_stores, spill_loads,
    stack_frame}}`, and a kernel that spills is a warning at the kernel.
    With `format=isa keep-cubin=1`, the cubin of that one ptxas run follows
    the PTX as a second object of the `gpu.binary` (format `bin`, the same
    properties), so a loader needs neither a second ptxas run nor the
    driver's JIT (the C API's `tirxCompileResultGetCubin`).

    Every inline-PTX call in the device LLVM IR is marked `convergent`
    before LLVM optimizes it, as clang marks CUDA's inline asm: much of
    TirX's inline PTX is `.sync`/`.aligned` (wgmma, ldmatrix, mma.sync,
    bar.arrive, setmaxnreg), and without the attribute LLVM may duplicate
    such a call into divergent paths (tail duplication) or sink it.
  }];
  let options = [
    Option<"format", "format", "std::string", /*default=*/"\"bin\"",
           "bin (cubin) or isa (PTX, with the report when ptxas is found)">,
    Option<"toolkit", "toolkit", "std::string", /*default=*/"\"\"",
           "CUDA toolkit holding bin/ptxas (and libdevice)">,
    Option<"maxRegisters", "max-registers", "unsigned", /*default=*/"0",
           "a .maxnreg on every kernel (0: none; ptxas's own choice)">,
    Option<"ptxasReport", "ptxas-report", "bool", /*default=*/"true",
           "with format=isa, run ptxas -v for the report when it is found">,
    Option<"keepCubin", "keep-cubin", "bool", /*default=*/"false",
           "with format=isa, keep the cubin of the report's ptxas run as a "
           "second object (bin) after the PTX">,
  ];
}

def TirXInterpretLaunches
    : Pass<"tirx-interpret-launches", "::mlir::ModuleOp"> {
  let summary = "Run host code's kernel launches on the CPU interpreter";
  let description = [{
    For host programs run by `tirx-runner` without a GPU
    (`--tirx-interpret-host`, docs/interpreter.md). Each host-side
    `tirx.launch @k(args)` becomes a call of `tirxInterpretLaunch`, which
    `tirx-runner` provides: the module's kernels as IR text (printed with
    their source locations, so the interpreter's diagnostics name the
    user's lines), the kernel's name, and one `{pointer, bytes, scalar bits}`
    record per kernel parameter (`TirxInterpretArgument` of TirX-c/TirX.h);
    size variables are the memref extents that name them, checked at run
    time as `tirx-to-gpu` checks them; a `cf.assert` stops the program when
    the interpreter reports an error. The interpreter runs on host memory:
    `gpu.alloc`, `gpu.dealloc` and `gpu.memcpy` become `memref.alloc`,
    `memref.dealloc` and `memref.copy`, and `gpu.wait` disappears. The
    kernels, and the functions only they call, are erased.
  }];
  let options = [
    Option<"interpreterOptions", "interpreter-options", "std::string",
           /*default=*/"\"\"",
           "The interpreter's options (races=0, uninitialized=0, block=N, "
           "trace=1; space-separated), passed with every launch">,
  ];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::cf::ControlFlowDialect",
                           "::mlir::memref::MemRefDialect"];
}

def TirXExtractPTX : Pass<"tirx-extract-ptx", "::mlir::ModuleOp"> {
  let summary = "Write the PTX/cubin of every gpu.binary to a file or stdout";
  let description = [{
    Writes the first object of every `gpu.binary`: its PTX, or its cubin
    with `format=bin` (a cubin that `keep-cubin` adds after the PTX is not
    written).
  }];
  let options = [
    Option<"output", "output", "std::string", /*default=*/"\"-\"",
           "File to write to ('-' for stdout)">,
  ];
}

#endif // TIRX_CONVERSION_PASSES_TD
