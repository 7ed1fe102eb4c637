// mma.sync m16n8k16 (bf16 in, f32 accumulate) end to end: the operands are
// tiles laid out as the instruction's fragments (docs/instruction-model.md),
// loaded and stored through per-lane views of the same registers
// (tirx.reinterpret); one inline-PTX instruction with its register vectors.
// RUN: tirx-opt %s --tirx-to-ptx="ptx-output=%t.ptx" -o /dev/null
// RUN: FileCheck %s < %t.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_90 %t.ptx -o /dev/null %}

// CHECK-LABEL: .entry mma(
// CHECK: ld.global.b32 [[A0:%r[0-9]+]], [%rd{{[0-9]+}}];
// CHECK: ld.global.b32 [[A1:%r[0-9]+]], [%rd{{[0-9]+}}+4];
// CHECK: ld.global.b32 [[A2:%r[0-9]+]], [%rd{{[0-9]+}}+8];
// CHECK: ld.global.b32 [[A3:%r[0-9]+]], [%rd{{[0-9]+}}+12];
// CHECK: ld.global.b32 [[B0:%r[0-9]+]], [%rd{{[0-9]+}}];
// CHECK: ld.global.b32 [[B1:%r[0-9]+]], [%rd{{[0-9]+}}+4];
// CHECK: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {[[D0:%r[0-9]+]], [[D1:%r[0-9]+]], [[D2:%r[0-9]+]], [[D3:%r[0-9]+]]}, {[[A0]], [[A1]], [[A2]], [[A3]]}, {[[B0]], [[B1]]}, {[[Z:%r[0-9]+]], [[Z]], [[Z]], [[Z]]};
// CHECK: st.global.b32 [%rd{{[0-9]+}}], [[D0]];
// CHECK: st.global.b32 [%rd{{[0-9]+}}+12], [[D3]];
#acc = #tirx.layout<S[(2, 8, 4, 2) : (2, 4@laneid, 1@laneid, 1)]>
#a = #tirx.layout<S[(2, 8, 2, 4) : (1, 4@laneid, 2, 1@laneid)]>
#b = #tirx.layout<S[(8, 2, 4) : (4@laneid, 1, 1@laneid)]>
#per_lane4 = #tirx.layout<S[(32, 4, 1) : (1@laneid, 1, 1)]>
#per_lane2 = #tirx.layout<S[(32, 2, 1) : (1@laneid, 1, 1)]>
tirx.kernel @mma(%A: !tirx.tensor<32x4x1xui32, global, align = 4>,
                 %B: !tirx.tensor<32x2x1xui32, global, align = 4>,
                 %D: !tirx.tensor<32x4x1xf32, global, align = 4>)
    launch(grid = [1], block = [32]) {
  %a = tirx.alloc_local : !tirx.tensor<16x8xui32, local, #a>
  %b = tirx.alloc_local : !tirx.tensor<8x8xui32, local, #b>
  %c = tirx.alloc_local : !tirx.tensor<16x8xf32, local, #acc>
  %ar = tirx.reinterpret %a : !tirx.tensor<16x8xui32, local, #a> -> !tirx.tensor<32x4x1xui32, local, #per_lane4>
  %br = tirx.reinterpret %b : !tirx.tensor<8x8xui32, local, #b> -> !tirx.tensor<32x2x1xui32, local, #per_lane2>
  %cr = tirx.reinterpret %c : !tirx.tensor<16x8xf32, local, #acc> -> !tirx.tensor<32x4x1xf32, local, #per_lane4>
  tile.apply "ld.global.b32" scope(warp) (%ar, %A)
      : !tirx.tensor<32x4x1xui32, local, #per_lane4>, !tirx.tensor<32x4x1xui32, global, align = 4>
  tile.apply "ld.global.b32" scope(warp) (%br, %B)
      : !tirx.tensor<32x2x1xui32, local, #per_lane2>, !tirx.tensor<32x2x1xui32, global, align = 4>
  tile.apply "mov.b32" scope(warp) (%cr, 0.0 : f32) : !tirx.tensor<32x4x1xf32, local, #per_lane4>
  tile.apply "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32" scope(warp) (%c, %a, %b, %c)
      : !tirx.tensor<16x8xf32, local, #acc>, !tirx.tensor<16x8xui32, local, #a>,
        !tirx.tensor<8x8xui32, local, #b>, !tirx.tensor<16x8xf32, local, #acc>
  tile.apply "st.global.b32" scope(warp) (%D, %cr)
      : !tirx.tensor<32x4x1xf32, global, align = 4>, !tirx.tensor<32x4x1xf32, local, #per_lane4>
  tirx.return
}
