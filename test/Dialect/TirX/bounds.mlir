// Accesses the bounds proof proves (docs/bounds.md): block-indexed,
// thread-indexed, loop-indexed, mod/div by constants, and guarded ones.
// RUN: tirx-opt %s -split-input-file | FileCheck %s

#reg = #tirx.layout<S[(2, 32, 4) : (1@warpid, 1@laneid, 1)]>
!A = !tirx.tensor<1024x2x32x4xf32, global, align = 16>
!T = !tirx.tensor<1x2x32x4xf32, global, #tirx.layout<S[(1, 2, 32, 4) : (256, 128, 4, 1)]>, align = 16>
!V = !tirx.tensor<2x32x4xf32, global, #tirx.layout<S[(1, 2, 32, 4) : (256, 128, 4, 1)]>, align = 16>
!R = !tirx.tensor<2x32x4xf32, local, #reg>

// One block per row: block_idx.x < 1024.
// CHECK-LABEL: tirx.kernel @block_rows
tirx.kernel @block_rows(%A: !A) launch(grid = [1024], block = [64]) {
  %bx = tirx.block_idx x
  %r = tirx.alloc_local : !R
  %t = tirx.region %A[%bx, 0, 0, 0] [1, 2, 32, 4] : !A
  %v = tirx.view %t : !T -> !V
  tile.apply "ld.global.v4.b32" scope(cta) (%r, %v) : !R, !V
  tirx.return
}

// -----

// Rows bx·2 + by over a (512, 2) grid, and the row after block (bx, by)'s
// own, under the guard bx·2 + by + 1 < 1024.
#reg = #tirx.layout<S[(2, 32, 4) : (1@warpid, 1@laneid, 1)]>
!A = !tirx.tensor<1024x2x32x4xf32, global, align = 16>
!T = !tirx.tensor<1x2x32x4xf32, global, #tirx.layout<S[(1, 2, 32, 4) : (256, 128, 4, 1)]>, align = 16>
!V = !tirx.tensor<2x32x4xf32, global, #tirx.layout<S[(1, 2, 32, 4) : (256, 128, 4, 1)]>, align = 16>
!R = !tirx.tensor<2x32x4xf32, local, #reg>
// CHECK-LABEL: tirx.kernel @grid_2d_guarded
tirx.kernel @grid_2d_guarded(%A: !A) launch(grid = [512, 2], block = [64]) {
  %bx = tirx.block_idx x
  %by = tirx.block_idx y
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c1024 = arith.constant 1024 : index
  %twice = arith.muli %bx, %c2 : index
  %row = arith.addi %twice, %by : index
  %next = arith.addi %row, %c1 : index
  %r = tirx.alloc_local : !R
  %t = tirx.region %A[%row, 0, 0, 0] [1, 2, 32, 4] : !A
  %v = tirx.view %t : !T -> !V
  tile.apply "ld.global.v4.b32" scope(cta) (%r, %v) : !R, !V
  %in = arith.cmpi slt, %next, %c1024 : index
  %t1 = tirx.region %A[%next, 0, 0, 0] [1, 2, 32, 4] : !A
  %v1 = tirx.view %t1 : !T -> !V
  tile.apply "st.global.v4.b32" scope(cta) (%v1, %r) pred(%in) : !V, !R
  tirx.return
}

// -----

// Thread-indexed rows of a global and a shared tensor.
// CHECK-LABEL: tirx.kernel @thread_rows
tirx.kernel @thread_rows(%A: !tirx.tensor<64x4xf32, global, align = 16>)
    launch(grid = [1], block = [64]) {
  %tx = tirx.thread_idx x
  %row = tirx.alloc_local : !tirx.tensor<4xf32, local>
  %smem = tirx.alloc_shared : !tirx.tensor<64x4xf32, shared, align = 16>
  %src = tirx.region %A[%tx, 0] [1, 4] : !tirx.tensor<64x4xf32, global, align = 16>
  %src_row = tirx.view %src : !tirx.tensor<1x4xf32, global, #tirx.layout<S[(1, 4) : (4, 1)]>, align = 16>
                           -> !tirx.tensor<4xf32, global, #tirx.layout<S[(1, 4) : (4, 1)]>, align = 16>
  tile.apply "ld.global.v4.b32" scope(thread) (%row, %src_row)
      : !tirx.tensor<4xf32, local>, !tirx.tensor<4xf32, global, #tirx.layout<S[(1, 4) : (4, 1)]>, align = 16>
  %dst = tirx.region %smem[%tx, 0] [1, 4] : !tirx.tensor<64x4xf32, shared, align = 16>
  %dst_row = tirx.view %dst : !tirx.tensor<1x4xf32, shared, #tirx.layout<S[(1, 4) : (4, 1)]>, align = 16>
                           -> !tirx.tensor<4xf32, shared, #tirx.layout<S[(1, 4) : (4, 1)]>, align = 16>
  tile.apply "st.shared.v4.b32" scope(thread) (%dst_row, %row)
      : !tirx.tensor<4xf32, shared, #tirx.layout<S[(1, 4) : (4, 1)]>, align = 16>, !tirx.tensor<4xf32, local>
  tirx.return
}

// -----

// (tid mod 16, tid / 16) over a 16x8 tile of 4-float vectors, with 128
// threads.
// CHECK-LABEL: tirx.kernel @mod_div
tirx.kernel @mod_div(%A: !tirx.tensor<16x8x4xf32, global, align = 16>)
    launch(grid = [1], block = [128]) {
  %tx = tirx.thread_idx x
  %c16 = arith.constant 16 : index
  %i = arith.remui %tx, %c16 : index
  %j = arith.divui %tx, %c16 : index
  %row = tirx.alloc_local : !tirx.tensor<4xf32, local>
  %e = tirx.region %A[%i, %j, 0] [1, 1, 4] : !tirx.tensor<16x8x4xf32, global, align = 16>
  %ev = tirx.view %e : !tirx.tensor<1x1x4xf32, global, #tirx.layout<S[(1, 1, 4) : (32, 4, 1)]>, align = 16>
                    -> !tirx.tensor<4xf32, global, #tirx.layout<S[(1, 1, 4) : (32, 4, 1)]>, align = 16>
  tile.apply "ld.global.v4.b32" scope(thread) (%row, %ev)
      : !tirx.tensor<4xf32, local>, !tirx.tensor<4xf32, global, #tirx.layout<S[(1, 1, 4) : (32, 4, 1)]>, align = 16>
  tirx.return
}

// -----

// Loop-indexed rows: 0, 4, ..., 60 and the three after each (T.unroll of a
// stepped loop), a 2-deep nest, and a guarded tail of a loop that runs past
// the end.
!A = !tirx.tensor<64x1024xf32, global, align = 16>
!slice = !tirx.tensor<1x1024xf32, global, #tirx.layout<S[(1, 1024) : (1024, 1)]>, align = 16>
!rowg = !tirx.tensor<8x32x4xf32, global, #tirx.layout<S[(1, 1024) : (1024, 1)]>, align = 16>
#row = #tirx.layout<S[(8, 32, 4) : (1@warpid, 1@laneid, 1)]>
!regs = !tirx.tensor<8x32x4xf32, local, #row>
// CHECK-LABEL: tirx.kernel @loops
tirx.kernel @loops(%A: !A) launch(grid = [1], block = [256]) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %c70 = arith.constant 70 : index
  %r = tirx.alloc_local : !regs
  scf.for %i = %c0 to %c64 step %c4 {
    %i3 = arith.addi %i, %c3 : index
    %s = tirx.region %A[%i3, 0] [1, 1024] : !A
    %v = tirx.view %s : !slice -> !rowg
    tile.apply "ld.global.v4.b32" scope(cta) (%r, %v) : !regs, !rowg
  }
  scf.for %i = %c0 to %c16 step %c1 {
    scf.for %j = %i to %c4 step %c1 {
      %i4 = arith.muli %i, %c4 : index
      %k = arith.addi %i4, %j : index
      %s = tirx.region %A[%k, 0] [1, 1024] : !A
      %v = tirx.view %s : !slice -> !rowg
      tile.apply "ld.global.v4.b32" scope(cta) (%r, %v) : !regs, !rowg
    }
  }
  scf.for %i = %c0 to %c70 step %c1 {
    %in = arith.cmpi ult, %i, %c64 : index
    %s = tirx.region %A[%i, 0] [1, 1024] : !A
    %v = tirx.view %s : !slice -> !rowg
    tile.apply "st.global.v4.b32" scope(cta) (%v, %r) pred(%in) : !rowg, !regs
  }
  tirx.return
}

// -----

// A kernel's index argument, guarded into range: 0 ≤ n < 64.
// CHECK-LABEL: tirx.kernel @guarded_argument
tirx.kernel @guarded_argument(%A: !tirx.tensor<64x4xf32, global, align = 16>, %n: index)
    launch(grid = [1], block = [1]) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %lo = arith.cmpi sge, %n, %c0 : index
  %hi = arith.cmpi slt, %n, %c64 : index
  %in = arith.andi %lo, %hi : i1
  %row = tirx.alloc_local : !tirx.tensor<4xf32, local>
  %src = tirx.region %A[%n, 0] [1, 4] : !tirx.tensor<64x4xf32, global, align = 16>
  %src_row = tirx.view %src : !tirx.tensor<1x4xf32, global, #tirx.layout<S[(1, 4) : (4, 1)]>, align = 16>
                           -> !tirx.tensor<4xf32, global, #tirx.layout<S[(1, 4) : (4, 1)]>, align = 16>
  tile.apply "ld.global.v4.b32" scope(thread) (%row, %src_row) pred(%in)
      : !tirx.tensor<4xf32, local>, !tirx.tensor<4xf32, global, #tirx.layout<S[(1, 4) : (4, 1)]>, align = 16>
  tirx.return
}

// -----

// Under scf.if (T.If in Python): the then-branch access holds where the
// condition does, the else-branch one where its negation does.
#reg = #tirx.layout<S[(2, 32, 4) : (1@warpid, 1@laneid, 1)]>
!A = !tirx.tensor<4096x2x32x4xf32, global, align = 16>
!T = !tirx.tensor<1x2x32x4xf32, global, #tirx.layout<S[(1, 2, 32, 4) : (256, 128, 4, 1)]>, align = 16>
!V = !tirx.tensor<2x32x4xf32, global, #tirx.layout<S[(1, 2, 32, 4) : (256, 128, 4, 1)]>, align = 16>
!R = !tirx.tensor<2x32x4xf32, local, #reg>
tirx.kernel @if_branches(%A: !A) launch(grid = [8192], block = [64]) {
  %bx = tirx.block_idx x
  %c4096 = arith.constant 4096 : index
  %r = tirx.alloc_local : !R
  %inside = arith.cmpi slt, %bx, %c4096 : index
  scf.if %inside {
    %t = tirx.region %A[%bx, 0, 0, 0] [1, 2, 32, 4] : !A
    %v = tirx.view %t : !T -> !V
    tile.apply "ld.global.v4.b32" scope(cta) (%r, %v) : !R, !V
  }
  %outside = arith.cmpi sge, %bx, %c4096 : index
  scf.if %outside {
  } else {
    // Nested: a second, redundant condition.
    %c0 = arith.constant 0 : index
    %ok = arith.cmpi sge, %bx, %c0 : index
    scf.if %ok {
      %t = tirx.region %A[%bx, 0, 0, 0] [1, 2, 32, 4] : !A
      %v = tirx.view %t : !T -> !V
      tile.apply "st.global.v4.b32" scope(cta) (%v, %r) : !V, !R
    }
  }
  tirx.return
}

// -----

// A multi-stage copy's prefetch, guarded as the GEMM guards it: tile i + 3
// is copied only while i + 3 < 16.
!A = !tirx.tensor<16x32x4xf32, global, align = 16>
!tile = !tirx.tensor<1x32x4xf32, global, #tirx.layout<S[(1, 32, 4) : (128, 4, 1)]>, align = 16>
!chunks = !tirx.tensor<32x4xf32, global, #tirx.layout<S[(1, 32, 4) : (128, 4, 1)]>, align = 16>
!S = !tirx.tensor<32x4xf32, shared, align = 16>
// CHECK-LABEL: tirx.kernel @guarded_prefetch
tirx.kernel @guarded_prefetch(%A: !A) launch(grid = [1], block = [32]) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c16 = arith.constant 16 : index
  %s = tirx.alloc_shared : !S
  scf.for %i = %c0 to %c16 step %c1 {
    %next = arith.addi %i, %c3 : index
    %in = arith.cmpi ult, %next, %c16 : index
    %t = tirx.region %A[%next, 0, 0] [1, 32, 4] : !A
    %v = tirx.view %t : !tile -> !chunks
    // CHECK: tile.apply "cp.async.cg.shared.global" scope(warp) (%{{.+}}, %{{.+}}, 16 : i32) pred(%{{.+}})
    tile.apply "cp.async.cg.shared.global" scope(warp) (%s, %v, 16 : i32) pred(%in) : !S, !chunks
  }
  tirx.return
}
