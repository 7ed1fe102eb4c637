/*===- tirx-capi-test.c - Exercise the TirX C API -------------------*- C
-*-===*\
|*                                                                            *|
|* Part of the TirX project.                                                  *|
|*                                                                            *|
|* Compiles a good and a bad kernel, and queries a layout, through           *|
|* libTirXCAPI.so; prints what it gets, for lit (test/CAPI).                 *|
\*===----------------------------------------------------------------------===*/

#include "TirX-c/TirX.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *kGood =
    "tirx.kernel @copy(%A: !tirx.tensor<32x4xf32, global, align = 16>,\n"
    "                  %B: !tirx.tensor<32x4xf32, global, align = 16>)\n"
    "    launch(grid = [1], block = [32]) {\n"
    "  %r = tirx.alloc_local : !tirx.tensor<32x4xf32, local, "
    "#tirx.layout<S[(32, 4) : (1@laneid, 1)]>>\n"
    "  tile.apply \"ld.global.v4.b32\" scope(warp) (%r, %A) : "
    "!tirx.tensor<32x4xf32, local, #tirx.layout<S[(32, 4) : (1@laneid, 1)]>>, "
    "!tirx.tensor<32x4xf32, global, align = 16>\n"
    "  tile.apply \"st.global.v4.b32\" scope(warp) (%B, %r) : "
    "!tirx.tensor<32x4xf32, global, align = 16>, "
    "!tirx.tensor<32x4xf32, local, #tirx.layout<S[(32, 4) : (1@laneid, 1)]>>\n"
    "  tirx.return\n"
    "}\n";

static const char *kBad =
    "tirx.kernel @bad(%A: !tirx.tensor<32x4xf32, global>)\n"
    "    launch(grid = [1], block = [32]) {\n"
    "  %r = tirx.alloc_local : !tirx.tensor<32x4xf32, local, "
    "#tirx.layout<S[(32, 4) : (1@laneid, 1)]>>\n"
    "  tile.apply \"ld.global.v4.b32\" scope(warp) (%r, %A) : "
    "!tirx.tensor<32x4xf32, local, #tirx.layout<S[(32, 4) : (1@laneid, 1)]>>, "
    "!tirx.tensor<32x4xf32, global>\n"
    "  tirx.return\n"
    "}\n";

static void printDiagnostics(TirxCompileResult result) {
  for (size_t i = 0; i < tirxCompileResultGetNumDiagnostics(result); ++i) {
    int severity;
    const char *file, *message;
    unsigned line, column;
    tirxCompileResultGetDiagnostic(result, i, &severity, &file, &line, &column,
                                   &message);
    printf("  diagnostic %d %s:%u:%u: %s\n", severity, file, line, column,
           message);
  }
}

static void compile(const char *name, const char *ir, const char *options) {
  TirxCompileResult result =
      tirxCompile(ir, strlen(ir), name, options, /*keepStages=*/1);
  printf("%s: succeeded=%d stages=%zu\n", name,
         tirxCompileResultSucceeded(result),
         tirxCompileResultGetNumStages(result));
  printDiagnostics(result);
  size_t size = 0;
  const char *output = tirxCompileResultGetOutput(result, &size);
  printf("  output: %zu bytes, has ld.global.v4.b32: %d\n", size,
         size && strstr(output, "ld.global.v4.b32") != NULL);
  tirxCompileResultDestroy(result);
}

/* Runs kGood (a copy of 128 floats) on the interpreter with `bytes` of B. */
static void interpret(const char *what, size_t bytes, const char *options) {
  float a[128], b[128];
  for (int i = 0; i < 128; ++i) {
    a[i] = (float)i / 4;
    b[i] = -1;
  }
  TirxInterpretArgument args[2] = {{a, sizeof(a), 0}, {b, bytes, 0}};
  TirxCompileResult result = tirxInterpret(kGood, strlen(kGood), "good.mlir",
                                           "copy", args, 2, options);
  printf("%s: succeeded=%d stages=%zu b[0]=%g b[127]=%g\n", what,
         tirxCompileResultSucceeded(result),
         tirxCompileResultGetNumStages(result), b[0], b[127]);
  printDiagnostics(result);
  tirxCompileResultDestroy(result);
}

static void printError(const char *what, char *error) {
  printf("%s: %s\n", what, error ? error : "(no error)");
  tirxStringDestroy(error);
}

/* The layout algebra: each operation once, its errors and NULLs. */
static void printLayoutResult(const char *what, TirxLayout layout,
                              char *error) {
  if (!layout) {
    printError(what, error);
    return;
  }
  char *text = tirxLayoutToString(layout);
  printf("%s: %s\n", what, text);
  tirxStringDestroy(text);
  tirxLayoutDestroy(layout);
}

static void printAlgebra(void) {
  char *error = NULL;
  TirxLayout outer = tirxLayoutParse("S[(2, 6) : (2, 8)]", NULL);
  TirxLayout inner = tirxLayoutParse("S[(3, 4) : (1, 3)]", NULL);
  TirxLayout atom = tirxLayoutParse(
      "S[(4, 2, 8, 4, 2) : (1@wid_in_wg, 2, 4@laneid, 1@laneid, 1)]", NULL);
  TirxLayout repeats = tirxLayoutParse("S[(1, 32)]", NULL);
  TirxLayout lanes = tirxLayoutParse("S[2 : 2@warpid]", NULL);
  printLayoutResult("compose", tirxLayoutCompose(outer, inner, &error), error);
  printLayoutResult("compose reversed", tirxLayoutCompose(inner, outer, &error),
                    error);
  printLayoutResult("complement", tirxLayoutComplement(lanes, 8, &error),
                    error);
  printLayoutResult("coalesce", tirxLayoutCoalesce(inner), NULL);
  printLayoutResult("right inverse", tirxLayoutRightInverse(inner, &error),
                    error);
  printLayoutResult("logical product",
                    tirxLayoutLogicalProduct(inner, lanes, &error), error);
  TirxLayout tiler = tirxLayoutParse("S[2 : 3]", NULL);
  printLayoutResult("logical divide",
                    tirxLayoutLogicalDivide(outer, tiler, &error), error);
  printLayoutResult("logical divide by 32",
                    tirxLayoutLogicalDivide(outer, repeats, &error), error);
  tirxLayoutDestroy(tiler);
  int64_t shapeA[2] = {64, 8}, shapeB[2] = {1, 32}, shape[4] = {0, 0, 0, 0};
  printLayoutResult(
      "blocked product",
      tirxLayoutTileProduct(atom, shapeA, repeats, shapeB, 2, 0, shape, &error),
      error);
  printf("  shape: (%lld, %lld)\n", (long long)shape[0], (long long)shape[1]);
  int64_t tiled[2] = {3, 4}, tile[2] = {3, 2};
  printLayoutResult(
      "zipped divide",
      tirxLayoutZippedDivide(inner, tiled, tile, 2, shape, &error), error);
  printf("  shape: (%lld, %lld, %lld, %lld)\n", (long long)shape[0],
         (long long)shape[1], (long long)shape[2], (long long)shape[3]);
  printLayoutResult("null compose", tirxLayoutCompose(NULL, inner, &error),
                    error);
  printLayoutResult("null complement", tirxLayoutComplement(NULL, 2, &error),
                    error);
  printf("null coalesce: %s\n", tirxLayoutCoalesce(NULL) ? "?" : "NULL");
  printLayoutResult("null right inverse", tirxLayoutRightInverse(NULL, &error),
                    error);
  printLayoutResult("null product",
                    tirxLayoutLogicalProduct(atom, NULL, &error), error);
  printLayoutResult("null divide", tirxLayoutLogicalDivide(NULL, atom, &error),
                    error);
  printLayoutResult(
      "null tile product",
      tirxLayoutTileProduct(atom, NULL, repeats, shapeB, 2, 1, shape, &error),
      error);
  printLayoutResult("null zipped divide",
                    tirxLayoutZippedDivide(inner, tiled, tile, 2, NULL, &error),
                    error);
  tirxLayoutDestroy(outer);
  tirxLayoutDestroy(inner);
  tirxLayoutDestroy(atom);
  tirxLayoutDestroy(repeats);
  tirxLayoutDestroy(lanes);
}

/* A kernel with a size variable: its launch information, and its grid for
 * several sizes (docs/sizes.md). */
static const char *kSized =
    "tirx.kernel @scale(%A: !tirx.tensor<?x4xf32, global, sizes = [n]>,\n"
    "                   %n: index {tirx.size = \"n\", tirx.multiple_of = 2 : "
    "i64, tirx.at_most = 4096 : i64})\n"
    "    launch(grid = [(%n * 2) ceildiv 64, 2], block = [32]) {\n"
    "  tirx.return\n"
    "}\n";

static void sizedKernel(void) {
  TirxCompileResult result =
      tirxCompile(kSized, strlen(kSized), "sized.mlir", "chip=sm_90", 0);
  const char *name = NULL, *sizeName = NULL;
  size_t numParams = 0;
  int64_t block[3] = {0, 0, 0}, multiple = 0, grid[3] = {0, 0, 0};
  printf("sized: kernels=%zu", tirxCompileResultGetNumKernels(result));
  if (tirxCompileResultGetKernel(result, 0, &name, &numParams, block) == 0)
    printf(" name=%s params=%zu block=(%lld, %lld, %lld)", name, numParams,
           (long long)block[0], (long long)block[1], (long long)block[2]);
  for (size_t param = 0; param < numParams; ++param) {
    int64_t atMost = -1;
    if (tirxCompileResultGetKernelSizeParam(result, 0, param, &sizeName,
                                            &multiple) == 0 &&
        tirxCompileResultGetKernelSizeAtMost(result, 0, param, &atMost) == 0)
      printf(" param%zu=%s/%lld<=%lld", param, sizeName ? sizeName : "-",
             (long long)multiple, (long long)atMost);
  }
  printf("\n");
  int64_t sizes[] = {1, 32, 33, (int64_t)1 << 36};
  for (size_t i = 0; i < 4; ++i) {
    int64_t args[2] = {0, sizes[i]};
    char *error = NULL;
    if (tirxCompileResultEvaluateGrid(result, 0, args, 2, grid, &error) == 0)
      printf("sized grid n=%lld: (%lld, %lld, %lld)\n", (long long)sizes[i],
             (long long)grid[0], (long long)grid[1], (long long)grid[2]);
    else
      printError("sized grid", error);
  }
  char *error = NULL;
  int64_t one = 1;
  if (tirxCompileResultEvaluateGrid(result, 0, &one, 1, grid, &error))
    printError("sized grid, one argument", error);
  int64_t overflow[2] = {0, INT64_MAX};
  if (tirxCompileResultEvaluateGrid(result, 0, overflow, 2, grid, &error))
    printError("sized grid, n = INT64_MAX", error);
  if (tirxCompileResultEvaluateGrid(result, 5, overflow, 2, grid, &error))
    printError("sized grid, kernel 5", error);
  int64_t atMost = 0;
  printf("sized kernel 5: %d, param 9: %d, at_most of param 9: %d, "
         "to NULL: %d\n",
         tirxCompileResultGetKernel(result, 5, &name, NULL, NULL),
         tirxCompileResultGetKernelSizeParam(result, 0, 9, &sizeName, NULL),
         tirxCompileResultGetKernelSizeAtMost(result, 0, 9, &atMost),
         tirxCompileResultGetKernelSizeAtMost(result, 0, 1, NULL));
  tirxCompileResultDestroy(result);
}

/* NULL handles, NULL pointers and out-of-range indices: every entry point
 * answers with NULL, 0, -1 or an error, never a crash. */

static void nullArguments(void) {
  char *error = NULL;
  int64_t values[2] = {0, 0};
  int severity = 7;
  const char *file = "?", *message = "?";
  unsigned line = 7, column = 7;
  size_t size = 7;
  tirxCompileResultGetDiagnostic(NULL, 3, &severity, &file, &line, &column,
                                 &message);
  printf("null result: succeeded=%d diagnostics=%zu stages=%zu output=\"%s\" "
         "size=%zu diagnostic=(%d, \"%s\", %u, %u, \"%s\")\n",
         tirxCompileResultSucceeded(NULL),
         tirxCompileResultGetNumDiagnostics(NULL),
         tirxCompileResultGetNumStages(NULL),
         tirxCompileResultGetOutput(NULL, &size), size, severity, file, line,
         column, message);
  TirxCompileResult result = tirxCompile(kGood, strlen(kGood), "good.mlir",
                                         "chip=sm_90", /*keepStages=*/1);
  printf("stage 1000: name=%s ir=%s seconds=%g\n",
         tirxCompileResultGetStageName(result, 1000) ? "?" : "NULL",
         tirxCompileResultGetStageIR(result, 1000) ? "?" : "NULL",
         tirxCompileResultGetStageSeconds(result, 1000));
  /* No ptxas ran (format=isa without ptxas-report): no kernel report. */
  const char *kernel = "unchanged";
  int64_t registers = 7;
  printf("kernel reports: isa=%zu null=%zu index 0=%d null result=%d "
         "name=%s registers=%lld\n",
         tirxCompileResultGetNumKernelReports(result),
         tirxCompileResultGetNumKernelReports(NULL),
         tirxCompileResultGetKernelReport(result, 0, &kernel, &registers, NULL,
                                          NULL, NULL),
         tirxCompileResultGetKernelReport(NULL, 0, &kernel, &registers, NULL,
                                          NULL, NULL),
         kernel, (long long)registers);
  /* No keep-cubin: no cubin; a NULL result has none either. */
  size_t cubinSize = 1, nullCubinSize = 1;
  const char *cubin = tirxCompileResultGetCubin(result, &cubinSize);
  const char *nullCubin = tirxCompileResultGetCubin(NULL, &nullCubinSize);
  printf("cubin: isa=%zu \"%s\" null=%zu \"%s\"\n", cubinSize, cubin,
         nullCubinSize, nullCubin);
  tirxCompileResultDestroy(result);
  tirxCompileResultDestroy(NULL);
  /* Instructions of the PTX table. */
  char *instructionError = NULL;
  TirxInstruction wgmma = tirxInstructionParse(
      "wgmma.mma_async.sync.aligned.m64n16k16.f32.bf16.bf16", -1,
      &instructionError);
  unsigned minSM = 0, minPTX = 0;
  int archSpecific = 0;
  tirxInstructionGetFloors(wgmma, &minSM, &minPTX, &archSpecific);
  printf("instruction: %s form=%s exec=%s space=\"%s\" sm=%u ptx=%u a=%d "
         "operands=%zu\n",
         tirxInstructionGetSpelling(wgmma), tirxInstructionGetFormName(wgmma),
         tirxInstructionGetExecKind(wgmma), tirxInstructionGetSpace(wgmma),
         minSM, minPTX, archSpecific, tirxInstructionGetNumOperands(wgmma));
  for (size_t i = 0; i < 3; ++i) {
    const char *operandName, *element, *fragment;
    int written, readWrite, memory;
    size_t rank;
    const int64_t *shape;
    tirxInstructionGetOperand(wgmma, i, &operandName, &element, &written,
                              &readWrite, &memory, &rank, &shape, &fragment);
    printf("  operand %s: %s written=%d memory=%d atom=%lldx%lld fragment=%s\n",
           operandName, element, written, memory, (long long)shape[0],
           (long long)(rank > 1 ? shape[1] : 1), fragment);
  }
  printf("  bits: d=%d a=%d 99=%d null=%d\n",
         tirxInstructionGetOperandBits(wgmma, 0),
         tirxInstructionGetOperandBits(wgmma, 1),
         tirxInstructionGetOperandBits(wgmma, 99),
         tirxInstructionGetOperandBits(NULL, 0));
  printf("  operand 99: %d, null: %d %zu \"%s\"\n",
         tirxInstructionGetOperand(wgmma, 99, NULL, NULL, NULL, NULL, NULL,
                                   NULL, NULL, NULL),
         tirxInstructionGetOperand(NULL, 0, NULL, NULL, NULL, NULL, NULL, NULL,
                                   NULL, NULL),
         tirxInstructionGetNumOperands(NULL), tirxInstructionGetSpelling(NULL));
  tirxInstructionDestroy(wgmma);
  tirxInstructionDestroy(NULL);
  TirxInstruction bad =
      tirxInstructionParse("ld.global.v5.b32", -1, &instructionError);
  printf("bad instruction: %s: %s\n", bad ? "?" : "NULL", instructionError);
  tirxStringDestroy(instructionError);
  bad = tirxInstructionParse(NULL, -1, &instructionError);
  printf("null instruction: %s: %s\n", bad ? "?" : "NULL", instructionError);
  tirxStringDestroy(instructionError);
  /* Without keepStages: every pass timed, no IR printed, no "input". */
  result = tirxCompile(kGood, strlen(kGood), "good.mlir", "chip=sm_90",
                       /*keepStages=*/0);
  size_t stages = tirxCompileResultGetNumStages(result), printed = 0;
  for (size_t i = 0; i < stages; ++i)
    printed += strlen(tirxCompileResultGetStageIR(result, i)) != 0;
  printf("stages without IR: succeeded=%d first=%s last=%s printed=%zu\n",
         tirxCompileResultSucceeded(result),
         stages ? tirxCompileResultGetStageName(result, 0) : "none",
         stages ? tirxCompileResultGetStageName(result, stages - 1) : "none",
         printed);
  tirxCompileResultDestroy(result);
  result = tirxCompile(NULL, 5, NULL, NULL, 0);
  tirxCompileResultGetDiagnostic(result, 0, &severity, &file, &line, &column,
                                 &message);
  printf("null IR: succeeded=%d: %s\n", tirxCompileResultSucceeded(result),
         message);
  tirxCompileResultDestroy(result);
  printf("null layout: string=%s size=%lld span=%lld canonical=%s\n",
         tirxLayoutToString(NULL) ? "?" : "NULL",
         (long long)tirxLayoutSize(NULL, NULL),
         (long long)tirxLayoutSpan(NULL, "m"),
         tirxLayoutCanonicalize(NULL) ? "?" : "NULL");
  if (tirxLayoutApply(NULL, values, values, 2, values, &error))
    printError("null layout apply", error);
  if (!tirxLayoutPack(NULL, 2, &error))
    printError("null layout pack", error);
  if (!tirxLayoutUnpack(NULL, 2, &error))
    printError("null layout unpack", error);
  if (!tirxLayoutPrintView(NULL, values, 2, 0, &error))
    printError("null layout view", error);
  if (!tirxLayoutDrawPicture(NULL, values, 2, 0, &error))
    printError("null layout picture", error);
  TirxLayout layout = tirxLayoutParse("S[4]", NULL);
  if (tirxLayoutApply(layout, NULL, values, 1, values, &error))
    printError("null coordinate", error);
  if (!tirxLayoutPrintView(layout, NULL, 1, 0, &error))
    printError("null shape", error);
  int64_t huge[3] = {INT64_MAX, INT64_MAX, 4}, zero[3] = {0, 0, 0};
  if (tirxLayoutApply(layout, zero, huge, 3, values, &error))
    printError("overflowing shape", error);
  tirxLayoutDestroy(layout);
  tirxLayoutDestroy(NULL);
  printAlgebra();
  if (!tirxInferRegionType(NULL, values, values, 2, &error))
    printError("null region type", error);
  printf("axis 99: %s\n", tirxLayoutAxisName(99) ? "?" : "NULL");
}

/* `tirx-capi-test --compile FILE`: FILE is "<options>\n<IR>", the input of
 * tirx-capi-fuzzer; compiles it and prints the result (replays fuzzer
 * findings in test/fuzz-regressions). */
static int compileFile(const char *path) {
  FILE *file = fopen(path, "rb");
  if (!file) {
    fprintf(stderr, "tirx-capi-test: cannot open %s\n", path);
    return 2;
  }
  static char buffer[1 << 20];
  size_t size = fread(buffer, 1, sizeof buffer - 1, file);
  fclose(file);
  buffer[size] = '\0';
  char *newline = strchr(buffer, '\n');
  if (!newline) {
    fprintf(stderr, "tirx-capi-test: %s has no options line\n", path);
    return 2;
  }
  *newline = '\0';
  compile(path, newline + 1, buffer);
  return 0;
}

static const char *kUsage =
    "OVERVIEW: TirX C API self-test (libTirXCAPI.so, include/TirX-c/TirX.h)\n"
    "\n"
    "USAGE: tirx-capi-test [--compile <file>]\n"
    "\n"
    "Without arguments: compiles a good and a bad kernel and queries layouts\n"
    "through the C API, printing what it gets (test/CAPI).\n"
    "\n"
    "OPTIONS:\n"
    "  --compile <file>  Compile <file>: its first line is the --tirx-to-ptx\n"
    "                    options, the rest the IR (fuzz-regressions replay)\n"
    "  --help            Print this help\n";

static int isHelp(const char *arg) {
  return strcmp(arg, "--help") == 0 || strcmp(arg, "-help") == 0 ||
         strcmp(arg, "-h") == 0;
}

int main(int argc, char **argv) {
  if (argc == 2 && isHelp(argv[1])) {
    fputs(kUsage, stdout);
    return 0;
  }
  if (argc == 3 && strcmp(argv[1], "--compile") == 0)
    return compileFile(argv[2]);
  if (argc != 1) {
    fprintf(stderr, "tirx-capi-test: unexpected argument '%s'\n%s", argv[1],
            kUsage);
    return 2;
  }
  printf("handles: %d %d\n", mlirGetDialectHandle__tirx__().ptr != NULL,
         mlirGetDialectHandle__tile__().ptr != NULL);
  tirxRegisterAllPasses();
  compile("good.mlir", kGood, "chip=sm_90");
  compile("bad.mlir", kBad, "chip=sm_90");
  compile("options.mlir", kGood, "chip=sm_90 no-such-option=1");
  compile("chip.mlir", kGood, "chip=sm_100a features=+ptx80");
  compile("empty.mlir", "module {}", "chip=sm_90");
  interpret("interpret", 512, "races=1");
  interpret("interpret, small buffer", 256, "");
  interpret("interpret, bad options", 512, "races=1 checks=0");

  char *error = NULL;
  TirxLayout layout = tirxLayoutParse(
      "S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1)] + R[2:4@warpid] + 5@warpid",
      &error);
  char *text = tirxLayoutToString(layout);
  printf("layout: %s size=%lld span(m)=%lld\n", text,
         (long long)tirxLayoutSize(layout, NULL),
         (long long)tirxLayoutSpan(layout, "m"));
  tirxStringDestroy(text);
  int64_t coord[2] = {7, 15}, shape[2] = {8, 16}, physical[10];
  if (tirxLayoutApply(layout, coord, shape, 2, physical, &error) == 0)
    printf("apply(7, 15): %s=%lld %s=%lld %s=%lld\n", tirxLayoutAxisName(0),
           (long long)physical[0], tirxLayoutAxisName(1),
           (long long)physical[1], tirxLayoutAxisName(9),
           (long long)physical[9]);
  tirxLayoutDestroy(layout);
  if (!tirxLayoutParse("S[(4, 0)]", &error)) {
    printf("bad layout: %s\n", error);
    tirxStringDestroy(error);
  }
  int64_t sourceOffsets[2] = {INT64_MIN, 0}, sizes[2] = {1, 4};
  char *region =
      tirxInferRegionType("!tirx.tensor<64x4xf32, global, align = 16>",
                          sourceOffsets, sizes, 2, &error);
  printf("region: %s\n", region);
  tirxStringDestroy(region);
  if (!tirxInferRegionType("f32", sourceOffsets, sizes, 2, &error)) {
    printf("region of f32: %s\n", error);
    tirxStringDestroy(error);
  }
  if (!tirxInferRegionType("!tirx.tensor<64xf32, global>", sourceOffsets, sizes,
                           2, &error)) {
    printf("region of rank 1: %s\n", error);
    tirxStringDestroy(error);
  }
  sizedKernel();
  nullArguments();
  return 0;
}
