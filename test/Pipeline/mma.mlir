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

// m16n8k8 (f16 in, f32 accumulate) and m16n8k16 with f16 accumulators
// (C and D as 16 x 4 words of f16 pairs), chained on one accumulator.
// CHECK-LABEL: .entry mma_k8_and_f16(
// CHECK: mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {[[K0:%r[0-9]+]], [[K1:%r[0-9]+]], [[K2:%r[0-9]+]], [[K3:%r[0-9]+]]}, {[[KA0:%r[0-9]+]], [[KA1:%r[0-9]+]]}, {[[KB:%r[0-9]+]]}, {[[ONE:%r[0-9]+]], [[ONE]], [[ONE]], [[ONE]]};
// CHECK: mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {[[H0:%r[0-9]+]], [[H1:%r[0-9]+]]}, {[[HA0:%r[0-9]+]], [[HA1:%r[0-9]+]], [[HA2:%r[0-9]+]], [[HA3:%r[0-9]+]]}, {[[HB0:%r[0-9]+]], [[HB1:%r[0-9]+]]}, {[[ZERO:%r[0-9]+]], [[ZERO]]};
#acc8 = #tirx.layout<S[(2, 8, 4, 2) : (2, 4@laneid, 1@laneid, 1)]>
#a8 = #tirx.layout<S[(2, 8, 4) : (1, 4@laneid, 1@laneid)]>
#b8 = #tirx.layout<S[(8, 4) : (4@laneid, 1@laneid)]>
#a16 = #tirx.layout<S[(2, 8, 2, 4) : (1, 4@laneid, 2, 1@laneid)]>
#b16 = #tirx.layout<S[(8, 2, 4) : (4@laneid, 1, 1@laneid)]>
#lane4 = #tirx.layout<S[(32, 4, 1) : (1@laneid, 1, 1)]>
#lane2 = #tirx.layout<S[(32, 2, 1) : (1@laneid, 1, 1)]>
#lane1 = #tirx.layout<S[(32, 1, 1) : (1@laneid, 1, 1)]>
tirx.kernel @mma_k8_and_f16(%A: !tirx.tensor<32x4x1xui32, global, align = 4>,
                            %D: !tirx.tensor<32x4x1xf32, global, align = 4>,
                            %H: !tirx.tensor<32x2x1xui32, global, align = 4>)
    launch(grid = [1], block = [32]) {
  %a = tirx.alloc_local : !tirx.tensor<16x8xui32, local, #a16>
  %ar = tirx.reinterpret %a : !tirx.tensor<16x8xui32, local, #a16> -> !tirx.tensor<32x4x1xui32, local, #lane4>
  tile.apply "ld.global.b32" scope(warp) (%ar, %A)
      : !tirx.tensor<32x4x1xui32, local, #lane4>, !tirx.tensor<32x4x1xui32, global, align = 4>
  // The first two of A's registers as k8's A, the first as k8's B.
  %a8 = tirx.reinterpret %a : !tirx.tensor<16x8xui32, local, #a16> -> !tirx.tensor<16x4xui32, local, #a8>
  %b8 = tirx.reinterpret %a : !tirx.tensor<16x8xui32, local, #a16> -> !tirx.tensor<8x4xui32, local, #b8>
  %b16 = tirx.reinterpret %a : !tirx.tensor<16x8xui32, local, #a16> -> !tirx.tensor<8x8xui32, local, #b16>
  %c = tirx.alloc_local : !tirx.tensor<16x8xf32, local, #acc8>
  %cr = tirx.reinterpret %c : !tirx.tensor<16x8xf32, local, #acc8> -> !tirx.tensor<32x4x1xf32, local, #lane4>
  tile.apply "mov.b32" scope(warp) (%cr, 1.0 : f32) : !tirx.tensor<32x4x1xf32, local, #lane4>
  tile.apply "mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32" scope(warp) (%c, %a8, %b8, %c)
      : !tirx.tensor<16x8xf32, local, #acc8>, !tirx.tensor<16x4xui32, local, #a8>,
        !tirx.tensor<8x4xui32, local, #b8>, !tirx.tensor<16x8xf32, local, #acc8>
  tile.apply "st.global.b32" scope(warp) (%D, %cr)
      : !tirx.tensor<32x4x1xf32, global, align = 4>, !tirx.tensor<32x4x1xf32, local, #lane4>
  %h = tirx.alloc_local : !tirx.tensor<16x4xui32, local, #a8>
  %hr = tirx.reinterpret %h : !tirx.tensor<16x4xui32, local, #a8> -> !tirx.tensor<32x2x1xui32, local, #lane2>
  tile.apply "mov.b32" scope(warp) (%hr, 0 : i32) : !tirx.tensor<32x2x1xui32, local, #lane2>
  tile.apply "mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16" scope(warp) (%h, %a, %b16, %h)
      : !tirx.tensor<16x4xui32, local, #a8>, !tirx.tensor<16x8xui32, local, #a16>,
        !tirx.tensor<8x8xui32, local, #b16>, !tirx.tensor<16x4xui32, local, #a8>
  tile.apply "st.global.b32" scope(warp) (%H, %hr)
      : !tirx.tensor<32x2x1xui32, global, align = 4>, !tirx.tensor<32x2x1xui32, local, #lane2>
  tirx.return
}
