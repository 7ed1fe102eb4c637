// The pre-Hopper tensor-core pipeline in one warp: cp.async copies A (16 x 16
// bf16) and Bᵀ (8 x 16 bf16) from global to shared memory, 16 bytes per
// lane, completed by commit_group / wait_group and a barrier; ldmatrix
// loads them straight into mma's A and B fragments (the matrices ordered as
// mma's registers by the shared views' layouts); mma.sync multiplies.
// RUN: tirx-opt %s --tirx-to-ptx="ptx-output=%t.ptx" -o /dev/null
// RUN: FileCheck %s < %t.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_90 %t.ptx -o /dev/null %}

// CHECK-LABEL: .entry ldmatrix_mma(
// CHECK: cp.async.cg.shared.global [%rd{{[0-9]+}}], [%rd{{[0-9]+}}], 0x00000010;
// CHECK: cp.async.ca.shared.global [[[SB:%rd[0-9]+]]], [[[GB:%rd[0-9]+]]], 0x00000004;
// CHECK: cp.async.ca.shared.global [[[SB]]+4], [[[GB]]+4], 0x00000004;
// CHECK: cp.async.commit_group;
// CHECK: cp.async.wait_group 0x00000000;
// CHECK: bar.sync 0;
// CHECK: ldmatrix.sync.aligned.m8n8.x4.shared.b16 {[[A0:%r[0-9]+]], [[A1:%r[0-9]+]], [[A2:%r[0-9]+]], [[A3:%r[0-9]+]]}, [%rd{{[0-9]+}}];
// CHECK: ldmatrix.sync.aligned.m8n8.x2.shared.b16 {[[B0:%r[0-9]+]], [[B1:%r[0-9]+]]}, [%rd{{[0-9]+}}];
// CHECK: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {{{.*}}}, {[[A0]], [[A1]], [[A2]], [[A3]]}, {[[B0]], [[B1]]}, {{{.*}}};
#acc = #tirx.layout<S[(2, 8, 4, 2) : (2, 4@laneid, 1@laneid, 1)]>
#a = #tirx.layout<S[(2, 8, 2, 4) : (1, 4@laneid, 2, 1@laneid)]>
#b = #tirx.layout<S[(8, 2, 4) : (4@laneid, 1, 1@laneid)]>
#ldm4 = #tirx.layout<S[(4, 8, 4) : (1, 4@laneid, 1@laneid)]>
#ldm2 = #tirx.layout<S[(2, 8, 4) : (1, 4@laneid, 1@laneid)]>
// A in shared memory: 16 rows of 8 words. ldmatrix's matrix m is rows
// 8 (m % 2) .. + 8, words 4 (m / 2) .. + 4: mma's register m.
#a_rows = #tirx.layout<S[(2, 2, 8, 4) : (4, 64, 8, 1)]>
// Bᵀ: 8 columns n of 8 words of k; matrix m is words 4 m .. + 4.
#b_rows = #tirx.layout<S[(2, 8, 4) : (4, 8, 1)]>
#per_lane4 = #tirx.layout<S[(32, 4, 1) : (1@laneid, 1, 1)]>
tirx.kernel @ldmatrix_mma(%A: !tirx.tensor<32x4xui32, global, align = 16>,
                          %B: !tirx.tensor<32x2xui32, global, align = 16>,
                          %D: !tirx.tensor<32x4x1xf32, global, align = 4>)
    launch(grid = [1], block = [32]) {
  %sa = tirx.alloc_shared : !tirx.tensor<32x4xui32, shared, align = 16>
  %sb = tirx.alloc_shared : !tirx.tensor<32x2xui32, shared, align = 16>
  tile.apply "cp.async.cg.shared.global" scope(warp) (%sa, %A, 16 : i32)
      : !tirx.tensor<32x4xui32, shared, align = 16>, !tirx.tensor<32x4xui32, global, align = 16>
  // Two 4-byte chunks per lane, as repeats: one address, +4.
  %sb1 = tirx.view %sb : !tirx.tensor<32x2xui32, shared, align = 16> -> !tirx.tensor<32x2x1xui32, shared, align = 16>
  %B1 = tirx.view %B : !tirx.tensor<32x2xui32, global, align = 16> -> !tirx.tensor<32x2x1xui32, global, align = 16>
  tile.apply "cp.async.ca.shared.global" scope(warp) (%sb1, %B1, 4 : i32)
      : !tirx.tensor<32x2x1xui32, shared, align = 16>, !tirx.tensor<32x2x1xui32, global, align = 16>
  tile.apply "cp.async.commit_group" scope(warp) ()
  tile.apply "cp.async.wait_group" scope(warp) (0 : i32)
  tirx.cta_sync
  %a = tirx.alloc_local : !tirx.tensor<4x8x4xui32, local, #ldm4>
  %b = tirx.alloc_local : !tirx.tensor<2x8x4xui32, local, #ldm2>
  %sa_rows = tirx.reinterpret %sa : !tirx.tensor<32x4xui32, shared, align = 16> -> !tirx.tensor<4x8x4xui32, shared, #a_rows, align = 16>
  %sb_rows = tirx.reinterpret %sb : !tirx.tensor<32x2xui32, shared, align = 16> -> !tirx.tensor<2x8x4xui32, shared, #b_rows, align = 16>
  tile.apply "ldmatrix.sync.aligned.m8n8.x4.shared.b16" scope(warp) (%a, %sa_rows)
      : !tirx.tensor<4x8x4xui32, local, #ldm4>, !tirx.tensor<4x8x4xui32, shared, #a_rows, align = 16>
  tile.apply "ldmatrix.sync.aligned.m8n8.x2.shared.b16" scope(warp) (%b, %sb_rows)
      : !tirx.tensor<2x8x4xui32, local, #ldm2>, !tirx.tensor<2x8x4xui32, shared, #b_rows, align = 16>
  %af = tirx.reinterpret %a : !tirx.tensor<4x8x4xui32, local, #ldm4> -> !tirx.tensor<16x8xui32, local, #a>
  %bf = tirx.reinterpret %b : !tirx.tensor<2x8x4xui32, local, #ldm2> -> !tirx.tensor<8x8xui32, local, #b>
  %c = tirx.alloc_local : !tirx.tensor<16x8xf32, local, #acc>
  %cr = tirx.reinterpret %c : !tirx.tensor<16x8xf32, local, #acc> -> !tirx.tensor<32x4x1xf32, local, #per_lane4>
  tile.apply "mov.b32" scope(warp) (%cr, 0.0 : f32) : !tirx.tensor<32x4x1xf32, local, #per_lane4>
  tile.apply "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32" scope(warp) (%c, %af, %bf, %c)
      : !tirx.tensor<16x8xf32, local, #acc>, !tirx.tensor<16x8xui32, local, #a>,
        !tirx.tensor<8x8xui32, local, #b>, !tirx.tensor<16x8xf32, local, #acc>
  tile.apply "st.global.b32" scope(warp) (%D, %cr)
      : !tirx.tensor<32x4x1xf32, global, align = 4>, !tirx.tensor<32x4x1xf32, local, #per_lane4>
  tirx.return
}

// Four warps (scope cta: the warp is the group axis of every operand): a
// zero-filling cp.async with a runtime source size and an L2 prefetch hint,
// wait_all, then each warp loads its four matrices transposed and stores
// them back with stmatrix. Each lane addresses row lane % 8 of matrix
// lane / 8 of its warp's tile.
// CHECK-LABEL: .entry transpose_tiles(
// CHECK: cp.async.ca.shared.global.L2::128B [%rd{{[0-9]+}}], [%rd{{[0-9]+}}], 0x00000010, %r{{[0-9]+}};
// CHECK: cp.async.wait_all;
// CHECK: bar.sync 0;
// CHECK: ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {[[T0:%r[0-9]+]], [[T1:%r[0-9]+]], [[T2:%r[0-9]+]], [[T3:%r[0-9]+]]}, [%rd{{[0-9]+}}];
// CHECK: stmatrix.sync.aligned.m8n8.x4.shared.b16 [%rd{{[0-9]+}}], {[[T0]], [[T1]], [[T2]], [[T3]]};
#ldm4w = #tirx.layout<S[(4, 4, 8, 4) : (1@warpid, 1, 4@laneid, 1@laneid)]>
tirx.kernel @transpose_tiles(%G: !tirx.tensor<4x32x4xf32, global, align = 16>,
                             %valid: i32)
    launch(grid = [1], block = [128]) {
  %s = tirx.alloc_shared : !tirx.tensor<4x32x4xf32, shared, align = 16>
  tile.apply "cp.async.ca.shared.global.L2::128B" scope(cta) (%s, %G, 16 : i32, %valid)
      : !tirx.tensor<4x32x4xf32, shared, align = 16>, !tirx.tensor<4x32x4xf32, global, align = 16>, i32
  tile.apply "cp.async.wait_all" scope(cta) ()
  tirx.cta_sync
  %w = tirx.view %s : !tirx.tensor<4x32x4xf32, shared, align = 16> -> !tirx.tensor<4x32x4xui32, shared, align = 16>
  %rows = tirx.reinterpret %w : !tirx.tensor<4x32x4xui32, shared, align = 16> -> !tirx.tensor<4x4x8x4xui32, shared, align = 16>
  %r = tirx.alloc_local : !tirx.tensor<4x4x8x4xui32, local, #ldm4w>
  tile.apply "ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16" scope(cta) (%r, %rows)
      : !tirx.tensor<4x4x8x4xui32, local, #ldm4w>, !tirx.tensor<4x4x8x4xui32, shared, align = 16>
  tile.apply "stmatrix.sync.aligned.m8n8.x4.shared.b16" scope(cta) (%rows, %r)
      : !tirx.tensor<4x4x8x4xui32, shared, align = 16>, !tirx.tensor<4x4x8x4xui32, local, #ldm4w>
  tirx.return
}
