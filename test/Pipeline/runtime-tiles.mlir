// Tiles of runtime-sized tensors (docs/sizes.md, "Tiles of runtime-sized
// tensors"): a 32x32 region of an (M, N) tensor spans 32 rows whose stride
// is the runtime N. Its type is the tile's own row-major order; each access
// is addressed with the coordinates of its first element in the tile,
// row · N + column, and every repeat gets its own address (their distance
// is not a constant). Masked, the same kernel copies every (M, N).
// RUN: tirx-opt %s --tirx-to-ptx="ptx-output=%t.ptx" -o /dev/null
// RUN: FileCheck %s --enable-var-scope < %t.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_90 %t.ptx -o /dev/null %}

!MN = !tirx.tensor<?x?xf32, global, sizes = [m, n], align = 16>
!tile = !tirx.tensor<32x32xf32, global, #tirx.layout<S[(32, 32) : (32, 1)]>, align = 16>
!vectors = !tirx.tensor<4x32x2x4xf32, global, #tirx.layout<S[(32, 32) : (32, 1)]>, align = 16>
#vreg = #tirx.layout<S[(4, 32, 2, 4) : (1@warpid, 1@laneid, 4, 1)]>
!vregs = !tirx.tensor<4x32x2x4xf32, local, #vreg>

// Thread t holds 8 consecutive columns of row t / 4 (two 16-byte vectors):
// the row's start is row0 + t / 4 rows of n floats in.
// CHECK-LABEL: .visible .entry tile_copy(
// CHECK: ld.param.b64 [[N:%rd[0-9]+]], [tile_copy_param_1];
// CHECK: and.b64 [[COL:%rd[0-9]+]], [[T8:%rd[0-9]+]], 24;
// CHECK: shr.u64 [[ROW:%rd[0-9]+]], [[T8]], 5;
// CHECK: mad.lo.s64 {{%rd[0-9]+}}, [[ROW]], [[N]], [[COL]];
// CHECK: @%tirx_p ld.global.v4.b32
// CHECK: @%tirx_p ld.global.v4.b32 {{.*}}, [{{%rd[0-9]+}}];
// CHECK-COUNT-2: @%tirx_p st.global.v4.b32
tirx.kernel @tile_copy(%m: index {tirx.size = "m"},
                       %n: index {tirx.size = "n", tirx.multiple_of = 4 : i64},
                       %X: !MN, %Y: !MN)
    launch(grid = [%m ceildiv 32, %n ceildiv 32], block = [128]) {
  %bx = tirx.block_idx x
  %by = tirx.block_idx y
  %c32 = arith.constant 32 : index
  %r0 = arith.muli %bx, %c32 : index
  %c0 = arith.muli %by, %c32 : index
  %r = tirx.alloc_local : !vregs
  %x = tirx.region %X[%r0, %c0] [32, 32] masked align 16 : !MN
  %xv = tirx.view %x : !tile -> !vectors
  tile.apply "ld.global.v4.b32" scope(cta) (%r, %xv) : !vregs, !vectors
  %y = tirx.region %Y[%r0, %c0] [32, 32] masked align 16 : !MN
  %yv = tirx.view %y : !tile -> !vectors
  tile.apply "st.global.v4.b32" scope(cta) (%yv, %r) : !vectors, !vregs
  tirx.return
}

// Unmasked, a guard proves the tile inside (the proof checks each
// dimension: r0 + 32 <= m and c0 + 32 <= n).
// CHECK-LABEL: .visible .entry tile_copy_guarded(
// CHECK-COUNT-8: ld.global.b32
!scalars = !tirx.tensor<4x32x8x1xf32, global, #tirx.layout<S[(32, 32) : (32, 1)]>, align = 16>
#sreg = #tirx.layout<S[(4, 32, 8, 1) : (1@warpid, 1@laneid, 1, 1)]>
!sregs = !tirx.tensor<4x32x8x1xf32, local, #sreg>
tirx.kernel @tile_copy_guarded(%m: index {tirx.size = "m"}, %n: index {tirx.size = "n"},
                               %X: !MN, %Y: !MN)
    launch(grid = [%m ceildiv 32, %n ceildiv 32], block = [128]) {
  %bx = tirx.block_idx x
  %by = tirx.block_idx y
  %c32 = arith.constant 32 : index
  %r0 = arith.muli %bx, %c32 : index
  %c0 = arith.muli %by, %c32 : index
  %rend = arith.addi %r0, %c32 : index
  %cend = arith.addi %c0, %c32 : index
  %rin = arith.cmpi sle, %rend, %m : index
  %cin = arith.cmpi sle, %cend, %n : index
  %in = arith.andi %rin, %cin : i1
  scf.if %in {
    %r = tirx.alloc_local : !sregs
    %x = tirx.region %X[%r0, %c0] [32, 32] : !MN
    %xv = tirx.view %x : !tirx.tensor<32x32xf32, global, #tirx.layout<S[(32, 32) : (32, 1)]>, align = 4> -> !tirx.tensor<4x32x8x1xf32, global, #tirx.layout<S[(32, 32) : (32, 1)]>, align = 4>
    tile.apply "ld.global.b32" scope(cta) (%r, %xv) : !sregs, !tirx.tensor<4x32x8x1xf32, global, #tirx.layout<S[(32, 32) : (32, 1)]>, align = 4>
    %y = tirx.region %Y[%r0, %c0] [32, 32] : !MN
    %yv = tirx.view %y : !tirx.tensor<32x32xf32, global, #tirx.layout<S[(32, 32) : (32, 1)]>, align = 4> -> !tirx.tensor<4x32x8x1xf32, global, #tirx.layout<S[(32, 32) : (32, 1)]>, align = 4>
    tile.apply "st.global.b32" scope(cta) (%yv, %r) : !tirx.tensor<4x32x8x1xf32, global, #tirx.layout<S[(32, 32) : (32, 1)]>, align = 4>, !sregs
  }
  tirx.return
}
