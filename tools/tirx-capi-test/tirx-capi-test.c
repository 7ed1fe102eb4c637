/*===- tirx-capi-test.c - Exercise the TirX C API -------------------*- C -*-===*\
|*                                                                            *|
|* Part of the TirX project.                                                  *|
|*                                                                            *|
|* Compiles a good and a bad kernel, and queries a layout, through           *|
|* libTirXCAPI.so; prints what it gets, for lit (test/CAPI).                 *|
\*===----------------------------------------------------------------------===*/

#include "TirX-c/TirX.h"

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

static void compile(const char *name, const char *ir, const char *options) {
  TirxCompileResult result =
      tirxCompile(ir, strlen(ir), name, options, /*keepStages=*/1);
  printf("%s: succeeded=%d stages=%zu\n", name,
         tirxCompileResultSucceeded(result),
         tirxCompileResultGetNumStages(result));
  for (size_t i = 0; i < tirxCompileResultGetNumDiagnostics(result); ++i) {
    int severity;
    const char *file, *message;
    unsigned line, column;
    tirxCompileResultGetDiagnostic(result, i, &severity, &file, &line, &column,
                                   &message);
    printf("  diagnostic %d %s:%u:%u: %s\n", severity, file, line, column,
           message);
  }
  size_t size = 0;
  const char *output = tirxCompileResultGetOutput(result, &size);
  printf("  output: %zu bytes, has ld.global.v4.b32: %d\n", size,
         size && strstr(output, "ld.global.v4.b32") != NULL);
  tirxCompileResultDestroy(result);
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

int main(int argc, char **argv) {
  if (argc == 3 && strcmp(argv[1], "--compile") == 0)
    return compileFile(argv[2]);
  printf("handles: %d %d\n", mlirGetDialectHandle__tirx__().ptr != NULL,
         mlirGetDialectHandle__tile__().ptr != NULL);
  tirxRegisterAllPasses();
  compile("good.mlir", kGood, "chip=sm_90");
  compile("bad.mlir", kBad, "chip=sm_90");
  compile("options.mlir", kGood, "chip=sm_90 no-such-option=1");
  compile("chip.mlir", kGood, "chip=sm_100a features=+ptx80");
  compile("empty.mlir", "module {}", "chip=sm_90");

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
  char *region = tirxInferRegionType(
      "!tirx.tensor<64x4xf32, global, align = 16>", sourceOffsets, sizes, 2,
      &error);
  printf("region: %s\n", region);
  tirxStringDestroy(region);
  if (!tirxInferRegionType("f32", sourceOffsets, sizes, 2, &error)) {
    printf("region of f32: %s\n", error);
    tirxStringDestroy(error);
  }
  if (!tirxInferRegionType("!tirx.tensor<64xf32, global>", sourceOffsets,
                           sizes, 2, &error)) {
    printf("region of rank 1: %s\n", error);
    tirxStringDestroy(error);
  }
  return 0;
}
