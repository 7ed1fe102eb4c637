// Masked regions (docs/sizes.md, "Masked regions"): a tile of a
// runtime-sized tensor that may overhang its end. Each repeat of the
// instruction is predicated on all its elements being inside the tensor;
// the bounds proof proves only that the offsets are not negative.
// RUN: tirx-opt %s --tirx-to-ptx="ptx-output=%t.ptx" -o /dev/null
// RUN: FileCheck %s --enable-var-scope < %t.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_90 %t.ptx -o /dev/null %}
// RUN: tirx-opt %s | tirx-opt | FileCheck %s --check-prefix=ROUNDTRIP

!X = !tirx.tensor<?x?xf32, global, sizes = [rows, cols], align = 16>
#reg = #tirx.layout<S[(4, 32, 4) : (1@warpid, 1@laneid, 1)]>
!regs = !tirx.tensor<4x32x4xf32, local, #reg>
!row = !tirx.tensor<1x512xf32, global, #tirx.layout<S[512 : 1]>, align = 16>
!chunks = !tirx.tensor<4x32x4xf32, global, #tirx.layout<S[512 : 1]>, align = 16>

// One CTA per 512 columns of a row: the last CTA of a row overhangs it when
// cols is not a multiple of 512, and a row past `rows` is skipped whole.
// The load and the store of a thread share one predicate: its last
// element's column (4·tid + 3) is below cols − c0, and row < rows.
// CHECK-LABEL: .visible .entry row_copy(
// CHECK: ld.param.b64 [[ROWS:%rd[0-9]+]], [row_copy_param_0];
// CHECK: ld.param.b64 [[COLS:%rd[0-9]+]], [row_copy_param_1];
// CHECK: mul.wide.u32 [[C0:%rd[0-9]+]], {{%r[0-9]+}}, 512;
// CHECK: or.b64 [[LAST:%rd[0-9]+]], {{%rd[0-9]+}}, 3;
// CHECK-DAG: sub.s64 [[ROWSLEFT:%rd[0-9]+]], [[ROWS]], {{%rd[0-9]+}};
// CHECK-DAG: setp.gt.s64 [[PROW:%p[0-9]+]], [[ROWSLEFT]], 0;
// CHECK-DAG: sub.s64 [[LEFT:%rd[0-9]+]], [[COLS]], [[C0]];
// CHECK-DAG: setp.lt.s64 [[PCOL:%p[0-9]+]], [[LAST]], [[LEFT]];
// CHECK: and.pred [[P:%p[0-9]+]], {{%p[0-9]+}}, {{%p[0-9]+}};
// CHECK: selp.b32 [[MASK:%r[0-9]+]], 1, 0, [[P]];
// CHECK: setp.ne.b32 %tirx_p, [[MASK]], 0;
// CHECK-NEXT: @%tirx_p ld.global.v4.b32 {{{%r[0-9]+}}, {{%r[0-9]+}}, {{%r[0-9]+}}, {{%r[0-9]+}}}, [{{%rd[0-9]+}}];
// CHECK: setp.ne.b32 %tirx_p, [[MASK]], 0;
// CHECK-NEXT: @%tirx_p st.global.v4.b32 [{{%rd[0-9]+}}], {{{%r[0-9]+}}, {{%r[0-9]+}}, {{%r[0-9]+}}, {{%r[0-9]+}}};
// ROUNDTRIP-LABEL: tirx.kernel @row_copy
// ROUNDTRIP: tirx.region %{{.*}}[%{{.*}}, %{{.*}}] [1, 512] masked align 16 : !tirx.tensor<?x?xf32, global, sizes = [rows, cols], align = 16>
tirx.kernel @row_copy(%rows: index {tirx.size = "rows"},
                      %cols: index {tirx.size = "cols", tirx.multiple_of = 4 : i64},
                      %X: !X, %Y: !X)
    launch(grid = [%rows, %cols ceildiv 512], block = [128]) {
  %row = tirx.block_idx x
  %by = tirx.block_idx y
  %c512 = arith.constant 512 : index
  %c0 = arith.muli %by, %c512 : index
  %r = tirx.alloc_local : !regs
  %x = tirx.region %X[%row, %c0] [1, 512] masked align 16 : !X
  %xv = tirx.view %x : !row -> !chunks
  tile.apply "ld.global.v4.b32" scope(cta) (%r, %xv) : !regs, !chunks
  %y = tirx.region %Y[%row, %c0] [1, 512] masked align 16 : !X
  %yv = tirx.view %y : !row -> !chunks
  tile.apply "st.global.v4.b32" scope(cta) (%yv, %r) : !chunks, !regs
  tirx.return
}

// A scalar form needs no multiple: each element is its own repeat. The
// register tile is filled first, so the skipped loads leave -inf there
// (the destination of a predicated-off instruction keeps its value).
// CHECK-LABEL: .visible .entry row_max_tail(
// CHECK: mov.b32 [[INIT:%r[0-9]+]], 0xFF800000;
// CHECK: setp.gt.s64 {{%p[0-9]+}}, [[LEFT:%rd[0-9]+]], 0;
// CHECK: @%tirx_p ld.global.b32 {{%r[0-9]+}}, [{{%rd[0-9]+}}];
// CHECK: setp.gt.s64 {{%p[0-9]+}}, [[LEFT]], 1;
// CHECK: @%tirx_p ld.global.b32 [[INIT]], [{{%rd[0-9]+}}+4];
!N = !tirx.tensor<?xf32, global, sizes = [n]>
!two = !tirx.tensor<2xf32, global, #tirx.layout<S[2 : 1]>>
!two1 = !tirx.tensor<2x1xf32, global, #tirx.layout<S[2 : 1]>>
!r2 = !tirx.tensor<2x1xf32, local>
tirx.kernel @row_max_tail(%n: index {tirx.size = "n"}, %X: !N, %Y: !N)
    launch(grid = [%n ceildiv 256], block = [128]) {
  %bx = tirx.block_idx x
  %tx = tirx.thread_idx x
  %c256 = arith.constant 256 : index
  %c2 = arith.constant 2 : index
  %base = arith.muli %bx, %c256 : index
  %t2 = arith.muli %tx, %c2 : index
  %off = arith.addi %base, %t2 : index
  %r = tirx.alloc_local : !r2
  tile.apply "mov.b32" scope(thread) (%r, 0xFF800000 : i32) : !r2
  %x = tirx.region %X[%off] [2] masked : !N
  %xv = tirx.view %x : !two -> !two1
  tile.apply "ld.global.b32" scope(thread) (%r, %xv) : !r2, !two1
  %y = tirx.region %Y[%off] [2] masked : !N
  %yv = tirx.view %y : !two -> !two1
  tile.apply "st.global.b32" scope(thread) (%yv, %r) : !two1, !r2
  tirx.return
}

// A static tensor whose extents are not multiples of the tile: both
// dimensions of the 32x32 tile are masked (a row past 1000, a column past
// 1000), one predicate per element.
// CHECK-LABEL: .visible .entry tile_copy_1000(
// CHECK-COUNT-8: @%tirx_p ld.global.b32
!S = !tirx.tensor<1000x1000xf32, global>
!tile = !tirx.tensor<32x32xf32, global, #tirx.layout<S[(32, 32) : (1000, 1)]>>
!tile4 = !tirx.tensor<4x32x8x1xf32, global, #tirx.layout<S[(32, 32) : (1000, 1)]>>
#treg = #tirx.layout<S[(4, 32, 8, 1) : (1@warpid, 1@laneid, 1, 1)]>
!tregs = !tirx.tensor<4x32x8x1xf32, local, #treg>
tirx.kernel @tile_copy_1000(%X: !S, %Y: !S)
    launch(grid = [32, 32], block = [128]) {
  %bx = tirx.block_idx x
  %by = tirx.block_idx y
  %c32 = arith.constant 32 : index
  %r0 = arith.muli %bx, %c32 : index
  %c0 = arith.muli %by, %c32 : index
  %r = tirx.alloc_local : !tregs
  %x = tirx.region %X[%r0, %c0] [32, 32] masked : !S
  %xv = tirx.view %x : !tile -> !tile4
  tile.apply "ld.global.b32" scope(cta) (%r, %xv) : !tregs, !tile4
  %y = tirx.region %Y[%r0, %c0] [32, 32] masked : !S
  %yv = tirx.view %y : !tile -> !tile4
  tile.apply "st.global.b32" scope(cta) (%yv, %r) : !tile4, !tregs
  tirx.return
}

// bf16 pairs read as uint32 words: a 16-byte access is 4 words, 8 of the
// region's elements; the predicate tests the 8th (2 · (4·tid + 4) − 1 =
// 8·tid + 7 after the view), and cols must be a multiple of 8.
// CHECK-LABEL: .visible .entry bf16_words(
// CHECK: ld.param.b64 [[COLS:%rd[0-9]+]], [bf16_words_param_1];
// CHECK: shl.b32 [[T4:%r[0-9]+]], {{%r[0-9]+}}, 2;
// CHECK: mul.wide.u32 [[T8:%rd[0-9]+]], [[T4]], 2;
// CHECK: or.b64 [[LAST:%rd[0-9]+]], [[T8]], 7;
// CHECK: setp.lt.s64 {{%p[0-9]+}}, [[LAST]], [[COLS]];
// CHECK: @%tirx_p ld.global.v4.b32
!B = !tirx.tensor<?x?xbf16, global, sizes = [brows, bcols], align = 16>
!brow = !tirx.tensor<1x2048xbf16, global, #tirx.layout<S[2048 : 1]>, align = 16>
!wrow = !tirx.tensor<1x1024xui32, global, #tirx.layout<S[1024 : 1]>, align = 16>
!words = !tirx.tensor<8x32x4xui32, global, #tirx.layout<S[1024 : 1]>, align = 16>
#wreg = #tirx.layout<S[(8, 32, 4) : (1@warpid, 1@laneid, 1)]>
!wregs = !tirx.tensor<8x32x4xui32, local, #wreg>
tirx.kernel @bf16_words(%brows: index {tirx.size = "brows"},
                        %bcols: index {tirx.size = "bcols", tirx.multiple_of = 8 : i64},
                        %X: !B, %Y: !B)
    launch(grid = [%brows], block = [256]) {
  %row = tirx.block_idx x
  %c0 = arith.constant 0 : index
  %r = tirx.alloc_local : !wregs
  %x = tirx.region %X[%row, %c0] [1, 2048] masked align 16 : !B
  %xw = tirx.view %x : !brow -> !wrow
  %xv = tirx.view %xw : !wrow -> !words
  tile.apply "ld.global.v4.b32" scope(cta) (%r, %xv) : !wregs, !words
  %y = tirx.region %Y[%row, %c0] [1, 2048] masked align 16 : !B
  %yw = tirx.view %y : !brow -> !wrow
  %yv = tirx.view %yw : !wrow -> !words
  tile.apply "st.global.v4.b32" scope(cta) (%yv, %r) : !words, !wregs
  tirx.return
}
