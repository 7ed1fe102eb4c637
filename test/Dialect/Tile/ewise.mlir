// RUN: tirx-opt %s | FileCheck %s
// RUN: tirx-opt %s --mlir-print-op-generic | tirx-opt | FileCheck %s

#reg = #tirx.layout<S[(2, 32, 4) : (1@warpid, 1@laneid, 1)]>
!regs = !tirx.tensor<2x32x4xf32, local, #reg>

func.func private @affine(%x: f32, %scale: f32, %bias: f32) -> f32 {
  %y = arith.mulf %x, %scale : f32
  %z = arith.addf %y, %bias : f32
  return %z : f32
}

func.func private @to_half(%x: f32) -> f16 {
  %h = arith.truncf %x : f32 to f16
  return %h : f16
}

// CHECK-LABEL: tirx.kernel @ewise
tirx.kernel @ewise(%bias: f32) launch(grid = [1], block = [64]) {
  %r = tirx.alloc_local : !regs
  %h = tirx.alloc_local : !tirx.tensor<2x32x4xf16, local, #reg>
  // No atom axis: (2, 32) group x 4 repeats. Scalars broadcast.
  // CHECK: tile.ewise @affine scope(cta) (%[[R:.+]], %[[R]], 2.000000e+00 : f32, %{{.*}}) : !tirx.tensor<2x32x4xf32, local, #{{.*}}>, !tirx.tensor<2x32x4xf32, local, #{{.*}}>, f32
  tile.ewise @affine scope(cta) (%r, %r, 2.0 : f32, %bias) : !regs, !regs, f32
  // Result and destination types agree exactly (f16 here).
  // CHECK: tile.ewise @to_half scope(cta)
  tile.ewise @to_half scope(cta) (%h, %r) : !tirx.tensor<2x32x4xf16, local, #reg>, !regs
  tirx.return
}
