// RUN: tirx-opt %s | FileCheck %s
// RUN: tirx-opt %s | tirx-opt | FileCheck %s
// RUN: tirx-opt %s --mlir-print-op-generic | tirx-opt | FileCheck %s

#reg = #tirx.layout<S[(2, 32, 4) : (1@warpid, 1@laneid, 1)]>
!regs = !tirx.tensor<2x32x4xf32, local, #reg>
!scalars = !tirx.tensor<2x32x4x1xf32, local, #reg>
!global = !tirx.tensor<2x32x4xf32, global, align = 16>

// CHECK-LABEL: tirx.kernel @cta_scope
tirx.kernel @cta_scope(%A: !global, %B: !global, %scale: f32, %p: i1)
    launch(grid = [1], block = [64]) {
  %r = tirx.alloc_local : !regs
  // CHECK: tile.apply "ld.global.v4.b32" scope(cta) (%{{.*}}, %{{.*}}) : !tirx.tensor<2x32x4xf32, local, #{{.*}}>, !tirx.tensor<2x32x4xf32, global, align = 16>
  tile.apply "ld.global.v4.b32" scope(cta) (%r, %A) : !regs, !global
  %s = tirx.view %r : !regs -> !scalars
  // Immediates keep their position and type.
  // CHECK: tile.apply "fma.rn.f32" scope(cta) (%[[S:.+]], %[[S]], 2.000000e+00 : f32, 1.000000e+00 : f32)
  tile.apply "fma.rn.f32" scope(cta) (%s, %s, 2.0 : f32, 1.0 : f32) : !scalars, !scalars
  // A scalar SSA value broadcasts like an immediate.
  // CHECK: tile.apply "mul.rn.f32" scope(cta) (%[[S2:.+]], %[[S2]], %{{.*}}) : {{.*}}, {{.*}}, f32
  tile.apply "mul.rn.f32" scope(cta) (%s, %s, %scale) : !scalars, !scalars, f32
  // CHECK: tile.apply "max.f32" scope(cta) (%{{.*}}, %{{.*}}, 0.000000e+00 : f32) pred(%{{.*}})
  tile.apply "max.f32" scope(cta) (%s, %s, 0.0 : f32) pred(%p) : !scalars, !scalars
  // CHECK: tile.apply "ex2.approx.ftz.f32" scope(cta)
  tile.apply "ex2.approx.ftz.f32" scope(cta) (%s, %s) : !scalars, !scalars
  // CHECK: tile.apply "st.global.v4.b32" scope(cta)
  tile.apply "st.global.v4.b32" scope(cta) (%B, %r) : !global, !regs
  tirx.return
}

// Spec §2.2: 64 threads x 12 floats = group (2, 32) x repeat 3 x atom 4.
// CHECK-LABEL: tirx.kernel @repeats
tirx.kernel @repeats(%A: !tirx.tensor<2x32x3x4xf32, global, align = 16>)
    launch(grid = [1], block = [64]) {
  %r = tirx.alloc_local : !tirx.tensor<2x32x3x4xf32, local, #tirx.layout<S[(2, 32, 12) : (1@warpid, 1@laneid, 1)]>>
  // CHECK: tile.apply "ld.global.v4.b32" scope(cta)
  tile.apply "ld.global.v4.b32" scope(cta) (%r, %A)
      : !tirx.tensor<2x32x3x4xf32, local, #tirx.layout<S[(2, 32, 12) : (1@warpid, 1@laneid, 1)]>>,
        !tirx.tensor<2x32x3x4xf32, global, align = 16>
  tirx.return
}

// Thread scope: private per-thread tiles, every thread runs every repeat.
// Gapped slots (spec §1.8) are fine: S[(4, 1) : (2, 1)] uses slots 0, 2, 4, 6.
// CHECK-LABEL: tirx.kernel @thread_scope
tirx.kernel @thread_scope() launch(grid = [1], block = [128]) {
  %r = tirx.alloc_local : !tirx.tensor<4x1xf32, local, #tirx.layout<S[(4, 1) : (2, 1)]>>
  // CHECK: tile.apply "mov.b32" scope(thread) (%{{.*}}, 0.000000e+00 : f32)
  tile.apply "mov.b32" scope(thread) (%r, 0.0 : f32) : !tirx.tensor<4x1xf32, local, #tirx.layout<S[(4, 1) : (2, 1)]>>
  // CHECK: tile.apply "abs.f32" scope(thread)
  tile.apply "abs.f32" scope(thread) (%r, %r) : !tirx.tensor<4x1xf32, local, #tirx.layout<S[(4, 1) : (2, 1)]>>, !tirx.tensor<4x1xf32, local, #tirx.layout<S[(4, 1) : (2, 1)]>>
  tirx.return
}

// Warp scope: group (lane); every warp runs its own copy.
// CHECK-LABEL: tirx.kernel @warp_scope
tirx.kernel @warp_scope() launch(grid = [1], block = [128]) {
  %r = tirx.alloc_local : !tirx.tensor<32x4x1xf32, local, #tirx.layout<S[(32, 4) : (1@laneid, 1)]>>
  // CHECK: tile.apply "neg.f32" scope(warp)
  tile.apply "neg.f32" scope(warp) (%r, %r) : !tirx.tensor<32x4x1xf32, local, #tirx.layout<S[(32, 4) : (1@laneid, 1)]>>, !tirx.tensor<32x4x1xf32, local, #tirx.layout<S[(32, 4) : (1@laneid, 1)]>>
  tirx.return
}

// Warpgroup scope: group (warp in group, lane).
// CHECK-LABEL: tirx.kernel @warpgroup_scope
tirx.kernel @warpgroup_scope() launch(grid = [1], block = [256]) {
  %r = tirx.alloc_local : !tirx.tensor<4x32x2x1xf32, local, #tirx.layout<S[(4, 32, 2) : (1@wid_in_wg, 1@laneid, 1)]>>
  // CHECK: tile.apply "rcp.approx.ftz.f32" scope(warpgroup)
  tile.apply "rcp.approx.ftz.f32" scope(warpgroup) (%r, %r) : !tirx.tensor<4x32x2x1xf32, local, #tirx.layout<S[(4, 32, 2) : (1@wid_in_wg, 1@laneid, 1)]>>, !tirx.tensor<4x32x2x1xf32, local, #tirx.layout<S[(4, 32, 2) : (1@wid_in_wg, 1@laneid, 1)]>>
  tirx.return
}

// A tx-based layout is the same ownership as (warpid, laneid).
// CHECK-LABEL: tirx.kernel @tx_layout
tirx.kernel @tx_layout() launch(grid = [1], block = [64]) {
  %r = tirx.alloc_local : !tirx.tensor<2x32x1xf32, local, #tirx.layout<S[64 : 1@tx]>>
  // CHECK: tile.apply "sqrt.rn.f32" scope(cta)
  tile.apply "sqrt.rn.f32" scope(cta) (%r, %r) : !tirx.tensor<2x32x1xf32, local, #tirx.layout<S[64 : 1@tx]>>, !tirx.tensor<2x32x1xf32, local, #tirx.layout<S[64 : 1@tx]>>
  tirx.return
}

// Packed conversion: the f32 that becomes the high half comes first.
// CHECK-LABEL: tirx.kernel @packed_cvt
tirx.kernel @packed_cvt() launch(grid = [1], block = [32]) {
  %a = tirx.alloc_local : !tirx.tensor<32x2xf32, local, #tirx.layout<S[(32, 2) : (1@laneid, 1)]>>
  %d = tirx.alloc_local : !tirx.tensor<32x1xui32, local, #tirx.layout<S[32 : 1@laneid]>>
  %hi = tirx.region %a[0, 1] [32, 1] : !tirx.tensor<32x2xf32, local, #tirx.layout<S[(32, 2) : (1@laneid, 1)]>>
  %lo = tirx.region %a[0, 0] [32, 1] : !tirx.tensor<32x2xf32, local, #tirx.layout<S[(32, 2) : (1@laneid, 1)]>>
  // CHECK: tile.apply "cvt.rn.f16x2.f32" scope(warp)
  tile.apply "cvt.rn.f16x2.f32" scope(warp) (%d, %hi, %lo)
      : !tirx.tensor<32x1xui32, local, #tirx.layout<S[32 : 1@laneid]>>,
        !tirx.tensor<32x1xf32, local, #tirx.layout<S[(32, 1) : (1@laneid, 1)] + 1>>,
        !tirx.tensor<32x1xf32, local, #tirx.layout<S[(32, 1) : (1@laneid, 1)]>>
  // Packed arithmetic works on u32 carriers; constants encode both halves.
  // CHECK: tile.apply "add.rn.f16x2" scope(warp) (%{{.*}}, %{{.*}}, 1006648320 : ui32)
  tile.apply "add.rn.f16x2" scope(warp) (%d, %d, 1006648320 : ui32)
      : !tirx.tensor<32x1xui32, local, #tirx.layout<S[32 : 1@laneid]>>,
        !tirx.tensor<32x1xui32, local, #tirx.layout<S[32 : 1@laneid]>>
  tirx.return
}

// Shared memory, thread-indexed rows (spec §2.5 example).
// CHECK-LABEL: tirx.kernel @shared_rows
tirx.kernel @shared_rows(%A: !tirx.tensor<64x4xf32, global, align = 16>)
    launch(grid = [1], block = [64]) {
  %tx = tirx.thread_idx x
  %row = tirx.alloc_local : !tirx.tensor<4xf32, local>
  %smem = tirx.alloc_shared : !tirx.tensor<64x4xf32, shared, align = 16>
  %src = tirx.region %A[%tx, 0] [1, 4] : !tirx.tensor<64x4xf32, global, align = 16>
  %src_row = tirx.view %src : !tirx.tensor<1x4xf32, global, #tirx.layout<S[(1, 4) : (4, 1)]>, align = 16>
                           -> !tirx.tensor<4xf32, global, #tirx.layout<S[(1, 4) : (4, 1)]>, align = 16>
  // CHECK: tile.apply "ld.global.v4.b32" scope(thread)
  tile.apply "ld.global.v4.b32" scope(thread) (%row, %src_row)
      : !tirx.tensor<4xf32, local>,
        !tirx.tensor<4xf32, global, #tirx.layout<S[(1, 4) : (4, 1)]>, align = 16>
  %dst = tirx.region %smem[%tx, 0] [1, 4] : !tirx.tensor<64x4xf32, shared, align = 16>
  %dst_row = tirx.view %dst : !tirx.tensor<1x4xf32, shared, #tirx.layout<S[(1, 4) : (4, 1)]>, align = 16>
                           -> !tirx.tensor<4xf32, shared, #tirx.layout<S[(1, 4) : (4, 1)]>, align = 16>
  // CHECK: tile.apply "st.shared.v4.b32" scope(thread)
  tile.apply "st.shared.v4.b32" scope(thread) (%dst_row, %row)
      : !tirx.tensor<4xf32, shared, #tirx.layout<S[(1, 4) : (4, 1)]>, align = 16>,
        !tirx.tensor<4xf32, local>
  tirx.cta_sync
  tirx.return
}

// Chip and PTX attributes raise the target: three-input max needs sm_100
// and PTX ISA 8.8.
// CHECK-LABEL: module attributes {tirx.chip = "sm_100a", tirx.ptx = 88 : i32}
module attributes {tirx.chip = "sm_100a", tirx.ptx = 88 : i32} {
  tirx.kernel @three_input_max() launch(grid = [1], block = [32]) {
    %r = tirx.alloc_local : !tirx.tensor<32x1xf32, local, #tirx.layout<S[32 : 1@laneid]>>
    // CHECK: tile.apply "max.f32" scope(warp) (%{{.*}}, %{{.*}}, %{{.*}}, 0.000000e+00 : f32)
    tile.apply "max.f32" scope(warp) (%r, %r, %r, 0.0 : f32)
        : !tirx.tensor<32x1xf32, local, #tirx.layout<S[32 : 1@laneid]>>,
          !tirx.tensor<32x1xf32, local, #tirx.layout<S[32 : 1@laneid]>>,
          !tirx.tensor<32x1xf32, local, #tirx.layout<S[32 : 1@laneid]>>
    tirx.return
  }
}
