// Accesses the bounds proof refutes, each with a witness, and the ones it
// cannot prove (docs/bounds.md).
// RUN: tirx-opt %s -split-input-file -verify-diagnostics --tirx-verify-kernels

#reg = #tirx.layout<S[(2, 32, 4) : (1@warpid, 1@laneid, 1)]>
!A = !tirx.tensor<4096x2x32x4xf32, global, align = 16>
!T = !tirx.tensor<1x2x32x4xf32, global, #tirx.layout<S[(1, 2, 32, 4) : (256, 128, 4, 1)]>, align = 16>
!V = !tirx.tensor<2x32x4xf32, global, #tirx.layout<S[(1, 2, 32, 4) : (256, 128, 4, 1)]>, align = 16>
!R = !tirx.tensor<2x32x4xf32, local, #reg>

// A grid twice the rows.
tirx.kernel @grid_too_large(%A: !A) launch(grid = [8192], block = [64]) {
  %bx = tirx.block_idx x
  %r = tirx.alloc_local : !R
  // expected-note @+1 {{the region is here}}
  %t = tirx.region %A[%bx, 0, 0, 0] [1, 2, 32, 4] : !A
  %v = tirx.view %t : !T -> !V
  // expected-error @+1 {{'tile.apply' op operand #1 (addr) of 'ld.global.v4.b32' may read index 8191 of dimension 0 of kernel argument #0 (extent 4096): with block_idx.x = 8191}}
  tile.apply "ld.global.v4.b32" scope(cta) (%r, %v) : !R, !V
  tirx.return
}

// -----

#reg = #tirx.layout<S[(2, 32, 4) : (1@warpid, 1@laneid, 1)]>
!A = !tirx.tensor<4096x2x32x4xf32, global, align = 16>
!T = !tirx.tensor<1x2x32x4xf32, global, #tirx.layout<S[(1, 2, 32, 4) : (256, 128, 4, 1)]>, align = 16>
!V = !tirx.tensor<2x32x4xf32, global, #tirx.layout<S[(1, 2, 32, 4) : (256, 128, 4, 1)]>, align = 16>
!R = !tirx.tensor<2x32x4xf32, local, #reg>

// The row after each block's: the last block stores past the end.
tirx.kernel @next_row(%A: !A) launch(grid = [4096], block = [64]) {
  %bx = tirx.block_idx x
  %c1 = arith.constant 1 : index
  %next = arith.addi %bx, %c1 : index
  %r = tirx.alloc_local : !R
  // expected-note @+1 {{the region is here}}
  %t = tirx.region %A[%next, 0, 0, 0] [1, 2, 32, 4] : !A
  %v = tirx.view %t : !T -> !V
  // expected-error @+1 {{operand #0 (addr) of 'st.global.v4.b32' may write index 4096 of dimension 0 of kernel argument #0 (extent 4096): with block_idx.x = 4095}}
  tile.apply "st.global.v4.b32" scope(cta) (%v, %r) : !V, !R
  tirx.return
}

// -----

// The row before each thread's: thread 0 reads row -1 of a shared tile.
tirx.kernel @row_before(%A: !tirx.tensor<64x4xf32, global, align = 16>)
    launch(grid = [1], block = [64]) {
  %tx = tirx.thread_idx x
  %c1 = arith.constant 1 : index
  %prev = arith.subi %tx, %c1 : index
  %row = tirx.alloc_local : !tirx.tensor<4xf32, local>
  %smem = tirx.alloc_shared : !tirx.tensor<64x4xf32, shared, align = 16>
  // expected-note @+1 {{the region is here}}
  %src = tirx.region %smem[%prev, 0] [1, 4] : !tirx.tensor<64x4xf32, shared, align = 16>
  %src_row = tirx.view %src : !tirx.tensor<1x4xf32, shared, #tirx.layout<S[(1, 4) : (4, 1)]>, align = 16>
                           -> !tirx.tensor<4xf32, shared, #tirx.layout<S[(1, 4) : (4, 1)]>, align = 16>
  // expected-error @+1 {{operand #1 (addr) of 'ld.shared.v4.b32' may read index -1 of dimension 0 of the 'tirx.alloc_shared' result (extent 64): with thread_idx.x = 0}}
  tile.apply "ld.shared.v4.b32" scope(thread) (%row, %src_row)
      : !tirx.tensor<4xf32, local>, !tirx.tensor<4xf32, shared, #tirx.layout<S[(1, 4) : (4, 1)]>, align = 16>
  tirx.return
}

// -----

// A stepped loop whose last step reads three rows past its bound.
!A = !tirx.tensor<64x1024xf32, global, align = 16>
!slice = !tirx.tensor<1x1024xf32, global, #tirx.layout<S[(1, 1024) : (1024, 1)]>, align = 16>
!rowg = !tirx.tensor<8x32x4xf32, global, #tirx.layout<S[(1, 1024) : (1024, 1)]>, align = 16>
#row = #tirx.layout<S[(8, 32, 4) : (1@warpid, 1@laneid, 1)]>
!regs = !tirx.tensor<8x32x4xf32, local, #row>
tirx.kernel @loop_past_end(%A: !A) launch(grid = [1], block = [256]) {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %r = tirx.alloc_local : !regs
  scf.for %i = %c3 to %c64 step %c4 {
    %i3 = arith.addi %i, %c3 : index
    // expected-note @+1 {{the region is here}}
    %s = tirx.region %A[%i3, 0] [1, 1024] : !A
    %v = tirx.view %s : !slice -> !rowg
    // expected-error @+1 {{operand #1 (addr) of 'ld.global.v4.b32' may read index 66 of dimension 0 of kernel argument #0 (extent 64): with loop #0's index = 63}}
    tile.apply "ld.global.v4.b32" scope(cta) (%r, %v) : !regs, !rowg
  }
  tirx.return
}

// -----

// A guard one too weak: i ≤ 64 lets row 64 through.
!A = !tirx.tensor<64x1024xf32, global, align = 16>
!slice = !tirx.tensor<1x1024xf32, global, #tirx.layout<S[(1, 1024) : (1024, 1)]>, align = 16>
!rowg = !tirx.tensor<8x32x4xf32, global, #tirx.layout<S[(1, 1024) : (1024, 1)]>, align = 16>
#row = #tirx.layout<S[(8, 32, 4) : (1@warpid, 1@laneid, 1)]>
!regs = !tirx.tensor<8x32x4xf32, local, #row>
tirx.kernel @weak_guard(%A: !A) launch(grid = [1], block = [256]) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c70 = arith.constant 70 : index
  %r = tirx.alloc_local : !regs
  scf.for %i = %c0 to %c70 step %c1 {
    %in = arith.cmpi sle, %i, %c64 : index
    // expected-note @+1 {{the region is here}}
    %s = tirx.region %A[%i, 0] [1, 1024] : !A
    %v = tirx.view %s : !slice -> !rowg
    // expected-error @+1 {{may write index 64 of dimension 0 of kernel argument #0 (extent 64): with loop #0's index = 64}}
    tile.apply "st.global.v4.b32" scope(cta) (%v, %r) pred(%in) : !rowg, !regs
  }
  tirx.return
}

// -----

// A guard with a part the proof cannot use (ne): only the other part counts.
!A = !tirx.tensor<64x1024xf32, global, align = 16>
!slice = !tirx.tensor<1x1024xf32, global, #tirx.layout<S[(1, 1024) : (1024, 1)]>, align = 16>
!rowg = !tirx.tensor<8x32x4xf32, global, #tirx.layout<S[(1, 1024) : (1024, 1)]>, align = 16>
#row = #tirx.layout<S[(8, 32, 4) : (1@warpid, 1@laneid, 1)]>
!regs = !tirx.tensor<8x32x4xf32, local, #row>
tirx.kernel @unused_guard(%A: !A) launch(grid = [1], block = [256]) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c65 = arith.constant 65 : index
  %r = tirx.alloc_local : !regs
  scf.for %i = %c0 to %c65 step %c1 {
    // expected-note @+1 {{this part of the guard was not used: the proof uses affine comparisons (arith.cmpi other than ne), combined by arith.andi, arith.ori and negation (arith.xori with true)}}
    %not_last = arith.cmpi ne, %i, %c64 : index
    %nonneg = arith.cmpi sge, %i, %c0 : index
    %in = arith.andi %not_last, %nonneg : i1
    // expected-note @+1 {{the region is here}}
    %s = tirx.region %A[%i, 0] [1, 1024] : !A
    %v = tirx.view %s : !slice -> !rowg
    // expected-error @+1 {{may write index 64 of dimension 0 of kernel argument #0 (extent 64): with loop #0's index = 64}}
    tile.apply "st.global.v4.b32" scope(cta) (%v, %r) pred(%in) : !rowg, !regs
  }
  tirx.return
}

// -----

// A product of two indices is not affine: unprovable.
tirx.kernel @product(%A: !tirx.tensor<64x4xf32, global, align = 16>)
    launch(grid = [8], block = [8]) {
  %tx = tirx.thread_idx x
  %bx = tirx.block_idx x
  %row_index = arith.muli %bx, %tx : index
  %row = tirx.alloc_local : !tirx.tensor<4xf32, local>
  // expected-note @+1 {{the region is here}}
  %src = tirx.region %A[%row_index, 0] [1, 4] : !tirx.tensor<64x4xf32, global, align = 16>
  %src_row = tirx.view %src : !tirx.tensor<1x4xf32, global, #tirx.layout<S[(1, 4) : (4, 1)]>, align = 16>
                           -> !tirx.tensor<4xf32, global, #tirx.layout<S[(1, 4) : (4, 1)]>, align = 16>
  // expected-error @+1 {{operand #1 (addr) of 'ld.global.v4.b32': cannot prove the access in bounds: the offset of dimension 0 into kernel argument #0 is not affine in the indices: 'arith.muli' of two non-constant values}}
  tile.apply "ld.global.v4.b32" scope(thread) (%row, %src_row)
      : !tirx.tensor<4xf32, local>, !tirx.tensor<4xf32, global, #tirx.layout<S[(1, 4) : (4, 1)]>, align = 16>
  tirx.return
}

// -----

// An operation the proof does not model (a maximum).
tirx.kernel @maximum(%A: !tirx.tensor<64x4xf32, global, align = 16>)
    launch(grid = [1], block = [64]) {
  %tx = tirx.thread_idx x
  %c3 = arith.constant 3 : index
  %m = arith.maxsi %tx, %c3 : index
  %row = tirx.alloc_local : !tirx.tensor<4xf32, local>
  // expected-note @+1 {{the region is here}}
  %src = tirx.region %A[%m, 0] [1, 4] : !tirx.tensor<64x4xf32, global, align = 16>
  %src_row = tirx.view %src : !tirx.tensor<1x4xf32, global, #tirx.layout<S[(1, 4) : (4, 1)]>, align = 16>
                           -> !tirx.tensor<4xf32, global, #tirx.layout<S[(1, 4) : (4, 1)]>, align = 16>
  // expected-error @+1 {{is not affine in the indices: 'arith.maxsi' is not an affine operation on indices}}
  tile.apply "ld.global.v4.b32" scope(thread) (%row, %src_row)
      : !tirx.tensor<4xf32, local>, !tirx.tensor<4xf32, global, #tirx.layout<S[(1, 4) : (4, 1)]>, align = 16>
  tirx.return
}

// -----

// A truncating division of a value that may be negative, and a division by
// an index.
tirx.kernel @divisions(%A: !tirx.tensor<64x4xf32, global, align = 16>, %n: index)
    launch(grid = [1], block = [64]) {
  %tx = tirx.thread_idx x
  %c2 = arith.constant 2 : index
  %c9 = arith.constant 9 : index
  %d = arith.subi %tx, %c9 : index
  %q = arith.divsi %d, %c2 : index
  %row = tirx.alloc_local : !tirx.tensor<4xf32, local>
  // expected-note @+1 {{the region is here}}
  %src = tirx.region %A[%q, 0] [1, 4] : !tirx.tensor<64x4xf32, global, align = 16>
  %src_row = tirx.view %src : !tirx.tensor<1x4xf32, global, #tirx.layout<S[(1, 4) : (4, 1)]>, align = 16>
                           -> !tirx.tensor<4xf32, global, #tirx.layout<S[(1, 4) : (4, 1)]>, align = 16>
  // expected-error @+1 {{is not affine in the indices: 'arith.divsi' of a value that may be negative}}
  tile.apply "ld.global.v4.b32" scope(thread) (%row, %src_row)
      : !tirx.tensor<4xf32, local>, !tirx.tensor<4xf32, global, #tirx.layout<S[(1, 4) : (4, 1)]>, align = 16>
  tirx.return
}

// -----

tirx.kernel @division_by_index(%A: !tirx.tensor<64x4xf32, global, align = 16>, %n: index)
    launch(grid = [1], block = [64]) {
  %tx = tirx.thread_idx x
  %q = arith.divui %tx, %n : index
  %row = tirx.alloc_local : !tirx.tensor<4xf32, local>
  // expected-note @+1 {{the region is here}}
  %src = tirx.region %A[%q, 0] [1, 4] : !tirx.tensor<64x4xf32, global, align = 16>
  %src_row = tirx.view %src : !tirx.tensor<1x4xf32, global, #tirx.layout<S[(1, 4) : (4, 1)]>, align = 16>
                           -> !tirx.tensor<4xf32, global, #tirx.layout<S[(1, 4) : (4, 1)]>, align = 16>
  // expected-error @+1 {{is not affine in the indices: 'arith.divui' by a divisor that is not a positive constant}}
  tile.apply "ld.global.v4.b32" scope(thread) (%row, %src_row)
      : !tirx.tensor<4xf32, local>, !tirx.tensor<4xf32, global, #tirx.layout<S[(1, 4) : (4, 1)]>, align = 16>
  tirx.return
}

// -----

// A kernel's index argument is any index: unguarded it may be anything.
tirx.kernel @index_argument(%A: !tirx.tensor<64x4xf32, global, align = 16>, %n: index)
    launch(grid = [1], block = [1]) {
  %row = tirx.alloc_local : !tirx.tensor<4xf32, local>
  // expected-note @+1 {{the region is here}}
  %src = tirx.region %A[%n, 0] [1, 4] : !tirx.tensor<64x4xf32, global, align = 16>
  %src_row = tirx.view %src : !tirx.tensor<1x4xf32, global, #tirx.layout<S[(1, 4) : (4, 1)]>, align = 16>
                           -> !tirx.tensor<4xf32, global, #tirx.layout<S[(1, 4) : (4, 1)]>, align = 16>
  // expected-error @+1 {{may read index -2 of dimension 0 of kernel argument #0 (extent 64): with argument #1 = -2}}
  tile.apply "ld.global.v4.b32" scope(thread) (%row, %src_row)
      : !tirx.tensor<4xf32, local>, !tirx.tensor<4xf32, global, #tirx.layout<S[(1, 4) : (4, 1)]>, align = 16>
  tirx.return
}

// -----

// A loop-carried index (an iter_arg) is not modelled; nor is an unsigned
// loop.
tirx.kernel @carried_index(%A: !tirx.tensor<64x4xf32, global, align = 16>)
    launch(grid = [1], block = [1]) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %row = tirx.alloc_local : !tirx.tensor<4xf32, local>
  %last = scf.for %i = %c0 to %c8 step %c1 iter_args(%k = %c0) -> (index) {
    // expected-note @+1 {{the region is here}}
    %src = tirx.region %A[%k, 0] [1, 4] : !tirx.tensor<64x4xf32, global, align = 16>
    %src_row = tirx.view %src : !tirx.tensor<1x4xf32, global, #tirx.layout<S[(1, 4) : (4, 1)]>, align = 16>
                             -> !tirx.tensor<4xf32, global, #tirx.layout<S[(1, 4) : (4, 1)]>, align = 16>
    // expected-error @+1 {{is not affine in the indices: the block argument #1 of 'scf.for' is not an index the proof knows}}
    tile.apply "ld.global.v4.b32" scope(thread) (%row, %src_row)
        : !tirx.tensor<4xf32, local>, !tirx.tensor<4xf32, global, #tirx.layout<S[(1, 4) : (4, 1)]>, align = 16>
    %next = arith.addi %k, %c1 : index
    scf.yield %next : index
  }
  tirx.return
}

// -----

tirx.kernel @unsigned_loop(%A: !tirx.tensor<64x4xf32, global, align = 16>)
    launch(grid = [1], block = [1]) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %row = tirx.alloc_local : !tirx.tensor<4xf32, local>
  scf.for unsigned %i = %c0 to %c8 step %c1 {
    // expected-note @+1 {{the region is here}}
    %src = tirx.region %A[%i, 0] [1, 4] : !tirx.tensor<64x4xf32, global, align = 16>
    %src_row = tirx.view %src : !tirx.tensor<1x4xf32, global, #tirx.layout<S[(1, 4) : (4, 1)]>, align = 16>
                             -> !tirx.tensor<4xf32, global, #tirx.layout<S[(1, 4) : (4, 1)]>, align = 16>
    // expected-error @+1 {{is not affine in the indices: the unsigned loop of loop #0's index is not supported}}
    tile.apply "ld.global.v4.b32" scope(thread) (%row, %src_row)
        : !tirx.tensor<4xf32, local>, !tirx.tensor<4xf32, global, #tirx.layout<S[(1, 4) : (4, 1)]>, align = 16>
  }
  tirx.return
}

// -----

// Coefficients beyond 64 bits.
tirx.kernel @overflow(%A: !tirx.tensor<64x4xf32, global, align = 16>)
    launch(grid = [1], block = [2]) {
  %tx = tirx.thread_idx x
  %big = arith.constant 4611686018427387904 : index
  %c4 = arith.constant 4 : index
  %a = arith.muli %tx, %big : index
  %b = arith.muli %a, %c4 : index
  %row = tirx.alloc_local : !tirx.tensor<4xf32, local>
  // expected-note @+1 {{the region is here}}
  %src = tirx.region %A[%b, 0] [1, 4] : !tirx.tensor<64x4xf32, global, align = 16>
  %src_row = tirx.view %src : !tirx.tensor<1x4xf32, global, #tirx.layout<S[(1, 4) : (4, 1)]>, align = 16>
                           -> !tirx.tensor<4xf32, global, #tirx.layout<S[(1, 4) : (4, 1)]>, align = 16>
  // expected-error @+1 {{is not affine in the indices: the integer arithmetic overflows 64 bits}}
  tile.apply "ld.global.v4.b32" scope(thread) (%row, %src_row)
      : !tirx.tensor<4xf32, local>, !tirx.tensor<4xf32, global, #tirx.layout<S[(1, 4) : (4, 1)]>, align = 16>
  tirx.return
}

// -----

// The else branch holds where the condition does not: an access that needs
// the condition is refuted there.
#reg = #tirx.layout<S[(2, 32, 4) : (1@warpid, 1@laneid, 1)]>
!A = !tirx.tensor<4096x2x32x4xf32, global, align = 16>
!T = !tirx.tensor<1x2x32x4xf32, global, #tirx.layout<S[(1, 2, 32, 4) : (256, 128, 4, 1)]>, align = 16>
!V = !tirx.tensor<2x32x4xf32, global, #tirx.layout<S[(1, 2, 32, 4) : (256, 128, 4, 1)]>, align = 16>
!R = !tirx.tensor<2x32x4xf32, local, #reg>
tirx.kernel @else_branch(%A: !A) launch(grid = [8192], block = [64]) {
  %bx = tirx.block_idx x
  %c4096 = arith.constant 4096 : index
  %r = tirx.alloc_local : !R
  %inside = arith.cmpi slt, %bx, %c4096 : index
  scf.if %inside {
  } else {
    // expected-note @+1 {{the region is here}}
    %t = tirx.region %A[%bx, 0, 0, 0] [1, 2, 32, 4] : !A
    %v = tirx.view %t : !T -> !V
    // expected-error @+1 {{operand #1 (addr) of 'ld.global.v4.b32' may read index 8191 of dimension 0 of kernel argument #0 (extent 4096): with block_idx.x = 8191}}
    tile.apply "ld.global.v4.b32" scope(cta) (%r, %v) : !R, !V
  }
  tirx.return
}

// -----

// The else branch of a conjunction is a disjunction: each of its cases is
// proven on its own, and bx >= 0 alone lets bx = 8191 through.
#reg = #tirx.layout<S[(2, 32, 4) : (1@warpid, 1@laneid, 1)]>
!A = !tirx.tensor<4096x2x32x4xf32, global, align = 16>
!T = !tirx.tensor<1x2x32x4xf32, global, #tirx.layout<S[(1, 2, 32, 4) : (256, 128, 4, 1)]>, align = 16>
!V = !tirx.tensor<2x32x4xf32, global, #tirx.layout<S[(1, 2, 32, 4) : (256, 128, 4, 1)]>, align = 16>
!R = !tirx.tensor<2x32x4xf32, local, #reg>
tirx.kernel @else_of_conjunction(%A: !A) launch(grid = [8192], block = [64]) {
  %bx = tirx.block_idx x
  %c0 = arith.constant 0 : index
  %c4096 = arith.constant 4096 : index
  %r = tirx.alloc_local : !R
  %low = arith.cmpi slt, %bx, %c0 : index
  %high = arith.cmpi sge, %bx, %c4096 : index
  // expected-note @+1 {{the guard's disjunctions split it into 2 cases, each a conjunction of comparisons proven on its own: the witness is in case 1}}
  %outside = arith.andi %low, %high : i1
  scf.if %outside {
  } else {
    // expected-note @+1 {{the region is here}}
    %t = tirx.region %A[%bx, 0, 0, 0] [1, 2, 32, 4] : !A
    %v = tirx.view %t : !T -> !V
    // expected-error @+1 {{operand #1 (addr) of 'ld.global.v4.b32' may read index 8191 of dimension 0 of kernel argument #0 (extent 4096): with block_idx.x = 8191}}
    tile.apply "ld.global.v4.b32" scope(cta) (%r, %v) : !R, !V
  }
  tirx.return
}

// -----

// A multi-stage copy's prefetch past the last tile: cp.async reads tile
// i + 3 of 16 for i up to 15 (the GEMM guards it: bounds.mlir).
!A = !tirx.tensor<16x32x4xf32, global, align = 16>
!tile = !tirx.tensor<1x32x4xf32, global, #tirx.layout<S[(1, 32, 4) : (128, 4, 1)]>, align = 16>
!chunks = !tirx.tensor<32x4xf32, global, #tirx.layout<S[(1, 32, 4) : (128, 4, 1)]>, align = 16>
!S = !tirx.tensor<32x4xf32, shared, align = 16>
tirx.kernel @prefetch_past_end(%A: !A) launch(grid = [1], block = [32]) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c16 = arith.constant 16 : index
  %s = tirx.alloc_shared : !S
  scf.for %i = %c0 to %c16 step %c1 {
    %next = arith.addi %i, %c3 : index
    // expected-note @+1 {{the region is here}}
    %t = tirx.region %A[%next, 0, 0] [1, 32, 4] : !A
    %v = tirx.view %t : !tile -> !chunks
    // expected-error @+1 {{operand #1 (src) of 'cp.async.cg.shared.global' may read index 18 of dimension 0 of kernel argument #0 (extent 16): with loop #0's index = 15}}
    tile.apply "cp.async.cg.shared.global" scope(warp) (%s, %v, 16 : i32) : !S, !chunks
  }
  tirx.return
}

// -----

// ldmatrix rows one tile past a shared buffer of two 8 x 4-word matrices.
!S = !tirx.tensor<3x8x4xui32, shared, align = 16>
!M = !tirx.tensor<1x8x4xui32, shared, #tirx.layout<S[(1, 8, 4) : (32, 4, 1)]>, align = 16>
#ldm1 = #tirx.layout<S[(1, 8, 4) : (1, 4@laneid, 1@laneid)]>
tirx.kernel @ldmatrix_past_end() launch(grid = [1], block = [32]) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %s = tirx.alloc_shared : !S
  %r = tirx.alloc_local : !tirx.tensor<1x8x4xui32, local, #ldm1>
  scf.for %i = %c0 to %c3 step %c1 {
    %next = arith.addi %i, %c1 : index
    // expected-note @+1 {{the region is here}}
    %m = tirx.region %s[%next, 0, 0] [1, 8, 4] : !S
    // expected-error @+1 {{operand #1 (addr) of 'ldmatrix.sync.aligned.m8n8.x1.shared.b16' may read index 3 of dimension 0 of the 'tirx.alloc_shared' result (extent 3): with loop #0's index = 2}}
    tile.apply "ldmatrix.sync.aligned.m8n8.x1.shared.b16" scope(warp) (%r, %m)
        : !tirx.tensor<1x8x4xui32, local, #ldm1>, !M
  }
  tirx.return
}

// -----

// An mbarrier one past the last: thread t arrives (with count 2, the sink)
// on barrier t + 1 of 32. The operand named is the barrier, not arrive's
// `state` of the line with as many operands.
tirx.kernel @mbarrier_past_end() launch(grid = [1], block = [32]) {
  %tx = tirx.thread_idx x
  %c1 = arith.constant 1 : index
  %next = arith.addi %tx, %c1 : index
  %bars = tirx.alloc_shared : !tirx.tensor<32x1xui64, shared, align = 8>
  // expected-note @+1 {{the region is here}}
  %bar = tirx.region %bars[%next, 0] [1, 1] : !tirx.tensor<32x1xui64, shared, align = 8>
  // expected-error @+1 {{operand #0 (addr) of 'mbarrier.arrive.shared::cta.b64' may write index 32 of dimension 0 of the 'tirx.alloc_shared' result (extent 32): with thread_idx.x = 31}}
  tile.apply "mbarrier.arrive.shared::cta.b64" scope(thread) (%bar, 2 : i32)
      : !tirx.tensor<1x1xui64, shared, #tirx.layout<S[(1, 1) : (1, 1)]>, align = 8>
  tirx.return
}
