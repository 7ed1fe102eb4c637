/*===- TirX.h - The TirX C API ----------------------------------*- C -*-===*\
|*                                                                            *|
|* Part of the TirX project.                                                  *|
|*                                                                            *|
|* A C API over the TirX compiler and layout library, in the style of MLIR's *|
|* C API (opaque handles, explicit destroy functions), implemented in        *|
|* libTirXCAPI.so. It never aborts or prints: every failure is returned as   *|
|* diagnostics (severity, file, line, column, message) or an error string.  *|
|* NULL handles, NULL arrays and out-of-range indices are answered with     *|
|* NULL, "", 0, -1 or an error, never a crash (test/CAPI/capi.test). The    *|
|* Python package loads it with ctypes.                                      *|
\*===----------------------------------------------------------------------===*/

#ifndef TIRX_C_TIRX_H
#define TIRX_C_TIRX_H

#include "mlir-c/IR.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/*===----------------------------------------------------------------------===*\
|* Registration (for embedders of MLIR's C API)                               *|
\*===----------------------------------------------------------------------===*/

/// Dialect handles of the tirx and tile dialects.
MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(TirX, tirx);
MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(Tile, tile);

/// Registers every TirX pass and the --tirx-to-ptx / --tirx-to-llvm-host
/// pipelines with MLIR's global registries.
MLIR_CAPI_EXPORTED void tirxRegisterAllPasses(void);

/*===----------------------------------------------------------------------===*\
|* Compilation                                                                *|
\*===----------------------------------------------------------------------===*/

typedef struct TirxCompileResultImpl *TirxCompileResult;

typedef enum TirxSeverity {
  TIRX_SEVERITY_ERROR = 0,
  TIRX_SEVERITY_WARNING = 1,
  TIRX_SEVERITY_NOTE = 2,
  TIRX_SEVERITY_REMARK = 3
} TirxSeverity;

/// Parses `ir` (TirX IR text; `name` is the buffer name diagnostics use when
/// the IR has no locations), verifies it and runs `--tirx-to-ptx` with
/// `options` (the pipeline's options, e.g. "chip=sm_90 fast-math=1
/// format=isa"). Every pass is recorded as a stage with its time; with
/// `keepStages`, the input and the IR after every pass too.
/// Never returns NULL.
TirxCompileResult tirxCompile(const char *ir, size_t irSize, const char *name,
                              const char *options, int keepStages);
/// 1 when compilation produced an output.
int tirxCompileResultSucceeded(TirxCompileResult result);
/// The PTX text or cubin bytes.
const char *tirxCompileResultGetOutput(TirxCompileResult result, size_t *size);
/// With `format=isa keep-cubin=1` and ptxas found: the cubin ptxas assembled
/// from the output's PTX (the run that made ptxas's report), which a loader
/// takes instead of JIT-compiling the PTX; otherwise empty (size 0).
const char *tirxCompileResultGetCubin(TirxCompileResult result, size_t *size);
size_t tirxCompileResultGetNumDiagnostics(TirxCompileResult result);
void tirxCompileResultGetDiagnostic(TirxCompileResult result, size_t index,
                                    int *severity, const char **file,
                                    unsigned *line, unsigned *column,
                                    const char **message);
/// Stages: with `keepStages`, "input" (the verified input) first; then one
/// per pass that ran, its IR empty without `keepStages`.
size_t tirxCompileResultGetNumStages(TirxCompileResult result);
const char *tirxCompileResultGetStageName(TirxCompileResult result,
                                          size_t index);
const char *tirxCompileResultGetStageIR(TirxCompileResult result, size_t index);
/// Wall time of a stage's pass in seconds (0 for "input").
double tirxCompileResultGetStageSeconds(TirxCompileResult result, size_t index);
/// ptxas's report, one entry per kernel, when ptxas ran (format=bin, or
/// ptxas-report=1 with ptxas found; docs/registers.md): registers per
/// thread, bytes of spill stores and loads and of stack frame per thread.
size_t tirxCompileResultGetNumKernelReports(TirxCompileResult result);
/// 0 on success; 1 (nothing written) for a NULL result or a bad index.
int tirxCompileResultGetKernelReport(TirxCompileResult result, size_t index,
                                     const char **name, int64_t *registers,
                                     int64_t *spillStores, int64_t *spillLoads,
                                     int64_t *stackFrame);
/// Launch information of the input's kernels (tirx.kernel ops, in order),
/// recorded once the input verified (docs/sizes.md): a launcher passes one
/// argument per parameter, size variables included (int64, the extents of
/// the tensors that name them), and computes the grid from them.
size_t tirxCompileResultGetNumKernels(TirxCompileResult result);
/// 0 on success; 1 (nothing written) for a NULL result or a bad index.
/// `block` receives three extents.
int tirxCompileResultGetKernel(TirxCompileResult result, size_t index,
                               const char **name, size_t *numParams,
                               int64_t *block);
/// The dynamic shared memory (bytes) every launch of kernel `index` passes:
/// its shared tensors when they exceed CUDA's 48 KiB static limit, else 0
/// (docs/lowering.md). 0 on success; 1 for a NULL result or a bad index.
int tirxCompileResultGetKernelSharedBytes(TirxCompileResult result,
                                          size_t index, int64_t *bytes);
/// The TMA tensor maps kernel `index` takes after its `numParams` own
/// parameters (docs/hopper.md), in order: each is encoded by the launcher
/// (tirxTensorMapEncode, libTirXRuntime) from the tensor argument
/// `*tensorParam` (its address, extents and row-major strides), the box
/// `box[0 .. *rank)` (outermost first) and the swizzle `*swizzleBytes`.
/// 0 on success; 1 for a NULL result or a bad index.
int tirxCompileResultGetKernelNumTensorMaps(TirxCompileResult result,
                                            size_t index, size_t *count);
int tirxCompileResultGetKernelTensorMap(TirxCompileResult result, size_t index,
                                        size_t map, size_t *tensorParam,
                                        size_t *rank, int64_t box[5],
                                        int64_t *swizzleBytes);
/// The element type map `map` of kernel `index` declares: "" for a copy's
/// (bits of the element width), else the tensor's type for a TMA reduction
/// ("f16", "bf16", "f32", "u32", "s32", "u64", "s64": the operation's type;
/// encode it with tirxTensorMapEncodeTyped). Owned by the result; NULL for a
/// NULL result or a bad index.
const char *tirxCompileResultGetKernelTensorMapType(TirxCompileResult result,
                                                    size_t index, size_t map);
/// Parameter `param` of kernel `index`: the size variable it declares (NULL
/// when it is not one) and that variable's declared multiple (1 if none).
int tirxCompileResultGetKernelSizeParam(TirxCompileResult result, size_t index,
                                        size_t param, const char **sizeName,
                                        int64_t *multiple);
/// Parameter `param` of kernel `index`: the largest value its size variable
/// declares (`tirx.at_most`), or 0 when it declares none or the parameter is
/// no size variable. 0 on success; 1 for a NULL result or `atMost`, or a bad
/// index.
int tirxCompileResultGetKernelSizeAtMost(TirxCompileResult result, size_t index,
                                         size_t param, int64_t *atMost);
/// The grid (three extents) of kernel `index` for argument values `args`
/// (one per parameter; only the size variables' are read). 0 on success; 1
/// with `*error` set (free with tirxStringDestroy) when an argument is
/// missing, the arithmetic overflows or an extent is out of CUDA's range.
int tirxCompileResultEvaluateGrid(TirxCompileResult result, size_t index,
                                  const int64_t *args, size_t numArgs,
                                  int64_t *grid, char **error);
void tirxCompileResultDestroy(TirxCompileResult result);

/*===----------------------------------------------------------------------===*\
 * The interpreter (docs/interpreter.md)
\*===----------------------------------------------------------------------===*/

/// One argument of an interpreted launch.
typedef struct TirxInterpretArgument {
  /// A tensor parameter's host storage (row-major, as its type says), read
  /// and written in place, and its size in bytes; NULL for a scalar.
  void *data;
  size_t bytes;
  /// A scalar parameter's bits, low-aligned (size variables: the extent).
  uint64_t scalar;
} TirxInterpretArgument;

/// Parses and verifies `ir` as tirxCompile does, runs the whole-kernel checks
/// (tirx-verify-kernels: bounds proof, register budget), then runs kernel
/// `kernel` (NULL: the module's only kernel) on the CPU interpreter over its
/// whole grid with `args`, one per parameter, size variables included.
/// `options`: space-separated `races=0`, `uninitialized=0` (turn a check
/// off), `block=N` (run only the CTA of flat index N), `trace=1` (print each
/// executed operation to stderr). The result has diagnostics and no output;
/// tirxCompileResultSucceeded is 1 when the run completed with every check
/// passing; the result has one stage, "interpret" (its time: the run's),
/// once the kernel verified and the run started. Never returns NULL.
TirxCompileResult tirxInterpret(const char *ir, size_t irSize, const char *name,
                                const char *kernel,
                                const TirxInterpretArgument *args,
                                size_t numArgs, const char *options);

/// The result type of `tirx.region` on a tensor of type `sourceType`
/// (offsets: INT64_MIN marks a dynamic offset), as type text, or NULL with
/// `*error` set. Free the string with tirxStringDestroy.
char *tirxInferRegionType(const char *sourceType, const int64_t *offsets,
                          const int64_t *sizes, size_t rank, char **error);

/*===----------------------------------------------------------------------===*\
|* Layouts                                                                    *|
\*===----------------------------------------------------------------------===*/

typedef struct TirxLayoutImpl *TirxLayout;

/// Parses the seed's notation ("S[(2, 32, 4) : (1@warpid, 1@laneid, 1)]").
/// Returns NULL and sets `*error` (free with tirxStringDestroy) on failure.
TirxLayout tirxLayoutParse(const char *text, char **error);
void tirxLayoutDestroy(TirxLayout layout);
/// Canonical notation; free with tirxStringDestroy.
char *tirxLayoutToString(TirxLayout layout);
/// Size (product of shard extents); `axis` NULL for all axes.
int64_t tirxLayoutSize(TirxLayout layout, const char *axis);
/// Span on `axis` ("m", "laneid", ...); -1 for an unknown axis.
int64_t tirxLayoutSpan(TirxLayout layout, const char *axis);
/// Base physical coordinate of `coord` in `shape` (rank values each): writes
/// 10 values in axis order laneid, warpid, wgid, wid_in_wg, tid_in_wg, tx,
/// bx, by, bz, m. Returns 0 on success, or sets `*error`.
int tirxLayoutApply(TirxLayout layout, const int64_t *coord,
                    const int64_t *shape, size_t rank, int64_t *physical,
                    char **error);
TirxLayout tirxLayoutCanonicalize(TirxLayout layout);
/// pack(factor) / unpack(factor) (dtype views); NULL with `*error`.
TirxLayout tirxLayoutPack(TirxLayout layout, int64_t factor, char **error);
TirxLayout tirxLayoutUnpack(TirxLayout layout, int64_t factor, char **error);
/// The layout algebra (TirX/Layout/LayoutAlgebra.h): new layouts, or NULL
/// with `*error` saying which condition failed. compose: x -> outer(inner(x))
/// for an index layout `inner`; complement with respect to `cosizeTarget`;
/// coalesce (the same function, fewest iters); the right inverse; the
/// logical product [b', a] and the logical divide by an index layout.
TirxLayout tirxLayoutCompose(TirxLayout outer, TirxLayout inner, char **error);
TirxLayout tirxLayoutComplement(TirxLayout layout, int64_t cosizeTarget,
                                char **error);
TirxLayout tirxLayoutCoalesce(TirxLayout layout);
TirxLayout tirxLayoutRightInverse(TirxLayout layout, char **error);
TirxLayout tirxLayoutLogicalProduct(TirxLayout a, TirxLayout b, char **error);
TirxLayout tirxLayoutLogicalDivide(TirxLayout a, TirxLayout tiler,
                                   char **error);
/// By mode, over shapes of `rank` dims each: copies of `a` (over shapeA)
/// arranged by `b` (over shapeB) as blocks (raked = 0) or interleaved
/// (raked = 1); writes the result's shape (rank dims) to `resultShape`.
TirxLayout tirxLayoutTileProduct(TirxLayout a, const int64_t *shapeA,
                                 TirxLayout b, const int64_t *shapeB,
                                 size_t rank, int raked, int64_t *resultShape,
                                 char **error);
/// `a` over `shape` cut into tiles of `tile` (rank dims each); writes the
/// result's shape (shape / tile..., tile...: 2 * rank dims) to `resultShape`.
TirxLayout tirxLayoutZippedDivide(TirxLayout a, const int64_t *shape,
                                  const int64_t *tile, size_t rank,
                                  int64_t *resultShape, char **error);
/// The layout printer's views over `shape`: which = 0 tensor view, 1 thread
/// view. NULL with `*error` when the shape does not fit.
char *tirxLayoutPrintView(TirxLayout layout, const int64_t *shape, size_t rank,
                          int which, char **error);
/// The layout's picture over `shape` (TirX/Layout/LayoutPicture.h): an SVG
/// document (html = 0) or an HTML page embedding it (html = 1). `shape` NULL
/// (rank ignored) views the layout over its shard extents, as tirx-layout
/// does without --shape. NULL with `*error` when the shape does not fit or
/// the picture would have more than 16384 element copies.
char *tirxLayoutDrawPicture(TirxLayout layout, const int64_t *shape,
                            size_t rank, int html, char **error);
/// The axis names of tirxLayoutApply's output, in order.
const char *tirxLayoutAxisName(size_t index);

/// The CUDA toolkit a compile without cuda-path uses (the first of
/// $TIRX_CUDA_PATH, $CUDA_HOME, $CUDA_PATH, $CUDA_ROOT that is set, else
/// /usr/local/cuda with libdevice), the ptxas it runs and any other program
/// of it such as nvcc (`name` in the toolkit's bin/, else on PATH), each ""
/// when there is none: what decides precise math and the register report
/// (Python's compile cache keys on it; the lit suite and the Python tests
/// find their ptxas with it). Free each with tirxStringDestroy.
char *tirxFindCUDAToolkit(void);
char *tirxFindPtxas(void);
char *tirxFindCUDATool(const char *name);

/// What compiles: one line per loaded file holding TirX's, MLIR's or LLVM's
/// code (this library alone when statically linked; with libMLIR.so and
/// libLLVM.so when not), "<path> build-id <hex GNU build ID>", or "<path>
/// size <bytes> mtime <ns>" for a file without a build ID. Python's compile
/// cache keys on it: a rebuild, or an upgraded libMLIR.so, is a new key.
/// Free with tirxStringDestroy.
char *tirxBuildIdentity(void);

void tirxStringDestroy(char *string);

/// An instruction of the PTX table (docs/ptx-instructions.md) as the
/// verifier and the lowering see it: what a library above single
/// instructions reads instead of retyping (Python's tirx.atoms).
typedef struct TirxInstructionImpl *TirxInstruction;

/// The form of `spelling` the table gives (with `numOperands` >= 0, the
/// form with that many operands), or NULL and a message in `*error` (free
/// it with tirxStringDestroy) when the table has none.
TirxInstruction tirxInstructionParse(const char *spelling, int numOperands,
                                     char **error);
void tirxInstructionDestroy(TirxInstruction instruction);
/// Its canonical spelling, its form's name in the table, who executes one
/// instruction ("thread", "warp", "warpgroup" or "single") and the state
/// space of its first memory operand ("" for none); "" for NULL.
const char *tirxInstructionGetSpelling(TirxInstruction instruction);
const char *tirxInstructionGetFormName(TirxInstruction instruction);
const char *tirxInstructionGetExecKind(TirxInstruction instruction);
const char *tirxInstructionGetSpace(TirxInstruction instruction);
/// Its floors: sm_<minSM> (only sm_<minSM>a when `archSpecific`) and PTX ISA
/// minPTX / 10 . minPTX % 10; 1 (nothing written) for NULL.
int tirxInstructionGetFloors(TirxInstruction instruction, unsigned *minSM,
                             unsigned *minPTX, int *archSpecific);
size_t tirxInstructionGetNumOperands(TirxInstruction instruction);
/// Operand `index`, in PTX order: its name ("d", "a", "addr"), the element
/// types it takes ("f32", "any 32-bit type", ...), whether it is written,
/// read and written (wgmma's accumulator) or a memory operand, its atom
/// (the elements one instruction covers; `atomRank` extents, e.g. 16, 8 for
/// an mma accumulator) and, for a collective operand, its fragment in
/// TileLayout notation ("" otherwise). Any output may be NULL. 0 on
/// success; 1 (nothing written) for NULL or a bad index.
int tirxInstructionGetOperand(TirxInstruction instruction, size_t index,
                              const char **name, const char **element,
                              int *isDestination, int *isReadWrite,
                              int *isMemory, size_t *atomRank,
                              const int64_t **atomShape,
                              const char **fragment);
/// The bits of one element of operand `index` (its element types' width:
/// 32 for f32 or "a 32-bit type", 0 for cp.async's "any type"), or -1 for
/// NULL or a bad index.
int tirxInstructionGetOperandBits(TirxInstruction instruction, size_t index);

#ifdef __cplusplus
}
#endif

#endif /* TIRX_C_TIRX_H */
