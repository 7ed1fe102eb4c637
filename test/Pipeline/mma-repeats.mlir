// mma.sync with TIRx's (M, N, K)-structured repeats (docs/matrix.md): D and
// C (M_repeat, N_repeat, 16, 8), A (M_repeat, K_repeat, 16, 8), B (N_repeat,
// K_repeat, 8, 8). One mma per (k, m, n), k outermost: the first k step reads
// C, later ones accumulate into D (its registers are their C).
// RUN: tirx-opt %s --tirx-to-ptx="ptx-output=%t.ptx" -o /dev/null
// RUN: FileCheck %s < %t.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_90 %t.ptx -o /dev/null %}

// M = N = K = 2: eight mma. k = 0 reads C (D(m, n) = A(m, 0) B(n, 0) + C(m, n)),
// k = 1 reads D back (D(m, n) += A(m, 1) B(n, 1)).
// CHECK-LABEL: .entry mma_mnk(
// CHECK: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {[[D00:%r[0-9]+]], {{%r[0-9]+, %r[0-9]+, %r[0-9]+}}}, {[[A00:%r[0-9]+]], {{.*}}}, {[[B00:%r[0-9]+]], {{%r[0-9]+}}}, {[[C00:%r[0-9]+]], {{.*}}};
// CHECK: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {[[D01:%r[0-9]+]], {{.*}}}, {[[A00]], {{.*}}}, {[[B10:%r[0-9]+]], {{%r[0-9]+}}}, {{{.*}}};
// CHECK: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {[[D10:%r[0-9]+]], {{.*}}}, {[[A10:%r[0-9]+]], {{.*}}}, {[[B00]], {{%r[0-9]+}}}, {{{.*}}};
// CHECK: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {[[D11:%r[0-9]+]], {{.*}}}, {[[A10]], {{.*}}}, {[[B10]], {{%r[0-9]+}}}, {{{.*}}};
// CHECK: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {{{%r[0-9]+}}, {{.*}}}, {{{%r[0-9]+}}, {{.*}}}, {{{%r[0-9]+}}, {{%r[0-9]+}}}, {[[D00]], {{.*}}};
// CHECK: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {{{.*}}}, {{{.*}}}, {{{.*}}}, {[[D01]], {{.*}}};
// CHECK: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {{{.*}}}, {{{.*}}}, {{{.*}}}, {[[D10]], {{.*}}};
// CHECK: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {{{.*}}}, {{{.*}}}, {{{.*}}}, {[[D11]], {{.*}}};
// CHECK-NOT: mma.sync
// CHECK: ret;
#acc = #tirx.layout<S[(2, 2, 2, 8, 4, 2) : (8, 4, 2, 4@laneid, 1@laneid, 1)]>
#a = #tirx.layout<S[(2, 2, 2, 8, 2, 4) : (8, 4, 1, 4@laneid, 2, 1@laneid)]>
#b = #tirx.layout<S[(2, 2, 8, 2, 4) : (4, 2, 4@laneid, 1, 1@laneid)]>
#lane16 = #tirx.layout<S[(32, 16, 1) : (1@laneid, 1, 1)]>
#lane8 = #tirx.layout<S[(32, 8, 1) : (1@laneid, 1, 1)]>
tirx.kernel @mma_mnk(%A: !tirx.tensor<32x16x1xui32, global, align = 4>,
                     %B: !tirx.tensor<32x8x1xui32, global, align = 4>,
                     %C: !tirx.tensor<32x16x1xf32, global, align = 4>,
                     %D: !tirx.tensor<32x16x1xf32, global, align = 4>)
    launch(grid = [1], block = [32]) {
  %a = tirx.alloc_local : !tirx.tensor<2x2x16x8xui32, local, #a>
  %b = tirx.alloc_local : !tirx.tensor<2x2x8x8xui32, local, #b>
  %c = tirx.alloc_local : !tirx.tensor<2x2x16x8xf32, local, #acc>
  %d = tirx.alloc_local : !tirx.tensor<2x2x16x8xf32, local, #acc>
  %ar = tirx.reinterpret %a : !tirx.tensor<2x2x16x8xui32, local, #a> -> !tirx.tensor<32x16x1xui32, local, #lane16>
  %br = tirx.reinterpret %b : !tirx.tensor<2x2x8x8xui32, local, #b> -> !tirx.tensor<32x8x1xui32, local, #lane8>
  %cr = tirx.reinterpret %c : !tirx.tensor<2x2x16x8xf32, local, #acc> -> !tirx.tensor<32x16x1xf32, local, #lane16>
  %dr = tirx.reinterpret %d : !tirx.tensor<2x2x16x8xf32, local, #acc> -> !tirx.tensor<32x16x1xf32, local, #lane16>
  tile.apply "ld.global.b32" scope(warp) (%ar, %A)
      : !tirx.tensor<32x16x1xui32, local, #lane16>, !tirx.tensor<32x16x1xui32, global, align = 4>
  tile.apply "ld.global.b32" scope(warp) (%br, %B)
      : !tirx.tensor<32x8x1xui32, local, #lane8>, !tirx.tensor<32x8x1xui32, global, align = 4>
  tile.apply "ld.global.b32" scope(warp) (%cr, %C)
      : !tirx.tensor<32x16x1xf32, local, #lane16>, !tirx.tensor<32x16x1xf32, global, align = 4>
  tile.apply "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32" scope(warp) (%d, %a, %b, %c)
      : !tirx.tensor<2x2x16x8xf32, local, #acc>, !tirx.tensor<2x2x16x8xui32, local, #a>,
        !tirx.tensor<2x2x8x8xui32, local, #b>, !tirx.tensor<2x2x16x8xf32, local, #acc>
  tile.apply "st.global.b32" scope(warp) (%D, %dr)
      : !tirx.tensor<32x16x1xf32, global, align = 4>, !tirx.tensor<32x16x1xf32, local, #lane16>
  tirx.return
}
