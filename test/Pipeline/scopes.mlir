// RUN: tirx-opt %s --tirx-to-ptx=ptx-output=%t.ptx -o /dev/null
// RUN: FileCheck %s < %t.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_90 %t.ptx -o /dev/null %}

// warp: group (lane); every warp of the block runs its own copy, so the
// address depends on tid % 32 only.
// CHECK-LABEL: .entry warp_scope(
// CHECK-NOT: .local
// CHECK: mov.u32 {{.*}}%tid.x;
// (tid % 32) * 4 elements: LLVM writes it (tid << 2) & 124.
// CHECK: and.b32 {{%r[0-9]+}}, {{%r[0-9]+}}, 124;
// CHECK-COUNT-1: ld.global.v4.b32
// CHECK-COUNT-4: neg.f32
// CHECK-COUNT-1: st.global.v4.b32
// CHECK: ret;
tirx.kernel @warp_scope(%A: !tirx.tensor<32x4xf32, global, align = 16>)
    launch(grid = [1], block = [128]) {
  %r = tirx.alloc_local : !tirx.tensor<32x4xf32, local, #tirx.layout<S[(32, 4) : (1@laneid, 1)]>>
  tile.apply "ld.global.v4.b32" scope(warp) (%r, %A)
      : !tirx.tensor<32x4xf32, local, #tirx.layout<S[(32, 4) : (1@laneid, 1)]>>,
        !tirx.tensor<32x4xf32, global, align = 16>
  %s = tirx.view %r : !tirx.tensor<32x4xf32, local, #tirx.layout<S[(32, 4) : (1@laneid, 1)]>>
                   -> !tirx.tensor<32x4x1xf32, local, #tirx.layout<S[(32, 4) : (1@laneid, 1)]>>
  tile.apply "neg.f32" scope(warp) (%s, %s)
      : !tirx.tensor<32x4x1xf32, local, #tirx.layout<S[(32, 4) : (1@laneid, 1)]>>,
        !tirx.tensor<32x4x1xf32, local, #tirx.layout<S[(32, 4) : (1@laneid, 1)]>>
  tile.apply "st.global.v4.b32" scope(warp) (%A, %r)
      : !tirx.tensor<32x4xf32, global, align = 16>,
        !tirx.tensor<32x4xf32, local, #tirx.layout<S[(32, 4) : (1@laneid, 1)]>>
  tirx.return
}

// warpgroup: group (warp in group, lane): element offset 32 * ((tid / 32) % 4)
// + tid % 32 = tid % 128.
// CHECK-LABEL: .entry warpgroup_scope(
// CHECK-NOT: .local
// CHECK: mov.u32 [[TID:%r[0-9]+]], %tid.x;
// CHECK-NEXT: and.b32 [[OFF:%r[0-9]+]], [[TID]], 127;
// CHECK-NEXT: mul.wide.u32 {{%rd[0-9]+}}, [[OFF]], 4;
// CHECK-COUNT-1: ld.global.b32
// CHECK-COUNT-1: ex2.approx.ftz.f32
// CHECK-COUNT-1: st.global.b32
// CHECK: ret;
tirx.kernel @warpgroup_scope(%A: !tirx.tensor<4x32x1xf32, global>)
    launch(grid = [1], block = [256]) {
  %r = tirx.alloc_local : !tirx.tensor<4x32x1xf32, local, #tirx.layout<S[(4, 32) : (1@wid_in_wg, 1@laneid)]>>
  tile.apply "ld.global.b32" scope(warpgroup) (%r, %A)
      : !tirx.tensor<4x32x1xf32, local, #tirx.layout<S[(4, 32) : (1@wid_in_wg, 1@laneid)]>>,
        !tirx.tensor<4x32x1xf32, global>
  tile.apply "ex2.approx.ftz.f32" scope(warpgroup) (%r, %r)
      : !tirx.tensor<4x32x1xf32, local, #tirx.layout<S[(4, 32) : (1@wid_in_wg, 1@laneid)]>>,
        !tirx.tensor<4x32x1xf32, local, #tirx.layout<S[(4, 32) : (1@wid_in_wg, 1@laneid)]>>
  tile.apply "st.global.b32" scope(warpgroup) (%A, %r)
      : !tirx.tensor<4x32x1xf32, global>,
        !tirx.tensor<4x32x1xf32, local, #tirx.layout<S[(4, 32) : (1@wid_in_wg, 1@laneid)]>>
  tirx.return
}

// thread: no group; every thread loads the whole (private) tile: two
// 16-byte loads at fixed addresses, no thread id at all.
// CHECK-LABEL: .entry thread_scope(
// CHECK-NOT: %tid
// CHECK-COUNT-2: ld.global.v4.b32
// CHECK-COUNT-8: sqrt.rn.f32
// CHECK-NOT: %tid
// CHECK: ret;
tirx.kernel @thread_scope(%A: !tirx.tensor<2x4xf32, global, align = 16>,
                          %B: !tirx.tensor<8x1xf32, global>)
    launch(grid = [1], block = [32]) {
  %r = tirx.alloc_local : !tirx.tensor<2x4xf32, local>
  tile.apply "ld.global.v4.b32" scope(thread) (%r, %A)
      : !tirx.tensor<2x4xf32, local>, !tirx.tensor<2x4xf32, global, align = 16>
  %s = tirx.view %r : !tirx.tensor<2x4xf32, local> -> !tirx.tensor<8x1xf32, local>
  tile.apply "sqrt.rn.f32" scope(thread) (%s, %s)
      : !tirx.tensor<8x1xf32, local>, !tirx.tensor<8x1xf32, local>
  tile.apply "st.global.b32" scope(thread) (%B, %s)
      : !tirx.tensor<8x1xf32, global>, !tirx.tensor<8x1xf32, local>
  tirx.return
}

// cta with a 2-D block (32, 2): the flat thread id is x + 32 * y.
// CHECK-LABEL: .entry cta_2d_block(
// CHECK-DAG: %tid.x
// CHECK-DAG: %tid.y
// CHECK: ld.global.b32
// CHECK: rcp.rn.f32
// CHECK: st.global.b32
// CHECK: ret;
tirx.kernel @cta_2d_block(%A: !tirx.tensor<2x32x1xf32, global>)
    launch(grid = [1], block = [32, 2]) {
  %r = tirx.alloc_local : !tirx.tensor<2x32x1xf32, local, #tirx.layout<S[(2, 32) : (1@warpid, 1@laneid)]>>
  tile.apply "ld.global.b32" scope(cta) (%r, %A)
      : !tirx.tensor<2x32x1xf32, local, #tirx.layout<S[(2, 32) : (1@warpid, 1@laneid)]>>,
        !tirx.tensor<2x32x1xf32, global>
  tile.apply "rcp.rn.f32" scope(cta) (%r, %r)
      : !tirx.tensor<2x32x1xf32, local, #tirx.layout<S[(2, 32) : (1@warpid, 1@laneid)]>>,
        !tirx.tensor<2x32x1xf32, local, #tirx.layout<S[(2, 32) : (1@warpid, 1@laneid)]>>
  tile.apply "st.global.b32" scope(cta) (%A, %r)
      : !tirx.tensor<2x32x1xf32, global>,
        !tirx.tensor<2x32x1xf32, local, #tirx.layout<S[(2, 32) : (1@warpid, 1@laneid)]>>
  tirx.return
}

// Shared memory round trip with a barrier (spec §2.5): each thread stores
// its row and reads its neighbour's.
// CHECK-LABEL: .entry shared_rows(
// CHECK: .shared .align 16 .b8 {{.*}}[1024];
// CHECK: ld.global.v4.b32
// CHECK: st.shared.v4.b32
// CHECK: bar.sync 0;
// CHECK: ld.shared.v4.b32
// CHECK: st.global.v4.b32
tirx.kernel @shared_rows(%A: !tirx.tensor<64x4xf32, global, align = 16>,
                         %B: !tirx.tensor<64x4xf32, global, align = 16>)
    launch(grid = [1], block = [64]) {
  %smem = tirx.alloc_shared : !tirx.tensor<64x4xf32, shared, align = 16>
  %r = tirx.alloc_local : !tirx.tensor<64x4xf32, local, #tirx.layout<S[(64, 4) : (1@tx, 1)]>>
  %s = tirx.view %r : !tirx.tensor<64x4xf32, local, #tirx.layout<S[(64, 4) : (1@tx, 1)]>>
                   -> !tirx.tensor<2x32x4xf32, local, #tirx.layout<S[(64, 4) : (1@tx, 1)]>>
  %a = tirx.view %A : !tirx.tensor<64x4xf32, global, align = 16> -> !tirx.tensor<2x32x4xf32, global, align = 16>
  %b = tirx.view %B : !tirx.tensor<64x4xf32, global, align = 16> -> !tirx.tensor<2x32x4xf32, global, align = 16>
  %sm = tirx.view %smem : !tirx.tensor<64x4xf32, shared, align = 16> -> !tirx.tensor<2x32x4xf32, shared, align = 16>
  tile.apply "ld.global.v4.b32" scope(cta) (%s, %a)
      : !tirx.tensor<2x32x4xf32, local, #tirx.layout<S[(64, 4) : (1@tx, 1)]>>, !tirx.tensor<2x32x4xf32, global, align = 16>
  tile.apply "st.shared.v4.b32" scope(cta) (%sm, %s)
      : !tirx.tensor<2x32x4xf32, shared, align = 16>, !tirx.tensor<2x32x4xf32, local, #tirx.layout<S[(64, 4) : (1@tx, 1)]>>
  tirx.cta_sync
  tile.apply "ld.shared.v4.b32" scope(cta) (%s, %sm)
      : !tirx.tensor<2x32x4xf32, local, #tirx.layout<S[(64, 4) : (1@tx, 1)]>>, !tirx.tensor<2x32x4xf32, shared, align = 16>
  tile.apply "st.global.v4.b32" scope(cta) (%b, %s)
      : !tirx.tensor<2x32x4xf32, global, align = 16>, !tirx.tensor<2x32x4xf32, local, #tirx.layout<S[(64, 4) : (1@tx, 1)]>>
  tirx.return
}
