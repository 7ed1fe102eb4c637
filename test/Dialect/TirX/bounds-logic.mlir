// Guards combined as the Python DSL combines conditions (`&`, `|`, `~`,
// docs/bounds.md): negation as arith.xori with true, De Morgan through a
// negated arith.ori, and disjunctions proven case by case.
// RUN: tirx-opt %s -split-input-file | FileCheck %s

!A = !tirx.tensor<64x16xf32, global>
!E = !tirx.tensor<1x1xf32, global, #tirx.layout<S[(1, 1) : (16, 1)]>>
!V = !tirx.tensor<1xf32, global, #tirx.layout<S[1 : 1]>>
!R = !tirx.tensor<1xf32, local>

// `~(r >= 64) & ~(r < 0)` and `true ^ (c >= 16)`, `~(c < 0)`: negations of
// comparisons, on either side of the xori.
// CHECK-LABEL: tirx.kernel @negated_comparisons
tirx.kernel @negated_comparisons(%A: !A, %r: index, %c: index)
    launch(grid = [1], block = [1]) {
  %true = arith.constant true
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %r_past = arith.cmpi sge, %r, %c64 : index
  %r_below = arith.cmpi slt, %r, %c0 : index
  %c_past = arith.cmpi sge, %c, %c16 : index
  %c_below = arith.cmpi slt, %c, %c0 : index
  %r_fits = arith.xori %r_past, %true : i1
  %r_nonneg = arith.xori %r_below, %true : i1
  %c_fits = arith.xori %true, %c_past : i1
  %c_nonneg = arith.xori %c_below, %true : i1
  %rows = arith.andi %r_fits, %r_nonneg : i1
  %cols = arith.andi %c_fits, %c_nonneg : i1
  %in = arith.andi %rows, %cols : i1
  %regs = tirx.alloc_local : !R
  %e = tirx.region %A[%r, %c] [1, 1] : !A
  %v = tirx.view %e : !E -> !V
  tile.apply "ld.global.b32" scope(thread) (%regs, %v) pred(%in) : !R, !V
  tirx.return
}

// -----

!A = !tirx.tensor<64x16xf32, global>
!E = !tirx.tensor<1x1xf32, global, #tirx.layout<S[(1, 1) : (16, 1)]>>
!V = !tirx.tensor<1xf32, global, #tirx.layout<S[1 : 1]>>
!R = !tirx.tensor<1xf32, local>

// The else branch of "outside" (a disjunction) is a conjunction, and so is
// `~(a | b)` as a predicate.
// CHECK-LABEL: tirx.kernel @negated_disjunction
tirx.kernel @negated_disjunction(%A: !A, %r: index, %c: index)
    launch(grid = [1], block = [1]) {
  %true = arith.constant true
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %r_below = arith.cmpi slt, %r, %c0 : index
  %r_past = arith.cmpi sge, %r, %c64 : index
  %c_below = arith.cmpi slt, %c, %c0 : index
  %c_past = arith.cmpi sge, %c, %c16 : index
  %r_out = arith.ori %r_below, %r_past : i1
  %c_out = arith.ori %c_below, %c_past : i1
  %outside = arith.ori %r_out, %c_out : i1
  %inside = arith.xori %c_out, %true : i1
  %regs = tirx.alloc_local : !R
  scf.if %outside {
  } else {
    %e = tirx.region %A[%r, %c] [1, 1] : !A
    %v = tirx.view %e : !E -> !V
    tile.apply "ld.global.b32" scope(thread) (%regs, %v) : !R, !V
  }
  scf.if %r_out {
  } else {
    %e = tirx.region %A[%r, %c] [1, 1] : !A
    %v = tirx.view %e : !E -> !V
    tile.apply "ld.global.b32" scope(thread) (%regs, %v) pred(%inside) : !R, !V
  }
  tirx.return
}

// -----

!A = !tirx.tensor<64x16xf32, global>
!E = !tirx.tensor<1x1xf32, global, #tirx.layout<S[(1, 1) : (16, 1)]>>
!V = !tirx.tensor<1xf32, global, #tirx.layout<S[1 : 1]>>
!R = !tirx.tensor<1xf32, local>

// A disjunction whose every case is in bounds: rows [0, 32) or [32, 64),
// columns [0, 16).
// CHECK-LABEL: tirx.kernel @disjunction_of_ranges
tirx.kernel @disjunction_of_ranges(%A: !A, %r: index, %c: index)
    launch(grid = [1], block = [1]) {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %low0 = arith.cmpi sge, %r, %c0 : index
  %low1 = arith.cmpi slt, %r, %c32 : index
  %high0 = arith.cmpi sge, %r, %c32 : index
  %high1 = arith.cmpi slt, %r, %c64 : index
  %low = arith.andi %low0, %low1 : i1
  %high = arith.andi %high0, %high1 : i1
  %rows = arith.ori %low, %high : i1
  %col0 = arith.cmpi sge, %c, %c0 : index
  %col1 = arith.cmpi slt, %c, %c16 : index
  %cols = arith.andi %col0, %col1 : i1
  %in = arith.andi %rows, %cols : i1
  %regs = tirx.alloc_local : !R
  %e = tirx.region %A[%r, %c] [1, 1] : !A
  %v = tirx.view %e : !E -> !V
  tile.apply "ld.global.b32" scope(thread) (%regs, %v) pred(%in) : !R, !V
  tirx.return
}
