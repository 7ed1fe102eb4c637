// mma.sync with tf32 (m16n8k8) and fp8 (m16n8k32, e4m3/e5m2, sm_89 and PTX
// 8.4) inputs: A and B are b32 words in the fragments of m16n8k16's A and B
// (one tf32 per word, four fp8 values per word), accumulating in f32.
// RUN: tirx-opt %s --tirx-to-ptx="features=+ptx84 ptx-output=%t.ptx" -o /dev/null
// RUN: FileCheck %s < %t.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_90 %t.ptx -o /dev/null %}
// RUN: not tirx-opt %s --tirx-to-ptx="ptx-output=%t.old.ptx" -o /dev/null 2>&1 | FileCheck %s --check-prefix=FLOOR

// CHECK-LABEL: .entry mma_tf32_fp8(
// CHECK: mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {[[D0:%r[0-9]+]], [[D1:%r[0-9]+]], [[D2:%r[0-9]+]], [[D3:%r[0-9]+]]}, {[[A0:%r[0-9]+]], [[A1:%r[0-9]+]], [[A2:%r[0-9]+]], [[A3:%r[0-9]+]]}, {[[B0:%r[0-9]+]], [[B1:%r[0-9]+]]}, {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}};
// CHECK: mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e5m2.f32 {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, {[[A0]], [[A1]], [[A2]], [[A3]]}, {[[B0]], [[B1]]}, {[[D0]], [[D1]], [[D2]], [[D3]]};
// FLOOR: error: 'tile.apply' op 'mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e5m2.f32' requires PTX ISA 8.4 but the target is PTX 8.0 (raise it with --tirx-to-ptx="features=+ptx84")
#acc = #tirx.layout<S[(2, 8, 4, 2) : (2, 4@laneid, 1@laneid, 1)]>
#a = #tirx.layout<S[(2, 8, 2, 4) : (1, 4@laneid, 2, 1@laneid)]>
#b = #tirx.layout<S[(8, 2, 4) : (4@laneid, 1, 1@laneid)]>
#lane4 = #tirx.layout<S[(32, 4, 1) : (1@laneid, 1, 1)]>
#lane2 = #tirx.layout<S[(32, 2, 1) : (1@laneid, 1, 1)]>
tirx.kernel @mma_tf32_fp8(%A: !tirx.tensor<32x4x1xui32, global, align = 4>,
                          %B: !tirx.tensor<32x2x1xui32, global, align = 4>,
                          %D: !tirx.tensor<32x4x1xf32, global, align = 4>)
    launch(grid = [1], block = [32]) {
  %a = tirx.alloc_local : !tirx.tensor<16x8xui32, local, #a>
  %b = tirx.alloc_local : !tirx.tensor<8x8xui32, local, #b>
  %c = tirx.alloc_local : !tirx.tensor<16x8xf32, local, #acc>
  %ar = tirx.reinterpret %a : !tirx.tensor<16x8xui32, local, #a> -> !tirx.tensor<32x4x1xui32, local, #lane4>
  %br = tirx.reinterpret %b : !tirx.tensor<8x8xui32, local, #b> -> !tirx.tensor<32x2x1xui32, local, #lane2>
  %cr = tirx.reinterpret %c : !tirx.tensor<16x8xf32, local, #acc> -> !tirx.tensor<32x4x1xf32, local, #lane4>
  tile.apply "ld.global.b32" scope(warp) (%ar, %A)
      : !tirx.tensor<32x4x1xui32, local, #lane4>, !tirx.tensor<32x4x1xui32, global, align = 4>
  tile.apply "ld.global.b32" scope(warp) (%br, %B)
      : !tirx.tensor<32x2x1xui32, local, #lane2>, !tirx.tensor<32x2x1xui32, global, align = 4>
  tile.apply "mov.b32" scope(warp) (%cr, 0.0 : f32) : !tirx.tensor<32x4x1xf32, local, #lane4>
  // The same words as tf32 values, then as fp8 quadruples (e4m3 x e5m2).
  tile.apply "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32" scope(warp) (%c, %a, %b, %c)
      : !tirx.tensor<16x8xf32, local, #acc>, !tirx.tensor<16x8xui32, local, #a>,
        !tirx.tensor<8x8xui32, local, #b>, !tirx.tensor<16x8xf32, local, #acc>
  tile.apply "mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e5m2.f32" scope(warp) (%c, %a, %b, %c)
      : !tirx.tensor<16x8xf32, local, #acc>, !tirx.tensor<16x8xui32, local, #a>,
        !tirx.tensor<8x8xui32, local, #b>, !tirx.tensor<16x8xf32, local, #acc>
  tile.apply "st.global.b32" scope(warp) (%D, %cr)
      : !tirx.tensor<32x4x1xf32, global, align = 4>, !tirx.tensor<32x4x1xf32, local, #lane4>
  tirx.return
}
