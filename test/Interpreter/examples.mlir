// The seed's examples and a warp collective, run on the interpreter with
// tirx-interpret's generated inputs (element k of argument i holds
// ((7k + 3i) mod 19 - 9) / 4); the expected values are computed from that
// formula, not by the interpreter.
//
// B = max(2A + 1, 0):
// RUN: tirx-opt %examples/affine_relu.mlir --tirx-interpret=print=1 -o /dev/null | FileCheck %s --check-prefix=RELU
// RELU: @affine_relu argument #1: [0, 0, 3.5, 0, 1, 4.5, 0, 2, 5.5, 0, 3, 0, 0.5, 4, 0, 1.5, 5, 0, 2.5, 0, 0, 3.5, 0, 1, {{.*}}]
//
// f32 -> f16 (every input is exact in f16):
// RUN: tirx-opt %examples/to_float16.mlir --tirx-interpret=print=1 -o /dev/null | FileCheck %s --check-prefix=HALF
// HALF: @to_float16 argument #1: [-2.25, -0.5, 1.25, -1.75, 0, 1.75, -1.25, 0.5, 2.25, -0.75, {{.*}}]
//
// Butterfly shuffles: every lane of warp w gets the sum of the warp's 32
// inputs (-2, -0.75, 0.5, 1.75 for warps 0-3).
// RUN: tirx-opt %tirx_src_root/test/Pipeline/collectives.mlir --split-input-file --tirx-interpret="kernel=warp_sum print=1" -o /dev/null | FileCheck %s --check-prefix=SUM
// SUM: @warp_sum argument #1: [-2, -2, {{(-2, )+}}-0.75, {{(-0.75, )+}}0.5, {{(0.5, )+}}1.75, {{(1.75, )+}}1.75]
