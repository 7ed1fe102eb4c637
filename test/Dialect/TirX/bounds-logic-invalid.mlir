// Combined guards the bounds proof refutes, with a witness that satisfies the
// guard, and the parts of guards it cannot use (docs/bounds.md).
// RUN: tirx-opt %s -split-input-file -verify-diagnostics --tirx-verify-kernels

!A = !tirx.tensor<64x16xf32, global>
!E = !tirx.tensor<1x1xf32, global, #tirx.layout<S[(1, 1) : (16, 1)]>>
!V = !tirx.tensor<1xf32, global, #tirx.layout<S[1 : 1]>>
!R = !tirx.tensor<1xf32, local>

// `(r < 64) | (c < 16)` (with both non-negative): a row in range lets any
// column through.
tirx.kernel @row_or_column(%A: !A, %r: index, %c: index)
    launch(grid = [1], block = [1]) {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %r_nonneg = arith.cmpi sge, %r, %c0 : index
  %c_nonneg = arith.cmpi sge, %c, %c0 : index
  %r_fits = arith.cmpi slt, %r, %c64 : index
  %c_fits = arith.cmpi slt, %c, %c16 : index
  // expected-note @+1 {{the guard's disjunctions split it into 2 cases, each a conjunction of comparisons proven on its own: the witness is in case 1}}
  %either = arith.ori %r_fits, %c_fits : i1
  %nonneg = arith.andi %r_nonneg, %c_nonneg : i1
  %in = arith.andi %nonneg, %either : i1
  %regs = tirx.alloc_local : !R
  // expected-note @+1 {{the region is here}}
  %e = tirx.region %A[%r, %c] [1, 1] : !A
  %v = tirx.view %e : !E -> !V
  // expected-error @+1 {{'tile.apply' op operand #1 (addr) of 'ld.global.b32' may read index 16 of dimension 1 of kernel argument #0 (extent 16): with argument #1 = 63, argument #2 = 16}}
  tile.apply "ld.global.b32" scope(thread) (%regs, %v) pred(%in) : !R, !V
  tirx.return
}

// -----

!A = !tirx.tensor<64x16xf32, global>
!E = !tirx.tensor<1x1xf32, global, #tirx.layout<S[(1, 1) : (16, 1)]>>
!V = !tirx.tensor<1xf32, global, #tirx.layout<S[1 : 1]>>
!R = !tirx.tensor<1xf32, local>

// Rows [0, 32) or [32, 65): the second case reaches row 64.
tirx.kernel @one_case_past(%A: !A, %r: index) launch(grid = [1], block = [1]) {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %c65 = arith.constant 65 : index
  %low0 = arith.cmpi sge, %r, %c0 : index
  %low1 = arith.cmpi slt, %r, %c32 : index
  %high0 = arith.cmpi sge, %r, %c32 : index
  %high1 = arith.cmpi slt, %r, %c65 : index
  %low = arith.andi %low0, %low1 : i1
  %high = arith.andi %high0, %high1 : i1
  // expected-note @+1 {{the guard's disjunctions split it into 2 cases, each a conjunction of comparisons proven on its own: the witness is in case 2}}
  %rows = arith.ori %low, %high : i1
  %regs = tirx.alloc_local : !R
  // expected-note @+1 {{the region is here}}
  %e = tirx.region %A[%r, 0] [1, 1] : !A
  %v = tirx.view %e : !E -> !V
  // expected-error @+1 {{'tile.apply' op operand #1 (addr) of 'ld.global.b32' may read index 64 of dimension 0 of kernel argument #0 (extent 64): with argument #1 = 64}}
  tile.apply "ld.global.b32" scope(thread) (%regs, %v) pred(%rows) : !R, !V
  tirx.return
}

// -----

!A = !tirx.tensor<64x16xf32, global>
!E = !tirx.tensor<1x1xf32, global, #tirx.layout<S[(1, 1) : (16, 1)]>>
!V = !tirx.tensor<1xf32, global, #tirx.layout<S[1 : 1]>>
!R = !tirx.tensor<1xf32, local>

// Five disjunctions of two make 32 cases, more than the proof splits into:
// they are left out, and the row is unbounded.
tirx.kernel @too_many_cases(%A: !A, %r: index) launch(grid = [1], block = [1]) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %nonneg = arith.cmpi sge, %r, %c0 : index
  %a0 = arith.cmpi slt, %r, %c1 : index
  %b0 = arith.cmpi eq, %r, %c1 : index
  %a1 = arith.cmpi slt, %r, %c2 : index
  %b1 = arith.cmpi eq, %r, %c2 : index
  %a2 = arith.cmpi slt, %r, %c3 : index
  %b2 = arith.cmpi eq, %r, %c3 : index
  %a3 = arith.cmpi slt, %r, %c4 : index
  %b3 = arith.cmpi eq, %r, %c4 : index
  %a4 = arith.cmpi slt, %r, %c5 : index
  %b4 = arith.cmpi eq, %r, %c5 : index
  // expected-note @+1 {{this disjunction (arith.ori, or a negated arith.andi) of the guard was not used: splitting the guard at its disjunctions would make more than 16 cases}}
  %d0 = arith.ori %a0, %b0 : i1
  // expected-note @+1 {{this disjunction (arith.ori, or a negated arith.andi) of the guard was not used: splitting the guard at its disjunctions would make more than 16 cases}}
  %d1 = arith.ori %a1, %b1 : i1
  // expected-note @+1 {{this disjunction (arith.ori, or a negated arith.andi) of the guard was not used: splitting the guard at its disjunctions would make more than 16 cases}}
  %d2 = arith.ori %a2, %b2 : i1
  // expected-note @+1 {{this disjunction (arith.ori, or a negated arith.andi) of the guard was not used: splitting the guard at its disjunctions would make more than 16 cases}}
  %d3 = arith.ori %a3, %b3 : i1
  // expected-note @+1 {{this disjunction (arith.ori, or a negated arith.andi) of the guard was not used: splitting the guard at its disjunctions would make more than 16 cases}}
  %d4 = arith.ori %a4, %b4 : i1
  %g0 = arith.andi %nonneg, %d0 : i1
  %g1 = arith.andi %g0, %d1 : i1
  %g2 = arith.andi %g1, %d2 : i1
  %g3 = arith.andi %g2, %d3 : i1
  %g4 = arith.andi %g3, %d4 : i1
  %regs = tirx.alloc_local : !R
  // expected-note @+1 {{the region is here}}
  %e = tirx.region %A[%r, 0] [1, 1] : !A
  %v = tirx.view %e : !E -> !V
  // expected-error @+1 {{'tile.apply' op operand #1 (addr) of 'ld.global.b32': cannot prove the access in bounds: without the parts of its guard the proof cannot use, it may read index 64 of dimension 0 of kernel argument #0 (extent 64): with argument #1 = 64}}
  tile.apply "ld.global.b32" scope(thread) (%regs, %v) pred(%g4) : !R, !V
  tirx.return
}

// -----

!A = !tirx.tensor<64x16xf32, global>
!E = !tirx.tensor<1x1xf32, global, #tirx.layout<S[(1, 1) : (16, 1)]>>
!V = !tirx.tensor<1xf32, global, #tirx.layout<S[1 : 1]>>
!R = !tirx.tensor<1xf32, local>

// An exclusive or of two comparisons is not a negation: left out.
tirx.kernel @xor_of_comparisons(%A: !A, %r: index) launch(grid = [1], block = [1]) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %nonneg = arith.cmpi sge, %r, %c0 : index
  %fits = arith.cmpi slt, %r, %c64 : index
  // expected-note @+1 {{this part of the guard was not used: the proof uses affine comparisons (arith.cmpi other than ne), combined by arith.andi, arith.ori and negation (arith.xori with true)}}
  %one = arith.xori %nonneg, %fits : i1
  %regs = tirx.alloc_local : !R
  // expected-note @+1 {{the region is here}}
  %e = tirx.region %A[%r, 0] [1, 1] : !A
  %v = tirx.view %e : !E -> !V
  // expected-error @+1 {{'tile.apply' op operand #1 (addr) of 'ld.global.b32' may read index -2 of dimension 0 of kernel argument #0 (extent 64): with argument #1 = -2}}
  tile.apply "ld.global.b32" scope(thread) (%regs, %v) pred(%one) : !R, !V
  tirx.return
}

// -----

// An alignment claim is proven under conjunctions only: a disjunction around
// it is left out.
!N = !tirx.tensor<?xf32, global, sizes = [n], align = 16>
tirx.kernel @align_under_disjunction(%n: index {tirx.size = "n"}, %A: !N) launch(grid = [1], block = [32]) {
  %tx = tirx.thread_idx x
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %off = arith.muli %tx, %c2 : index
  %first = arith.cmpi eq, %tx, %c0 : index
  %third = arith.cmpi eq, %tx, %c2 : index
  // expected-note @+1 {{this disjunction (arith.ori, or a negated arith.andi) of the guard was not used: an alignment claim is proven under a conjunction of comparisons only}}
  %even = arith.ori %first, %third : i1
  scf.if %even {
    // expected-error @+1 {{'tirx.region' op cannot prove align 16: without the parts of its guard the proof cannot use: the base may move by 248 bytes, not a multiple of 16: with thread_idx.x = 31}}
    %t = tirx.region %A[%off] [2] align 16 : !N
  }
  tirx.return
}
